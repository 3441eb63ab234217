import { spawn } from 'child_process';
import * as path from 'path';
import {
  AttachNetworkInterfaceCommand,
  AttachVolumeCommand,
  CreateNetworkInterfaceCommand,
  CreateSubnetCommand,
  CreateVolumeCommand,
  CreateVpcCommand,
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeVolumesCommand,
  DetachVolumeCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { type AwsCli, startAwsCli } from '../support/aws-cli';
import { motoEnv, startMoto, type Moto } from '../support/moto';
import { venvBin } from '../support/venv';

// lib/scripts/storage-attach.sh against moto, with the AWS CLI of the test venv: how a replacement EBS server takes its
// volumes and its stable interface from the instance it replaces. moto does not enforce IAM, so the refusals shown here
// are the script's own; the unit tests assert the role's policy.

const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-attach.sh');
const TAG = 'storage-server:id';
const ME = 'StorageServer-hpc1-storage1/storage1';

let moto: Moto;
/** The venv's CLI, imported once for the file by test/support/aws-cli.ts. */
let awsCli: AwsCli;
let ec2: EC2Client;
let subnetId: string;
let az: string;

beforeAll(async () => {
  moto = await startMoto();
  awsCli = await startAwsCli(['ec2 describe-volumes']);
  ec2 = new EC2Client({ endpoint: moto.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' }));
  const subnet = await ec2.send(new CreateSubnetCommand({ VpcId: vpc.Vpc!.VpcId!, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' }));
  subnetId = subnet.Subnet!.SubnetId!;
  az = subnet.Subnet!.AvailabilityZone!;
}, 120_000);
afterAll(async () => {
  ec2?.destroy();
  await moto?.stop();
  await awsCli?.stop();
});

const tags = (identity: string | undefined) => (identity ? [{ Key: TAG, Value: identity }] : []);

async function instance(identity: string | undefined, opts: { stopProtected?: boolean } = {}): Promise<string> {
  const r = await ec2.send(new RunInstancesCommand({
    ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, InstanceType: 'm4.xlarge', SubnetId: subnetId,
    DisableApiStop: opts.stopProtected,
    TagSpecifications: identity ? [{ ResourceType: 'instance', Tags: tags(identity) }] : undefined,
  }));
  return r.Instances![0].InstanceId!;
}
async function volume(identity: string | undefined): Promise<string> {
  const r = await ec2.send(new CreateVolumeCommand({
    AvailabilityZone: az, Size: 500, VolumeType: 'st1', Encrypted: true,
    TagSpecifications: identity ? [{ ResourceType: 'volume', Tags: tags(identity) }] : undefined,
  }));
  return r.VolumeId!;
}
async function eni(identity: string | undefined): Promise<string> {
  const r = await ec2.send(new CreateNetworkInterfaceCommand({
    SubnetId: subnetId, PrivateIpAddress: '10.0.1.50',
    TagSpecifications: identity ? [{ ResourceType: 'network-interface', Tags: tags(identity) }] : undefined,
  }));
  return r.NetworkInterface!.NetworkInterfaceId!;
}
async function volumeHolder(id: string): Promise<{ instance?: string; device?: string }> {
  const v = (await ec2.send(new DescribeVolumesCommand({ VolumeIds: [id] }))).Volumes![0];
  return { instance: v.Attachments?.[0]?.InstanceId, device: v.Attachments?.[0]?.Device };
}
async function eniHolder(id: string): Promise<{ instance?: string; index?: number }> {
  const n = (await ec2.send(new DescribeNetworkInterfacesCommand({ NetworkInterfaceIds: [id] }))).NetworkInterfaces![0];
  return { instance: n.Attachment?.InstanceId, index: n.Attachment?.DeviceIndex };
}
async function state(id: string): Promise<string | undefined> {
  const r = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
  return r.Reservations![0].Instances![0].State?.Name;
}

/** Runs the attach step; resolves with its exit status and output. `during` runs while it is running. */
function attach(args: string[], during?: (out: () => string) => Promise<void>): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT, ...args], {
      env: {
        PATH: `${awsCli.bin}:${venvBin()}:${process.env.PATH}`,
        ...motoEnv(moto.endpoint),
        STORAGE_ATTACH_POLL_SECONDS: '0.1',
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
    if (during) during(() => out).catch(reject);
  });
}
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
};

jest.setTimeout(120_000);

test('first boot: free volumes and interface are attached here, volumes in stripe order, then the interface', async () => {
  const self = await instance(ME);
  const [v0, v1, v2] = [await volume(ME), await volume(ME), await volume(ME)];
  const n = await eni(ME);
  const r = await attach(['--instance', self, '--identity', ME, '--interface', n, `${v0}:/dev/sdf`, `${v1}:/dev/sdg`, `${v2}:/dev/sdh`]);
  expect(r.status).toBe(0);
  expect(await volumeHolder(v0)).toEqual({ instance: self, device: '/dev/sdf' });
  expect(await volumeHolder(v1)).toEqual({ instance: self, device: '/dev/sdg' });
  expect(await volumeHolder(v2)).toEqual({ instance: self, device: '/dev/sdh' });
  expect(await eniHolder(n)).toEqual({ instance: self, index: 1 });
  const order = r.out.split('\n').filter((l) => l.startsWith('storage-attach: attaching'));
  expect(order).toEqual([
    `storage-attach: attaching ${v0} as /dev/sdf (stripe member 0)`,
    `storage-attach: attaching ${v1} as /dev/sdg (stripe member 1)`,
    `storage-attach: attaching ${v2} as /dev/sdh (stripe member 2)`,
    `storage-attach: attaching interface ${n} as device index 1`,
  ]);
  // Run again, as on a reboot or a re-apply: nothing to do, and nothing changes.
  const again = await attach(['--instance', self, '--identity', ME, '--interface', n, `${v0}:/dev/sdf`, `${v1}:/dev/sdg`, `${v2}:/dev/sdh`]);
  expect(again.status).toBe(0);
  expect(again.out).not.toContain('attaching');
});

test('replacement: the previous instance of this server is stopped, then its volumes and interface move here', async () => {
  const old = await instance(ME);
  const [v0, v1] = [await volume(ME), await volume(ME)];
  const n = await eni(ME);
  await ec2.send(new AttachVolumeCommand({ VolumeId: v0, InstanceId: old, Device: '/dev/sdf' }));
  await ec2.send(new AttachVolumeCommand({ VolumeId: v1, InstanceId: old, Device: '/dev/sdg' }));
  await ec2.send(new AttachNetworkInterfaceCommand({ NetworkInterfaceId: n, InstanceId: old, DeviceIndex: 1 }));
  const replacement = await instance(ME);
  const r = await attach(['--instance', replacement, '--identity', ME, '--interface', n, `${v0}:/dev/sdf`, `${v1}:/dev/sdg`]);
  expect(r.out).toContain(`volume ${v0} is held by ${old}, the instance this one replaces: stopping it (clean shutdown)`);
  expect(r.status).toBe(0);
  expect(await state(old)).toBe('stopped');
  expect(await volumeHolder(v0)).toEqual({ instance: replacement, device: '/dev/sdf' });
  expect(await volumeHolder(v1)).toEqual({ instance: replacement, device: '/dev/sdg' });
  expect(await eniHolder(n)).toEqual({ instance: replacement, index: 1 });
});

test('waits while the old instance holds a volume it cannot be made to stop, and attaches once it is free', async () => {
  const old = await instance(ME, { stopProtected: true });
  const [v0, v1] = [await volume(ME), await volume(ME)];
  await ec2.send(new AttachVolumeCommand({ VolumeId: v1, InstanceId: old, Device: '/dev/sdg' }));
  const replacement = await instance(ME);
  const r = await attach(['--instance', replacement, '--identity', ME, '--wait', '60', `${v0}:/dev/sdf`, `${v1}:/dev/sdg`], async (out) => {
    // The step has tried to stop the old instance and waits; meanwhile it has taken volume 0 only.
    await waitFor(() => out().includes(`could not stop ${old}`));
    await new Promise((res) => setTimeout(res, 3000));
    expect(await volumeHolder(v0)).toEqual({ instance: replacement, device: '/dev/sdf' });
    expect((await volumeHolder(v1)).instance).toBe(old);
    // The old instance lets go, as when CloudFormation deletes it or an operator detaches the volume.
    await ec2.send(new DetachVolumeCommand({ VolumeId: v1, InstanceId: old }));
  });
  expect(r.status).toBe(0);
  expect(await volumeHolder(v1)).toEqual({ instance: replacement, device: '/dev/sdg' });
  expect(await state(old)).toBe('running');
});

test('stripe order: a volume is not attached while one before it is still held', async () => {
  const old = await instance(ME, { stopProtected: true });
  const [v0, v1] = [await volume(ME), await volume(ME)];
  await ec2.send(new AttachVolumeCommand({ VolumeId: v0, InstanceId: old, Device: '/dev/sdf' }));
  const replacement = await instance(ME);
  const r = await attach(['--instance', replacement, '--identity', ME, '--wait', '3', `${v0}:/dev/sdf`, `${v1}:/dev/sdg`]);
  expect(r.status).toBe(1);
  expect(r.out).toContain(`ERROR: not attached after waiting 3s: ${v0} (held by ${old}) ${v1} (free, after the volumes before it)`);
  expect((await volumeHolder(v1)).instance).toBeUndefined();
});

describe('refusals: nothing is stopped, detached or attached', () => {
  test.each([
    ['tagged for another server', 'StorageServer-hpc1-storage2/storage2', 'StorageServer-hpc1-storage2/storage2'],
    ['not tagged at all', undefined, '(none)'],
  ])('a volume %s', async (_name, identity, shown) => {
    const self = await instance(ME);
    const mine = await volume(ME);
    const theirs = await volume(identity);
    const r = await attach(['--instance', self, '--identity', ME, `${mine}:/dev/sdf`, `${theirs}:/dev/sdg`]);
    expect(r.status).toBe(1);
    expect(r.out).toContain(`ERROR: volume ${theirs} is tagged ${TAG}=${shown}, not this server (${ME}): refusing to attach it`);
    expect((await volumeHolder(mine)).instance).toBeUndefined();
    expect((await volumeHolder(theirs)).instance).toBeUndefined();
  });

  test('an interface tagged for another server', async () => {
    const self = await instance(ME);
    const v = await volume(ME);
    const n = await eni('StorageServer-hpc1-storage2/storage2');
    const r = await attach(['--instance', self, '--identity', ME, '--interface', n, `${v}:/dev/sdf`]);
    expect(r.status).toBe(1);
    expect(r.out).toContain(`ERROR: interface ${n} is tagged ${TAG}=StorageServer-hpc1-storage2/storage2, not this server (${ME}): refusing to attach it`);
    expect((await volumeHolder(v)).instance).toBeUndefined();
    expect((await eniHolder(n)).instance).toBeUndefined();
  });

  test('our volume held by an instance of another server: that instance is never stopped', async () => {
    const other = await instance('StorageServer-hpc1-storage2/storage2');
    const v = await volume(ME);
    await ec2.send(new AttachVolumeCommand({ VolumeId: v, InstanceId: other, Device: '/dev/sdf' }));
    const self = await instance(ME);
    const r = await attach(['--instance', self, '--identity', ME, `${v}:/dev/sdf`]);
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      `ERROR: volume ${v} is held by ${other}, an instance of StorageServer-hpc1-storage2/storage2 (${TAG}), not a previous instance of ${ME}: refusing to take it`,
    );
    expect(await state(other)).toBe('running');
    expect((await volumeHolder(v)).instance).toBe(other);
  });

  test.each([
    [['--instance', 'i-xyz', '--identity', ME, 'vol-0123456789abcdef0:/dev/sdf'], "--instance must be an instance id such as i-0123456789abcdef0, got 'i-xyz'"],
    [['--instance', 'i-0123456789abcdef0', '--identity', ME, 'vol-0123456789abcdef0:/dev/nvme1n1'], "bad device name '/dev/nvme1n1'"],
    [['--instance', 'i-0123456789abcdef0', '--identity', 'a b', 'vol-0123456789abcdef0:/dev/sdf'], "--identity is invalid: 'a b'"],
    [['--instance', 'i-0123456789abcdef0', '--identity', ME], 'nothing to attach'],
  ])('bad arguments %j', async (args, message) => {
    const r = await attach(args);
    expect(r.status).toBe(1);
    expect(r.out).toContain(message);
  });
});
