/**
 * `npm run bench:synth` (issue 42, item 6): the wall time of one synth of the app, per backend, beside a plain CDK app
 * (test/bench/plain-app.ts: a VPC, an instance, a volume) in the same run, each run the way cdk.json runs an app
 * (node with the `--require` hook its app command names), alternating, so that machine load falls on both alike.
 * Prints the median seconds and the ratio to the plain app. `--runs N` (default 3); `--loader <module>` runs both
 * with another hook (e.g. ts-node/register/transpile-only, to compare); `--profile` also writes a CPU profile of one
 * EBS synth and prints where its samples fall, by package or project directory. Asserts nothing; always exits 0
 * unless a synth fails.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const APP = path.join(ROOT, 'bin', 'storage-server.ts');
const PLAIN = path.join(__dirname, 'plain-app.ts');
const BASE = { clusterName: 'bench', clientCidrs: '10.0.0.0/16' };
const CASES: readonly { name: string; entry: string; context: Record<string, string> }[] = [
  { name: 'plain CDK app', entry: PLAIN, context: {} },
  { name: 'ebs (5 TiB)', entry: APP, context: { ...BASE, capacityTiB: '5' } },
  { name: 'instance-store (20 TiB)', entry: APP, context: { ...BASE, capacityTiB: '20', backend: 'instance-store' } },
  { name: 'fsx-lustre (5 TiB)', entry: APP, context: { ...BASE, capacityTiB: '5', backend: 'fsx-lustre' } },
  { name: 'fsx-openzfs (1 TiB)', entry: APP, context: { ...BASE, capacityTiB: '1', backend: 'fsx-openzfs' } },
];

/** The module cdk.json's app command loads with `--require`: how `cdk synth` runs the TypeScript. */
export function appLoader(cdkJson = path.join(ROOT, 'cdk.json')): string {
  const app = (JSON.parse(fs.readFileSync(cdkJson, 'utf8')) as { app: string }).app;
  const loader = /--require (\S+)/.exec(app)?.[1];
  if (loader === undefined) throw new Error(`cdk.json's app command names no --require hook: ${app}`);
  return loader;
}

let loader = appLoader();

/** One synth of `entry` with `context`, seconds; `extra` node flags (a profile). */
function synth(entry: string, context: Record<string, string>, extra: string[] = []): number {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-'));
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [...extra, '--require', loader, entry], {
    cwd: ROOT,
    env: { ...process.env, CDK_OUTDIR: out, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_DEFAULT_REGION: '', CDK_DEFAULT_ACCOUNT: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  fs.rmSync(out, { recursive: true, force: true });
  return seconds;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Where a CPU profile's samples fall: by npm package, or by this project's top directory; share of all samples. */
export function profileShares(profile: { nodes: { id: number; callFrame: { url: string }; hitCount?: number }[] }): [string, number][] {
  const by = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    total += hits;
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const where = pkg !== undefined ? `package ${pkg}` : url.startsWith(ROOT) ? `project ${path.relative(ROOT, url).split(path.sep)[0]}/`
      : url === '' ? '(engine: GC, idle, native)' : 'node internals';
    by.set(where, (by.get(where) ?? 0) + hits);
  }
  return [...by].map(([k, v]): [string, number] => [k, v / total]).sort((a, b) => b[1] - a[1]);
}

function main(argv: string[]): void {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1; got ${argv[runsAt + 1]}`);
  const loaderAt = argv.indexOf('--loader');
  if (loaderAt >= 0) loader = argv[loaderAt + 1];
  synth(PLAIN, {}); // warm the file cache for both (the hook, aws-cdk-lib)
  synth(APP, CASES[1].context);
  const times = CASES.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) CASES.forEach((c, i) => times[i].push(synth(c.entry, c.context)));
  const plain = median(times[0]);
  console.log(`Synth wall time, median of ${runs} (node ${process.version}, --require ${loader}, ${os.cpus().length} CPUs, ` +
    `load ${os.loadavg()[0].toFixed(2)}):`);
  CASES.forEach((c, i) => console.log(`  ${c.name.padEnd(24)} ${median(times[i]).toFixed(2)} s  ratio ${(median(times[i]) / plain).toFixed(2)}`));
  if (argv.includes('--profile')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-profile-'));
    synth(APP, CASES[1].context, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
    console.log(`\nCPU profile of one ebs synth (${path.join(dir, file)}), share of samples:`);
    for (const [where, share] of profileShares(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))).slice(0, 12)) {
      console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${where}`);
    }
  }
}

if (require.main === module) main(process.argv.slice(2));
