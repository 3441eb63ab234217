/**
 * The update guard's snapshot retention rule of lambda/update-guard/retention-rules.ts. A lower `SnapshotRetain`
 * deletes the older EBS snapshot sets or FSx backups, so it is refused unless the deploy says `AcceptFewerSnapshots` or
 * `AcceptDataLoss`, with a message that counts what goes. The field is left out of the properties and the
 * PhysicalResourceId when empty, and the waiver is outside both the layout and the hash.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { guardProperties, layoutPhysicalId, parseGuardProperties } from '../../lambda/update-guard/contract';
import { handler } from '../../lambda/update-guard';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';
import { Backend } from '../../lib/backend-enum';

jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async () => [],
  // No FSx file system in CloudFormation's record: the growth interval is update-guard-growth-interval.test.ts's.
  physicalIdIn: async () => undefined,
  stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
}));

type Props = Record<string, string | string[]>;

const EBS: Props = {
  ServiceToken: 'token', Backend: 'ebs', InstanceStoreType: '', DataVolumes: ['0:8192'], SnapshotIds: [],
  EncryptionKey: 'aws/ebs', AvailabilityZone: 'us-east-1a', ImageId: 'ami-0123456789abcdef0', KeyPair: '',
  PlacementGroup: '', VolumeAttachment: 'server', AcceptDataLoss: 'false', SnapshotRetain: '7',
};
const LUSTRE: Props = {
  ...EBS, Backend: 'fsx-lustre', DataVolumes: [], EncryptionKey: 'aws/fsx', ImageId: '', VolumeAttachment: 'stack',
  FileSystemType: 'PERSISTENT_2/SSD', PerUnitStorageThroughput: '125', StorageCapacityGiB: '14400', SubnetId: 'subnet-0123456789abcdef0',
};
const OPENZFS: Props = {
  ...LUSTRE, Backend: 'fsx-openzfs', FileSystemType: 'SINGLE_AZ_1/SSD', PerUnitStorageThroughput: '', StorageCapacityGiB: '4096',
  ThroughputCapacity: '1024',
};
const INSTANCE_STORE: Props = { ...EBS, Backend: 'instance-store', InstanceStoreType: 'd2.4xlarge', DataVolumes: [], SnapshotRetain: '' };

const without = (props: Props, key: string): Props => Object.fromEntries(Object.entries(props).filter(([k]) => k !== key));
const idOf = (props: Props): string => layoutPhysicalId(parseGuardProperties(props).layout);

/** An Update from `oldProps` to `newProps` of the guard whose PhysicalResourceId is `physicalId`. */
function updateOf(oldProps: Props, newProps: Props, physicalId: string): ReturnType<typeof handler> {
  return handler({
    RequestType: 'Update', ServiceToken: 'token', ResponseURL: 'https://example.invalid/', RequestId: 'r',
    StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/Test/guid', LogicalResourceId: 'Guard',
    ResourceType: 'Custom::StorageServerUpdateGuard', PhysicalResourceId: physicalId,
    ResourceProperties: newProps, OldResourceProperties: oldProps,
  } as unknown as CdkCustomResourceEvent);
}

/** The Update CloudFormation sends from `oldProps`, the last accepted, so its id, to `newProps`. */
function update(oldProps: Props, newProps: Props): ReturnType<typeof handler> {
  return updateOf(oldProps, newProps, idOf(oldProps));
}

