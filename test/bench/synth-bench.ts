/**
 * `npm run bench:synth` (issue 42, item 6): the time of one synth of the app, per backend, beside a plain CDK app
 * (test/bench/plain-app.ts: a VPC, an instance, a volume) in the same run, alternating, so that machine load falls
 * on both alike. Each runs as `cdk synth` runs it: the app by cdk.json's command (bin/app.mjs: its bundle), the
 * plain app compiled to JavaScript by esbuild as that command compiles the app, both through a shell with the
 * context the CLI passes (cdk.json's feature flags and the CLI's own defaults). Prints the median wall seconds,
 * the median CPU seconds where Linux's /proc gives them (steadier than wall time on a shared machine), and each
 * one's ratio to the plain app's, cdk.json's way, in the same run (the median of the runs' ratios: a change of
 * load between runs moves both alike).
 *
 * `--runs N` (default 3). `--loader <module>` also runs both from their TypeScript with that `--require` hook
 * (esbuild-register: cdk.json's command before the bundle), alternating with cdk.json's way; its rows have their
 * ratios to the same plain app, so that the two ways compare.
 * `--profile` writes a CPU profile of one EBS synth each way and prints where its samples fall. `--no-validation`
 * turns aws-cdk-lib's template validation off (CDK_VALIDATION=false, as npm test does), to see the rest apart.
 * Asserts nothing; always exits 0 unless a synth fails.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildSync } from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');
const CDK_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  app: string;
  context: object;
};
const APP_TS = path.join(ROOT, 'bin', 'storage-server.ts');
const PLAIN_TS = path.join(__dirname, 'plain-app.ts');
/** Below node_modules, whose aws-cdk-lib it imports. */
const PLAIN_JS = path.join(ROOT, 'node_modules', '.cache', 'storage-server', 'bench', 'plain-app.js');

const BASE = { clusterName: 'bench', clientCidrs: '10.0.0.0/16' };
interface Case {
  readonly name: string;
  readonly plain: boolean;
  readonly context: Record<string, string>;
}
const CASES: readonly Case[] = [
  { name: 'plain CDK app', plain: true, context: {} },
  { name: 'ebs (5 TiB)', plain: false, context: { ...BASE, capacityTiB: '5' } },
  {
    name: 'instance-store (20 TiB)',
    plain: false,
    context: { ...BASE, capacityTiB: '20', backend: 'instance-store' },
  },
  { name: 'fsx-lustre (5 TiB)', plain: false, context: { ...BASE, capacityTiB: '5', backend: 'fsx-lustre' } },
  {
    name: 'fsx-openzfs (1 TiB)',
    plain: false,
    context: { ...BASE, capacityTiB: '1', backend: 'fsx-openzfs' },
  },
];

/** A way to run the two apps: the shell command of each. */
interface Way {
  readonly name: string;
  readonly command: (c: Case) => string;
}

const CDK_JSON_WAY: Way = {
  name: `cdk.json: ${CDK_JSON.app}`,
  command: (c) => (c.plain ? `node ${JSON.stringify(PLAIN_JS)}` : CDK_JSON.app),
};

function loaderWay(loader: string): Way {
  return {
    name: `node --require ${loader} <app>.ts`,
    command: (c) => `node --require ${loader} ${JSON.stringify(c.plain ? PLAIN_TS : APP_TS)}`,
  };
}

/** The context `cdk synth` passes an app (CDK_CONTEXT_JSON): cdk.json's, the CLI's defaults, then the -c keys. */
export function cliContext(keys: Record<string, string>): object {
  return {
    ...CDK_JSON.context,
    'aws:cdk:enable-path-metadata': true,
    'aws:cdk:enable-asset-metadata': true,
    'aws:cdk:version-reporting': true,
    'aws:cdk:bundling-stacks': ['**'],
    '@aws-cdk/core:failSynthOnValidationErrors': false,
    ...keys,
  };
}

/** CPU seconds of this process's waited-for children so far (Linux: cutime and cstime, 100 ticks a second). */
function childCpuSeconds(): number | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Timing {
  readonly wall: number;
  readonly cpu: number | undefined;
}

let validation = true;

