/**
 * Benchmark of the registration handler's deployment artefact: `npm run bench:register`.
 *
 * - Bundle size: the handler is bundled exactly as deployed, by synthesizing a stack with a
 *   ServerRegistration (NodejsFunction runs esbuild with the construct's options), then measured.
 * - Cold-start import time: a fresh `node` process requires the bundle (what Lambda's init phase does
 *   before the first invocation); the median of several runs is reported, with and without
 *   --enable-source-maps (the function sets it through NODE_OPTIONS).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ServerRegistration } from '../../lib/registration';

const RUNS = 7;

function bundle(): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'register-bench-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bench');
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
  });
  new ServerRegistration(stack, 'Registration', {
    instance,
    clusterName: 'bench',
    serverName: 'storage1',
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev',
    backend: 'ebs',
  });
  const assembly = app.synth();
  const template = assembly.getStackByName('Bench').template as {
    Resources: Record<string, { Type: string; Properties: { Runtime?: string; Code?: { S3Key?: string } } }>;
  };
  const fn = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Runtime === 'nodejs22.x',
  );
  const key = fn?.Properties.Code?.S3Key;
  if (!key) throw new Error('the registration function is missing from the synthesized template');
  return path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
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
    'Registration handler bundle (as NodejsFunction builds it: esbuild, minify, source map, AWS SDK bundled)',
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
