// The update guard handler: the policy table, and the handler's answers. The rest is in update-guard-checks.test.ts and
// update-guard-construct.test.ts.

import { PROP, UPDATE_POLICIES, compareLayouts, layoutPhysicalId } from '../../lambda/update-guard/contract';
import { handler } from '../../lambda/update-guard';

jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-aws-quiet').quietAwsModule());

import {
  ALLOWED,
  EBS,
  FSX,
  INSTANCE_STORE,
  INSTANCE_STORE_LUKS,
  KEY_ARN,
  REFUSED,
  createEvent,
  deleteEvent,
  layoutOf,
  update,
  updateEvent,
  without,
} from '../support/update-guard-fixtures';

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
    // GIVEN: a deployed layout, and an update the guard refuses, where CloudFormation keeps the physical id
    const deployed = (await handler(createEvent(EBS))).PhysicalResourceId as string;
    const shrunk = { ...EBS, DataVolumes: ['1:8192', '0:8192'] };
    await expect(handler(updateEvent(EBS, shrunk, deployed))).rejects.toThrow(/another order/);

    // WHEN: the rollback, new and old swapped: old -> new would be reordered too, refused if compared
    const rollback = handler(updateEvent(shrunk, EBS, deployed));

    // THEN
    await expect(rollback).resolves.toEqual({ PhysicalResourceId: deployed });
    expect(compareLayouts(layoutOf(shrunk), layoutOf(EBS), false)).not.toEqual([]);
  });

  test('an Update whose layout differs from the physical id is compared, however it came about', async () => {
    const shrunk = { ...EBS, DataVolumes: ['0:8192'] };
    await expect(handler(updateEvent(EBS, shrunk, 'storage-layout-0000000000000000'))).rejects.toThrow(
      /fewer volumes/,
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

