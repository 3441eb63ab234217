import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANDLER_BUNDLES_ENV } from '../../lib/handler-function';
import { runAppInProcess } from '../support/run-app';

const root = path.join(__dirname, '..', '..');
const cdkBin = path.join(root, 'node_modules', '.bin', 'cdk');

interface Run { code: number | null; stdout: string; stderr: string; outdir: string }

/**
 * Runs the real CLI, `cdk synth`, as a user would, offline and without AWS credentials. The handlers come from
 * the bundles npm test built once (STORAGE_SERVER_HANDLER_BUNDLES) unless `bundle` is set: then the app bundles
 * them with esbuild at synth, exactly as on a user's machine.
 */
function cdkSynth(context: Record<string, string>, { bundle = false } = {}): Promise<Run> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-out-'));
  const args = ['synth', '--quiet', '--no-notices', '--no-version-reporting', '-o', outdir];
  for (const [k, v] of Object.entries(context)) args.push('-c', `${k}=${v}`);
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_VERSION_CHECK: '1' };
  if (bundle) delete env[HANDLER_BUNDLES_ENV];
  return new Promise((resolve, reject) => {
    const child = spawn(cdkBin, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, outdir }));
  });
}

jest.setTimeout(240_000);

test('`cdk synth` with no context works offline and writes the stack template', async () => {
  const run = await cdkSynth({}, { bundle: true });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.code).toBe(0);
  // A newcomer's first command is quiet: no warning, and no note about values it did not state.
  expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
  const template = JSON.parse(fs.readFileSync(path.join(run.outdir, 'StorageServer-cluster-storage1.template.json'), 'utf8'));
  const instance = Object.values(template.Resources as Record<string, { Type: string; Properties: { InstanceType: string } }>)
    .find((r) => r.Type === 'AWS::EC2::Instance');
  expect(instance?.Properties.InstanceType).toBe('m4.2xlarge');
});

test('names with _ and . keep their stack name with stackName: `cdk synth -c clusterName=hpc_1.a -c serverName=home_1 -c stackName=...`', async () => {
  // Without stackName the pair is refused: its derived name is also clusterName=hpc serverName=1-a-home-1's.
  const run = await cdkSynth({ clusterName: 'hpc_1.a', serverName: 'home_1', stackName: 'StorageServer-hpc-1-a-home-1' });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.code).toBe(0);
  expect(fs.existsSync(path.join(run.outdir, 'StorageServer-hpc-1-a-home-1.template.json'))).toBe(true);
});

test.each([
  ['12', 14400, 'PERSISTENT_2'],
  ['100', 103200, 'PERSISTENT_2'],
])('`cdk synth -c backend=fsx-lustre -c capacityTiB=%s` works offline: an FSx for Lustre file system of %p GiB', async (capacity, gib, type) => {
  const run = await cdkSynth({ backend: 'fsx-lustre', capacityTiB: capacity });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.code).toBe(0);
  const template = JSON.parse(fs.readFileSync(path.join(run.outdir, 'StorageServer-cluster-storage1.template.json'), 'utf8'));
  const resources = Object.values(template.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>);
  const fileSystem = resources.find((r) => r.Type === 'AWS::FSx::FileSystem');
  expect(fileSystem?.Properties).toMatchObject({ StorageCapacity: gib, LustreConfiguration: { DeploymentType: type } });
  expect(resources.some((r) => r.Type === 'AWS::EC2::Instance')).toBe(false);
});

// Each bad value must stop synth with a non-zero exit and a message naming key, value and what is allowed.
const REFUSED: Array<[Record<string, string>, RegExp]> = [
  [{ capacityTiB: '-1' }, /capacityTiB="-1".*positive number of TiB/],
  [{ capacityTiB: 'abc' }, /capacityTiB="abc".*positive number of TiB/],
  [{ capacityTiB: '1000', backend: 'ebs' }, /capacityTiB.*1000.*(FSx for Lustre|Lustre)/],
  [{ backend: 'foo' }, /backend="foo".*'auto', 'ebs', 'instance-store'/],
  [{ clusterName: 'bad name' }, /clusterName="bad name".*A-Z a-z 0-9 _ \. -/],
  [{ clusterName: 'hpc_1.a', serverName: 'home_1' }, /clusterName="hpc_1.a".*StorageServer-hpc-1-a-home-1.*-c stackName=StorageServer-hpc-1-a-home-1/],
  [{ clientCidrs: '10.0.0.0/99' }, /clientCidrs="10.0.0.0\/99".*prefix length must be 1-32/],
  [{ vpcId: 'xyz' }, /vpcId="xyz".*vpc-0123456789abcdef0/],
  [{ clusterName: 'c'.repeat(64), serverName: 's'.repeat(60) }, /serverName="s{60}".*stack name.*128 characters/],
  [{ machineImageId: 'latest' }, /machineImageId="latest".*ami-0123456789abcdef0/],
  // Bad input (test/unit/bad-input-context.test.ts has the full table): a misspelt key must not deploy the default.
  // A key shaped like CDK's own (`x:...`) is no exception: only the keys aws-cdk-lib exports pass.
  [{ capacityTB: '10', 'fsx:deploymentType': 'SCRATCH_2' },
    /Unknown context keys "capacityTB" \(did you mean capacityTiB\?\), "fsx:deploymentType" \(did you mean fsxDeploymentType\?\).*the app reads only capacityTiB, /],
  [{ clientCidrs: '0.0.0.0/1,128.0.0.0/1' }, /clientCidrs="0.0.0.0\/1,128.0.0.0\/1".*bad: '0.0.0.0\/1': it holds addresses of 0.0.0.0\/8, "This network"/],
  [{ loginIp: '010.000.000.010' }, /loginIp="010.000.000.010".*leading zero.*write 10.0.0.10/],
  [{ restoreSnapshotIds: 'snap-01234567,snap-89abcdef' }, /restoreSnapshotIds="snap-01234567,snap-89abcdef".*the plan has 1 data volume\(s\)/],
  [{ vpcId: 'vpc-0123456789abcdef0' }, /vpcId="vpc-0123456789abcdef0" needs AWS credentials with an account and a region.*CDK_DEFAULT_ACCOUNT/],
];

// Through the real CLI, two rows: the exit status, stderr and the absence of a stack trace are the CLI's and the
// app's entry point's, the same for every row.
test.each(REFUSED.filter(([context]) => 'capacityTB' in context || context.capacityTiB === '-1'))(
  '`cdk synth -c %j` fails with a clear message',
  async (context, message) => {
    const run = await cdkSynth(context);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    // The message is the user's to read: no stack trace.
    expect(run.stderr).not.toMatch(/^\s+at .*\.ts:\d+/m);
  },
);

// Every row through the app's entry point (bin/storage-server.ts) in this process: what the CLI runs, without a
// CLI and a TypeScript compile per row.
test.each(REFUSED)('bin/storage-server.ts with context %j exits 1 with a clear message', (context, message) => {
  const run = runAppInProcess(context);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/\.(ts|js):\d+/);
});
