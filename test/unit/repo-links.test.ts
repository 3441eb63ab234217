/**
 * No link outside the repository. Every relative link, and every cited `*.md` file, in the Markdown files and in the
 * sources' comments of lib, lambda, bin and test names a file of this repository. Every `#anchor` into a Markdown file
 * names one of its headings, by GitHub's slugs. The design the code cites is docs/design.md, in the repository. A
 * document outside it, such as a design file next to one person's checkout, is a broken citation for every other
 * reader. The checker itself is test/support/repo-links.ts, tried on fixtures first so that a pass means something.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { anchors, linkProblems, slug, type LinkProblem, type Repo } from '../support/repo-links';

const ROOT = path.join(__dirname, '..', '..');
const SOURCE_DIRS = ['lib/', 'lambda/', 'bin/', 'test/'];
const SOURCE_EXTENSIONS = /\.(ts|js|mjs|cjs|sh|py|md)$/;

/**
 * Citations that are wrong today and have an owner: each names the file and the target. The test fails when one no
 * longer occurs, so the list only shrinks (empty since README.md cites docs/design.md).
 */
const KNOWN_EXCEPTIONS: readonly { file: string; target: string }[] = [];

/** Tracked files, and new ones not ignored, that exist in the working tree. */
function checkout(): Repo {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  const files = listed.split('\0').filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)));
  return { files, read: (f) => fs.readFileSync(path.join(ROOT, f), 'utf8') };
}

function fixture(texts: Record<string, string>): Repo {
  return { files: Object.keys(texts), read: (f) => texts[f] };
}

const shown = (p: LinkProblem) => `${p.file}:${p.line}: ${p.target}: ${p.why}`;

describe('slugs: GitHub anchors of headings', () => {
  test.each([
    ['8. The update guard contract', '8-the-update-guard-contract'],
    ['10. Day 2: every change and its effect', '10-day-2-every-change-and-its-effect'],
    ['Context parameters (`-c key=value`)', 'context-parameters--c-keyvalue'],
    ['Is it fast enough? The cluster benchmark', 'is-it-fast-enough-the-cluster-benchmark'],
    ['Use [the API](docs/api) as a *library*', 'use-the-api-as-a-library'],
    ['storage_server: one', 'storage_server-one'],
  ])('%s -> #%s', (heading, expected) => {
    expect(slug(heading)).toBe(expected);
  });

  test('a repeated heading gets -1, and headings in code fences are not headings', () => {
    expect([...anchors('# A\n## A\n```sh\n# not a heading\n```\n### A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });
});

describe('the checker finds each kind of broken citation, and only those', () => {
  const repo = fixture({
    'README.md': '# Top\n## Usage\nSee [design](docs/design.md#2-flow) and [missing](docs/nope.md).\n' +
      'The old DESIGN.md, contract 3. Also ../../shared/docs/DESIGN.md and [up](../outside.md).\n' +
      '```sh\ncat NOT-CHECKED.md\n```\n[top](#usage) [bad](#nowhere) [site](https://example.com/x.md)\n',
    'docs/design.md': '# Design\n## 2. Flow\n',
    'lib/a.ts': '/** (docs/design.md#2-flow) (docs/design.md#3-gone) see /opt/elsewhere/DESIGN.md */\n' +
      '// (github.com/awsdocs/guide, doc_source/other.md at 1234) and https://github.com/o/r/blob/main/X.md\n',
    'lib/b.sh': "grep '[x](y)' list  # see NOT-HERE.md\nexit 0\n",
    'lib/c.ts': "const re = /[a](b)/;\nconst readme = 'GONE.md';\n",
    'test/e2e/README.md': 'Proves [it](../../docs/design.md#2-flow); the root README.md and `test/e2e/README.md`.\n',
  });
  const problems = linkProblems(repo, repo.files).map(shown);

  test('broken: a missing file, an anchor with no heading, a file outside the repository, an absolute path; code skipped', () => {
    expect(problems).toEqual([
      'README.md:3: docs/nope.md: no such file in the repository (looked for docs/nope.md)',
      'README.md:4: ../outside.md: leaves the repository',
      'README.md:4: DESIGN.md: no such file in the repository (looked for DESIGN.md)',
      'README.md:4: ../../shared/docs/DESIGN.md: leaves the repository',
      'README.md:8: #nowhere: README.md has no heading with the anchor #nowhere',
      'lib/a.ts:1: docs/design.md#3-gone: docs/design.md has no heading with the anchor #3-gone',
      'lib/a.ts:1: /opt/elsewhere/DESIGN.md: an absolute path: outside the repository',
      'lib/b.sh:1: NOT-HERE.md: no such file in the repository (looked for lib/NOT-HERE.md, NOT-HERE.md)',
    ]);
  });
});

describe('this repository', () => {
  const repo = checkout();
  const sources = repo.files.filter((f) => f.endsWith('.md') ||
    (SOURCE_DIRS.some((d) => f.startsWith(d)) && SOURCE_EXTENSIONS.test(f) && !f.includes('/__snapshots__/')));
  const all = linkProblems(repo, sources);
  const known = (p: LinkProblem) => KNOWN_EXCEPTIONS.some((e) => e.file === p.file && e.target === p.target);

  test('scans the Markdown files and the sources', () => {
    expect(sources).toEqual(expect.arrayContaining(['README.md', 'docs/design.md', 'lib/context.ts', 'test/e2e/README.md']));
  });

  test('every relative link and cited *.md file resolves inside the repository (anchors included)', () => {
    expect(all.filter((p) => !known(p)).map(shown)).toEqual([]);
  });

  test('every `npm run <script>` a Markdown file names is a script of package.json', () => {
    const scripts = Object.keys((JSON.parse(repo.read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = repo.files.filter((f) => f.endsWith('.md')).flatMap((f) =>
      [...repo.read(f).matchAll(/npm run (?:--silent )?([\w:][\w:-]*)/g)].map((m) => ({ file: f, script: m[1] })));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !scripts.includes(n.script))).toEqual([]);
  });

  test('every known exception still occurs: remove the ones that are fixed', () => {
    const stale = KNOWN_EXCEPTIONS.filter((e) => !all.some((p) => p.file === e.file && p.target === e.target));
    expect(stale).toEqual([]);
  });
});
