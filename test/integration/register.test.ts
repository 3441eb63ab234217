/**
 * The registration handler against moto (a real AWS API emulator over HTTP): the handler's own SDK
 * clients find moto through AWS_ENDPOINT_URL, exactly as they would find AWS.
 */
import {
  AttachNetworkInterfaceCommand,
  CreateNetworkInterfaceCommand,
  EC2Client,
  StopInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';
import {
  DeleteParametersCommand,
  GetParameterCommand,
  GetParametersByPathCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
import { MOTO_SETUP_TIMEOUT_MS, startMoto, motoEnv, type Moto } from '../support/moto';
import { recordProblems } from '../support/record-schema';
import {
  OPTIONS,
  OTHER_STACK_ID,
  STACK_ID,
  captureStdout,
  createEvent,
  createSubnet,
  deleteEvent,
  from,
  launchInstance,
  ownerMark,
  props,
  updateEvent,
} from './fixtures';

type Handler = typeof import('../../lambda/register').handler;

let moto: Moto;
let handler: Handler;
let ec2: EC2Client;
let ssm: SSMClient;
let subnetId: string;
let server: Instance;
let stdout: ReturnType<typeof captureStdout>;
let prefixCount = 0;

beforeAll(async () => {
  moto = await startMoto();
  Object.assign(process.env, motoEnv(moto.endpoint));
  // Imported only now: the handler creates its clients at module load, from the environment above.
  ({ handler } = await import('../../lambda/register'));
  ec2 = new EC2Client({});
  ssm = new SSMClient({});
  subnetId = await createSubnet(ec2);
  server = await launchInstance(ec2, subnetId);
}, MOTO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await moto?.stop();
});

beforeEach(() => {
  stdout = captureStdout();
});

afterEach(() => {
  stdout.restore();
});

/** A prefix of its own for each test, so tests share one moto without seeing each other's records. */
function freshPrefix(): string {
  prefixCount += 1;
  return `/it${prefixCount}/storage-server`;
}

async function value(name: string): Promise<unknown> {
  const out = await ssm.send(new GetParameterCommand({ Name: name }));
  return JSON.parse(out.Parameter?.Value ?? 'null');
}

/** What an operator does to free a server's name: removes its two records. */
async function removeRecords(prefix: string, serverName: string): Promise<void> {
  await ssm.send(new DeleteParametersCommand({
    Names: [`${prefix}/hpc1/ring/${serverName}`, `${prefix}/hpc1/storage/${serverName}/mount`],
  }));
}

async function namesUnder(path: string): Promise<string[]> {
  const names: string[] = [];
  let NextToken: string | undefined;
  do {
    const out = await ssm.send(new GetParametersByPathCommand({ Path: path, Recursive: true, NextToken }));
    names.push(...(out.Parameters ?? []).map((p) => p.Name ?? ''));
    NextToken = out.NextToken;
  } while (NextToken);
  return names.sort();
}

function expectedRing(instance: Instance, serverName: string, backend: string, stackId?: string): Record<string, unknown> {
  return {
    name: serverName,
    role: 'storage',
    instanceId: instance.InstanceId,
    privateIp: instance.PrivateIpAddress,
    privateDnsName: instance.PrivateDnsName,
    availabilityZone: instance.Placement?.AvailabilityZone,
    instanceType: instance.InstanceType,
    backend,
    registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    owner: ownerMark('ring', 'hpc1', serverName, stackId),
  };
}

describe('Create', () => {
  test('writes the ring record and mount config exactly per the SSM record contract (docs/design.md, section 6) and returns their names', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const before = Date.now();

    // WHEN
    const result = await handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix })));

    // THEN
    const ring = `${prefix}/hpc1/ring/storage1`;
    const mount = `${prefix}/hpc1/storage/storage1/mount`;
    const ip = server.PrivateIpAddress;
    expect(result).toEqual({
      PhysicalResourceId: ring,
      Data: { RingParameterName: ring, MountParameterName: mount, PrivateIp: ip },
    });
    const ringValue = (await value(ring)) as Record<string, unknown>;
    expect(ringValue).toEqual(expectedRing(server, 'storage1', 'ebs'));
    // Both records as written are the schema's (lambda/register/records.schema.json).
    expect(recordProblems('ringRecord', ringValue)).toEqual([]);
    expect(recordProblems('mountRecord', await value(mount))).toEqual([]);
    expect(Object.keys(ringValue)).toEqual([
      'name',
      'role',
      'instanceId',
      'privateIp',
      'privateDnsName',
      'availabilityZone',
      'instanceType',
      'backend',
      'registeredAt',
      'owner',
    ]);
    const registeredAt = Date.parse(String(ringValue.registeredAt));
    expect(registeredAt).toBeGreaterThanOrEqual(before - 1000);
    expect(registeredAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await value(mount)).toEqual({
      server: ip,
      exportPath: '/export/data',
      mountPoint: '/data',
      fsType: 'nfs4',
      options: OPTIONS,
      fstab: `${ip}:/export/data /data nfs4 ${OPTIONS} 0 0`,
      backend: 'ebs',
      owner: ownerMark('mount', 'hpc1', 'storage1'),
    });
    const stored = await ssm.send(new GetParameterCommand({ Name: mount }));
    expect(stored.Parameter?.Type).toBe('String');
  });

  test('the records are listable by path: ring members and every storage server of the cluster', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const other = await launchInstance(ec2, subnetId, 'd2.4xlarge');

    // WHEN
    await handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix })));
    await handler(
      createEvent(
        props(other.InstanceId ?? '', {
          ParameterPrefix: prefix,
          ServerName: 'scratch',
          Backend: 'instance-store',
        }),
      ),
    );

    // THEN
    expect(await namesUnder(`${prefix}/hpc1/ring/`)).toEqual([
      `${prefix}/hpc1/ring/scratch`,
      `${prefix}/hpc1/ring/storage1`,
    ]);
    expect(await namesUnder(`${prefix}/hpc1/storage/`)).toEqual([
      `${prefix}/hpc1/storage/scratch/mount`,
      `${prefix}/hpc1/storage/storage1/mount`,
    ]);
    expect(await value(`${prefix}/hpc1/ring/scratch`)).toEqual(
      expectedRing(other, 'scratch', 'instance-store'),
    );
  });

  test('a repeated Create overwrites with the same records (only registeredAt moves on)', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const event = createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix }));
    const first = await handler(event);
    const ringBefore = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    const mountBefore = await value(`${prefix}/hpc1/storage/storage1/mount`);

    // WHEN
    const second = await handler(event);

    // THEN
    expect(second).toEqual(first);
    const ringAfter = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    expect({ ...ringAfter, registeredAt: 'x' }).toEqual({ ...ringBefore, registeredAt: 'x' });
    expect(Date.parse(String(ringAfter.registeredAt))).toBeGreaterThanOrEqual(
      Date.parse(String(ringBefore.registeredAt)),
    );
    expect(await value(`${prefix}/hpc1/storage/storage1/mount`)).toEqual(mountBefore);
    expect(await namesUnder(prefix)).toHaveLength(2);
    const version = await ssm.send(new GetParameterCommand({ Name: `${prefix}/hpc1/ring/storage1` }));
    expect(version.Parameter?.Version).toBe(2);
  });
});

