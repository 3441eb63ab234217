import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { App, Lazy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import {
  MAX_MESSAGE_LENGTH,
  PROP,
  UPDATE_POLICIES,
  compareLayouts,
  guardProperties,
  layoutPhysicalId,
  parseGuardProperties,
  refusalMessage,
  type Refusal,
  type StorageLayout,
} from '../../lambda/update-guard/contract';
import { handler } from '../../lambda/update-guard';

// The handler's two AWS questions (aws.ts) are tested against moto in test/integration/update-guard.test.ts and
// in test/unit/update-guard-watched.test.ts; here nothing of the server exists and the stack is never rolling back.
jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async () => [],
  // No FSx file system in CloudFormation's record: the growth interval is update-guard-growth-interval.test.ts's.
  physicalIdIn: async () => undefined,
  stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
}));
import { UpdateGuard, type UpdateGuardProps } from '../../lib/update-guard';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

type Props = Record<string, string | string[]>;

const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666';
const OTHER_KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/9f8e7d6c-1111-2222-3333-444455556666';

/** ResourceProperties of an EBS server: two 8 TiB st1 volumes striped, as CloudFormation sends them. */
const EBS: Props = {
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

/** The same EBS server, its volumes created from a snapshot set (`restoreSnapshotIds`). */
const RESTORED: Props = { ...EBS, SnapshotIds: ['snap-0123456789abcdef0', 'snap-0123456789abcdef1'] };

/** ResourceProperties of an instance-store server on a d2.4xlarge. */
const INSTANCE_STORE: Props = {
  ...EBS,
  Backend: 'instance-store',
  InstanceStoreType: 'd2.4xlarge',
  DataVolumes: [],
};

/** The same server with its array encrypted by the bootstrap (LUKS2), as d2 servers are by default. */
const INSTANCE_STORE_LUKS: Props = { ...INSTANCE_STORE, InstanceStoreEncryption: 'luks2' };

/** ResourceProperties of an FSx for Lustre file system: PERSISTENT_2 SSD at 125 MB/s per TiB, 14400 GiB. */
const FSX: Props = {
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
const FSX_HDD: Props = { ...FSX, FileSystemType: 'PERSISTENT_1/HDD', PerUnitStorageThroughput: '12', StorageCapacityGiB: '108000' };

function without(props: Props, ...keys: string[]): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));
}

function layoutOf(props: Props): StorageLayout {
  return parseGuardProperties(props).layout;
}

