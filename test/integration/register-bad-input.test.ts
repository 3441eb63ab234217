/**
 * The registration handler against moto, by test/support/register-moto.ts: bad input is refused and nothing written.
 */
import { StopInstancesCommand } from '@aws-sdk/client-ec2';
import { registerAgainstMoto, type Handler } from '../support/register-moto';
import { createEvent, launchInstance, props } from './fixtures';

const rig = registerAgainstMoto('bad');
const { freshPrefix, namesUnder } = rig;

describe('bad input: the handler throws an Error naming the problem and writes nothing', () => {
  test('unknown instance id', async () => {
    const prefix = freshPrefix();
    await expect(
      rig.handler(createEvent(props('i-0123456789abcdef0', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(/InstanceId i-0123456789abcdef0 does not exist .*InvalidInstanceID\.NotFound/);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('missing ResourceProperties', async () => {
    const event = { ...createEvent({}), ResourceProperties: undefined } as unknown as Parameters<Handler>[0];
    await expect(rig.handler(event)).rejects.toThrow(
      /^ResourceProperties is missing; expected the keys InstanceId, ClusterName/,
    );
  });

  test('missing ResourceProperties keys are each named', async () => {
    const p = props(rig.server.InstanceId ?? '');
    delete p.MountPoint;
    delete p.Backend;
    await expect(rig.handler(createEvent(p))).rejects.toThrow(
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
      rig.handler(
        createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, ClusterName: clusterName })),
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
      rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(`ResourceProperties.ParameterPrefix ${message}`);
  });

  test.each([
    ['InstanceId', 'i-zzz', "must be an EC2 instance id ('i-' and 8 or 17 lower-case hex digits)"],
    ['Backend', 'nvme', 'must be one of ebs, instance-store, fsx-lustre'],
    ['ExportPath', 'export/data', 'must be an absolute path without whitespace'],
    ['MountPoint', '/my data', 'must be an absolute path without whitespace'],
    ['MountOptions', 'hard, intr', 'must be a non-empty comma-separated option list without whitespace'],
  ])('%s %j', async (key, bad, message) => {
    await expect(rig.handler(createEvent(props(rig.server.InstanceId ?? '', { [key]: bad })))).rejects.toThrow(
      `ResourceProperties.${key} ${message}, `,
    );
  });

  test('an instance that is stopped', async () => {
    const prefix = freshPrefix();
    const stopped = await launchInstance(rig.ec2, rig.subnetId);
    await rig.ec2.send(new StopInstancesCommand({ InstanceIds: [stopped.InstanceId ?? ''] }));
    await expect(
      rig.handler(createEvent(props(stopped.InstanceId ?? '', { ParameterPrefix: prefix }))),
    ).rejects.toThrow(`instance ${stopped.InstanceId} is stopped; it must be running to be registered`);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('an unknown RequestType', async () => {
    const event = {
      ...createEvent(props(rig.server.InstanceId ?? '')),
      RequestType: 'Replace',
    } as unknown as Parameters<Handler>[0];
    await expect(rig.handler(event)).rejects.toThrow(
      'RequestType must be Create, Update or Delete, got "Replace"',
    );
  });
});