describe('the records of another server are never written over', () => {
  test('a Create under a name another stack\'s server holds is refused, and its records stay as they were', async () => {
    // GIVEN a server registered as hpc1/storage1 by another stack with the same names
    const prefix = freshPrefix();
    await handler(from(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));
    const mountBefore = await value(`${prefix}/hpc1/storage/storage1/mount`);
    const intruder = await launchInstance(ec2, subnetId);

    // WHEN a second server registers under the same names
    const second = handler(createEvent(props(intruder.InstanceId ?? '', { ParameterPrefix: prefix })));

    // THEN it is refused, naming the name, the owner and the way out
    await expect(second).rejects.toThrow(
      `${prefix}/hpc1/ring/storage1 belongs to Registration of stack ${OTHER_STACK_ID}, not to Registration of stack ` +
        `${STACK_ID}: another server of the cluster is registered under this name. Give this server another serverName`,
    );
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(server, 'storage1', 'ebs', OTHER_STACK_ID));
    expect(await value(`${prefix}/hpc1/storage/storage1/mount`)).toEqual(mountBefore);
  });

  test('an Update is refused too, whichever instances it names', async () => {
    // GIVEN records of `server` by another stack, and a stack whose registration moves from one instance of its own to another
    const prefix = freshPrefix();
    await handler(from(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));
    const [a, b] = [await launchInstance(ec2, subnetId), await launchInstance(ec2, subnetId)];
    const oldProps = props(a.InstanceId ?? '', { ParameterPrefix: prefix });
    const newProps = props(b.InstanceId ?? '', { ParameterPrefix: prefix });

    // WHEN
    const update = handler(updateEvent(`${prefix}/hpc1/ring/storage1`, newProps, oldProps));

    // THEN
    await expect(update).rejects.toThrow(`${prefix}/hpc1/ring/storage1 belongs to Registration of stack ${OTHER_STACK_ID}`);
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(server, 'storage1', 'ebs', OTHER_STACK_ID));
  });

  test('a rollback Update (back to the instance the records were written for before) writes over its own records', async () => {
    // GIVEN an Update moved the records to a replacement instance, then the stack rolled back
    const prefix = freshPrefix();
    const original = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await handler(createEvent(original));
    const replacement = await launchInstance(ec2, subnetId);
    const replaced = props(replacement.InstanceId ?? '', { ParameterPrefix: prefix });
    await handler(updateEvent(String(created.PhysicalResourceId), replaced, original));

    // WHEN CloudFormation sends the rollback: the old properties are the replacement's
    await handler(updateEvent(String(created.PhysicalResourceId), original, replaced));

    // THEN
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(server, 'storage1', 'ebs'));
  });

  test('an FSx for Lustre Create under a name another file system holds is refused', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/scratch`;
    const record = (fileSystemId: string) => ({
      ...props('', { ParameterPrefix: prefix, ServerName: 'scratch', MountPoint: '/scratch', Backend: 'fsx-lustre' }),
      InstanceId: undefined,
      FileSystemId: fileSystemId,
      DnsName: `${fileSystemId}.fsx.us-east-1.amazonaws.com`,
      MountName: 'abcdefgh',
      Deployment: 'PERSISTENT_2/SSD/125',
      ExportPath: '/abcdefgh',
    });
    await handler(from(createEvent(record('fs-0123456789abcdef0') as never), OTHER_STACK_ID));

    // WHEN / THEN
    await expect(handler(createEvent(record('fs-0fedcba9876543210') as never))).rejects.toThrow(
      `${ring} belongs to Registration of stack ${OTHER_STACK_ID}`,
    );
    expect(await value(ring)).toMatchObject({ fileSystemId: 'fs-0123456789abcdef0' });
  });
});

describe('the stable address (NetworkInterfaceId)', () => {
  async function stableInterface(ip: string): Promise<string> {
    const out = await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnetId, PrivateIpAddress: ip }));
    return out.NetworkInterface?.NetworkInterfaceId ?? '';
  }

  test('the records carry the address of the interface the server attached, not the instance\'s own', async () => {
    // GIVEN an interface attached to the server as device 1
    const prefix = freshPrefix();
    const eni = await stableInterface('10.20.1.200');
    await ec2.send(new AttachNetworkInterfaceCommand({ NetworkInterfaceId: eni, InstanceId: server.InstanceId, DeviceIndex: 1 }));

    // WHEN
    const result = await handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix, NetworkInterfaceId: eni })));

    // THEN
    expect(server.PrivateIpAddress).not.toBe('10.20.1.200');
    expect(result.Data?.PrivateIp).toBe('10.20.1.200');
    const ring = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    expect(ring.privateIp).toBe('10.20.1.200');
    expect(ring.instanceId).toBe(server.InstanceId);
    const mount = (await value(`${prefix}/hpc1/storage/storage1/mount`)) as Record<string, unknown>;
    expect(mount.server).toBe('10.20.1.200');
    expect(mount.fstab).toBe(`10.20.1.200:/export/data /data nfs4 ${OPTIONS} 0 0`);
  });

  test.each([
    ['attached to no instance', false, /it is available\): the server has not taken its stable address/],
    ['attached to another instance', true, /\(it is attached to i-[0-9a-f]+\): the server has not taken its stable address/],
  ])('an interface %s: refused, nothing written', async (_name, elsewhere, message) => {
    const prefix = freshPrefix();
    const eni = await stableInterface(elsewhere ? '10.20.1.201' : '10.20.1.202');
    if (elsewhere) {
      const other = await launchInstance(ec2, subnetId);
      await ec2.send(new AttachNetworkInterfaceCommand({ NetworkInterfaceId: eni, InstanceId: other.InstanceId, DeviceIndex: 1 }));
    }
    await expect(
      handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix, NetworkInterfaceId: eni }))),
    ).rejects.toThrow(message);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('a malformed interface id is refused before any call', async () => {
    await expect(
      handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: freshPrefix(), NetworkInterfaceId: 'eni-xyz' }))),
    ).rejects.toThrow("ResourceProperties.NetworkInterfaceId must be an EC2 network interface id ('eni-' and 8 or 17 lower-case hex digits), got \"eni-xyz\"");
  });
});

describe('Update', () => {
  test('a new instance id re-registers under the same PhysicalResourceId', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const oldProps = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await handler(createEvent(oldProps));
    const replacement = await launchInstance(ec2, subnetId);

    // WHEN
    const newProps = props(replacement.InstanceId ?? '', { ParameterPrefix: prefix });
    const updated = await handler(updateEvent(String(created.PhysicalResourceId), newProps, oldProps));

    // THEN
    expect(replacement.PrivateIpAddress).not.toBe(server.PrivateIpAddress);
    expect(updated.PhysicalResourceId).toBe(created.PhysicalResourceId);
    expect(updated.Data?.PrivateIp).toBe(replacement.PrivateIpAddress);
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(replacement, 'storage1', 'ebs'));
    expect(await value(`${prefix}/hpc1/storage/storage1/mount`)).toMatchObject({
      server: replacement.PrivateIpAddress,
      fstab: `${replacement.PrivateIpAddress}:/export/data /data nfs4 ${OPTIONS} 0 0`,
    });
    expect(await namesUnder(prefix)).toHaveLength(2);
  });

  test.each([
    ['server', { ServerName: 'storage2' }, 'hpc1/ring/storage2', 'hpc1/storage/storage2/mount'],
    ['cluster', { ClusterName: 'hpc2' }, 'hpc2/ring/storage1', 'hpc2/storage/storage1/mount'],
  ])(
    'a renamed %s gets a new PhysicalResourceId, and the Delete CloudFormation then sends for the old one removes only the old records',
    async (_what, rename, newRing, newMount) => {
      // GIVEN
      const prefix = freshPrefix();
      const oldProps = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
      const created = await handler(createEvent(oldProps));
      const newProps = { ...oldProps, ...rename };

      // WHEN the update, then the clean-up Delete of the old physical resource
      const updated = await handler(updateEvent(String(created.PhysicalResourceId), newProps, oldProps));
      await handler(deleteEvent(String(created.PhysicalResourceId), oldProps));

      // THEN
      expect(updated.PhysicalResourceId).toBe(`${prefix}/${newRing}`);
      expect(updated.PhysicalResourceId).not.toBe(created.PhysicalResourceId);
      expect(await namesUnder(prefix)).toEqual([`${prefix}/${newMount}`, `${prefix}/${newRing}`].sort());
    },
  );
});

describe('Delete', () => {
  test('removes both records; nothing is left under the prefix', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await handler(createEvent(p));
    expect(await namesUnder(prefix)).toHaveLength(2);

    // WHEN
    const deleted = await handler(deleteEvent(String(created.PhysicalResourceId), p));

    // THEN
    expect(deleted.PhysicalResourceId).toBe(created.PhysicalResourceId);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('succeeds when the records are already gone (repeated Delete)', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    const ring = `${prefix}/hpc1/ring/storage1`;

    // WHEN / THEN
    await expect(handler(deleteEvent(ring, p))).resolves.toEqual({ PhysicalResourceId: ring });
    await expect(handler(deleteEvent(ring, p))).resolves.toEqual({ PhysicalResourceId: ring });
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('removes its mount config even when the ring record is already gone', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    await handler(createEvent(p));
    await ssm.send(new DeleteParametersCommand({ Names: [`${prefix}/hpc1/ring/storage1`] }));

    // WHEN
    await handler(deleteEvent(`${prefix}/hpc1/ring/storage1`, p));

    // THEN
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('leaves records that another instance has registered under the same names since', async () => {
    // GIVEN a second stack registered a new server under the same cluster and server names, after an operator
    // removed the first one's records (a registration never writes over another server's)
    const prefix = freshPrefix();
    const oldProps = props(server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await handler(createEvent(oldProps));
    await removeRecords(prefix, 'storage1');
    const successor = await launchInstance(ec2, subnetId);
    await handler(from(createEvent(props(successor.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));

    // WHEN the old stack is deleted
    await handler(deleteEvent(String(created.PhysicalResourceId), oldProps));

    // THEN the successor's records survive
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(successor, 'storage1', 'ebs', OTHER_STACK_ID));
    expect(await namesUnder(prefix)).toHaveLength(2);
  });

  test('a Delete whose properties no longer validate still removes the records (the stack stays deletable)', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const created = await handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix })));

    // WHEN
    await handler(deleteEvent(String(created.PhysicalResourceId), { ServiceToken: 'x' }));

    // THEN
    expect(await namesUnder(prefix)).toEqual([]);
  });
});

describe('FSx for Lustre (Backend fsx-lustre): a file system instead of an instance', () => {
  const FS_ID = 'fs-0123456789abcdef0';
  const fsxProps = (prefix: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => {
    const p: Record<string, unknown> = {
      ...props('', { ParameterPrefix: prefix, ServerName: 'scratch', MountPoint: '/scratch', Backend: 'fsx-lustre' }),
      FileSystemId: FS_ID,
      DnsName: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      MountName: 'abcdefgh',
      AvailabilityZone: 'us-east-1a',
      Deployment: 'PERSISTENT_2/SSD/125',
      ExportPath: '/abcdefgh',
      MountOptions: 'relatime,flock,_netdev,nosuid,nodev',
      ...overrides,
    };
    delete p.InstanceId;
    return p;
  };

  test('Create writes a ring record with fileSystemId and a lustre mount config, without calling EC2', async () => {
    const prefix = freshPrefix();
    const result = await handler(createEvent(fsxProps(prefix) as never));
    const ring = `${prefix}/hpc1/ring/scratch`;
    const mount = `${prefix}/hpc1/storage/scratch/mount`;
    expect(result).toEqual({ PhysicalResourceId: ring, Data: { RingParameterName: ring, MountParameterName: mount, PrivateIp: '' } });
    expect(await value(ring)).toEqual({
      name: 'scratch',
      role: 'storage',
      fileSystemId: FS_ID,
      privateIp: '',
      privateDnsName: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      availabilityZone: 'us-east-1a',
      instanceType: 'PERSISTENT_2/SSD/125',
      backend: 'fsx-lustre',
      registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      owner: ownerMark('ring', 'hpc1', 'scratch'),
    });
    expect(await value(mount)).toEqual({
      server: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      exportPath: '/abcdefgh',
      mountPoint: '/scratch',
      fsType: 'lustre',
      options: 'relatime,flock,_netdev,nosuid,nodev',
      fstab: `${FS_ID}.fsx.us-east-1.amazonaws.com@tcp:/abcdefgh /scratch lustre relatime,flock,_netdev,nosuid,nodev 0 0`,
      backend: 'fsx-lustre',
      owner: ownerMark('mount', 'hpc1', 'scratch'),
    });
    expect(stdout.lines().map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ msg: 'registering FSx file system', backend: 'fsx-lustre' }),
      expect.objectContaining({ msg: 'registered FSx file system', backend: 'fsx-lustre', fsType: 'lustre' }),
    ]);
  });

  test('Delete removes the records it owns and leaves another owner\'s alone', async () => {
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/scratch`;
    await handler(createEvent(fsxProps(prefix) as never));
    // Another stack's file system took the name over (after an operator removed the records): not ours to delete.
    await removeRecords(prefix, 'scratch');
    const other = fsxProps(prefix, { FileSystemId: 'fs-0fedcba9876543210', DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' });
    await handler(from(createEvent(other as never), OTHER_STACK_ID));
    await handler(deleteEvent(ring, fsxProps(prefix) as never));
    expect(await namesUnder(`${prefix}/`)).toEqual([ring, `${prefix}/hpc1/storage/scratch/mount`]);
    await handler(from(deleteEvent(ring, other as never), OTHER_STACK_ID));
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });

  test.each([
    ['a missing DnsName', { DnsName: undefined }, /ResourceProperties is missing DnsName/],
    ['a file system id that is not one', { FileSystemId: 'i-0123456789abcdef0' }, /ResourceProperties\.FileSystemId must be an FSx file system id/],
    ['a DNS name of another file system', { DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' }, /ResourceProperties\.DnsName must be the file system's DNS name \(fs-0123456789abcdef0\.fsx\.<region>\.amazonaws\.com\)/],
    ['a DNS name outside amazonaws.com', { DnsName: `${FS_ID}.fsx.us-east-1.evil.example` }, /ResourceProperties\.DnsName must be/],
    ['a mount name with a slash', { MountName: 'ab/cd', ExportPath: '/ab/cd' }, /ResourceProperties\.MountName must be a Lustre mount name/],
    ['an empty mount name (FSx for OpenZFS has none, FSx for Lustre always one)', { MountName: '' }, /ResourceProperties is missing MountName/],
    ['an export path that is not the mount name', { ExportPath: '/export/data' }, /ResourceProperties\.ExportPath must be '\/' and the mount name \("\/abcdefgh"\) for FSx for Lustre/],
    ['a deployment that is not one', { Deployment: 'PERSISTENT_9/SSD/125' }, /ResourceProperties\.Deployment must be a deployment such as 'PERSISTENT_2\/SSD\/125'/],
  ])('%s is refused and nothing is written', async (_, overrides, message) => {
    const prefix = freshPrefix();
    await expect(handler(createEvent(fsxProps(prefix, overrides) as never))).rejects.toThrow(message);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });
});

