import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readWholeScript, wholeScript } from '../../lib/script-parts';

/**
 * lib/script-parts.ts: a script of lib/scripts made whole from the parts beside it, so that the document carries one
 * file that runs as the script runs from lib/scripts.
 */
const PARTS: Record<string, string> = {
  'fns.sh': '# What fns.sh is.\n# shellcheck shell=bash\n\ngreet() { printf "hello %s\\n" "$1"; }\n',
  'prog.py': '# What prog.py is.\n\nimport sys\nprint("py", sys.argv[1])\n',
};
const SCRIPT = [
  '#!/usr/bin/env bash',
  'set -euo pipefail',
  'PY=$(<"$(dirname -- "${BASH_SOURCE[0]}")/prog.py")',
  '. "$(dirname -- "${BASH_SOURCE[0]}")/fns.sh"',
  'greet "$(python3 -c "$PY" world)"',
  '',
].join('\n');
const read = (part: string): string => PARTS[part];

describe('wholeScript', () => {
  test('puts each part in place of the line that reads it, less its opening comment', () => {
    expect(wholeScript('s.sh', SCRIPT, read)).toBe(
      [
        '#!/usr/bin/env bash',
        'set -euo pipefail',
        "read -r -d '' PY <<'PYTHON' || true",
        'import sys',
        'print("py", sys.argv[1])',
        'PYTHON',
        'greet() { printf "hello %s\\n" "$1"; }',
        'greet "$(python3 -c "$PY" world)"',
        '',
      ].join('\n'),
    );
  });

  test('the whole script alone prints what the script beside its parts prints', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'script-parts-'));
    try {
      fs.mkdirSync(path.join(dir, 'parts'));
      fs.mkdirSync(path.join(dir, 'whole'));
      fs.writeFileSync(path.join(dir, 'parts', 's.sh'), SCRIPT);
      for (const [name, text] of Object.entries(PARTS)) fs.writeFileSync(path.join(dir, 'parts', name), text);
      fs.writeFileSync(path.join(dir, 'whole', 's.sh'), wholeScript('s.sh', SCRIPT, read));
      const run = (file: string) => spawnSync('bash', [file], { cwd: os.tmpdir(), encoding: 'utf8' });
      const fromParts = run(path.join(dir, 'parts', 's.sh'));
      expect({ status: fromParts.status, stdout: fromParts.stdout, stderr: fromParts.stderr }).toEqual({
        status: 0,
        stdout: 'hello py world\n',
        stderr: '',
      });
      const whole = run(path.join(dir, 'whole', 's.sh'));
      expect({ status: whole.status, stdout: whole.stdout, stderr: whole.stderr }).toEqual({
        status: 0,
        stdout: fromParts.stdout,
        stderr: '',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a script without part lines is returned as it is', () => {
    expect(wholeScript('s.sh', '#!/bin/sh\necho hi\n', read)).toBe('#!/bin/sh\necho hi\n');
  });

  test('refuses a part without its opening comment, a program holding its delimiter, a part line of another form', () => {
    expect(() => wholeScript('s.sh', SCRIPT, (p) => (p === 'fns.sh' ? 'greet() { :; }\n' : read(p)))).toThrow(
      /fns.sh must open with a comment ended by a blank line/,
    );
    expect(() => wholeScript('s.sh', SCRIPT, (p) => (p === 'prog.py' ? '# P.\n\nx = 1\nPYTHON\n' : read(p)))).toThrow(
      /prog.py must not contain a line 'PYTHON'/,
    );
    expect(() => wholeScript('s.sh', 'source "$(dirname -- "${BASH_SOURCE[0]}")/fns.sh"\n', read)).toThrow(
      /s.sh: a line reads a file beside the script in a form no part takes/,
    );
  });
});

test('readWholeScript reads the parts from lib/scripts, as the script does', () => {
  const scripts = path.join(__dirname, '..', '..', 'lib', 'scripts');
  const wrapper = fs.readFileSync(path.join(scripts, 'client-mount.sh'), 'utf8');
  const whole = readWholeScript('client-mount.sh');
  expect(whole).toBe(wholeScript('client-mount.sh', wrapper, (p) => fs.readFileSync(path.join(scripts, p), 'utf8')));
  expect(whole).not.toContain('${BASH_SOURCE[0]}');
  expect(whole).toContain("read -r -d '' PY <<'PYTHON' || true\nfrom __future__ import annotations");
});
