/**
 * `npm run pack:check`: what `npm publish` would upload, checked before anything is published. It runs
 * `npm pack --dry-run --json`, whose prepack builds the package with the build's output on stderr. It compares the file
 * list with test/support/pack-files.ts: a file outside the allowlist, or a required file missing, is named and the exit
 * code is 1.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { PackageManifest, packProblems, requiredFiles } from './pack-files';

const ROOT = path.resolve(__dirname, '..', '..');

interface PackResult {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

function main(): number {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    console.error(`npm pack --dry-run --json exited ${r.status ?? r.signal}`);
    return 1;
  }
  const [result] = JSON.parse(r.stdout) as PackResult[];
  const files = result.files.map((f) => f.path);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageManifest;
  const problems = packProblems(files, requiredFiles(ROOT, pkg));
  for (const p of problems) console.log(p);
  console.log(
    problems.length
      ? `${result.filename}: ${problems.length} problem(s) in its ${files.length} files`
      : `${result.filename}: ${files.length} files, all allowed, none required missing`,
  );
  return problems.length ? 1 : 0;
}

process.exitCode = main();
