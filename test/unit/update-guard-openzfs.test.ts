import { createHash } from 'crypto';
import {
  PROP,
  UPDATE_POLICIES,
  compareLayouts,
  guardProperties,
  layoutPhysicalId,
  parseGuardProperties,
  type StorageLayout,
} from '../../lambda/update-guard/contract';
import { OPENZFS_DEPLOYMENT_TYPES, openZfsLeastGrowth } from '../../lambda/update-guard/backends/fsx-openzfs';
import { compareWatched, type WatchedResource } from '../../lambda/update-guard/watched';
import { handler } from '../../lambda/update-guard';
import { FSX_OPENZFS_DEPLOYMENT_TYPES } from '../../lib/backends/openzfs/sizing/options';
import { FSX_OPENZFS_MAX_STORAGE_GIB } from '../../lib/backends/openzfs/sizing/options';

// The update guard's rules for FSx for OpenZFS, backend fsx-openzfs, through the policy table and the handler. What
// CloudFormation's resource specification says replaces the file system is refused with the safe path: deployment type,
// subnets, key. What FSx changes in place passes: storage growth, throughput capacity. The construct side is
// test/unit/update-guard-openzfs-construct.test.ts, and the whole app test/unit/guard-matrix-fsx-openzfs.test.ts.
jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async () => [],
  // No FSx file system in CloudFormation's record: the growth interval is update-guard-growth-interval.test.ts's.
  physicalIdIn: async () => undefined,
  stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
}));
beforeEach(() => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

type Props = Record<string, string | string[]>;
const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666';
const SUBNET_A = 'subnet-0aaaaaaaaaaaaaaa1';
const SUBNET_B = 'subnet-0bbbbbbbbbbbbbbb1';
const SUBNET_C = 'subnet-0ccccccccccccccc1';

function without(props: Props, ...keys: string[]): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));
}

/** ResourceProperties of an FSx for OpenZFS file system: SINGLE_AZ_2, 4096 GiB of SSD, 640 MB/s. */
const OPENZFS: Props = {
  ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent',
  Backend: 'fsx-openzfs', InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx',
  AvailabilityZone: 'us-east-1a', ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack',
  FileSystemType: 'SINGLE_AZ_2/SSD', StorageCapacityGiB: '4096', SubnetId: SUBNET_A, ThroughputCapacity: '640',
  AcceptDataLoss: 'false',
};
/** The same on MULTI_AZ_1: a standby file server in a second subnet. */
const MULTI_AZ: Props = { ...OPENZFS, FileSystemType: 'MULTI_AZ_1/SSD', StandbySubnetId: SUBNET_B };
/** An FSx for Lustre file system, as a guard deployed before OpenZFS records it. */
const LUSTRE: Props = {
  ...without(OPENZFS, 'ThroughputCapacity'), Backend: 'fsx-lustre', FileSystemType: 'PERSISTENT_2/SSD',
  PerUnitStorageThroughput: '125', StorageCapacityGiB: '14400',
};

const layoutOf = (props: Props): StorageLayout => parseGuardProperties(props).layout;
const base = {
  ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1',
  RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard',
};
const update = (old: Props, next: Props) => handler({
  ...base, RequestType: 'Update', PhysicalResourceId: layoutPhysicalId(layoutOf(old)), OldResourceProperties: old, ResourceProperties: next,
} as never);

const OPENZFS_SAFE_PATH = 'deploy a second server with another serverName and mountPoint (a new file system) and copy the ' +
  'data into it (npm run copy -- --cluster <cluster> --from <this server> --to <the second>), or restore a backup of this ' +
  'file system into a new one, then remove the first (npm run copy with --switch prints how)';

