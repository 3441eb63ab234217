/**
 * The registration handler against moto: it writes over, and deletes, only the records it wrote, whatever else its
 * names hold, by the owner marks of lambda/register/owner.ts (docs/design.md section 7). It takes over the records of
 * the same server that were written before owner marks.
 */
import { GetParameterCommand, GetParametersByPathCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { mountRecord } from '../../lambda/register/contract';
import { registerAgainstMoto } from '../support/register-moto';
import {
  OPTIONS,
  OTHER_STACK_ID,
  STACK_ID,
  createEvent,
  deleteEvent,
  from,
  launchInstance,
  ownerMark,
  props,
  updateEvent,
} from './fixtures';

const rig = registerAgainstMoto('own');
const { freshPrefix } = rig;

async function raw(name: string): Promise<string | undefined> {
  const out = await rig.ssm.send(new GetParameterCommand({ Name: name })).catch(() => undefined);
  return out?.Parameter?.Value;
}

async function put(name: string, value: string): Promise<void> {
  await rig.ssm.send(new PutParameterCommand({ Name: name, Value: value, Type: 'String', Overwrite: true }));
}

/** Every parameter under `path`, with its value: what a test compares before and after. */
async function snapshot(path: string): Promise<Record<string, string>> {
  const out = await rig.ssm.send(new GetParametersByPathCommand({ Path: path, Recursive: true }));
  return Object.fromEntries((out.Parameters ?? []).map((p) => [p.Name ?? '', p.Value ?? '']));
}

/** The ring record as the previous version wrote it: no owner mark. */
function previousRing(instanceId: string, serverName = 'storage1'): string {
  return JSON.stringify({
    name: serverName, role: 'storage', instanceId, privateIp: '10.20.1.9', privateDnsName: 'ip-10-20-1-9.ec2.internal',
    availabilityZone: 'us-east-1a', instanceType: 'm4.xlarge', backend: 'ebs', registeredAt: '2026-11-24T10:00:00.000Z',
  });
}

/** The mount record as the previous version wrote it: no owner mark. */
function previousMount(ip = '10.20.1.9'): string {
  return JSON.stringify(mountRecord(ip, '/export/data', '/data', OPTIONS, 'nfs4', 'ebs'));
}

describe("a ring record aimed at another server's mount record (the issue: another cluster's name)", () => {
  // Cluster hpc1's server `ring` under prefix P; the squatter: cluster `storage`, server `mount`, under P/hpc1.
  const squatter = (prefix: string, instanceId: string) =>
    props(instanceId, { ParameterPrefix: `${prefix}/hpc1`, ClusterName: 'storage', ServerName: 'mount' });

  test('the registration refuses it, and the mount record it aimed at stays as it was', async () => {
    // GIVEN cluster hpc1's server `ring`, registered by one stack
    const prefix = freshPrefix();
    await rig.handler(from(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, ServerName: 'ring' })), OTHER_STACK_ID));
    const before = await snapshot(prefix);
    const other = await launchInstance(rig.ec2, rig.subnetId);

    // WHEN another stack registers the squatter
    const create = rig.handler(createEvent(squatter(prefix, other.InstanceId ?? '')));

    // THEN
    await expect(create).rejects.toThrow(
      `ResourceProperties.ServerName "mount" of ResourceProperties.ClusterName "storage" under ResourceProperties.ParameterPrefix ` +
        `"${prefix}/hpc1" names its ring record ${prefix}/hpc1/storage/ring/mount, which is the name of the mount record of ` +
        `server "ring" of cluster "hpc1" under prefix "${prefix}"`,
    );
    expect(await snapshot(prefix)).toEqual(before);
  });

  test("a squatter's ring record written by the previous version: the server whose mount record it took refuses to write over it", async () => {
    // GIVEN the previous version registered the squatter: its ring record holds hpc1's mount record name
    const prefix = freshPrefix();
    const mountName = `${prefix}/hpc1/storage/ring/mount`;
    await put(mountName, previousRing('i-0cccccccccccccccc', 'mount'));

    // WHEN cluster hpc1's server `ring` registers
    const create = rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, ServerName: 'ring' })));

    // THEN it is refused before anything is written, naming what the name holds
    await expect(create).rejects.toThrow(
      `${mountName} holds the ring record of i-0cccccccccccccccc (server mount), written before owner marks, where this ` +
        "server's mount record goes: a registration writes over and deletes only the records it wrote",
    );
    expect(await snapshot(prefix)).toEqual({ [mountName]: previousRing('i-0cccccccccccccccc', 'mount') });
  });

  test("the squatter's Delete leaves the mount record that holds its ring record's name", async () => {
    // GIVEN hpc1's server `ring` registered; the squatter's stack, deployed by the previous version, is deleted
    const prefix = freshPrefix();
    await rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, ServerName: 'ring' })));
    const before = await snapshot(`${prefix}/hpc1/ring`);
    const mountBefore = await raw(`${prefix}/hpc1/storage/ring/mount`);

    // WHEN
    await rig.handler(from(deleteEvent(`${prefix}/hpc1/storage/ring/mount`, squatter(prefix, 'i-0cccccccccccccccc')), OTHER_STACK_ID));

    // THEN hpc1's records are left, and the log says so
    expect(await raw(`${prefix}/hpc1/storage/ring/mount`)).toBe(mountBefore);
    expect(await snapshot(`${prefix}/hpc1/ring`)).toEqual(before);
    expect(rig.stdout.lines().map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({
      level: 'warn', msg: 'record not written by this registration; left in place', parameterName: `${prefix}/hpc1/storage/ring/mount`,
    }));
  });
});

