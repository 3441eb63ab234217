/**
 * The update guard handler's test fixtures: layouts as CloudFormation sends them, for EBS, instance store and FSx; the
 * events around them; and the tables of refused and allowed changes the handler tests walk. The test files that use
 * them mock the handler's AWS calls with test/support/guard-aws-quiet.ts before importing this module.
 */
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { layoutPhysicalId, parseGuardProperties, type StorageLayout } from '../../lambda/update-guard/contract';
import { handler } from '../../lambda/update-guard';

export type Props = Record<string, string | string[]>;

export const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666';
export const OTHER_KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/9f8e7d6c-1111-2222-3333-444455556666';

/** ResourceProperties of an EBS server: two 8 TiB st1 volumes striped, as CloudFormation sends them. */
export const EBS: Props = {
  ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent',
  Backend: 'ebs',
  InstanceStoreType: '',
  DataVolumes: ['0:8192', '1:8192'],
  SnapshotIds: [],
  EncryptionKey: 'aws/ebs',
  AvailabilityZone: 'us-east-1a',
  ImageId: 'ami-0123456789abcdef0',
  KeyPair: '',
  PlacementGroup: '',
  VolumeAttachment: 'server',
  AcceptDataLoss: 'false',
};

/** The same EBS server, its volumes created from a snapshot set, `restoreSnapshotIds`. */
export const RESTORED: Props = { ...EBS, SnapshotIds: ['snap-0123456789abcdef0', 'snap-0123456789abcdef1'] };

/** ResourceProperties of an instance-store server on a d2.4xlarge. */
export const INSTANCE_STORE: Props = {
  ...EBS,
  Backend: 'instance-store',
  InstanceStoreType: 'd2.4xlarge',
  DataVolumes: [],
};

/** The same server with its array encrypted by the bootstrap with LUKS2, as d2 servers are by default. */
export const INSTANCE_STORE_LUKS: Props = { ...INSTANCE_STORE, InstanceStoreEncryption: 'luks2' };

/** ResourceProperties of an FSx for Lustre file system: PERSISTENT_2 SSD at 125 MB/s per TiB, 14400 GiB. */
export const FSX: Props = {
  ...EBS,
  Backend: 'fsx-lustre',
  DataVolumes: [],
  EncryptionKey: 'aws/fsx',
  ImageId: '',
  VolumeAttachment: 'stack',
  FileSystemType: 'PERSISTENT_2/SSD',
  PerUnitStorageThroughput: '125',
  StorageCapacityGiB: '14400',
  SubnetId: 'subnet-0123456789abcdef0',
};
/** An FSx for Lustre file system on HDD: PERSISTENT_1 at 12 MB/s per TiB, 108000 GiB. */
export const FSX_HDD: Props = { ...FSX, FileSystemType: 'PERSISTENT_1/HDD', PerUnitStorageThroughput: '12', StorageCapacityGiB: '108000' };

export function without(props: Props, ...keys: string[]): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));
}

export function layoutOf(props: Props): StorageLayout {
  return parseGuardProperties(props).layout;
}

export function createEvent(props: Props): CdkCustomResourceEvent {
  return {
    RequestType: 'Create',
    ServiceToken: String(props.ServiceToken),
    ResponseURL: 'https://cloudformation-custom-resource-response.example/presigned',
    StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/Test/guid',
    RequestId: 'request-1',
    LogicalResourceId: 'GuardResource',
    ResourceType: 'Custom::StorageServerUpdateGuard',
    ResourceProperties: props as CdkCustomResourceEvent['ResourceProperties'],
  };
}

export function updateEvent(oldProps: Props, newProps: Props, physicalResourceId: string): CdkCustomResourceEvent {
  return {
    ...createEvent(newProps),
    RequestType: 'Update',
    PhysicalResourceId: physicalResourceId,
    OldResourceProperties: oldProps,
  } as CdkCustomResourceEvent;
}