/** Each refused change: base, change, the one refusal as setting, old, new and why, and the safe path's start. */
const REFUSED: [string, Props, Props, string, string, string, RegExp, string][] = [
  ['a new deployment type', OPENZFS, { FileSystemType: 'SINGLE_AZ_HA_2/SSD' }, 'FileSystemType', 'SINGLE_AZ_2/SSD', 'SINGLE_AZ_HA_2/SSD',
    /^a new deployment type \(OpenZFSConfiguration\.DeploymentType\): CloudFormation replaces the file system, and every byte on it goes with the old one$/, 'keep the old type, or '],
  // One refusal for the type, not a second one for the standby subnet that comes with it.
  ['Single-AZ to MULTI_AZ_1', OPENZFS, { FileSystemType: 'MULTI_AZ_1/SSD', StandbySubnetId: SUBNET_B }, 'FileSystemType', 'SINGLE_AZ_2/SSD', 'MULTI_AZ_1/SSD',
    /^a new deployment type/, 'keep the old type, or '],
  ['MULTI_AZ_1 to Single-AZ', MULTI_AZ, { FileSystemType: 'SINGLE_AZ_2/SSD', StandbySubnetId: '' }, 'FileSystemType', 'MULTI_AZ_1/SSD', 'SINGLE_AZ_2/SSD',
    /^a new deployment type/, 'keep the old type, or '],
  ['a new subnet', OPENZFS, { SubnetId: SUBNET_C }, 'SubnetId', SUBNET_A, SUBNET_C,
    /^a new subnet \(SubnetIds; MULTI_AZ_1: OpenZFSConfiguration\.PreferredSubnetId\): CloudFormation replaces the file system/, 'keep the old subnet, or '],
  ['a new standby subnet on MULTI_AZ_1', MULTI_AZ, { StandbySubnetId: SUBNET_C }, 'StandbySubnetId', SUBNET_B, SUBNET_C,
    /^a new standby subnet \(SubnetIds\): CloudFormation replaces the file system/, 'keep the old subnet, or '],
  ['a key of its own', OPENZFS, { EncryptionKey: KEY_ARN }, 'EncryptionKey', 'aws/fsx', KEY_ARN,
    /^a new key \(KmsKeyId\): CloudFormation replaces the file system/, 'keep the old key, or '],
  ['back to the AWS managed key', { ...OPENZFS, EncryptionKey: KEY_ARN }, { EncryptionKey: 'aws/fsx' }, 'EncryptionKey', KEY_ARN, 'aws/fsx',
    /^a new key \(KmsKeyId\)/, 'keep the old key, or '],
  // OPENZFS-NO-SHRINK
  ['storage capacity down', OPENZFS, { StorageCapacityGiB: '2048' }, 'StorageCapacityGiB', '4096', '2048',
    /^FSx for OpenZFS cannot shrink a file system's storage capacity$/, 'keep capacityTiB at least its old value; to shrink, '],
];

/**
 * Rules of AWS's guides that the guard applies, from docs/sources/fsx-rules.md, each refusal with its exact safe path.
 */
const GUIDE_REFUSED: [string, Props, Props, string, string, string, RegExp, string][] = [
  // OPENZFS-GROWTH-MIN: 4096 GiB grows to 4506 GiB, 4096 x 1.1 rounded up, or more.
  ['storage grown by 5 % (4096 -> 4301 GiB)', OPENZFS, { StorageCapacityGiB: '4301' }, 'StorageCapacityGiB', '4096', '4301',
    /^FSx for OpenZFS grows SSD storage by at least 10 percent .* 4096 GiB to 4301 GiB is less, and FSx would refuse the update$/,
    'grow to 4506 GiB or more (capacityTiB 4.41 or more), or keep 4096 GiB; increases must also be 6 hours apart'],
  // OPENZFS-ONE-UPDATE: storage and throughput in one deploy.
  ['storage and throughput up together on MULTI_AZ_1', MULTI_AZ, { StorageCapacityGiB: '5000', ThroughputCapacity: '1280' },
    'ThroughputCapacity', '640', '1280', /^FSx for OpenZFS takes no throughput capacity update while an SSD storage capacity update/,
    'change one at a time: first capacityTiB with fsxOpenZfs.throughputCapacityMBps: 640 (-c openZfsThroughputCapacityMBps=640), ' +
      'then, once FSx reports the first update done (aws fsx describe-file-systems: no AdministrativeActions IN_PROGRESS or ' +
      'PENDING) and, on MULTI_AZ_1, six hours after it was asked, throughput capacity 1280 MB/s'],
  // OPENZFS-IOPS-WITH-THROUGHPUT: the plan's IOPS follow the tier, so a new tier changes both.
  ['throughput and provisioned IOPS up together', { ...OPENZFS, DiskIops: '20000' }, { ThroughputCapacity: '1280', DiskIops: '40000' },
    'ThroughputCapacity', '640', '1280', /^FSx for OpenZFS takes no throughput capacity update while a provisioned SSD IOPS update .* SSD IOPS 20000 to 40000/,
    'change one at a time: first the throughput capacity with the old IOPS, fsxOpenZfs.provisionedIops: 20000 ' +
      '(-c openZfsProvisionedIops=20000), then, once FSx reports the first update done (aws fsx describe-file-systems: no ' +
      'AdministrativeActions IN_PROGRESS or PENDING) and, on MULTI_AZ_1, six hours after it was asked, the IOPS 40000 ' +
      '(fsxOpenZfs.provisionedIops removed, or set to 40000)'],
  ['throughput up from AUTOMATIC IOPS to provisioned', { ...OPENZFS, DiskIops: 'AUTOMATIC' }, { ThroughputCapacity: '1280', DiskIops: '40000' },
    'ThroughputCapacity', '640', '1280', /SSD IOPS AUTOMATIC to 40000/,
    'change one at a time: first the throughput capacity with the old IOPS, fsxOpenZfs.provisionedIops: 0 ' +
      '(-c openZfsProvisionedIops=0), then, once FSx reports the first update done (aws fsx describe-file-systems: no ' +
      'AdministrativeActions IN_PROGRESS or PENDING) and, on MULTI_AZ_1, six hours after it was asked, the IOPS 40000 ' +
      '(fsxOpenZfs.provisionedIops removed, or set to 40000)'],
];

/** Changes FSx for OpenZFS makes in place, and changes that are none. */
const ALLOWED: [string, Props, Props][] = [
  ['storage capacity up', OPENZFS, { StorageCapacityGiB: '8192' }],
  ['storage capacity up by exactly 10 % rounded up (4096 -> 4506 GiB)', OPENZFS, { StorageCapacityGiB: '4506' }],
  ['throughput capacity up (640 -> 2560 MB/s)', OPENZFS, { ThroughputCapacity: '2560' }],
  ['throughput capacity down (640 -> 160 MB/s)', OPENZFS, { ThroughputCapacity: '160' }],
  ['throughput capacity up with the IOPS pinned', { ...OPENZFS, DiskIops: '20000' }, { ThroughputCapacity: '1280' }],
  ['provisioned IOPS alone', { ...OPENZFS, DiskIops: '20000' }, { DiskIops: '40000' }],
  ['storage and provisioned IOPS together', { ...OPENZFS, DiskIops: '20000' }, { StorageCapacityGiB: '8192', DiskIops: '40000' }],
  ['throughput and IOPS from a layout recorded before the IOPS', OPENZFS, { ThroughputCapacity: '1280', DiskIops: '40000' }],
  ['nothing changes on MULTI_AZ_1', MULTI_AZ, {}],
  ['AcceptDataLoss alone', OPENZFS, { AcceptDataLoss: 'true' }],
];

describe('FSx for OpenZFS: the policy table', () => {
  test.each(REFUSED)('refuses %s', (_name, before, change, setting, oldValue, newValue, why, safePath) => {
    const refusals = compareLayouts(layoutOf(before), layoutOf({ ...before, ...change }), false);
    expect(refusals).toEqual([expect.objectContaining({ setting, oldValue, newValue, why: expect.stringMatching(why), accepted: false })]);
    expect(refusals[0].safePath).toBe(safePath + OPENZFS_SAFE_PATH);
  });

  test('OPENZFS-GROWTH-MIN in whole GiB: 102400 -> 112640 (capacityTiB 100 -> 110) is 10 %; near the maximum, the maximum', () => {
    expect(openZfsLeastGrowth(102_400)).toBe(112_640);
    expect(openZfsLeastGrowth(100)).toBe(110);
    expect(openZfsLeastGrowth(500_000)).toBe(FSX_OPENZFS_MAX_STORAGE_GIB);
    for (const [before, after] of [['102400', '112640'], ['500000', String(FSX_OPENZFS_MAX_STORAGE_GIB)]]) {
      expect(compareLayouts(layoutOf({ ...OPENZFS, StorageCapacityGiB: before }), layoutOf({ ...OPENZFS, StorageCapacityGiB: after }), false)).toEqual([]);
    }
  });

  test.each(GUIDE_REFUSED)('refuses %s, with the way that works', (_name, before, change, setting, oldValue, newValue, why, safePath) => {
    const refusals = compareLayouts(layoutOf(before), layoutOf({ ...before, ...change }), false);
    expect(refusals).toEqual([expect.objectContaining({ setting, oldValue, newValue, why: expect.stringMatching(why), safePath, accepted: false })]);
  });

  test.each(ALLOWED)('allows %s', (_name, before, change) => {
    expect(compareLayouts(layoutOf(before), layoutOf({ ...before, ...change }), false)).toEqual([]);
  });

  test('the table reads per backend: OpenZFS rows of their own, the Lustre ones unchanged', () => {
    expect(UPDATE_POLICIES.throughputCapacity.name).toContain('fsx-openzfs: in place (FSx UpdateFileSystem ThroughputCapacity)');
    expect(UPDATE_POLICIES.perUnitStorageThroughput.name).toContain('fsx-lustre: in place on persistent SSD, fsx-openzfs: allowed');
    expect(UPDATE_POLICIES.storageCapacityGiB.name).toContain('fsx-lustre: grow only, fsx-openzfs: grow only');
    // A Lustre refusal keeps the Lustre wording: LUSTRE-NO-SHRINK.
    const [lustre] = compareLayouts(layoutOf(LUSTRE), layoutOf({ ...LUSTRE, StorageCapacityGiB: '12000' }), false);
    expect(lustre.why).toBe("FSx for Lustre cannot shrink a file system's storage capacity");
  });

  test('the deployment types the guard reads are the planner\'s', () => {
    expect([...OPENZFS_DEPLOYMENT_TYPES]).toEqual([...FSX_OPENZFS_DEPLOYMENT_TYPES]);
  });
});

describe('FSx for OpenZFS: the handler', () => {
  test.each(REFUSED)('Update refuses %s: the change, why and the safe path in one line', async (_name, before, change, setting, oldValue, newValue, why) => {
    const refusal = update(before, { ...before, ...change });
    await expect(refusal).rejects.toThrow(`StorageServer update refused, nothing was changed: ${setting} ${oldValue} -> ${newValue}: `);
    await expect(refusal).rejects.toThrow(new RegExp(why.source.replace(/^\^/, '').replace(/\$$/, '')));
    await expect(refusal).rejects.toThrow(`. Safe path: `);
    await expect(refusal).rejects.toThrow(`${OPENZFS_SAFE_PATH}. To accept the loss (scratch data only)`);
  });

  test.each(ALLOWED)('Update allows %s and returns the new layout id', async (_name, before, change) => {
    const next = { ...before, ...change };
    await expect(update(before, next)).resolves.toEqual({ PhysicalResourceId: layoutPhysicalId(layoutOf(next)) });
  });

  test('everything that replaces the file system at once: every refusal named, under the message limit', async () => {
    const everything = { ...MULTI_AZ, SubnetId: SUBNET_C, StandbySubnetId: SUBNET_A, EncryptionKey: KEY_ARN, StorageCapacityGiB: '64' };
    const message = await update(MULTI_AZ, everything).then(() => '', (e: Error) => e.message);
    for (const setting of ['EncryptionKey', 'StorageCapacityGiB', 'SubnetId', 'StandbySubnetId']) expect(message).toContain(` ${setting} `);
    expect(message.length).toBeLessThanOrEqual(3000);
  });

  test('the watched file system (a nested replacing property, e.g. the root volume\'s NFS exports): the OpenZFS safe path', () => {
    const fileSystem = (clients: string): WatchedResource => ({
      type: 'AWS::FSx::FileSystem', logicalId: 'StorageFileSystem',
      watching: ['OpenZFSConfiguration.RootVolumeConfiguration.NfsExports'],
      properties: { 'OpenZFSConfiguration.RootVolumeConfiguration.NfsExports': [{ ClientConfigurations: [{ Clients: clients, Options: ['rw'] }] }] },
    });
    const [refusal] = compareWatched(
      { watched: { FileSystem: fileSystem('10.0.0.0/16') } }, { watched: { FileSystem: fileSystem('10.0.0.0/17') } }, layoutOf(OPENZFS), false);
    expect(refusal).toEqual(expect.objectContaining({
      setting: 'FileSystem.OpenZFSConfiguration.RootVolumeConfiguration.NfsExports',
      why: expect.stringMatching(/CloudFormation replaces the file system/),
      safePath: `undo the change of vpcId, vpcFrom or a rebuilt VPC (the VPC's CIDR) that changed ` +
        `OpenZFSConfiguration.RootVolumeConfiguration.NfsExports; or keep the old value, or ${OPENZFS_SAFE_PATH}`,
    }));
  });
});

describe('FSx for OpenZFS: the properties as read', () => {
  test.each([
    ['ThroughputCapacity missing', { ThroughputCapacity: undefined as never }, /ResourceProperties\.ThroughputCapacity must be a whole number of MB\/s on the fsx-openzfs backend, got ""/],
    ['a Lustre type', { FileSystemType: 'PERSISTENT_2/SSD' }, /ResourceProperties\.FileSystemType must be an FSx for OpenZFS deployment type and storage type such as 'SINGLE_AZ_2\/SSD' on the fsx-openzfs backend \(deployment types SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2, MULTI_AZ_1; storage type SSD\), got "PERSISTENT_2\/SSD"/],
    ['a type without storage type', { FileSystemType: 'SINGLE_AZ_2' }, /ResourceProperties\.FileSystemType must be an FSx for OpenZFS deployment type/],
    ['a per-unit throughput', { PerUnitStorageThroughput: '125' }, /ResourceProperties\.PerUnitStorageThroughput must be '' on the fsx-openzfs backend, got "125"/],
    ['a standby subnet on Single-AZ', { StandbySubnetId: SUBNET_B }, /ResourceProperties\.StandbySubnetId must be '' unless the deployment type is MULTI_AZ_1, got "subnet-0bbbbbbbbbbbbbbb1"/],
    ['MULTI_AZ_1 without a standby subnet', { FileSystemType: 'MULTI_AZ_1/SSD' }, /ResourceProperties\.StandbySubnetId must be the standby file server's subnet id on MULTI_AZ_1, not subnetId's, got ""/],
    ['MULTI_AZ_1 with the preferred subnet twice', { FileSystemType: 'MULTI_AZ_1/SSD', StandbySubnetId: SUBNET_A }, /StandbySubnetId must be the standby file server's subnet id on MULTI_AZ_1, not subnetId's/],
    ['the AWS managed EBS key', { EncryptionKey: 'aws/ebs' }, /ResourceProperties\.EncryptionKey must be 'aws\/fsx' or a KMS key ARN, got "aws\/ebs"/],
    ['data volumes', { DataVolumes: ['0:1024'] }, /ResourceProperties\.DataVolumes must be empty on the fsx-openzfs backend/],
    ['a storage capacity that is not whole', { StorageCapacityGiB: '4096.5' }, /ResourceProperties\.StorageCapacityGiB must be a whole number of GiB/],
    ['IOPS that are neither AUTOMATIC nor a whole number', { DiskIops: 'USER_PROVISIONED' }, /ResourceProperties\.DiskIops must be '', 'AUTOMATIC' or a whole number of SSD IOPS on the fsx-openzfs backend, got "USER_PROVISIONED"/],
    ['IOPS of 0', { DiskIops: '0' }, /ResourceProperties\.DiskIops must be '', 'AUTOMATIC' or a whole number/],
  ])('%s is refused, naming the property and the rule', (_name, change, message) => {
    const props: Props = { ...OPENZFS, ...change };
    expect(() => layoutOf(without(props, ...Object.keys(props).filter((k) => props[k] === undefined)))).toThrow(message);
  });

  test.each([
    ['fsx-lustre', LUSTRE],
    ['ebs', { ...OPENZFS, Backend: 'ebs', EncryptionKey: 'aws/ebs', FileSystemType: '', StorageCapacityGiB: '', SubnetId: '', DataVolumes: ['0:1024'] }],
  ])('the OpenZFS fields must be \'\' on %s', (backend, props) => {
    expect(() => layoutOf({ ...props, ThroughputCapacity: '640' })).toThrow(`ResourceProperties.ThroughputCapacity must be '' on the ${backend} backend`);
    expect(() => layoutOf({ ...props, ThroughputCapacity: '', StandbySubnetId: SUBNET_B })).toThrow(`ResourceProperties.StandbySubnetId must be '' on the ${backend} backend`);
    expect(() => layoutOf({ ...props, ThroughputCapacity: '', DiskIops: 'AUTOMATIC' })).toThrow(`ResourceProperties.DiskIops must be '' on the ${backend} backend`);
  });
});

describe('the new fields on the wire', () => {
  test('a guard deployed before them (Lustre here) keeps its properties and its id: they are left out when empty', () => {
    const lustre = layoutOf(LUSTRE);
    expect(lustre.throughputCapacity).toBe('');
    expect(lustre.standbySubnetId).toBe('');
    expect(Object.keys(guardProperties(lustre, false))).not.toEqual(expect.arrayContaining([PROP.throughputCapacity]));
    expect(Object.keys(guardProperties(lustre, false))).not.toEqual(expect.arrayContaining([PROP.standbySubnetId]));
    // Pinned: the canonical JSON of the Lustre layout as it was before OpenZFS.
    const canonical = '{"Backend":"fsx-lustre","InstanceStoreType":"","DataVolumes":[],"SnapshotIds":[],"EncryptionKey":"aws/fsx",' +
      '"AvailabilityZone":"us-east-1a","ImageId":"","KeyPair":"","PlacementGroup":"","FileSystemType":"PERSISTENT_2/SSD",' +
      `"PerUnitStorageThroughput":"125","StorageCapacityGiB":"14400","SubnetId":"${SUBNET_A}"}`;
    expect(layoutPhysicalId(lustre)).toBe(`storage-layout-${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`);
  });

  test('on OpenZFS they are in the properties and the id: each change is a new layout', () => {
    expect(guardProperties(layoutOf(MULTI_AZ), false)).toEqual(expect.objectContaining({ ThroughputCapacity: '640', StandbySubnetId: SUBNET_B }));
    const ids = [OPENZFS, { ...OPENZFS, ThroughputCapacity: '1280' }, MULTI_AZ, { ...MULTI_AZ, StandbySubnetId: SUBNET_C },
      { ...OPENZFS, DiskIops: 'AUTOMATIC' }, { ...OPENZFS, DiskIops: '20000' }]
      .map((p) => layoutPhysicalId(layoutOf(p)));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