describe('a registration writes over nothing it did not write, of any kind', () => {
  test.each([
    ['a value that is not JSON', 'ring', 'hpc1 storage1 10.20.1.9', 'holds a value that is not JSON'],
    ['a stale object of no record\'s form', 'ring', '{"stale":true}', 'holds a JSON object that is neither a ring record nor a mount record'],
    ['a mount record where the ring record goes', 'ring', previousMount(), 'holds a mount record written before owner marks, where this server\'s ring record goes'],
    ['a mount record written before marks, beside no ring record of this server', 'mount', previousMount(), 'holds a mount record written before owner marks that this registration cannot show it wrote'],
    ['a record another stack marked', 'mount', JSON.stringify({ ...mountRecord('10.20.1.9', '/export/data', '/data', OPTIONS), owner: ownerMark('mount', 'hpc1', 'storage1', OTHER_STACK_ID) }),
      `belongs to Registration of stack ${OTHER_STACK_ID}, not to Registration of stack ${STACK_ID}`],
  ])('%s: refused, nothing written', async (_what, at, value, message) => {
    // GIVEN
    const prefix = freshPrefix();
    const name = at === 'ring' ? `${prefix}/hpc1/ring/storage1` : `${prefix}/hpc1/storage/storage1/mount`;
    await put(name, value);

    // WHEN / THEN
    await expect(rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })))).rejects.toThrow(`${name} ${message}`);
    expect(await snapshot(prefix)).toEqual({ [name]: value });
  });

  test('a Delete leaves what it did not write, and says so', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const [ring, mount] = [`${prefix}/hpc1/ring/storage1`, `${prefix}/hpc1/storage/storage1/mount`];
    await put(ring, '{"stale":true}');
    await put(mount, previousMount());

    // WHEN
    await rig.handler(deleteEvent(ring, props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })));

    // THEN
    expect(await snapshot(prefix)).toEqual({ [ring]: '{"stale":true}', [mount]: previousMount() });
    const warned = rig.stdout.lines().map((l) => JSON.parse(l)).filter((l) => l.level === 'warn').map((l) => l.parameterName);
    expect(warned).toEqual([ring, mount]);
  });

  test('an event without a StackId writes nothing: the mark would name no one', async () => {
    const prefix = freshPrefix();
    const event = { ...createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })), StackId: undefined } as never;
    await expect(rig.handler(event)).rejects.toThrow('the event names no StackId or LogicalResourceId');
    expect(await snapshot(prefix)).toEqual({});
  });
});

describe('records written by the previous version (no owner mark) are taken over by their own server', () => {
  test.each([
    ['an Update with the same instance', (id: string) => id],
    ['an Update to a replacement instance (the previous one named in the old properties)', () => 'i-0dddddddddddddddd'],
  ])('%s: written over, now marked', async (_what, oldInstance) => {
    // GIVEN the previous version's records of this server
    const prefix = freshPrefix();
    const id = rig.server.InstanceId ?? '';
    const [ring, mount] = [`${prefix}/hpc1/ring/storage1`, `${prefix}/hpc1/storage/storage1/mount`];
    await put(ring, previousRing(oldInstance(id)));
    await put(mount, previousMount());

    // WHEN
    const p = props(id, { ParameterPrefix: prefix });
    await rig.handler(updateEvent(ring, p, { ...p, InstanceId: oldInstance(id) }));

    // THEN
    expect(JSON.parse(await raw(ring) ?? '')).toMatchObject({ instanceId: id, owner: ownerMark('ring', 'hpc1', 'storage1') });
    expect(JSON.parse(await raw(mount) ?? '')).toMatchObject({ server: rig.server.PrivateIpAddress, owner: ownerMark('mount', 'hpc1', 'storage1') });
  });

  test("a previous version's ring record of another instance is refused, as it always was", async () => {
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/storage1`;
    await put(ring, previousRing('i-0cccccccccccccccc'));
    await expect(rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })))).rejects.toThrow(
      `${ring} belongs to i-0cccccccccccccccc, not to ${rig.server.InstanceId}: another server of the cluster is registered under this name`,
    );
  });

  test("a Delete removes the previous version's records of its instance", async () => {
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/storage1`;
    await put(ring, previousRing(rig.server.InstanceId ?? ''));
    await put(`${prefix}/hpc1/storage/storage1/mount`, previousMount());
    await rig.handler(deleteEvent(ring, props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })));
    expect(Object.keys(await snapshot(prefix))).toEqual([`${prefix}/hpc1/removed/storage1`]);
  });
});

describe('within one stack', () => {
  test('a registration whose construct moved (a new logical id) takes the records over; the old resource\'s Delete leaves them', async () => {
    // GIVEN
    const prefix = freshPrefix();
    const p = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const ring = `${prefix}/hpc1/ring/storage1`;
    await rig.handler(createEvent(p));

    // WHEN CloudFormation creates the moved resource, then deletes the old one
    await rig.handler(from(createEvent(p), STACK_ID, 'MovedRegistration'));
    await rig.handler(deleteEvent(ring, p));

    // THEN
    const records = await snapshot(prefix);
    expect(Object.keys(records).sort()).toEqual([ring, `${prefix}/hpc1/storage/storage1/mount`]);
    expect(JSON.parse(records[ring])).toMatchObject({ owner: ownerMark('ring', 'hpc1', 'storage1', STACK_ID, 'MovedRegistration') });
  });
});
