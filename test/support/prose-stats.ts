/**
 * `npm run prose:stats [-- dirs...] [--list]` prints how the code's comments read, to set beside the habit of the
 * codebases this project takes as models: short sentences, few parentheses, no history. It reads the `//` and `/* *\/`
 * comments of .ts and .js files and the `#` comments of .sh and .py files. The default directories are lib/, lambda/,
 * bin/ and test/. For the whole and for each folder it prints comment words, sentences, words a sentence, parentheses
 * per 100 words and history markers. `--list` adds a line for each file and names each marker. It asserts nothing, like
 * the benchmarks.
 *
 * How it counts:
 * - A block is one `/* *\/` comment or a run of line comments on consecutive lines. Directives are not prose: shebangs,
 *   `shellcheck`, `eslint-`, `@ts-`, `prettier-ignore`, `noqa`, `type: ignore`, `/// <reference`.
 * - A word is a whitespace-separated token holding a letter or a digit. A code span in backticks is one word.
 * - A sentence ends at `.`, `?` or `!` before a space, at a blank line and at the end of a block. A TSDoc tag or a list
 *   item opening a line starts a new one. Abbreviations such as `e.g.` end none.
 * - A parenthesis is a `(` that opens an aside: after a space, a line start or punctuation, outside code spans. A call
 *   such as `f(x)` is code. The "bare" column leaves out citations, which the project's convention keeps: an aside
 *   naming docs/design.md, an AWS document or a page on another host.
 * - A history marker is a match of HISTORY: what a comment says of the past belongs in CHANGELOG.md.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

/**
 * What a comment says of the code's past: an issue or pull request number, `as it always was`, `has always`, `used
 * to`, `no longer`, `previously`, `formerly`, `the old code`, `before this change`, `since v1`, a round of work, and
 * `now` opening a sentence, where it sets the code against a before. A passive or a description is no marker: `is used
 * to build`, `Used to name`. Markers are matched outside code spans, so that a comment may quote one.
 */
export const HISTORY = new RegExp(
  [
    String.raw`\bissues? \d+`,
    String.raw`(?<![\w/&])#\d+\b`,
    String.raw`\bas (?:it|they) always\b`,
    String.raw`\b(?:has|have) always\b`,
    String.raw`(?<!(?:^|[.!?:]\s+|\b(?:is|are|be|been|being|was|were|gets?|got|and|or|also|only)\s+))\bused to\b`,
    String.raw`\bno longer\b`,
    String.raw`\bpreviously\b`,
    String.raw`\bformerly\b`,
    String.raw`\bthe old (?:code|way|behaviou?r|approach|version)\b`,
    String.raw`\bbefore this (?:change|commit|round|issue)\b`,
    String.raw`\bsince v\d`,
    String.raw`\b(?:this|last|previous|earlier) round\b`,
    String.raw`(?:^|[.!?]\s+)now\b`,
  ].join('|'),
  'gi',
);

const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|fig|ca)\.$/i;
const DIRECTIVE = /^\s*(?:shellcheck\s|eslint-|@ts-|prettier-ignore|noqa|type:\s*ignore|ruff:|pragma|istanbul\s|jest-)/i;
/** A source an aside may name: a section of docs/design.md, AWS's documents, or a page on another host. */
const CITATION = /docs\/design\.md|AWS's|AWS documentation|(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|cn)\//i;

/** The figures of some comment text. */
export interface ProseCount {
  readonly words: number;
  readonly sentences: number;
  readonly parentheses: number;
  readonly citations: number;
  readonly history: string[];
}

const ZERO: ProseCount = { words: 0, sentences: 0, parentheses: 0, citations: 0, history: [] };

/** Adds two counts. */
export function addCounts(a: ProseCount, b: ProseCount): ProseCount {
  return {
    words: a.words + b.words,
    sentences: a.sentences + b.sentences,
    parentheses: a.parentheses + b.parentheses,
    citations: a.citations + b.citations,
    history: [...a.history, ...b.history],
  };
}

