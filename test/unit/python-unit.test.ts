import { spawnSync } from 'child_process';
import * as path from 'path';
import { venvBin } from '../support/venv';

/**
 * The unit tests of lib/scripts' Python, test/python/test_*.py with stdlib unittest, run with the venv's python: each
 * program tested directly, apart from the shell script that carries it.
 */
const ROOT = path.join(__dirname, '..', '..');

test('test/python: every unittest passes', () => {
  const r = spawnSync(path.join(venvBin(), 'python'), ['-m', 'unittest', 'discover', '-s', 'test/python', '-t', 'test/python'], {
    cwd: ROOT,
    encoding: 'utf8',
    // No __pycache__ left in the repository.
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 120_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  expect({ status: r.status, output }).toEqual({ status: 0, output: expect.stringMatching(/\nRan [1-9][0-9]* tests? in .*\n\nOK\n$/) });
}, 120_000);
