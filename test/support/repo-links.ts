/**
 * The repository's links and file citations, for test/unit/repo-links.test.ts: markdown links `[text](target)` in
 * Markdown files and in source comments, and mentions of `*.md` files anywhere in them, such as "see docs/design.md" or
 * "test/e2e/README.md". A target must be a file or folder of this repository, reached without leaving it. An `#anchor`
 * into a Markdown file must be one of its headings, by GitHub's slug rules. These are pure functions over file texts,
 * so that the test can run them on fixtures as well as on the checkout.
 */
import * as path from 'path';

/** One problem: where it is, what was cited, why it does not resolve. */
export interface LinkProblem {
  /** Repository-relative file and 1-based line of the citation. */
  readonly file: string;
  readonly line: number;
  /** The target as written. */
  readonly target: string;
  readonly why: string;
}

/** The files of a checkout: repository-relative paths, `/`-separated, and their texts, read lazily. */
export interface Repo {
  readonly files: readonly string[];
  readonly read: (file: string) => string;
}

/** A citation found in a file. */
interface Citation {
  readonly line: number;
  readonly target: string;
  /**
   * A markdown link, resolved from the citing file's folder, or a bare mention, resolved from the root or the file's
   * folder.
   */
  readonly kind: 'link' | 'mention';
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** A markdown link or image: `[text](target "title")`; the target ends at whitespace or `)`. */
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
/**
 * A mention of a Markdown file: a path of `[\w.-]` segments, absolute or relative, ending in `.md`, maybe with
 * `#anchor`.
 */
const MENTION = /(?<![\w./-])((?:\/|(?:\.{1,2}\/)*)[\w-][\w.-]*(?:\/[\w.-]+)*\.md)(#[\w-]+)?(?![\w/-])/g;
/** A host in a citation of another repository or site: `github.com/...`, `docs.aws.amazon.com/...`. */
const HOST = /(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|cn)\//i;

/**
 * GitHub's anchor for a heading, by github-slugger: the rendered text lower-cased, every character that is not a
 * letter, digit, mark, `_`, `-` or space dropped, and each space made `-`. Markdown markup is rendered away first.
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`([^`]*)`/g, '$1') // code spans: their content
    .replace(/\*+/g, '') // emphasis
    .replace(/<[^>]+>/g, ''); // inline HTML
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings outside code fences; a repeated one is suffixed -1, -2 and so on. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const m = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text });
  });
  return out;
}

/**
 * The comment text of a source line: a whole-line comment by `//`, `/*`, `*` or `#`, or what follows a trailing `//`,
 * or `#` in shell and Python, that whitespace precedes. It is '' for code. Code is not prose: a regex or a test's
 * fixture is not a citation.
 */
export function commentText(file: string, line: string): string {
  const hash = /\.(sh|py)$/.test(file) || !/\.[a-z]+$/.test(path.posix.basename(file));
  if (/^\s*(\/\/|\/\*|\*)/.test(line) || (hash && /^\s*#/.test(line))) return line;
  const trailing = (hash ? /\s(#|\/\/)\s/ : /\s\/\/\s/).exec(line);
  return trailing ? line.slice(trailing.index) : '';
}

/**
 * The citations of one file. Markdown: links and mentions outside code fences; other files: the same in their
 * comments. A code span may hold a link's look-alike but still names a file (`test/e2e/README.md`), so links are
 * read outside code spans and mentions everywhere. A mention inside a parenthesis that names a host cites another
 * repository or site (`github.com/awsdocs/..., doc_source/ebs-optimized.md`) and is not ours to check.
 */
export function citations(file: string, text: string): Citation[] {
  const markdown = file.endsWith('.md');
  const lines = markdown
    ? proseLines(text)
    : text.split('\n').map((t, i) => ({ line: i + 1, text: commentText(file, t) })).filter((l) => l.text !== '');
  const found: Citation[] = [];
  for (const { line, text: t } of lines) {
    const linkText = t.replace(/`[^`]*`/g, (s) => ' '.repeat(s.length));
    const linked: [number, number][] = [];
    for (const m of linkText.matchAll(LINK)) {
      linked.push([m.index!, m.index! + m[0].length]);
      if (!SCHEME.test(m[1]) || /^file:/i.test(m[1])) found.push({ line, target: m[1], kind: 'link' });
    }
    for (const m of t.matchAll(MENTION)) {
      const at = m.index!;
      if (linked.some(([a, b]) => at >= a && at < b)) continue;
      const before = t.slice(0, at);
      if (/[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(before)) continue; // part of a URL
      const paren = before.lastIndexOf('(');
      if (paren >= 0 && !before.slice(paren).includes(')') && HOST.test(before.slice(paren))) continue;
      found.push({ line, target: m[1] + (m[2] ?? ''), kind: 'mention' });
    }
  }
  return found;
}

/**
 * Folders of source notes, as docs/sources holds the published figures behind the catalogue with their quotes. They
 * name files of other repositories by path beside the repository and commit each is in. So their bare `*.md` mentions
 * are not ours to resolve; their Markdown links are still checked.
 */
export const BIBLIOGRAPHIES: readonly string[] = ['docs/sources/'];

/** Every citation of `sources` that does not resolve inside `repo`, bare mentions in {@link BIBLIOGRAPHIES} aside. */
export function linkProblems(repo: Repo, sources: readonly string[]): LinkProblem[] {
  const files = new Set(repo.files);
  const isFolder = (p: string) => repo.files.some((f) => f.startsWith(`${p}/`));
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (f: string) => {
    if (!anchorCache.has(f)) anchorCache.set(f, anchors(repo.read(f)));
    return anchorCache.get(f)!;
  };
  const problems: LinkProblem[] = [];
  for (const file of sources) {
    const bibliography = BIBLIOGRAPHIES.some((dir) => file.startsWith(dir));
    for (const c of citations(file, repo.read(file))) {
      if (bibliography && c.kind === 'mention') continue;
      const problem = (why: string) => problems.push({ file, line: c.line, target: c.target, why });
      const [rawPath, anchor] = splitAnchor(c.target.replace(/^file:(\/\/)?/i, ''));
      if (rawPath.startsWith('/') || /^file:/i.test(c.target)) {
        problem('an absolute path: outside the repository');
        continue;
      }
      const dir = path.posix.dirname(file);
      const candidates = rawPath === '' ? [file]
        : c.kind === 'link' ? [path.posix.join(dir, rawPath)] : [...new Set([path.posix.join(dir, rawPath), path.posix.normalize(rawPath)])];
      const inside = candidates.filter((p) => p !== '..' && !p.startsWith('../'));
      if (inside.length === 0) {
        problem('leaves the repository');
        continue;
      }
      const target = inside.find((p) => files.has(p) || isFolder(p.replace(/\/$/, '')));
      if (target === undefined) {
        problem(`no such file in the repository (looked for ${inside.join(', ')})`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
        problem(`${target} has no heading with the anchor #${anchor}`);
      }
    }
  }
  return problems;
}

function splitAnchor(target: string): [string, string | undefined] {
  const i = target.indexOf('#');
  return i < 0 ? [target, undefined] : [target.slice(0, i), decodeURIComponent(target.slice(i + 1))];
}
