/**
 * The deployed artefact, not the TypeScript source: the handler bundled as the app bundles it, by esbuild, minified,
 * with the AWS SDK from its ES module build, registers and deregisters against moto. Each event runs in a fresh `node`
 * process, as in Lambda, since jest's module sandbox cannot run the SDK's dynamic imports.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { registrationHandlerAsset } from '../support/handler-bundle';
import { MOTO_SETUP_TIMEOUT_MS, startMoto, motoEnv, type Moto } from '../support/moto';
import { createEvent, createSubnet, deleteEvent, launchInstance, props } from './fixtures';

let moto: Moto;
let outdir: string;
let bundle: string;
let ssm: SSMClient;
let server: Instance;

/** Synthesizes a stack with a registration and returns the path of the handler's bundled index.js. */
function bundledHandler(): string {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'register-bundle-'));
  return path.join(registrationHandlerAsset(outdir), 'index.js');
}

/** Runs the bundle's handler on `event` in a fresh node process; resolves its result, rejects with its error. */
function invoke(event: object): Promise<Record<string, unknown>> {
  const script =
    'require(process.argv[1]).handler(JSON.parse(process.argv[2])).then(' +
    "(r) => process.stdout.write('RESULT ' + JSON.stringify(r) + '\\n')," +
    "(e) => { process.stdout.write('ERROR ' + e.message + '\\n'); process.exitCode = 1; })";
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', script, bundle, JSON.stringify(event)],
      { env: { ...process.env, ...motoEnv(moto.endpoint), NODE_OPTIONS: '--enable-source-maps' } },
      (_err, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        if (last.startsWith('RESULT ')) resolve(JSON.parse(last.slice(7)));
        else if (last.startsWith('ERROR ')) reject(new Error(last.slice(6)));
        else reject(new Error(`the bundle did not run: ${stdout}${stderr}`));
      },
    );
  });
}

beforeAll(async () => {
  bundle = bundledHandler();
  moto = await startMoto();
  Object.assign(process.env, motoEnv(moto.endpoint));
  const ec2Client = new EC2Client({});
  ssm = new SSMClient({});
  server = await launchInstance(ec2Client, await createSubnet(ec2Client));
}, MOTO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await moto?.stop();
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

async function namesUnder(prefix: string): Promise<string[]> {
  const out = await ssm.send(new GetParametersByPathCommand({ Path: prefix, Recursive: true }));
  return (out.Parameters ?? []).map((p) => p.Name ?? '').sort();
}

test('the bundled handler registers, then deregisters', async () => {
  const p = props(server.InstanceId ?? '', { ParameterPrefix: '/bundle' });

  const created = await invoke(createEvent(p));
  expect(created.Data).toEqual({
    RingParameterName: '/bundle/hpc1/ring/storage1',
    MountParameterName: '/bundle/hpc1/storage/storage1/mount',
    PrivateIp: server.PrivateIpAddress,
  });
  expect(await namesUnder('/bundle')).toEqual([
    '/bundle/hpc1/ring/storage1',
    '/bundle/hpc1/storage/storage1/mount',
  ]);

  await invoke(deleteEvent(String(created.PhysicalResourceId), p));
  // The records go; the tombstone that tells clients the server was removed stays.
  expect(await namesUnder('/bundle')).toEqual(['/bundle/hpc1/removed/storage1']);
});

test('the bundled handler still names the problem in its errors', async () => {
  await expect(
    invoke(createEvent(props('i-0123456789abcdef0', { ParameterPrefix: '/bundle' }))),
  ).rejects.toThrow(/InstanceId i-0123456789abcdef0 does not exist .*InvalidInstanceID\.NotFound/);
});
