/**
 * The registration handler against moto, by test/support/register-moto.ts: another server's records stay as they are.
 */
import { registerAgainstMoto } from '../support/register-moto';
import { OTHER_STACK_ID, STACK_ID, createEvent, expectedRing, from, launchInstance, props, updateEvent } from './fixtures';

const rig = registerAgainstMoto('other');
const { freshPrefix, value } = rig;

describe('the records of another server are never written over', () => {
  test('a Create under a name another stack\'s server holds is refused, and its records stay as they were', async () => {
    // GIVEN a server registered as hpc1/storage1 by another stack with the same names
    const prefix = freshPrefix();
    await rig.handler(from(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));
    const mountBefore = await value(`${prefix}/hpc1/storage/storage1/mount`);
    const intruder = await launchInstance(rig.ec2, rig.subnetId);

    // WHEN a second server registers under the same names
    const second = rig.handler(createEvent(props(intruder.InstanceId ?? '', { ParameterPrefix: prefix })));

    // THEN it is refused, naming the name, the owner and the way out
    await expect(second).rejects.toThrow(
      `${prefix}/hpc1/ring/storage1 belongs to Registration of stack ${OTHER_STACK_ID}, not to Registration of stack ` +
        `${STACK_ID}: another server of the cluster is registered under this name. Give this server another serverName`,
    );
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(rig.server, 'storage1', 'ebs', OTHER_STACK_ID));
    expect(await value(`${prefix}/hpc1/storage/storage1/mount`)).toEqual(mountBefore);
  });

  test('an Update is refused too, whichever instances it names', async () => {
    // GIVEN records of `server` by another stack, and a stack whose registration moves from one instance of its own to another
    const prefix = freshPrefix();
    await rig.handler(from(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix })), OTHER_STACK_ID));
    const [a, b] = [await launchInstance(rig.ec2, rig.subnetId), await launchInstance(rig.ec2, rig.subnetId)];
    const oldProps = props(a.InstanceId ?? '', { ParameterPrefix: prefix });
    const newProps = props(b.InstanceId ?? '', { ParameterPrefix: prefix });

    // WHEN
    const update = rig.handler(updateEvent(`${prefix}/hpc1/ring/storage1`, newProps, oldProps));

    // THEN
    await expect(update).rejects.toThrow(`${prefix}/hpc1/ring/storage1 belongs to Registration of stack ${OTHER_STACK_ID}`);
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(rig.server, 'storage1', 'ebs', OTHER_STACK_ID));
  });

  test('a rollback Update (back to the instance the records were written for before) writes over its own records', async () => {
    // GIVEN an Update moved the records to a replacement instance, then the stack rolled back
    const prefix = freshPrefix();
    const original = props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });
    const created = await rig.handler(createEvent(original));
    const replacement = await launchInstance(rig.ec2, rig.subnetId);
    const replaced = props(replacement.InstanceId ?? '', { ParameterPrefix: prefix });
    await rig.handler(updateEvent(String(created.PhysicalResourceId), replaced, original));

    // WHEN CloudFormation sends the rollback: the old properties are the replacement's
    await rig.handler(updateEvent(String(created.PhysicalResourceId), original, replaced));

    // THEN
    expect(await value(`${prefix}/hpc1/ring/storage1`)).toEqual(expectedRing(rig.server, 'storage1', 'ebs'));
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
    await rig.handler(from(createEvent(record('fs-0123456789abcdef0') as never), OTHER_STACK_ID));

    // WHEN / THEN
    await expect(rig.handler(createEvent(record('fs-0fedcba9876543210') as never))).rejects.toThrow(
      `${ring} belongs to Registration of stack ${OTHER_STACK_ID}`,
    );
    expect(await value(ring)).toMatchObject({ fileSystemId: 'fs-0123456789abcdef0' });
  });
});