export function deleteEvent(props: unknown, physicalResourceId: string): CdkCustomResourceEvent {
  return {
    ...createEvent(EBS),
    RequestType: 'Delete',
    PhysicalResourceId: physicalResourceId,
    ResourceProperties: props,
  } as CdkCustomResourceEvent;
}

/** The Update CloudFormation sends for a deploy from `oldProps`, the last accepted, so its id, to `newProps`. */
export function update(oldProps: Props, newProps: Props): ReturnType<typeof handler> {
  return handler(updateEvent(oldProps, newProps, layoutPhysicalId(layoutOf(oldProps))));
}

/** Each refused change: the base layout, what changes, and the one refusal expected, as setting, old, new and why. */
export const REFUSED: [string, Props, Props, string, string, string, RegExp][] = [
  [
    'backend ebs -> instance-store',
    EBS,
    INSTANCE_STORE,
    'Backend',
    'ebs',
    'instance-store',
    /cannot move between backends/,
  ],
  [
    'backend instance-store -> ebs',
    INSTANCE_STORE,
    EBS,
    'Backend',
    'instance-store',
    'ebs',
    /cannot move between backends/,
  ],
  [
    'instance-store type',
    INSTANCE_STORE,
    { InstanceStoreType: 'd2.8xlarge' },
    'InstanceStoreType',
    'd2.4xlarge',
    'd2.8xlarge',
    /a type change is a stop\/start: every instance-store byte is lost/,
  ],
  [
    'fewer volumes',
    EBS,
    { DataVolumes: ['0:8192'] },
    'DataVolumes',
    '0:8192,1:8192',
    '0:8192',
    /fewer volumes lose data/,
  ],
  [
    'more volumes',
    EBS,
    { DataVolumes: ['0:8192', '1:8192', '2:8192'] },
    'DataVolumes',
    '0:8192,1:8192',
    '0:8192,1:8192,2:8192',
    /a new striped segment of the LV, as wide as the existing stripe; a count that is not a multiple of the current one/,
  ],
  [
    'more volumes, the old ones moved',
    EBS,
    { DataVolumes: ['0:8192', '2:8192', '1:8192', '3:8192'] },
    'DataVolumes',
    '0:8192,1:8192',
    '0:8192,2:8192,1:8192,3:8192',
    /the old volumes are the first segment of the LV in their stripe order/,
  ],
  [
    'a smaller volume',
    EBS,
    { DataVolumes: ['0:8192', '1:8191'] },
    'DataVolumes',
    '0:8192,1:8192',
    '0:8192,1:8191',
    /EBS cannot shrink a volume/,
  ],
  [
    'reordered volumes',
    EBS,
    { DataVolumes: ['1:8192', '0:8192'] },
    'DataVolumes',
    '0:8192,1:8192',
    '1:8192,0:8192',
    /volumes in another order scramble the file system/,
  ],
  [
    'a replaced volume',
    EBS,
    { DataVolumes: ['0:8192', '2:8192'] },
    'DataVolumes',
    '0:8192,1:8192',
    '0:8192,2:8192',
    /a volume with a new index is a new, empty volume/,
  ],
  [
    'snapshot ids for volumes deployed blank (a restore onto a deployed server)',
    EBS,
    { SnapshotIds: ['snap-0123456789abcdef0', 'snap-0123456789abcdef1'] },
    'SnapshotIds',
    '(none)',
    'snap-0123456789abcdef0,snap-0123456789abcdef1',
    /the volumes exist: CloudFormation does not create a volume again for another SnapshotId.*nothing would be restored/,
  ],
  [
    'another snapshot set for volumes restored from one',
    RESTORED,
    { SnapshotIds: ['snap-0fedcba9876543210', 'snap-0fedcba9876543211'] },
    'SnapshotIds',
    'snap-0123456789abcdef0,snap-0123456789abcdef1',
    'snap-0fedcba9876543210,snap-0fedcba9876543211',
    /the volumes were created from the old snapshots and exist: .*nothing would be restored and the volumes would keep the data they hold/,
  ],
  [
    'encryption key',
    EBS,
    { EncryptionKey: KEY_ARN },
    'EncryptionKey',
    'aws/ebs',
    KEY_ARN,
    /EBS cannot re-encrypt a volume in place.*the data would stay under the old key/,
  ],
  [
    'encryption key (instance store: the root volume, and the instance with it)',
    INSTANCE_STORE,
    { EncryptionKey: KEY_ARN },
    'EncryptionKey',
    'aws/ebs',
    KEY_ARN,
    /a new key changes the instance's root volume \(BlockDeviceMappings\).*every instance-store disk goes with it/,
  ],
  [
    'availability zone (EBS)',
    EBS,
    { AvailabilityZone: 'us-east-1b' },
    'AvailabilityZone',
    'us-east-1a',
    'us-east-1b',
    /EBS volumes live in one Availability Zone/,
  ],
  [
    'availability zone (instance store)',
    INSTANCE_STORE,
    { AvailabilityZone: 'us-east-1b' },
    'AvailabilityZone',
    'us-east-1a',
    'us-east-1b',
    /the instance store dies with its host/,
  ],
  ...(['ImageId', 'KeyPair', 'PlacementGroup'] as const).flatMap(
    (setting): [string, Props, Props, string, string, string, RegExp][] => {
      const value = setting === 'ImageId' ? 'ami-0fedcba9876543210' : 'new-value';
      return [
        [
          `${setting} (instance store)`,
          INSTANCE_STORE,
          { [setting]: value },
          setting,
          String(INSTANCE_STORE[setting]) || '(none)',
          value,
          /it replaces the instance, and every instance-store disk with it/,
        ],
        [
          `${setting} (EBS whose volumes CloudFormation attaches: legacyVolumeAttachments)`,
          { ...EBS, VolumeAttachment: 'retained' },
          { [setting]: value },
          setting,
          String(EBS[setting]) || '(none)',
          value,
          /CloudFormation attaches the data volumes \(legacyVolumeAttachments\): it would attach them to the new instance while the old one holds them \(VolumeInUse\)/,
        ],
      ];
    },
  ),
];

