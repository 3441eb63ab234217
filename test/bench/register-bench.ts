/**
 * Benchmark of the registration handler's deployment artefact: `npm run bench:register`.
 *
 * - Bundle size: the handler is bundled exactly as deployed, by synthesizing a stack with a ServerRegistration, then
 *   measured. The app runs esbuild with the build:lambda options of bin/handler-bundle.ts.
 * - Cold-start import time: a fresh `node` process requires the bundle, as Lambda's init phase does before the first
 *   invocation. The median of several runs is reported, with and without --enable-source-maps, which the function
 *   sets through NODE_OPTIONS.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { registrationHandlerAsset } from '../support/handler-bundle';

const RUNS = 7;

function bundle(): string {
  return registrationHandlerAsset(fs.mkdtempSync(path.join(os.tmpdir(), 'register-bench-')));
}

/** Milliseconds to require the bundle in a fresh process, and the whole process's wall time. */
function coldStart(file: string, nodeOptions: string): { importMs: number; processMs: number } {
  const script =
    'const t=process.hrtime.bigint();require(process.argv[1]);' +
    'process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))';
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['-e', script, file], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: nodeOptions, AWS_REGION: 'us-east-1' },
  });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`node failed to load ${file}: ${run.stderr}`);
  return { importMs: Number(run.stdout), processMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function fmtBytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes (${(n / 1024 / 1024).toFixed(2)} MiB)`;
}

function main(): void {
  const dir = bundle();
  const files = fs.readdirSync(dir).sort();
  console.log(
    'Registration handler bundle (as the app builds it: esbuild, minify, source map, AWS SDK bundled)',
  );
  let deflated = 0;
  for (const f of files) {
    const data = fs.readFileSync(path.join(dir, f));
    deflated += zlib.deflateRawSync(data, { level: 9 }).length;
    console.log(`  ${f.padEnd(14)} ${fmtBytes(data.length)}`);
  }
  console.log(
    `  ${'zipped (≈)'.padEnd(14)} ${fmtBytes(deflated)}  (deflate of the files; Lambda's limit is 50 MB zipped)`,
  );

  const handler = path.join(dir, 'index.js');
  console.log(
    `\nCold-start import of index.js (fresh node ${process.version} process, median of ${RUNS} runs)`,
  );
  for (const [label, nodeOptions] of [
    ['with --enable-source-maps (as deployed)', '--enable-source-maps'],
    ['without source maps', ''],
  ]) {
    const runs = Array.from({ length: RUNS }, () => coldStart(handler, nodeOptions));
    const importMs = median(runs.map((r) => r.importMs));
    const processMs = median(runs.map((r) => r.processMs));
    console.log(
      `  ${label.padEnd(40)} import ${importMs.toFixed(1)} ms   whole process ${processMs.toFixed(1)} ms`,
    );
  }
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
}

main();
