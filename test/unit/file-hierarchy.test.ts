/**
 * The directories no export or mount root may be come from the FHS 3.0 and file-hierarchy(7), one cited row each in
 * docs/sources/file-hierarchy.md. This reads that table, so a row added there without the lists, or the reverse, fails.
 */
import * as fs from 'fs';
import * as path from 'path';
import { NAMED_DIRECTORIES, SYSTEM_DIRECTORIES, directoryProblem, mountRootProblem } from '../../lib/validation';

const ROOT = path.join(__dirname, '..', '..');
const rows = fs.readFileSync(path.join(ROOT, 'docs', 'sources', 'file-hierarchy.md'), 'utf8')
  .split('\n')
  .map((line) => /^\| (\/[a-z0-9]*) \| ([^|]+) \| ([^|]+) \| (root|system|named|home) \|$/.exec(line))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ dir: m[1], fhs: m[2].trim(), systemd: m[3].trim(), rule: m[4] }));
const ruled = (rule: string) => rows.filter((r) => r.rule === rule).map((r) => r.dir).sort();
const scriptList = (name: string) => {
  const text = fs.readFileSync(path.join(ROOT, 'lib', 'scripts', 'client-mount.sh'), 'utf8');
  return new RegExp(`^readonly ${name}='([^']*)'$`, 'm').exec(text)?.[1].split(' ');
};

test('every row cites at least one authority, and each directory has one row', () => {
  expect(rows.length).toBeGreaterThan(20);
  expect(rows.filter((r) => r.fhs === '-' && r.systemd === '-')).toEqual([]);
  expect(new Set(rows.map((r) => r.dir)).size).toBe(rows.length);
});

test('SYSTEM_DIRECTORIES are the system rows plus /home (the opt-in), in the library and in client-mount.sh', () => {
  expect([...SYSTEM_DIRECTORIES].sort()).toEqual([...ruled('system'), ...ruled('home')].sort());
  expect(scriptList('SYSTEM_DIRECTORIES')).toEqual([...SYSTEM_DIRECTORIES]);
});

test('NAMED_DIRECTORIES are the named rows, in the library and in client-mount.sh', () => {
  expect([...NAMED_DIRECTORIES].sort()).toEqual(ruled('named'));
  expect(scriptList('NAMED_DIRECTORIES')).toEqual([...NAMED_DIRECTORIES]);
});

test.each(rows.map((r) => [r.dir, r.rule] as const))('%s (%s): refused as a mount root, and below it as the rule says', (dir, rule) => {
  expect(mountRootProblem(dir)).toBeDefined();
  const below = `${dir === '/' ? '' : dir}/site`;
  if (rule === 'named') {
    expect(mountRootProblem(below)).toBeUndefined();
    expect(mountRootProblem(dir)).toMatch(new RegExp(`^a directory the FHS names for other files \\(${dir}\\)`));
  } else if (rule === 'home') {
    expect(directoryProblem(below, { allowHome: true })).toBeUndefined();
    expect(mountRootProblem(below)).toMatch(/allowHomeMountPoint/);
  } else if (rule === 'system') {
    expect(mountRootProblem(below)).toMatch(new RegExp(`^under a system directory \\(${dir}\\)`));
  }
});
