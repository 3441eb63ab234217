import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvBin } from './venv';

/**
 * The test venv's AWS CLI, imported once per test file: a fork server, aws_cli_server.py, and a directory holding an
 * `aws` that calls it. Put the directory first on PATH, or exec its `aws`, where a script under test runs the CLI. The
 * same CLI code then runs for each call, without the second of interpreter start and imports each call would cost.
 */
export interface AwsCli {
  /** A directory whose one file is `aws`. */
  readonly bin: string;
  /** Stops the server and removes the directory. */
  stop(): Promise<void>;
}

/**
 * Starts the fork server. `warm` names the operations a test's scripts call (`'ec2 describe-volumes'`): the server
 * reads their services' model files once, not in every call (a call then takes about a fifth of the time).
 */
export async function startAwsCli(warm: readonly string[] = []): Promise<AwsCli> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aws-cli-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const socketPath = path.join(dir, 's');
  const python = path.join(venvBin(), 'python');
  const child = spawn(python, [path.join(__dirname, 'aws_cli_server.py'), socketPath, ...warm], { stdio: ['ignore', 'pipe', 'inherit'] });
  await ready(child);
  // -S: the call needs the standard library only, so the shim skips site-packages.
  const call = path.join(__dirname, 'aws_cli_call.py');
  fs.writeFileSync(path.join(bin, 'aws'), `#!/bin/sh\nexec ${q(python)} -S ${q(call)} ${q(socketPath)} "$@"\n`, { mode: 0o755 });
  return {
    bin,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function q(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the AWS CLI fork server did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the AWS CLI fork server exited (${code}) before it was ready`)));
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}
