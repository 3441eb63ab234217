/**
 * The table of AWS's rules for the FSx backends, and the EC2 backends' of the same kind, in docs/sources/fsx-rules.md.
 * Every row has AWS's words and a source from the page list. An applied row names the code that applies it and the
 * tests that would fail without it, and each of those files carries the row's id. An open row names no file. Every rule
 * id the code or the tests carry is a row, so a rule cited in code cannot go missing from the table.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const TABLE = path.join(ROOT, 'docs', 'sources', 'fsx-rules.md');
// Not a word of a longer upper-case name, as the client's `NO-LUSTRE-CLIENT` marker, nor a source's tag, as `[EBS-UG]`.
const ID = /(?<![A-Z0-9[-])(?:OPENZFS|LUSTRE|EBS|VPC|EFS|FSX)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g;

interface Row { id: string; status: string; rule: string; words: string; source: string; applied: string[]; tests: string[] }

/** The table's rows: cells split on `|` not escaped inside backticks' text; the table escapes none. */
function rows(): Row[] {
  const files = (cell: string) => cell.split(',').map((f) => f.trim()).filter(Boolean);
  return fs.readFileSync(TABLE, 'utf8').split('\n')
    .filter((l) => /^\| (OPENZFS|LUSTRE|EBS|VPC|EFS|FSX)-/.test(l))
    .map((l) => {
      const cells = l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      expect(cells).toHaveLength(7);
      const [id, status, rule, words, source, applied, tests] = cells;
      return { id, status, rule, words, source, applied: files(applied), tests: files(tests) };
    });
}

/**
 * Every .ts file under lib/, lambda/ and test/ that git tracks or would add, this file aside, read once. What
 * .gitignore leaves out is not source, such as the VM image's root file system, which `.ci/run` builds beside this
 * test.
 */
function sources(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'lib', 'lambda', 'test'], { cwd: ROOT, encoding: 'utf8' });
  const found = new Map<string, string>();
  for (const rel of listed.split('\0')) {
    if (rel.endsWith('.ts') && rel !== 'test/unit/fsx-rules.test.ts' && fs.existsSync(path.join(ROOT, rel))) found.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
  }
  return found;
}

const ROWS = rows();
/** The page list's tags, as `- [PERF] ...`. */
const PAGES = new Set([...fs.readFileSync(TABLE, 'utf8').matchAll(/^- \[([A-Z0-9-]+)\] /gm)].map((m) => m[1]));
const SOURCES = sources();

test('the table has the rows of the issue\'s defects, each id once', () => {
  const ids = ROWS.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(expect.arrayContaining([
    'OPENZFS-HA1-TIERS', 'OPENZFS-GROWTH-MIN', 'OPENZFS-ONE-UPDATE', 'OPENZFS-ROUTE-TAG', 'LUSTRE-EGRESS',
    'OPENZFS-REGION-TIERS', 'OPENZFS-QUOTAS', 'OPENZFS-MULTI-AZ-PEERING', 'OPENZFS-ENDPOINT-CIDR', 'OPENZFS-EXPORT-LIVE',
    'LUSTRE-COMPRESSION', 'LUSTRE-VERSION', 'LUSTRE-METADATA', 'EBS-ST1-SIZE', 'EBS-GP3-LIMITS', 'EBS-TYPE-CHANGE', 'VPC-SG-RULES',
  ]));
});

test.each(ROWS.map((r) => [r.id, r] as const))('%s: a rule, AWS\'s words in quotes, and a source', (_id, row) => {
  expect(['applied', 'open']).toContain(row.status);
  expect(row.rule.length).toBeGreaterThan(10);
  expect(row.words).toMatch(/"[^"]{10,}"/);
  // A page named by the table's page list, such as [PERF], or its own docs.aws.amazon.com path.
  expect(row.source).toMatch(/\[[A-Z0-9-]+\]|`(fsx|AWSCloudFormation|sdk-for-kotlin|aws-managed-policy)\/latest\//);
  for (const [, tag] of row.source.matchAll(/\[([A-Z0-9-]+)\]/g)) expect([tag, PAGES.has(tag)]).toEqual([tag, true]);
});

test.each(ROWS.map((r) => [r.id, r] as const))('%s: an applied row\'s code and tests carry its id; an open row names no file', (id, row) => {
  if (row.status === 'open') {
    expect([...row.applied, ...row.tests]).toEqual([]);
    expect(row.rule).toMatch(/Missing: /);
    return;
  }
  expect(row.applied.length).toBeGreaterThan(0);
  expect(row.tests.length).toBeGreaterThan(0);
  for (const file of [...row.applied, ...row.tests]) {
    expect([file, SOURCES.has(file)]).toEqual([file, true]);
    expect([file, [...SOURCES.get(file)!.matchAll(ID)].some((m) => m[0] === id)]).toEqual([file, true]);
  }
  for (const file of row.tests) expect(file).toMatch(/^test\//);
  for (const file of row.applied) expect(file).toMatch(/^(lib|lambda)\//);
});

test('every rule id in the code and the tests is a row of the table', () => {
  const ids = new Set(ROWS.map((r) => r.id));
  const cited = [...SOURCES].flatMap(([file, text]) => [...text.matchAll(ID)].map((m) => `${file}: ${m[0]}`));
  expect(cited.length).toBeGreaterThan(20);
  expect(cited.filter((c) => !ids.has(c.split(': ')[1]))).toEqual([]);
});
