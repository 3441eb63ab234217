import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvBin } from '../support/venv';

/**
 * The Python of lib/scripts, the programs the shell scripts carry such as client_mount.py, and its tests in
 * test/python: ruff with ruff.toml and mypy with mypy.ini, strict, both pinned in test/requirements.txt, find nothing.
 * ruff reads the Python CDK app of test/python-app too; mypy does not, since aws-cdk-lib and the wheel it imports are
 * only in the venv its own test makes.
 */
const ROOT = path.join(__dirname, '..', '..');
const PYTHON_DIRS = ['lib/scripts', 'test/python', 'test/support'];
const pythonFiles = (dirs: readonly string[]) => dirs.flatMap((dir) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith('.py'))
    .map((f) => `${dir}/${f}`),
);
const PYTHON_FILES = pythonFiles(PYTHON_DIRS);
const RUFF_FILES = pythonFiles([...PYTHON_DIRS, 'test/python-app']);

/** Runs a tool of the venv in the repository; its status and everything it printed. */
function tool(name: string, args: string[]): { status: number | null; output: string } {
  const r = spawnSync(path.join(venvBin(), name), args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test('the Python files are found', () => {
  expect(PYTHON_FILES).toEqual(expect.arrayContaining(['lib/scripts/client_mount.py', 'test/python/test_client_mount.py', 'test/support/aws_cli_server.py']));
  expect(RUFF_FILES).toEqual(expect.arrayContaining(['test/python-app/app.py', 'test/python-app/test_app.py']));
});

test('ruff finds nothing', () => {
  expect(tool('ruff', ['check', '--no-cache', '--config', 'ruff.toml', ...RUFF_FILES])).toEqual({
    status: 0,
    output: 'All checks passed!\n',
  });
});

test('mypy finds nothing', () => {
  // Its cache outside the repository: it only makes a second run faster.
  const cache = path.join(os.tmpdir(), 'storage-server-mypy-cache');
  expect(tool('mypy', ['--config-file', 'mypy.ini', '--cache-dir', cache, ...PYTHON_FILES])).toEqual({
    status: 0,
    output: `Success: no issues found in ${PYTHON_FILES.length} source files\n`,
  });
}, 120_000);