describe('bad input: the handler throws an Error naming the problem and writes nothing', () => {
  test('unknown instance id', async () => {
    const prefix = freshPrefix();
    await expect(
      handler(createEvent(props('i-0123456789abcdef0', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(/InstanceId i-0123456789abcdef0 does not exist .*InvalidInstanceID\.NotFound/);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('missing ResourceProperties', async () => {
    const event = { ...createEvent({}), ResourceProperties: undefined } as unknown as Parameters<Handler>[0];
    await expect(handler(event)).rejects.toThrow(
      /^ResourceProperties is missing; expected the keys InstanceId, ClusterName/,
    );
  });

  test('missing ResourceProperties keys are each named', async () => {
    const p = props(server.InstanceId ?? '');
    delete p.MountPoint;
    delete p.Backend;
    await expect(handler(createEvent(p))).rejects.toThrow(
      /^ResourceProperties is missing MountPoint, Backend;/,
    );
  });

  test.each([
    ['a slash', 'hpc/1'],
    ['a space', 'hpc 1'],
    ['a character SSM rejects', 'hpc#1'],
    ['65 characters', 'c'.repeat(65)],
  ])('a cluster name with %s (an invalid SSM path)', async (_what, clusterName) => {
    const prefix = freshPrefix();
    await expect(
      handler(
        createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix, ClusterName: clusterName })),
      ),
    ).rejects.toThrow(
      `ResourceProperties.ClusterName must be 1-64 characters of A-Z, a-z, 0-9, '_', '.' or '-'`,
    );
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test.each([
    ['no leading slash', 'storage-server', "must start with '/'"],
    ['a trailing slash', '/storage-server/', "must be '/'-separated non-empty levels"],
    ['the reserved aws prefix', '/aws/storage', "must not start with 'aws' or 'ssm'"],
    ['12 levels', '/a/b/c/d/e/f/g/h/i/j/k/l', 'must have at most 11 levels'],
  ])('a parameter prefix with %s', async (_what, prefix, message) => {
    await expect(
      handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(`ResourceProperties.ParameterPrefix ${message}`);
  });

  test.each([
    ['InstanceId', 'i-zzz', "must be an EC2 instance id ('i-' and 8 or 17 lower-case hex digits)"],
    ['Backend', 'nvme', 'must be one of ebs, instance-store, fsx-lustre'],
    ['ExportPath', 'export/data', 'must be an absolute path without whitespace'],
    ['MountPoint', '/my data', 'must be an absolute path without whitespace'],
    ['MountOptions', 'hard, intr', 'must be a non-empty comma-separated option list without whitespace'],
  ])('%s %j', async (key, bad, message) => {
    await expect(handler(createEvent(props(server.InstanceId ?? '', { [key]: bad })))).rejects.toThrow(
      `ResourceProperties.${key} ${message}, `,
    );
  });

  test('an instance that is stopped', async () => {
    const prefix = freshPrefix();
    const stopped = await launchInstance(ec2, subnetId);
    await ec2.send(new StopInstancesCommand({ InstanceIds: [stopped.InstanceId ?? ''] }));
    await expect(
      handler(createEvent(props(stopped.InstanceId ?? '', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(`instance ${stopped.InstanceId} is stopped; it must be running to be registered`);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('an unknown RequestType', async () => {
    const event = {
      ...createEvent(props(server.InstanceId ?? '')),
      RequestType: 'Replace',
    } as unknown as Parameters<Handler>[0];
    await expect(handler(event)).rejects.toThrow(
      'RequestType must be Create, Update or Delete, got "Replace"',
    );
  });
});

describe('logs', () => {
  test('are one JSON object per line with level, msg, requestType and the names, and never carry the event', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const event = createEvent(props(server.InstanceId ?? '', { ParameterPrefix: prefix }));

    // WHEN
    await handler(event);
    await handler(createEvent(props('i-0123456789abcdef0', { ParameterPrefix: prefix }))).catch(
      () => undefined,
    );

    // THEN
    const lines = stdout.lines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) {
      expect(r).toEqual(expect.objectContaining({ level: expect.any(String), msg: expect.any(String) }));
    }
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'registered storage server',
        requestType: 'Create',
        ringParameterName: `${prefix}/hpc1/ring/storage1`,
        mountParameterName: `${prefix}/hpc1/storage/storage1/mount`,
        privateIp: server.PrivateIpAddress,
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 'error', requestType: 'Create' }));
    const all = lines.join('\n');
    expect(all).not.toContain('SECRET-SIGNATURE');
    expect(all).not.toContain(event.ServiceToken);
  });
});
