/**
 * test/support/shell-cut.ts, the cut the script tests eval: a function comes with every function it calls, so that a
 * test cutting it never runs with a callee missing, and a name the script lacks throws.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cutShell, cutShellFile } from '../support/shell-cut';

const SCRIPT = `#!/bin/bash
LIMIT=3
NAMES=(
  zero
)
NAMES+=(
  one
  two
)
log() { echo "log: $*"; }
die() {
  log "ERROR: $*"
  exit 1
}
half() { echo $(($1 / 2)); }
check() {
  local n
  n=$(half "$1")
  ((n <= LIMIT)) || die "too big: $1"
  log "ok $n"
}
unused() {
  rm -rf /
}
check 2
`;

function scriptFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shell-cut-test-')), 'script.sh');
  fs.writeFileSync(file, SCRIPT);
  return file;
}

describe('cutShell', () => {
  test('a function comes with its callees, however deep, in the script\'s order; nothing else comes', () => {
    const cut = cutShell(scriptFile(), ['check']);
    expect(cut.split('\n').filter((l) => /^\w+\(\)/.test(l)).map((l) => l.split('(')[0])).toEqual(['log', 'die', 'half', 'check']);
    expect(cut).not.toContain('unused');
    expect(cut).not.toContain('LIMIT=3');
    expect(cut).not.toContain('check 2\n');
  });

  test('assignments come by name, with their += lines, a multi-line array whole, and the cut runs in bash', () => {
    const file = cutShellFile(scriptFile(), ['LIMIT', 'NAMES', 'check']);
    const run = (n: number) => spawnSync('bash', ['-c', `set -u; . '${file}'; echo "\${#NAMES[@]}"; check ${n}`], { encoding: 'utf8' });
    expect(run(4)).toMatchObject({ status: 0, stdout: '3\nlog: ok 2\n' });
    expect(run(8)).toMatchObject({ status: 1, stdout: '3\nlog: ERROR: too big: 8\n' });
  });

  test('a name the script does not define throws, naming it', () => {
    const file = scriptFile();
    expect(() => cutShell(file, ['check', 'missing_fn'])).toThrow(`shell-cut: ${file} defines no missing_fn`);
  });
});