beforeEach(() => {
  for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('a lower retention is refused unless the deploy accepts fewer snapshots', () => {
  test('EBS 7 -> 3: refused, counting the 4 oldest sets, naming the key', async () => {
    await expect(update(EBS, { ...EBS, SnapshotRetain: '3' })).rejects.toThrow(
      'SnapshotRetain 7 -> 3: DLM keeps the 3 newest snapshot sets of the data volumes and deletes the older ones at its ' +
      'next run: the 4 oldest of the 7 sets kept now would be deleted. Safe path: keep snapshotRetain at 7 (-c ' +
      'snapshotRetain=7, prop snapshots.retain: 7), or, to let the 4 oldest sets go, deploy again with ' +
      'acceptFewerSnapshots=true (context) or acceptFewerSnapshots: true (prop).');
  });

  test('EBS 7 -> 3 with AcceptFewerSnapshots, or with AcceptDataLoss: accepted, and the loss logged', async () => {
    const accepted = await update(EBS, { ...EBS, SnapshotRetain: '3', AcceptFewerSnapshots: 'true' });
    expect(accepted.PhysicalResourceId).toBe(idOf({ ...EBS, SnapshotRetain: '3' }));
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('"setting":"SnapshotRetain","oldValue":"7","newValue":"3"'));
    await expect(update(EBS, { ...EBS, SnapshotRetain: '3', AcceptDataLoss: 'true' })).resolves.toBeDefined();
  });

  test('AcceptFewerSnapshots lets nothing else pass', async () => {
    await expect(update(EBS, { ...EBS, SnapshotRetain: '3', DataVolumes: ['0:4096'], AcceptFewerSnapshots: 'true' }))
      .rejects.toThrow(/^StorageServer update refused, nothing was changed: DataVolumes 0:8192 -> 0:4096: .*Safe path/);
    await expect(update(EBS, { ...EBS, SnapshotRetain: '3', DataVolumes: ['0:4096'], AcceptFewerSnapshots: 'true' }))
      .rejects.not.toThrow(/SnapshotRetain/);
  });

  test('EBS: more sets, or none (the policy goes; DLM deletes nothing it made), are accepted', async () => {
    await expect(update(EBS, { ...EBS, SnapshotRetain: '14' })).resolves.toBeDefined();
    await expect(update(EBS, { ...EBS, SnapshotRetain: '0' })).resolves.toBeDefined();
    await expect(update({ ...EBS, SnapshotRetain: '0' }, { ...EBS, SnapshotRetain: '2' })).resolves.toBeDefined();
  });

  test.each([['FSx for Lustre', LUSTRE], ['FSx for OpenZFS', OPENZFS]])('%s: fewer days of backups, or none, are refused', async (service, base) => {
    await expect(update(base, { ...base, SnapshotRetain: '3' })).rejects.toThrow(
      `SnapshotRetain 7 -> 3: ${service} keeps daily automatic backups 3 days: the backups older than that, up to 4 of the 7 ` +
      'days kept now, would be deleted. Safe path: keep snapshotRetain at 7');
    await expect(update(base, { ...base, SnapshotRetain: '0' })).rejects.toThrow(
      `SnapshotRetain 7 -> 0: ${service} would stop its daily automatic backups, and AWS does not say that the 7 days of backups kept now stay.`);
    await expect(update(base, { ...base, SnapshotRetain: '0', AcceptFewerSnapshots: 'true' })).resolves.toBeDefined();
    await expect(update(base, { ...base, SnapshotRetain: '30' })).resolves.toBeDefined();
  });

  test('a guard deployed before the field: its first record is accepted, whatever the value', async () => {
    await expect(update(without(EBS, 'SnapshotRetain'), { ...EBS, SnapshotRetain: '1' })).resolves.toBeDefined();
  });

  test('the rollback of a refused lowering (the old properties again) passes: the id is the last accepted one', async () => {
    const rollback = await updateOf({ ...EBS, SnapshotRetain: '3' }, EBS, idOf(EBS));
    expect(rollback.PhysicalResourceId).toBe(idOf(EBS));
  });
});

describe('on the wire', () => {
  test('left out when empty: a guard without it keeps its properties and its PhysicalResourceId', () => {
    const layout = parseGuardProperties(INSTANCE_STORE).layout;
    expect(layout.snapshotRetain).toBe('');
    expect(guardProperties(layout, false)).not.toHaveProperty('SnapshotRetain');
    expect(idOf(INSTANCE_STORE)).toBe(idOf(without(INSTANCE_STORE, 'SnapshotRetain')));
    expect(idOf(EBS)).not.toBe(idOf(without(EBS, 'SnapshotRetain')));
  });

  test('AcceptFewerSnapshots is outside the layout and the hash, and present only when true', () => {
    expect(idOf({ ...EBS, AcceptFewerSnapshots: 'true' })).toBe(idOf(EBS));
    const layout = parseGuardProperties(EBS).layout;
    expect(guardProperties(layout, false, ['AcceptFewerSnapshots'])).toMatchObject({ AcceptFewerSnapshots: 'true' });
    expect(guardProperties(layout, false)).not.toHaveProperty('AcceptFewerSnapshots');
    expect(parseGuardProperties({ ...EBS, AcceptFewerSnapshots: 'false' }).waivers).toEqual([]);
  });

  test.each([
    [{ ...EBS, SnapshotRetain: 'seven' }, /ResourceProperties\.SnapshotRetain must be '' or a whole number/],
    [{ ...EBS, SnapshotRetain: '1001' }, /SnapshotRetain must be '' or a whole number .* from 0 to 1000, got "1001"/],
    [{ ...INSTANCE_STORE, SnapshotRetain: '7' }, /SnapshotRetain must be '' on the instance-store backend, got "7"/],
    [{ ...EBS, AcceptFewerSnapshots: 'yes' }, /ResourceProperties\.AcceptFewerSnapshots must be 'true' or 'false', got "yes"/],
  ])('refused at the trust boundary: %o', (props, message) => {
    expect(() => parseGuardProperties(props)).toThrow(message);
  });
});

describe('the construct records the retention and notes it at synth', () => {
  const built = (props: Partial<StorageServerProps>) => {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    new StorageServer(stack, 'Storage', { vpc, ...props });
    const [guard] = Object.values(Template.fromStack(stack).findResources('Custom::StorageServerUpdateGuard'));
    return { stack, properties: guard.Properties as Record<string, unknown> };
  };

  test.each([
    ['ebs', { backend: 'ebs', snapshots: { retain: 7 } }, '7', 'DLM keeps that many snapshot sets of the data volumes'],
    ['ebs, snapshots off', { backend: 'ebs', snapshots: { retain: 0 } }, '0', 'no snapshot policy'],
    ['fsx-lustre', { backend: 'fsx-lustre', capacityTiB: 12, snapshots: { retain: 30 } }, '30', 'FSx for Lustre keeps its daily automatic backups that many days'],
    ['fsx-lustre linked to S3 (FSx backs none up)', { backend: 'fsx-lustre', capacityTiB: 12, snapshots: { retain: 0 }, fsxLustre: { dataRepositoryPath: 's3://hpc-inputs' } }, '0', 'FSx for Lustre takes no automatic backups'],
    ['fsx-openzfs', { backend: 'fsx-openzfs', capacityTiB: 1, snapshots: { retain: 7 } }, '7', 'FSx for OpenZFS keeps its daily automatic backups that many days'],
  ] as const)('%s: SnapshotRetain %s', (_name, props, value, note) => {
    const { stack, properties } = built(props as Partial<StorageServerProps>);
    expect(properties.SnapshotRetain).toBe(value);
    expect(properties).not.toHaveProperty('AcceptFewerSnapshots');
    Annotations.fromStack(stack).hasInfo('*', Match.stringLikeRegexp(`^snapshots\\.retain ${value}: ${note}.*\\. A lower value.*unless acceptFewerSnapshots: true\\.$`));
  });

  test.each([
    ['ebs', { backend: Backend.EBS }],
    ['fsx-lustre', { backend: Backend.FSX_LUSTRE, capacityTiB: 12 }],
    ['fsx-openzfs', { backend: Backend.FSX_OPENZFS, capacityTiB: 1 }],
  ])('%s: a retention left at its default is recorded, and not noted: a default synth is quiet', (_name, props) => {
    const { stack, properties } = built(props);
    expect(properties.SnapshotRetain).toBe('7');
    Annotations.fromStack(stack).hasNoInfo('*', Match.stringLikeRegexp('A lower value'));
  });

  test('instance store: no retention recorded; acceptFewerSnapshots reaches the guard only when true', () => {
    expect(built({ backend: Backend.INSTANCE_STORE, capacityTiB: 3 }).properties).not.toHaveProperty('SnapshotRetain');
    expect(built({ backend: Backend.EBS, acceptFewerSnapshots: true }).properties).toMatchObject({ AcceptFewerSnapshots: 'true' });
  });
});
