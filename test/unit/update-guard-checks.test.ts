// The update guard handler's checks of its properties, its layout id and its messages.
import { createHash } from 'crypto';
import { MAX_MESSAGE_LENGTH, guardProperties, layoutPhysicalId, refusalMessage, type Refusal } from '../../lambda/update-guard/contract';
import { handler } from '../../lambda/update-guard';

jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-aws-quiet').quietAwsModule());

import {
  EBS,
  INSTANCE_STORE,
  INSTANCE_STORE_LUKS,
  KEY_ARN,
  OTHER_KEY_ARN,
  createEvent,
  layoutOf,
  update,
  updateEvent,
  without,
  type Props,
} from '../support/update-guard-fixtures';

beforeEach(() => {
  for (const stream of ['log', 'warn', 'error'] as const) jest.spyOn(console, stream).mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
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
    // A guard deployed before VolumeAttachment existed has no such property: the stack attached the volumes.
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
    // GIVEN a guard deployed before VolumeAttachment, and the upgrade it refused, old -> new
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

/** An App that skips asset bundling by esbuild for the construct assertions; one test bundles for real. */