function createEvent(props: Props): CdkCustomResourceEvent {
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

function updateEvent(oldProps: Props, newProps: Props, physicalResourceId: string): CdkCustomResourceEvent {
  return {
    ...createEvent(newProps),
    RequestType: 'Update',
    PhysicalResourceId: physicalResourceId,
    OldResourceProperties: oldProps,
  } as CdkCustomResourceEvent;
}

function deleteEvent(props: unknown, physicalResourceId: string): CdkCustomResourceEvent {
  return {
    ...createEvent(EBS),
    RequestType: 'Delete',
    PhysicalResourceId: physicalResourceId,
    ResourceProperties: props,
  } as CdkCustomResourceEvent;
}

/** The Update CloudFormation sends for a deploy from `oldProps` (last accepted, so its id) to `newProps`. */
function update(oldProps: Props, newProps: Props): ReturnType<typeof handler> {
  return handler(updateEvent(oldProps, newProps, layoutPhysicalId(layoutOf(oldProps))));
}

let logs: { log: jest.SpyInstance; warn: jest.SpyInstance; error: jest.SpyInstance };

beforeEach(() => {
  logs = {
    log: jest.spyOn(console, 'log').mockImplementation(() => undefined),
    warn: jest.spyOn(console, 'warn').mockImplementation(() => undefined),
    error: jest.spyOn(console, 'error').mockImplementation(() => undefined),
  };
});

afterEach(() => {
  jest.restoreAllMocks();
});

/** Each refused change: the base layout, what changes, and the one refusal expected (setting, old, new, why). */
const REFUSED: [string, Props, Props, string, string, string, RegExp][] = [
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
    /volumes added to an existing stripe: LVM cannot restripe an existing striped LV in place/,
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

// FSx for Lustre: what replaces the file system (CloudFormation creates a new one) or what FSx cannot do in place.
REFUSED.push(
  ['FSx deployment type', FSX, { FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '125' }, 'FileSystemType', 'PERSISTENT_2/SSD', 'PERSISTENT_1/SSD', /a new deployment or storage type: CloudFormation replaces the file system/],
  ['FSx storage type', FSX_HDD, { FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '12' }, 'FileSystemType', 'PERSISTENT_1/HDD', 'PERSISTENT_1/SSD', /a new deployment or storage type/],
  ['FSx per-unit throughput on HDD', FSX_HDD, { PerUnitStorageThroughput: '40' }, 'PerUnitStorageThroughput', '12', '40', /in place only on persistent SSD file systems \(this one is PERSISTENT_1\/HDD\)/],
  ['FSx capacity down', FSX, { StorageCapacityGiB: '12000' }, 'StorageCapacityGiB', '14400', '12000', /cannot shrink a file system's storage capacity/],
  ['FSx subnet', FSX, { SubnetId: 'subnet-0fedcba9876543210' }, 'SubnetId', 'subnet-0123456789abcdef0', 'subnet-0fedcba9876543210', /a new subnet \(SubnetIds\): CloudFormation replaces the file system/],
  ['FSx encryption key', FSX, { EncryptionKey: KEY_ARN }, 'EncryptionKey', 'aws/fsx', KEY_ARN, /a new key \(KmsKeyId\): CloudFormation replaces the file system/],
  ['backend ebs -> fsx-lustre', EBS, FSX, 'Backend', 'ebs', 'fsx-lustre', /the data cannot move between backends in place/],
);

// Instance-store encryption: the array keeps the layout it was made with. An upgrade of a d2 server deployed
// before encryption (no property) to the encrypted default is refused with the way to keep the old array.
REFUSED.push(
  ['encryption on for an array made unencrypted (the upgrade of a d2 server)', INSTANCE_STORE, { InstanceStoreEncryption: 'luks2' }, 'InstanceStoreEncryption', '(none)', 'luks2', /the array keeps the layout it was made with/],
  ['encryption off for an encrypted array', INSTANCE_STORE_LUKS, { InstanceStoreEncryption: '' }, 'InstanceStoreEncryption', 'luks2', '(none)', /encryption is set up \(or left out\) only on blank disks/],
);

/** Changes the guard lets through. */
const ALLOWED: [string, Props, Props][] = [
  // FSx for Lustre grows capacity in place, and changes the throughput tier of persistent SSD in place (PERSISTENT_1
  // and PERSISTENT_2; FSx for Lustre guide, "Managing throughput capacity").
  ['FSx capacity up', FSX, { StorageCapacityGiB: '16800' }],
  ['FSx per-unit throughput 125 -> 500 on PERSISTENT_2', FSX, { PerUnitStorageThroughput: '500' }],
  ['FSx per-unit throughput 500 -> 250 on PERSISTENT_2', { ...FSX, PerUnitStorageThroughput: '500' }, { PerUnitStorageThroughput: '250' }],
  ['FSx per-unit throughput 50 -> 200 on PERSISTENT_1 SSD', { ...FSX, FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '50' }, { PerUnitStorageThroughput: '200' }],
  ['FSx backups off and on (not in the layout)', FSX, {}],
  ['one volume grows', EBS, { DataVolumes: ['0:8192', '1:16384'] }],
  ['every volume grows', EBS, { DataVolumes: ['0:16384', '1:16384'] }],
  ['nothing changes', EBS, {}],
  // EBS reads a snapshot only when it creates a volume: the ids need not be carried on every deploy after a restore.
  ['the restore ids dropped after the restore', RESTORED, { SnapshotIds: [] }],
  ['the restore ids kept', RESTORED, {}],
  ['AcceptDataLoss false -> true alone', EBS, { AcceptDataLoss: 'true' }],
  ['AcceptDataLoss true -> false alone', { ...EBS, AcceptDataLoss: 'true' }, { AcceptDataLoss: 'false' }],
  ['nothing changes on instance store', INSTANCE_STORE, {}],
  ['nothing changes on encrypted instance store', INSTANCE_STORE_LUKS, {}],
  // The replacement instance takes the volumes and the interface over (storage-attach; VM-tested: boot replace).
  ['a new image on EBS (the instance is replaced)', EBS, { ImageId: 'ami-0fedcba9876543210' }],
  ['a new key pair on EBS', EBS, { KeyPair: 'ops' }],
  ['a new placement group on EBS', EBS, { PlacementGroup: 'pg-1' }],
  ['a new image in the deploy that leaves legacyVolumeAttachments', { ...EBS, VolumeAttachment: 'retained' }, { ImageId: 'ami-0fedcba9876543210', VolumeAttachment: 'server' }],
];

describe('compareLayouts: the policy table', () => {
  test.each(REFUSED)('refuses %s', (_name, base, change, setting, oldValue, newValue, why) => {
    // GIVEN
    const next = { ...base, ...change };

    // WHEN
    const refusals = compareLayouts(layoutOf(base), layoutOf(next), false);

    // THEN
    expect(refusals).toEqual([
      expect.objectContaining({
        setting,
        oldValue,
        newValue,
        why: expect.stringMatching(why),
        accepted: false,
      }),
    ]);
    expect(refusals[0].safePath).not.toBe('');
  });

  test('a backend change names the old backend to keep: auto chooses again on every synth', () => {
    const [refusal] = compareLayouts(layoutOf(EBS), layoutOf(FSX), false);
    expect(refusal.safePath).toMatch(/^keep backend 'ebs' \(-c backend=ebs, prop backend: with backend auto the planner chooses again/);
    expect(refusal.safePath).toMatch(/or deploy a second server with another serverName/);
  });

  test.each(ALLOWED)('allows %s', (_name, base, change) => {
    expect(compareLayouts(layoutOf(base), layoutOf({ ...base, ...change }), false)).toEqual([]);
  });

  test('several changes at once: every refusal, in property order', () => {
    const next = { ...EBS, DataVolumes: ['0:4096'], EncryptionKey: KEY_ARN, KeyPair: 'ops' };
    const refusals = compareLayouts(layoutOf(EBS), layoutOf(next), false);
    expect(refusals.map((r) => r.setting)).toEqual([
      'DataVolumes',
      'DataVolumes',
      'EncryptionKey',
    ]);
    expect(refusals.map((r) => r.why)).toEqual([
      expect.stringMatching(/fewer volumes/),
      expect.stringMatching(/cannot shrink/),
      expect.stringMatching(/new key/),
    ]);
  });

  test('with acceptDataLoss every refusal is still reported, marked accepted', () => {
    const refusals = compareLayouts(layoutOf(EBS), layoutOf(INSTANCE_STORE), true);
    expect(refusals).toEqual([expect.objectContaining({ setting: 'Backend', accepted: true })]);
  });

  test('FSx: a new type refuses once (FileSystemType), not again for the throughput that comes with it', () => {
    const refusals = compareLayouts(layoutOf(FSX), layoutOf({ ...FSX, FileSystemType: 'PERSISTENT_1/SSD', PerUnitStorageThroughput: '200' }), false);
    expect(refusals.map((r) => r.setting)).toEqual(['FileSystemType']);
  });

  test('FSx fields on an EC2 layout, or missing on an FSx one, are refused naming the property', () => {
    expect(() => layoutOf({ ...EBS, SubnetId: 'subnet-0123456789abcdef0' })).toThrow(/ResourceProperties\.SubnetId must be '' on the ebs backend/);
    expect(() => layoutOf(without(FSX, 'StorageCapacityGiB'))).toThrow(/ResourceProperties\.StorageCapacityGiB must be a whole number of GiB, got ""/);
    expect(() => layoutOf({ ...FSX, EncryptionKey: 'aws/ebs' })).toThrow(/ResourceProperties\.EncryptionKey must be 'aws\/fsx' or a KMS key ARN/);
  });

  test('InstanceStoreEncryption: the refusal names the way to keep the old array; values are checked per backend', () => {
    const [refusal] = compareLayouts(layoutOf(INSTANCE_STORE), layoutOf(INSTANCE_STORE_LUKS), false);
    expect(refusal.safePath).toMatch(/encryptInstanceStore: false for an array made unencrypted/);
    expect(() => layoutOf({ ...INSTANCE_STORE, InstanceStoreEncryption: 'aes' })).toThrow(
      /ResourceProperties\.InstanceStoreEncryption must be '' or 'luks2' on the instance-store backend, got "aes"/);
    expect(() => layoutOf({ ...EBS, InstanceStoreEncryption: 'luks2' })).toThrow(
      /ResourceProperties\.InstanceStoreEncryption must be '' on the ebs backend/);
  });

  test('the table has a policy for every layout property, and AcceptDataLoss is not in it', () => {
    const settings = Object.keys(UPDATE_POLICIES).map((f) => PROP[f as keyof typeof PROP]);
    expect(settings.sort()).toEqual(
      Object.values(PROP)
        .filter((p) => p !== PROP.acceptDataLoss)
        .sort(),
    );
  });
});

describe('handler', () => {
  test('Create returns the layout id as PhysicalResourceId', async () => {
    const result = await handler(createEvent(EBS));
    expect(result).toEqual({ PhysicalResourceId: layoutPhysicalId(layoutOf(EBS)) });
    expect(result.PhysicalResourceId).toMatch(/^storage-layout-[0-9a-f]{16}$/);
  });

  test('Create of an instance-store layout, with the lists absent (read as empty)', async () => {
    const props = without(INSTANCE_STORE, 'DataVolumes', 'SnapshotIds');
    const result = await handler(createEvent(props));
    expect(result.PhysicalResourceId).toBe(layoutPhysicalId(layoutOf(INSTANCE_STORE)));
  });

  test.each(REFUSED)('Update refuses %s, naming the change, why and the safe path', async (...row) => {
    const [, base, change, setting, oldValue, newValue, why] = row;
    const refusal = update(base, { ...base, ...change });
    await expect(refusal).rejects.toThrow(/^StorageServer update refused, nothing was changed: /);
    await expect(refusal).rejects.toThrow(`${setting} ${oldValue} -> ${newValue}: `);
    await expect(refusal).rejects.toThrow(why);
    await expect(refusal).rejects.toThrow(/\. Safe path: [^.]+\. To accept the loss/);
    await expect(refusal).rejects.toThrow(
      /To accept the loss \(scratch data only\), deploy again with acceptDataLoss=true \(context\) or acceptDataLoss: true \(prop\)\.$/,
    );
  });

  test.each(ALLOWED)('Update allows %s and returns the new layout id', async (_name, base, change) => {
    const next = { ...base, ...change };
    await expect(update(base, next)).resolves.toEqual({
      PhysicalResourceId: layoutPhysicalId(layoutOf(next)),
    });
  });

  test('Update with AcceptDataLoss=true passes a refused change and logs each accepted loss', async () => {
    // GIVEN
    const next = { ...EBS, DataVolumes: ['0:4096'], EncryptionKey: KEY_ARN, AcceptDataLoss: 'true' };

    // WHEN
    const result = await update(EBS, next);

    // THEN
    expect(result).toEqual({ PhysicalResourceId: layoutPhysicalId(layoutOf(next)) });
    const warnings = logs.warn.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(warnings).toEqual([
      expect.objectContaining({ setting: 'DataVolumes', why: expect.stringMatching(/fewer volumes/) }),
      expect.objectContaining({ setting: 'DataVolumes', why: expect.stringMatching(/cannot shrink/) }),
      expect.objectContaining({ setting: 'EncryptionKey', oldValue: 'aws/ebs', newValue: KEY_ARN }),
    ]);
  });

  test('a refused Update and a bad Create each log the one request-failed line, with the reason', async () => {
    // WHEN
    await expect(update(EBS, INSTANCE_STORE)).rejects.toThrow(/Backend ebs -> instance-store/);
    await expect(handler(createEvent({ ...EBS, DataVolumes: ['x'] }))).rejects.toThrow();
    // THEN: the handler's catch sees the rejections of create() and update(), not only what throws at once
    const failed = logs.error.mock.calls.map(([line]) => JSON.parse(String(line))).filter((l) => l.msg === 'update guard request failed');
    expect(failed.map((l) => l.requestType)).toEqual(['Update', 'Create']);
    expect(failed[0].reason).toMatch(/Backend ebs -> instance-store/);
  });

  test('the opt-in is read from the new properties only', async () => {
    const old = { ...EBS, AcceptDataLoss: 'true' };
    await expect(update(old, INSTANCE_STORE)).rejects.toThrow(/Backend ebs -> instance-store/);
  });

  test('rollback: after a refused update, the Update back to the old properties passes', async () => {
    // GIVEN: a deployed layout, and an update the guard refuses (CloudFormation keeps the physical id)
    const deployed = (await handler(createEvent(EBS))).PhysicalResourceId as string;
    const shrunk = { ...EBS, DataVolumes: ['0:8192'] };
    await expect(handler(updateEvent(EBS, shrunk, deployed))).rejects.toThrow(/fewer volumes/);

    // WHEN: the rollback, new and old swapped: old -> new would be "more volumes", refused if compared
    const rollback = handler(updateEvent(shrunk, EBS, deployed));

    // THEN
    await expect(rollback).resolves.toEqual({ PhysicalResourceId: deployed });
    expect(compareLayouts(layoutOf(shrunk), layoutOf(EBS), false)).not.toEqual([]);
  });

  test('an Update whose layout differs from the physical id is compared, however it came about', async () => {
    const shrunk = { ...EBS, DataVolumes: ['0:8192'] };
    await expect(handler(updateEvent(shrunk, EBS, 'storage-layout-0000000000000000'))).rejects.toThrow(
      /more volumes|added to an existing stripe/,
    );
  });

  test('Delete always succeeds: the guard holds no state, even with properties it cannot read', async () => {
    await expect(handler(deleteEvent(EBS, 'storage-layout-0123456789abcdef'))).resolves.toEqual({
      PhysicalResourceId: 'storage-layout-0123456789abcdef',
    });
    await expect(handler(deleteEvent({ Backend: 'zfs', Extra: 1 }, 'whatever'))).resolves.toEqual({
      PhysicalResourceId: 'whatever',
    });
  });

  test('an unknown RequestType is an error', async () => {
    await expect(handler({ ...createEvent(EBS), RequestType: 'Replace' } as never)).rejects.toThrow(
      /RequestType must be Create, Update or Delete, got "Replace"/,
    );
  });

  test('the event (with its presigned ResponseURL) is never logged', async () => {
    await handler(createEvent(EBS));
    await update(EBS, { ...EBS, DataVolumes: ['0:1'] }).catch(() => undefined);
    const logged = [...logs.log.mock.calls, ...logs.error.mock.calls, ...logs.warn.mock.calls]
      .flat()
      .join('\n');
    expect(logged).not.toContain('presigned');
  });
});

describe('validation of the properties', () => {
  test.each([
    ['a missing property', { Backend: undefined }, /ResourceProperties is missing Backend/],
    [
      'several missing',
      { KeyPair: undefined, ImageId: undefined },
      /ResourceProperties is missing ImageId, KeyPair/,
    ],
    ['an unknown property', { Backends: 'ebs' }, /ResourceProperties has unknown properties Backends/],
    [
      'a non-string',
      { AvailabilityZone: ['us-east-1a'] },
      /ResourceProperties.AvailabilityZone must be a string/,
    ],
    ['a non-list', { DataVolumes: '0:8192' }, /ResourceProperties.DataVolumes must be a list of strings/],
    [
      'an unknown backend',
      { Backend: 'zfs' },
      /ResourceProperties.Backend must be one of ebs, instance-store, fsx-lustre, fsx-openzfs, got "zfs"/,
    ],
    [
      'a bad volume entry',
      { DataVolumes: ['0:8192', '1:8 TiB'] },
      /ResourceProperties.DataVolumes\[1\] must match <index>:<sizeGiB>/,
    ],
    ['a fractional size', { DataVolumes: ['0:81.5'] }, /DataVolumes\[0\] must match <index>:<sizeGiB>/],
    [
      'a zero size',
      { DataVolumes: ['0:0'] },
      /ResourceProperties.DataVolumes must hold whole indexes from 0 and whole sizes of at least 1 GiB, got "0:0"/,
    ],
    [
      'a repeated index',
      { DataVolumes: ['0:1', '0:2'] },
      /ResourceProperties.DataVolumes must not repeat an index/,
    ],
    [
      'a type on EBS',
      { InstanceStoreType: 'd2.xlarge' },
      /ResourceProperties.InstanceStoreType must be '' on the ebs backend/,
    ],
    [
      'a bad snapshot id',
      { SnapshotIds: ['snapshot-1'] },
      /ResourceProperties.SnapshotIds must hold snapshot ids/,
    ],
    [
      'a key id instead of an ARN',
      { EncryptionKey: '0a1b2c3d-1111' },
      /ResourceProperties.EncryptionKey must be 'aws\/ebs' or a KMS key ARN/,
    ],
    [
      'an empty zone',
      { AvailabilityZone: '' },
      /ResourceProperties.AvailabilityZone must be an Availability Zone name/,
    ],
    ['a bad image id', { ImageId: 'ubuntu' }, /ResourceProperties.ImageId must be '', an image id/],
    [
      'a bad opt-in',
      { AcceptDataLoss: 'yes' },
      /ResourceProperties.AcceptDataLoss must be 'true' or 'false', got "yes"/,
    ],
  ])('Create rejects %s', async (_name, change, message) => {
    const props = Object.fromEntries(
      Object.entries({ ...EBS, ...change }).filter(([, v]) => v !== undefined),
    ) as Props;
    await expect(handler(createEvent(props))).rejects.toThrow(message);
  });

  test.each([
    [
      'no type',
      { InstanceStoreType: '' },
      /InstanceStoreType must be an EC2 instance type such as d2.xlarge/,
    ],
    ['volumes', { DataVolumes: ['0:100'] }, /DataVolumes must be empty on the instance-store backend/],
  ])('Create rejects an instance-store layout with %s', async (_name, change, message) => {
    await expect(handler(createEvent({ ...INSTANCE_STORE, ...change }))).rejects.toThrow(message);
  });

  test('Update validates the new properties, and the old ones under their own name', async () => {
    await expect(update(EBS, { ...EBS, Backend: 'zfs' })).rejects.toThrow(
      /^ResourceProperties.Backend must be/,
    );
    await expect(
      handler(updateEvent({ ...EBS, Backend: 'zfs' }, EBS, 'storage-layout-0000000000000000')),
    ).rejects.toThrow(/^OldResourceProperties.Backend must be/);
  });

  test('the ServiceToken CloudFormation adds is ignored, also by the layout id', () => {
    expect(layoutOf(without(EBS, 'ServiceToken'))).toEqual(layoutOf(EBS));
    expect(layoutPhysicalId(layoutOf({ ...EBS, ServiceToken: 'other' }))).toBe(
      layoutPhysicalId(layoutOf(EBS)),
    );
  });
});

describe('VolumeAttachment: volumes attached by the stack before, by the server now', () => {
  test('an EBS server deployed with stack-attached volumes is refused the upgrade: it would detach its live volumes', async () => {
    const before = without(EBS, 'VolumeAttachment');
    const failure = handler(updateEvent(before, EBS, layoutPhysicalId(layoutOf(before))));
    await expect(failure).rejects.toThrow(
      'VolumeAttachment stack -> server: the data volumes are attached by CloudFormation (AWS::EC2::VolumeAttachment); ' +
        'this version has the server attach them itself, and the update would delete those attachments, detaching the ' +
        'volumes from the running server. Safe path: upgrade in two deploys: first with legacyVolumeAttachments=true ' +
        '(context) or legacyVolumeAttachments: true (prop), which keeps the attachments and retains them, then without it.',
    );
  });

  test('the two-step upgrade passes: stack -> retained (attachments kept, retained), then retained -> server', async () => {
    const before = without(EBS, 'VolumeAttachment');
    const step1 = { ...EBS, VolumeAttachment: 'retained' };
    await expect(handler(updateEvent(before, step1, layoutPhysicalId(layoutOf(before))))).resolves.toBeDefined();
    await expect(handler(updateEvent(step1, EBS, layoutPhysicalId(layoutOf(step1))))).resolves.toBeDefined();
  });

  test.each(['retained', 'stack'])('server -> %s is refused: attaching an attached volume again fails', async (back) => {
    const next = { ...EBS, VolumeAttachment: back };
    await expect(handler(updateEvent(EBS, next, layoutPhysicalId(layoutOf(EBS))))).rejects.toThrow(
      `VolumeAttachment server -> ${back}: the server attaches its volumes itself; an AWS::EC2::VolumeAttachment of a ` +
        'volume already attached fails. Safe path: leave legacyVolumeAttachments off.',
    );
  });

  test('acceptDataLoss lets it pass (logged); an instance-store server, which has no volumes, passes', async () => {
    const before = without(EBS, 'VolumeAttachment');
    await expect(handler(updateEvent(before, { ...EBS, AcceptDataLoss: 'true' }, layoutPhysicalId(layoutOf(before))))).resolves.toBeDefined();
    const d2 = without(INSTANCE_STORE, 'VolumeAttachment');
    await expect(handler(updateEvent(d2, { ...INSTANCE_STORE, VolumeAttachment: 'server' }, layoutPhysicalId(layoutOf(d2))))).resolves.toBeDefined();
  });

  test('a new server and an unchanged one: nothing to refuse', async () => {
    await expect(handler(updateEvent(EBS, { ...EBS, KeyPair: '' }, 'storage-layout-0000000000000000'))).resolves.toBeDefined();
  });

  test('a value outside stack and server is refused, naming the property', () => {
    expect(() => layoutOf({ ...EBS, VolumeAttachment: 'cfn' })).toThrow(
      'ResourceProperties.VolumeAttachment must be one of stack, retained, server, got "cfn"',
    );
  });
});

describe('the layout id', () => {
  test('is pinned: a deployed guard keeps its id across releases, or the rollback rule breaks', () => {
    // sha256 of the canonical JSON: the layout properties in PROP order, AcceptDataLoss and ServiceToken left out.
    const canonical =
      '{"Backend":"ebs","InstanceStoreType":"","DataVolumes":["0:8192","1:8192"],"SnapshotIds":[],' +
      '"EncryptionKey":"aws/ebs","AvailabilityZone":"us-east-1a","ImageId":"ami-0123456789abcdef0",' +
      '"KeyPair":"","PlacementGroup":""}';
    const hash = createHash('sha256').update(canonical).digest('hex');
    expect(hash.slice(0, 16)).toBe('53e1c515ff048f43');
    // A guard deployed before VolumeAttachment existed (no such property: the stack attached the volumes).
    expect(layoutPhysicalId(layoutOf(without(EBS, 'VolumeAttachment')))).toBe('storage-layout-53e1c515ff048f43');
    expect(layoutPhysicalId(layoutOf({ ...EBS, VolumeAttachment: 'stack' }))).toBe('storage-layout-53e1c515ff048f43');
    // Server-attached volumes are another layout, with the field in its canonical JSON.
    const server = createHash('sha256').update(`${canonical.slice(0, -1)},"VolumeAttachment":"server"}`).digest('hex');
    expect(layoutPhysicalId(layoutOf(EBS))).toBe(`storage-layout-${server.slice(0, 16)}`);
  });

  test('InstanceStoreEncryption is left out when empty (a guard deployed before it keeps its id), and in when set', () => {
    expect(layoutPhysicalId(layoutOf({ ...INSTANCE_STORE, InstanceStoreEncryption: '' }))).toBe(layoutPhysicalId(layoutOf(INSTANCE_STORE)));
    expect(guardProperties(layoutOf(INSTANCE_STORE), false)).not.toHaveProperty('InstanceStoreEncryption');
    expect(guardProperties(layoutOf(INSTANCE_STORE_LUKS), false)).toHaveProperty('InstanceStoreEncryption', 'luks2');
    expect(layoutPhysicalId(layoutOf(INSTANCE_STORE_LUKS))).not.toBe(layoutPhysicalId(layoutOf(INSTANCE_STORE)));
  });

  test('the rollback of an upgrade the guard refused is recognised: no comparison, no refusal', async () => {
    // GIVEN a guard deployed before VolumeAttachment, and the upgrade it refused (old -> new)
    const before = without(EBS, 'VolumeAttachment');
    await expect(handler(updateEvent(before, EBS, layoutPhysicalId(layoutOf(before))))).rejects.toThrow(/VolumeAttachment stack -> server/);
    // WHEN CloudFormation rolls back: the old properties again, the PhysicalResourceId unchanged
    const rollback = await handler(updateEvent(EBS, before, layoutPhysicalId(layoutOf(before))));
    // THEN
    expect(rollback.PhysicalResourceId).toBe('storage-layout-53e1c515ff048f43');
  });

  test('leaves AcceptDataLoss out and changes with every layout property', () => {
    const id = layoutPhysicalId(layoutOf(EBS));
    expect(layoutPhysicalId(layoutOf({ ...EBS, AcceptDataLoss: 'true' }))).toBe(id);
    const changes: Props[] = [
      INSTANCE_STORE,
      { ...INSTANCE_STORE, InstanceStoreType: 'd2.8xlarge' },
      { ...EBS, DataVolumes: ['0:8192', '1:8193'] },
      { ...EBS, SnapshotIds: ['snap-0123456789abcdef0', 'snap-0123456789abcdef1'] },
      { ...EBS, EncryptionKey: KEY_ARN },
      { ...EBS, AvailabilityZone: 'us-east-1b' },
      { ...EBS, ImageId: '' },
      { ...EBS, KeyPair: 'ops' },
      { ...EBS, PlacementGroup: 'hpc' },
      { ...EBS, VolumeAttachment: 'stack' },
    ];
    const ids = changes.map((p) => layoutPhysicalId(layoutOf(p)));
    expect(new Set([id, ...ids]).size).toBe(changes.length + 1);
  });
});

describe('refusalMessage', () => {
  const refusal = (setting: string, value = 'x'): Refusal => ({
    setting,
    oldValue: value,
    newValue: `${value}2`,
    why: 'a reason',
    safePath: 'a safe path',
    accepted: false,
  });

  test('one line: head, each refusal, how to accept the loss', () => {
    expect(refusalMessage([refusal('Backend', 'ebs'), refusal('KeyPair', 'ops')])).toBe(
      'StorageServer update refused, nothing was changed: ' +
        'Backend ebs -> ebs2: a reason. Safe path: a safe path. ' +
        'KeyPair ops -> ops2: a reason. Safe path: a safe path. ' +
        'To accept the loss (scratch data only), deploy again with acceptDataLoss=true (context) or ' +
        'acceptDataLoss: true (prop).',
    );
  });

  test(`stays under ${MAX_MESSAGE_LENGTH} characters: long values shortened, extra refusals counted`, () => {
    const many = Array.from({ length: 40 }, (_, i) => refusal(`Setting${i}`, 'v'.repeat(500)));
    const message = refusalMessage(many);
    expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(message).toMatch(
      /^StorageServer update refused, nothing was changed: Setting0 v+\.\.\. -> v+\.\.\.: /,
    );
    expect(message).toMatch(
      /And \d+ more refusal\(s\), listed in the log of the guard function\. To accept the loss/,
    );
    expect(message).not.toContain('\n');
  });

  test('every real refusal at once still fits', async () => {
    const everything = {
      ...INSTANCE_STORE,
      InstanceStoreType: 'd2.8xlarge',
      EncryptionKey: OTHER_KEY_ARN,
      AvailabilityZone: 'us-east-1b',
      ImageId: 'ami-0fedcba9876543210',
      KeyPair: 'k'.repeat(255),
      PlacementGroup: 'p'.repeat(255),
    };
    const base = { ...INSTANCE_STORE, EncryptionKey: KEY_ARN };
    const message = await update(base, everything).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    for (const setting of [
      'InstanceStoreType',
      'EncryptionKey',
      'AvailabilityZone',
      'ImageId',
    ]) {
      expect(message).toContain(`${setting} `);
    }
  });
});

/** An App that skips asset bundling (esbuild) for the construct assertions; one test bundles for real. */
function app(bundle = false): App {
  return new App(bundle ? {} : { context: { 'aws:cdk:bundling-stacks': [] } });
}

const LAYOUT: StorageLayout = {
  backend: 'ebs',
  instanceStoreType: '',
  dataVolumes: [
    { index: 0, sizeGiB: 8192 },
    { index: 1, sizeGiB: 8192 },
  ],
  snapshotIds: [],
  encryptionKey: 'aws/ebs',
  availabilityZone: 'us-east-1a',
  imageId: 'ami-0123456789abcdef0',
  keyPair: '',
  placementGroup: '',
  volumeAttachment: 'server',
  fileSystemType: '',
  perUnitStorageThroughput: '',
  storageCapacityGiB: '',
  subnetId: '',
  instanceStoreEncryption: '',
  throughputCapacity: '',
  standbySubnetId: '',
  diskIops: '',
  metadataIops: '',
  snapshotRetain: '',
};

function guard(stack: Stack, id = 'Guard', props: Partial<UpdateGuardProps> = {}): UpdateGuard {
  return new UpdateGuard(stack, id, { layout: LAYOUT, ...props });
}

function stackIn(scope: App = app(), id = 'Test'): Stack {
  return new Stack(scope, id, { env: { account: '123456789012', region: 'us-east-1' } });
}

describe('UpdateGuard', () => {
  test('one custom resource with the layout as properties, in the form the handler reads', () => {
    // GIVEN
    const stack = stackIn();

    // WHEN
    guard(stack);

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('Custom::StorageServerUpdateGuard', 1);
    template.hasResourceProperties('Custom::StorageServerUpdateGuard', {
      ServiceToken: Match.anyValue(),
      Backend: 'ebs',
      InstanceStoreType: '',
      DataVolumes: ['0:8192', '1:8192'],
      SnapshotIds: [],
      EncryptionKey: 'aws/ebs',
      AvailabilityZone: 'us-east-1a',
      ImageId: 'ami-0123456789abcdef0',
      KeyPair: '',
      PlacementGroup: '',
      AcceptDataLoss: 'false',
    });
    const [resource] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
    const { layout } = parseGuardProperties({ ...resource.Properties, ServiceToken: 'resolved' });
    expect(layout).toEqual(LAYOUT);
  });

  test('acceptDataLoss: true is passed as the string "true"', () => {
    const stack = stackIn();
    guard(stack, 'Guard', { acceptDataLoss: true });
    Template.fromStack(stack).hasResourceProperties('Custom::StorageServerUpdateGuard', {
      AcceptDataLoss: 'true',
    });
  });

  test('takes tokens (a KMS key ARN, the subnet AZ) and passes them for CloudFormation to resolve', () => {
    // GIVEN
    const stack = stackIn();
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
    const zone = Lazy.string({ produce: () => 'us-east-1a' });

    // WHEN
    guard(stack, 'Guard', { layout: { ...LAYOUT, encryptionKey: key.keyArn, availabilityZone: zone } });

    // THEN
    Template.fromStack(stack).hasResourceProperties('Custom::StorageServerUpdateGuard', {
      EncryptionKey: { 'Fn::GetAtt': [stack.getLogicalId(key.node.defaultChild as kms.CfnKey), 'Arn'] },
      AvailabilityZone: 'us-east-1a',
    });
  });

  test('other resources can depend on it, so CloudFormation updates the guard first', () => {
    const stack = stackIn();
    const g = guard(stack);
    const queue = new sqs.Queue(stack, 'DependsOnGuard');
    queue.node.addDependency(g.resource);
    const template = Template.fromStack(stack);
    const [guardId] = Object.keys(template.findResources('Custom::StorageServerUpdateGuard'));
    template.hasResource('AWS::SQS::Queue', { DependsOn: [guardId] });
  });

  test('the provider function: pinned Node.js 22, logs kept for a year; permissions: describe, its own stack, its own logs', () => {
    // GIVEN
    const stack = stackIn();

    // WHEN
    guard(stack);

    // THEN
    const template = Template.fromStack(stack);
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    const handlerLogs = Object.keys(logGroups).find((id) => id.includes('UpdateGuardProviderLogs'));
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      Timeout: 60,
      LoggingConfig: { LogGroup: { Ref: handlerLogs } },
    });
    for (const group of Object.values(logGroups)) expect(group.Properties.RetentionInDays).toBe(365);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Sid: 'DescribeServerResources',
            Effect: 'Allow',
            Action: [
              'ec2:DescribeInstances', 'ec2:DescribeVolumes', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes',
              'fsx:DescribeFileSystems',
            ],
            Resource: '*',
          },
          { Sid: 'ReadOwnStackStatus', Effect: 'Allow', Action: 'cloudformation:DescribeStacks', Resource: { Ref: 'AWS::StackId' } },
          // Which stacks exactly: the IAM simulator's claims (test/unit/iam-claims.test.ts).
          { Sid: 'ListResourcesOfRootStack', Effect: 'Allow', Action: 'cloudformation:ListStackResources', Resource: Match.anyValue() },
          {
            Effect: 'Allow',
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Resource: { 'Fn::GetAtt': [handlerLogs, 'Arn'] },
          },
        ],
      },
    });
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  test('two guards in a stack share one function and one provider; each stack has its own', () => {
    // GIVEN
    const scope = app();
    const one = stackIn(scope, 'One');
    const two = stackIn(scope, 'Two');

    // WHEN
    guard(one, 'A');
    guard(one, 'B', {
      layout: { ...LAYOUT, backend: 'instance-store', instanceStoreType: 'd2.xlarge', dataVolumes: [] },
    });
    guard(two, 'C');

    // THEN
    const template = Template.fromStack(one);
    template.resourceCountIs('Custom::StorageServerUpdateGuard', 2);
    template.resourceCountIs('AWS::Lambda::Function', 2); // the handler and the Provider framework's function
    const tokens = Object.values(template.findResources('Custom::StorageServerUpdateGuard')).map((r) =>
      JSON.stringify(r.Properties.ServiceToken),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(one.node.tryFindChild('StorageServerUpdateGuardProvider')).toBeDefined();
    Template.fromStack(two).resourceCountIs('AWS::Lambda::Function', 2);
  });

  test.each([
    ['backend', { backend: 'zfs' as never }, /layout.backend must be one of ebs, instance-store, fsx-lustre, fsx-openzfs, got "zfs"/],
    [
      'instanceStoreType',
      { instanceStoreType: 'd2.xlarge' },
      /layout.instanceStoreType must be '' on the ebs backend/,
    ],
    [
      'dataVolumes',
      { dataVolumes: [{ index: 0, sizeGiB: 0.5 }] },
      /layout.dataVolumes must hold whole indexes/,
    ],
    ['snapshotIds', { snapshotIds: ['snap-1'] }, /layout.snapshotIds must hold snapshot ids/],
    [
      'encryptionKey',
      { encryptionKey: 'alias/mine' },
      /layout.encryptionKey must be 'aws\/ebs' or a KMS key ARN/,
    ],
    ['imageId', { imageId: 'latest' }, /layout.imageId must be '', an image id/],
  ])('rejects a bad %s at synth', (_field, change, message) => {
    expect(() => guard(stackIn(), 'Guard', { layout: { ...LAYOUT, ...change } })).toThrow(message);
  });

  test('cdk-nag AwsSolutions: no unacknowledged finding', () => {
    const findings = nagFindings((a) => {
      const stack = new Stack(a, 'Test');
      guard(stack, 'A');
      guard(stack, 'B');
    });
    expect(findings).toEqual([]);
  });

  test('cfn-lint: no finding', () => {
    const stack = new Stack(app(), 'Test');
    guard(stack, 'A');
    guard(stack, 'B');
    expect(cfnLint(Template.fromStack(stack).toJSON())).toEqual([]);
  });

  test('bundles the handler with esbuild: small, minified, with a source map', () => {
    // GIVEN
    const scope = app(true);
    const stack = stackIn(scope);

    // WHEN
    guard(stack);
    const assembly = scope.synth();

    // THEN
    const template = Template.fromStack(stack);
    const fn = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Runtime === 'nodejs22.x',
    );
    const key = String(fn?.Properties.Code.S3Key);
    const dir = path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
    expect(fs.readdirSync(dir).sort()).toEqual(['index.js', 'index.js.map']);
    const code = fs.readFileSync(path.join(dir, 'index.js'), 'utf8');
    expect(code).toContain('StorageServer update refused, nothing was changed:');
    // The SDK is bundled (the lockfile's version, not the runtime's): the only require left is the optional CRT
    // signer, which the SDK loads inside a try and does without.
    expect([...new Set(code.match(/require\("@aws-sdk[^"]*"\)/g))]).toEqual(['require("@aws-sdk/signature-v4-crt")']);
    expect(code).toContain('DescribeFileSystems');
    expect(code.length).toBeLessThan(1_500_000);
    const map = JSON.parse(fs.readFileSync(path.join(dir, 'index.js.map'), 'utf8'));
    expect(map.sources.some((s: string) => s.endsWith('lambda/update-guard/index.ts'))).toBe(true);
    expect(map.sourcesContent).toBeUndefined();
  });
});
