// The consumer test's harness for test/consumer/run.ts: the checks' runner, the temporary app, and what one check hands
// the next, such as the tarball and the synthesized template.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PackageManifest } from '../support/pack-files';
import { REPO_ROOT } from '../support/readme';
import type { CfnTemplate } from './template';

export interface PackageJson extends PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** What the planner's capacity rule gives the example's 5 TiB (docs/design.md, section 3): one st1 volume on this type. */
export const SERVER_TYPE = 'm4.2xlarge';

export const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
export const work = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-server-consumer-'));
export const appDir = path.join(work, 'app');
export const results: { name: string; error?: string }[] = [];
let blockedBy: string | undefined;

/** Runs one check; a thrown error fails it. A failed `step` blocks every later check. */
export function check(name: string, fn: () => void, step = false): void {
  const started = Date.now();
  let error: string | undefined;
  if (blockedBy) {
    error = `not run: ${blockedBy} failed`;
  } else {
    try {
      fn();
    } catch (e) {
      error = (e as Error).message;
      if (step) blockedBy = `"${name}"`;
    }
  }
  results.push({ name, error });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${error ? 'FAIL' : 'PASS'} ${name} (${seconds} s)${error ? `\n     ${error.split('\n').join('\n     ')}` : ''}`,
  );
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Runs a command, and throws with its output when it exits non-zero. What `npm run` adds to the environment about this
 * repository is not passed on: its package, its lifecycle, its root as local prefix. An npm started in the app's
 * directory would otherwise work on this repository. The user's npm settings are kept.
 */
export function run(command: string, args: string[], cwd: string): string {
  const ownedByNpmRun = /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_local_prefix$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ownedByNpmRun.test(k)));
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${path.basename(command)} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${output}`);
  }
  return r.stdout;
}

export const bin = (name: string, ...rel: string[]): string => path.join(REPO_ROOT, 'node_modules', name, ...rel);
export const tsc = path.join(REPO_ROOT, 'test', 'node_modules', 'typescript', 'bin', 'tsc');
export const cdk = bin('aws-cdk', 'bin', 'cdk');
export const installed = path.join(appDir, 'node_modules', pkg.name);

/** What one check hands the next. */
export const state = {
  tarball: '',
  entries: [] as string[],
  template: { Resources: {} } as CfnTemplate,
  stackName: '',
  consumerBundle: '',
};

/** Prints the closing line and sets the exit status; removes the temporary directory unless KEEP_CONSUMER_DIR=1. */
export function finish(): void {
  const failed = results.filter((r) => r.error).length;
  console.log(`consumer app and tarball: ${work}${process.env.KEEP_CONSUMER_DIR === '1' ? ' (kept)' : ''}`);
  if (process.env.KEEP_CONSUMER_DIR !== '1') fs.rmSync(work, { recursive: true, force: true });
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}
