/** The registration handler against moto, by test/support/register-moto.ts: Create, Update, Delete, and its logs. */
import { DeleteParametersCommand, GetParameterCommand } from '@aws-sdk/client-ssm';
import { recordProblems } from '../support/record-schema';
import { registerAgainstMoto } from '../support/register-moto';
import {
  OPTIONS,
  OTHER_STACK_ID,
  createEvent,
  deleteEvent,
  expectedRing,
  from,
  launchInstance,
  ownerMark,
  props,
  updateEvent,
} from './fixtures';

const rig = registerAgainstMoto('it');
const { freshPrefix, value, namesUnder, removeRecords } = rig;

describe('Create', () => {
  test('writes the ring record and mount config exactly per the SSM record contract (docs/design.md, section 6) and returns their names', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const before = Date.now();

    // WHEN
    const result = await rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })));

    // THEN
    const ring = `${prefix}/hpc1/ring/storage1`;
    const mount = `${prefix}/hpc1/storage/storage1/mount`;
    const ip = rig.server.PrivateIpAddress;
    expect(result).toEqual({
      PhysicalResourceId: ring,
      Data: { RingParameterName: ring, MountParameterName: mount, PrivateIp: ip },
    });
    const ringValue = (await value(ring)) as Record<string, unknown>;
    expect(ringValue).toEqual(expectedRing(rig.server, 'storage1', 'ebs'));
    // Both records as written are the schema's: lambda/register/records.schema.json.
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
    const stored = await rig.ssm.send(new GetParameterCommand({ Name: mount }));
    expect(stored.Parameter?.Type).toBe('String');
  });

  test('the records are listable by path: ring members and every storage server of the cluster', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const other = await launchInstance(rig.ec2, rig.subnetId, 'd2.4xlarge');

    // WHEN
    await rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })));
    await rig.handler(
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
    const event = createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix }));
    const first = await rig.handler(event);
    const ringBefore = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    const mountBefore = await value(`${prefix}/hpc1/storage/storage1/mount`);

    // WHEN
    const second = await rig.handler(event);

    // THEN
    expect(second).toEqual(first);
    const ringAfter = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    expect({ ...ringAfter, registeredAt: 'x' }).toEqual({ ...ringBefore, registeredAt: 'x' });
    expect(Date.parse(String(ringAfter.registeredAt))).toBeGreaterThanOrEqual(
      Date.parse(String(ringBefore.registeredAt)),
    );
    expect(await value(`${prefix}/hpc1/storage/storage1/mount`)).toEqual(mountBefore);
    expect(await namesUnder(prefix)).toHaveLength(2);
    const version = await rig.ssm.send(new GetParameterCommand({ Name: `${prefix}/hpc1/ring/storage1` }));
    expect(version.Parameter?.Version).toBe(2);
  });
});

describe('Update', () => {
  test('a new instance id re-registers under the same PhysicalResourceId', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const oldProps = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await rig.handler(createEvent(oldProps));
    const replacement = await launchInstance(rig.ec2, rig.subnetId);

    // WHEN
    const newProps = props(replacement.InstanceId ?? '', { ParameterPrefix: prefix });
    const updated = await rig.handler(updateEvent(String(created.PhysicalResourceId), newProps, oldProps));

    // THEN
    expect(replacement.PrivateIpAddress).not.toBe(rig.server.PrivateIpAddress);
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
      const oldProps = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
      const created = await rig.handler(createEvent(oldProps));
      const newProps = { ...oldProps, ...rename };

      // WHEN the update, then the clean-up Delete of the old physical resource
      const updated = await rig.handler(updateEvent(String(created.PhysicalResourceId), newProps, oldProps));
      await rig.handler(deleteEvent(String(created.PhysicalResourceId), oldProps));

      // THEN: the old name is removed, so its tombstone tells the clients to unmount it
      expect(updated.PhysicalResourceId).toBe(`${prefix}/${newRing}`);
      expect(updated.PhysicalResourceId).not.toBe(created.PhysicalResourceId);
      const oldTombstone = `${prefix}/${String(created.PhysicalResourceId).slice(prefix.length + 1).replace('/ring/', '/removed/')}`;
      expect(await namesUnder(prefix)).toEqual([`${prefix}/${newMount}`, `${prefix}/${newRing}`, oldTombstone].sort());
    },
  );
});

describe('Delete', () => {
  test('removes both records; only the tombstone is left under the prefix', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await rig.handler(createEvent(p));
    expect(await namesUnder(prefix)).toHaveLength(2);

    // WHEN
    const deleted = await rig.handler(deleteEvent(String(created.PhysicalResourceId), p));

    // THEN
    expect(deleted.PhysicalResourceId).toBe(created.PhysicalResourceId);
    expect(await namesUnder(prefix)).toEqual([`${prefix}/hpc1/removed/storage1`]);
  });

  test('succeeds when the records are already gone (repeated Delete)', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const ring = `${prefix}/hpc1/ring/storage1`;

    // WHEN / THEN
    await expect(rig.handler(deleteEvent(ring, p))).resolves.toEqual({ PhysicalResourceId: ring });
    await expect(rig.handler(deleteEvent(ring, p))).resolves.toEqual({ PhysicalResourceId: ring });
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('removes its mount config even when the ring record is already gone', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    await rig.handler(createEvent(p));
    await rig.ssm.send(new DeleteParametersCommand({ Names: [`${prefix}/hpc1/ring/storage1`] }));

    // WHEN
    await rig.handler(deleteEvent(`${prefix}/hpc1/ring/storage1`, p));

    // THEN
    expect(await namesUnder(prefix)).toEqual([`${prefix}/hpc1/removed/storage1`]);
  });

  test('leaves records that another instance has registered under the same names since', async () => {
    // GIVEN a second stack registered a new server under the same cluster and server names, after an operator removed
    // the first one's records; a registration never writes over another server's
    const prefix = freshPrefix();
    const oldProps = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await rig.handler(createEvent(oldProps));
    await removeRecords(prefix, 'storage1');
    const successor = await launchInstance(rig.ec2, rig.subnetId);
    await rig.handler(from(createEvent(props(successor.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));

    // WHEN the old stack is deleted
    await rig.handler(deleteEvent(String(created.PhysicalResourceId), oldProps));

    // THEN the successor's records survive
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(successor, 'storage1', 'ebs', OTHER_STACK_ID));
    expect(await namesUnder(prefix)).toHaveLength(2);
  });

  test('a Delete whose properties no longer validate still removes the records (the stack stays deletable)', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const created = await rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })));

    // WHEN
    await rig.handler(deleteEvent(String(created.PhysicalResourceId), { ServiceToken: 'x' }));

    // THEN
    expect(await namesUnder(prefix)).toEqual([`${prefix}/hpc1/removed/storage1`]);
  });
});

describe('logs', () => {
  test('are one JSON object per line with level, msg, requestType and the names, and never carry the event', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const event = createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix }));

    // WHEN
    await rig.handler(event);
    await rig.handler(createEvent(props('i-0123456789abcdef0', { ParameterPrefix: prefix }))).catch(
      () => undefined,
    );

    // THEN
    const lines = rig.stdout.lines();
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
        privateIp: rig.server.PrivateIpAddress,
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 'error', requestType: 'Create' }));
    const all = lines.join('\n');
    expect(all).not.toContain('SECRET-SIGNATURE');
    expect(all).not.toContain(event.ServiceToken);
  });
});