/** One synth of `c` the way `way` runs it, in seconds; `nodeFlags` for its node process (a profile). */
function synth(way: Way, c: Case, nodeFlags = ''): Timing {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_OUTDIR: out,
    CDK_CONTEXT_JSON: JSON.stringify(cliContext(c.context)),
  };
  delete env.CDK_DEFAULT_REGION;
  delete env.CDK_DEFAULT_ACCOUNT;
  if (!validation) env.CDK_VALIDATION = 'false';
  // Flags such as --cpu-prof are refused in NODE_OPTIONS: they go on the command line, after `node`.
  if (nodeFlags !== '' && !way.command(c).startsWith('node ')) {
    throw new Error(`${way.command(c)} does not start with node`);
  }
  const command = nodeFlags === '' ? way.command(c) : way.command(c).replace(/^node /, `node ${nodeFlags} `);
  const cpuBefore = childCpuSeconds();
  const start = process.hrtime.bigint();
  const run = spawnSync(command, {
    cwd: ROOT,
    env,
    shell: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuAfter = childCpuSeconds();
  fs.rmSync(out, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`${command} (${c.name}) exited ${run.status}: ${run.stderr}`);
  return { wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The plain app as JavaScript, bundled as bin/app.mjs bundles the app (the packages left to node_modules). */
function buildPlainApp(): void {
  buildSync({
    entryPoints: [PLAIN_TS],
    outfile: PLAIN_JS,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}

/**
 * Where a CPU profile's samples fall: by npm package (aws-cdk-lib's template validation is
 * @aws/cloudformation-validate, its JavaScript, and the WebAssembly it loads), this project's top directory, the
 * app's bundle, the engine's own entries (GC, idle) or node internals; share of all samples.
 */
export function profileShares(profile: {
  nodes: { id: number; callFrame: { url: string; functionName: string }; hitCount?: number }[];
}): [string, number][] {
  const by = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    total += hits;
    by.set(where(n.callFrame), (by.get(where(n.callFrame)) ?? 0) + hits);
  }
  return [...by].map(([k, v]): [string, number] => [k, v / total]).sort((a, b) => b[1] - a[1]);
}

function where(frame: { url: string; functionName: string }): string {
  const url = frame.url.replace(/^file:\/\//, '');
  // The innermost package: aws-cdk-lib carries the validation's JavaScript in a node_modules of its own.
  const pkg = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].pop()?.[1];
  if (pkg !== undefined) return `package ${pkg}`;
  if (url.startsWith('wasm://')) return 'WebAssembly (@aws/cloudformation-validate: template validation)';
  if (url.startsWith(path.join(ROOT, '.app-bundle'))) return "the app's bundle (bin/, lib/, lambda/)";
  if (url.startsWith(ROOT)) return `project ${path.relative(ROOT, url).split(path.sep)[0]}/`;
  if (url === '') return `(engine: ${frame.functionName.replace(/^\((.*)\)$/, '$1')})`;
  return 'node internals';
}

function profile(way: Way): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-profile-'));
  const time = synth(way, CASES[1], `--cpu-prof --cpu-prof-dir=${JSON.stringify(dir)}`);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  console.log(
    `\nCPU profile of one ebs synth, ${way.name} (${time.wall.toFixed(2)} s; ${path.join(dir, file)}), share of samples:`,
  );
  const shares = profileShares(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
  for (const [place, share] of shares.slice(0, 12)) {
    console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${place}`);
  }
}

function main(argv: string[]): void {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`--runs must be a whole number of at least 1; got ${argv[runsAt + 1]}`);
  }
  const loaderAt = argv.indexOf('--loader');
  const ways = loaderAt >= 0 ? [CDK_JSON_WAY, loaderWay(argv[loaderAt + 1])] : [CDK_JSON_WAY];
  validation = !argv.includes('--no-validation');
  buildPlainApp();
  // The first synth of each builds the app's bundle if the sources changed, and warms the file cache.
  for (const way of ways) for (const c of CASES.slice(0, 2)) synth(way, c);
  const load = os.loadavg()[0];
  // times[run][case][way]; each case runs every way before the next case, so that the ways meet the same load.
  const times = Array.from({ length: runs }, () => CASES.map((c) => ways.map((way) => synth(way, c))));
  console.log(
    `Synth time${validation ? '' : ' without template validation'}, median of ${runs} runs alternating ` +
      `(node ${process.version}, ${os.cpus().length} CPUs, load ` +
      `${load.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end);\neach ratio the median of ` +
      "the runs' ratios to the same run's plain app, run cdk.json's way:",
  );
  const column = (i: number, w: number, key: keyof Timing) => {
    const values = times.map((run) => run[i][w][key]);
    const yardstick = times.map((run) => run[0][0][key]);
    if (values.some((v) => v === undefined) || yardstick.some((v) => v === undefined)) return '';
    const ratio = median(values.map((v, r) => v! / yardstick[r]!));
    return `${key === 'cpu' ? 'CPU' : key} ${median(values as number[]).toFixed(2)} s  ratio ${ratio.toFixed(2)}   `;
  };
  ways.forEach((way, w) => {
    console.log(`\n  ${way.name}`);
    CASES.forEach((c, i) =>
      console.log(`    ${c.name.padEnd(24)} ${column(i, w, 'wall')}${column(i, w, 'cpu')}`.trimEnd()),
    );
  });
  if (argv.includes('--profile')) ways.forEach(profile);
}

if (require.main === module) main(process.argv.slice(2));