// FSx for Lustre: what replaces the file system, since CloudFormation creates a new one, or what FSx cannot do in
// place.
REFUSED.push(
  ['FSx deployment type', FSX, { FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '125' }, 'FileSystemType', 'PERSISTENT_2/SSD', 'PERSISTENT_1/SSD', /a new deployment or storage type: CloudFormation replaces the file system/],
  ['FSx storage type', FSX_HDD, { FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '12' }, 'FileSystemType', 'PERSISTENT_1/HDD', 'PERSISTENT_1/SSD', /a new deployment or storage type/],
  ['FSx per-unit throughput on HDD', FSX_HDD, { PerUnitStorageThroughput: '40' }, 'PerUnitStorageThroughput', '12', '40', /in place only on persistent SSD file systems \(this one is PERSISTENT_1\/HDD\)/],
  ['FSx capacity down', FSX, { StorageCapacityGiB: '12000' }, 'StorageCapacityGiB', '14400', '12000', /cannot shrink a file system's storage capacity/],
  ['FSx subnet', FSX, { SubnetId: 'subnet-0fedcba9876543210' }, 'SubnetId', 'subnet-0123456789abcdef0', 'subnet-0fedcba9876543210', /a new subnet \(SubnetIds\): CloudFormation replaces the file system/],
  ['FSx encryption key', FSX, { EncryptionKey: KEY_ARN }, 'EncryptionKey', 'aws/fsx', KEY_ARN, /a new key \(KmsKeyId\): CloudFormation replaces the file system/],
  ['backend ebs -> fsx-lustre', EBS, FSX, 'Backend', 'ebs', 'fsx-lustre', /the data cannot move between backends in place/],
);

// Instance-store encryption: the array keeps the layout it was made with. A d2 server whose guard records no encryption
// property, deployed unencrypted, is refused the encrypted default, with the way to keep the old array.
REFUSED.push(
  ['encryption on for an array made unencrypted (the upgrade of a d2 server)', INSTANCE_STORE, { InstanceStoreEncryption: 'luks2' }, 'InstanceStoreEncryption', '(none)', 'luks2', /the array keeps the layout it was made with/],
  ['encryption off for an encrypted array', INSTANCE_STORE_LUKS, { InstanceStoreEncryption: '' }, 'InstanceStoreEncryption', 'luks2', '(none)', /encryption is set up \(or left out\) only on blank disks/],
);

/** Changes the guard lets through. */
export const ALLOWED: [string, Props, Props][] = [
  // FSx for Lustre grows capacity in place, and changes the throughput tier of persistent SSD in place, on PERSISTENT_1
  // and PERSISTENT_2, per the FSx for Lustre guide, "Managing throughput capacity".
  ['FSx capacity up', FSX, { StorageCapacityGiB: '16800' }],
  ['FSx per-unit throughput 125 -> 500 on PERSISTENT_2', FSX, { PerUnitStorageThroughput: '500' }],
  ['FSx per-unit throughput 500 -> 250 on PERSISTENT_2', { ...FSX, PerUnitStorageThroughput: '500' }, { PerUnitStorageThroughput: '250' }],
  ['FSx per-unit throughput 50 -> 200 on PERSISTENT_1 SSD', { ...FSX, FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '50' }, { PerUnitStorageThroughput: '200' }],
  ['FSx backups off and on (not in the layout)', FSX, {}],
  ['one volume grows', EBS, { DataVolumes: ['0:8192', '1:16384'] }],
  ['every volume grows', EBS, { DataVolumes: ['0:16384', '1:16384'] }],
  // The bootstrap adds them as a second segment of the LV, as wide as the first: storage-bootstrap-array.sh.
  ['two volumes added after the two there, 2 -> 4', EBS, { DataVolumes: ['0:8192', '1:8192', '2:8192', '3:8192'] }],
  ['grown twice, 2 -> 4 -> 8', { ...EBS, DataVolumes: ['0:8192', '1:8192', '2:8192', '3:8192'] }, { DataVolumes: ['0:8192', '1:8192', '2:8192', '3:8192', '4:8192', '5:8192', '6:8192', '7:8192'] }],
  ['nothing changes', EBS, {}],
  // EBS reads a snapshot only when it creates a volume: the ids need not be carried on every deploy after a restore.
  ['the restore ids dropped after the restore', RESTORED, { SnapshotIds: [] }],
  ['the restore ids kept', RESTORED, {}],
  ['AcceptDataLoss false -> true alone', EBS, { AcceptDataLoss: 'true' }],
  ['AcceptDataLoss true -> false alone', { ...EBS, AcceptDataLoss: 'true' }, { AcceptDataLoss: 'false' }],
  ['nothing changes on instance store', INSTANCE_STORE, {}],
  ['nothing changes on encrypted instance store', INSTANCE_STORE_LUKS, {}],
  // The replacement instance takes the volumes and the interface over in storage-attach; the VM test boot replace shows
  // it.
  ['a new image on EBS (the instance is replaced)', EBS, { ImageId: 'ami-0fedcba9876543210' }],
  ['a new key pair on EBS', EBS, { KeyPair: 'ops' }],
  ['a new placement group on EBS', EBS, { PlacementGroup: 'pg-1' }],
  ['a new image in the deploy that leaves legacyVolumeAttachments', { ...EBS, VolumeAttachment: 'retained' }, { ImageId: 'ami-0fedcba9876543210', VolumeAttachment: 'server' }],
];