/** The sentences of comment text: ends at `.`, `?` or `!`, a blank line, a tag or a list item. */
export function sentencesOf(plain: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const end = (): void => {
    if (current.some((w) => /[\p{L}\p{N}]/u.test(w))) out.push(current.join(' '));
    current = [];
  };
  for (const line of plain.split('\n')) {
    if (line.trim() === '' || /^\s*(?:@\w+|[-*]\s|\d+\.\s)/.test(line)) end();
    for (const token of line.trim().split(/\s+/).filter((t) => t !== '')) {
      current.push(token);
      const listNumber = current.length === 1 && /^\d+\.$/.test(token);
      if (/[.?!]["')\]]*$/.test(token) && !ABBREVIATIONS.test(token) && !listNumber) end();
    }
  }
  end();
  return out;
}

/** Counts one comment block's text, its comment markers already stripped. */
export function countBlock(block: string): ProseCount {
  // A code span is one word, with no sentence end or parenthesis inside.
  const plain = block.replace(/`[^`\n]*`/g, 'CODE');
  const words = plain.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const asides = [...plain.matchAll(/(?:^|[\s,;:—"'[])\(/gm)].map((m) => m.index ?? 0);
  let citations = 0;
  for (const at of asides) {
    const close = plain.indexOf(')', at);
    if (CITATION.test(plain.slice(at, close < 0 ? undefined : close + 1))) citations += 1;
  }
  const history = [...plain.matchAll(HISTORY)].map((m) => m[0].replace(/^[.!?]\s+/, '').trim());
  return { words, sentences: sentencesOf(plain).length, parentheses: asides.length, citations, history };
}

function isDirective(text: string): boolean {
  return DIRECTIVE.test(text) || text.startsWith('/ <reference');
}

/** The comment blocks of TypeScript or JavaScript source, read by TypeScript's own scanner through its parse tree. */
export function scriptComments(source: string): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []) seen.set(r.pos, r);
    for (const r of ts.getTrailingCommentRanges(source, node.getEnd()) ?? []) seen.set(r.pos, r);
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  const ranges = [...seen.values()].sort((a, b) => a.pos - b.pos);
  const blocks: string[] = [];
  let run: string[] = [];
  let runEnd = -1;
  const flush = (): void => {
    if (run.length > 0) blocks.push(run.join('\n'));
    run = [];
  };
  for (const r of ranges) {
    const raw = source.slice(r.pos, r.end);
    if (r.kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      flush();
      const body = raw.replace(/^\/\*\*?/, '').replace(/\*\/$/, '');
      if (!isDirective(body.trim())) blocks.push(body.split('\n').map((l) => l.replace(/^\s*\*?\s?/, '')).join('\n'));
      continue;
    }
    const body = raw.replace(/^\/\/\s?/, '');
    const gap = source.slice(runEnd, r.pos);
    if (runEnd < 0 || !/^[ \t]*\r?\n[ \t]*$/.test(gap)) flush();
    runEnd = r.end;
    if (isDirective(body)) {
      flush();
      continue;
    }
    run.push(body);
  }
  flush();
  return blocks;
}

/** Where a `#` opens a comment on a shell or Python line: outside quotes, at the start of a word. */
function hashComment(line: string): string | undefined {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === '\\' && quote !== "'") i += 1;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i += 1;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(i + 1);
  }
  return undefined;
}

/** The comment blocks of a shell or Python file: runs of `#` comments on consecutive lines. */
export function hashComments(source: string): string[] {
  const blocks: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) blocks.push(run.join('\n'));
    run = [];
  };
  source.split('\n').forEach((line, n) => {
    const body = n === 0 && line.startsWith('#!') ? undefined : hashComment(line);
    if (body === undefined) return flush();
    const text = body.replace(/^\s?/, '');
    if (isDirective(text)) return flush();
    // A trailing comment is a block of its own.
    if (line.trimStart().startsWith('#')) run.push(text);
    else {
      flush();
      blocks.push(text);
    }
  });
  flush();
  return blocks;
}

/** The count of one file's comments, or undefined when the file is not one this reads. */
export function countFile(name: string, source: string): ProseCount | undefined {
  const blocks = /\.(?:ts|js|mjs|cjs)$/.test(name) ? scriptComments(source) : /\.(?:sh|py)$/.test(name) ? hashComments(source) : undefined;
  return blocks?.map(countBlock).reduce(addCounts, ZERO);
}

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  if (fs.statSync(dir).isFile()) return [dir];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !['node_modules', '.cache', '__snapshots__', 'cdk.out', '.venv'].includes(e.name) && !e.name.endsWith('.d.ts'))
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

/** One row of figures. */
export function row(label: string, c: ProseCount): string {
  const perSentence = c.sentences === 0 ? 0 : c.words / c.sentences;
  const per100 = c.words === 0 ? 0 : (100 * c.parentheses) / c.words;
  const bare = c.words === 0 ? 0 : (100 * (c.parentheses - c.citations)) / c.words;
  const cells = [c.words, c.sentences, perSentence.toFixed(1), per100.toFixed(2), bare.toFixed(2), c.history.length];
  return label.padEnd(30) + cells.map((cell) => String(cell).padStart(9)).join('');
}

const HEADER = ['', 'words', 'sentences', 'w/sent', '(/100w', 'bare', 'history'];

function main(argv: string[]): void {
  const list = argv.includes('--list');
  const dirs = argv.filter((a) => !a.startsWith('--'));
  const root = path.join(__dirname, '..', '..');
  const groups = new Map<string, ProseCount>();
  const perFile: [string, ProseCount][] = [];
  let total = ZERO;
  for (const dir of dirs.length > 0 ? dirs : ['lib', 'lambda', 'bin', 'test']) {
    for (const file of files(path.resolve(root, dir))) {
      const count = countFile(file, fs.readFileSync(file, 'utf8'));
      if (count === undefined) continue;
      const rel = path.relative(root, file).split(path.sep).join('/');
      const parts = rel.split('/');
      // Each top folder, then its subfolders and its own files, indented under it.
      const keys = [parts[0], parts.length > 2 ? `${parts[0]}/${parts[1]}/` : `${parts[0]}/*`];
      for (const key of keys) groups.set(key, addCounts(groups.get(key) ?? ZERO, count));
      total = addCounts(total, count);
      perFile.push([rel, count]);
    }
  }
  console.log(['folder'.padEnd(30), ...HEADER.slice(1).map((h) => h.padStart(9))].join(''));
  for (const [key, count] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(row(key.includes('/') ? `  ${key}` : key, count));
  }
  console.log(row('all', total));
  console.log('(/100w: parentheses opening an aside per 100 words; bare: the same less citations of sources)');
  if (!list) return;
  console.log();
  for (const [file, count] of perFile) {
    if (count.words === 0) continue;
    console.log(row(file.length > 29 ? '…' + file.slice(-28) : file, count));
    for (const marker of count.history) console.log(`    history: ${marker}`);
  }
}

if (require.main === module) main(process.argv.slice(2));
