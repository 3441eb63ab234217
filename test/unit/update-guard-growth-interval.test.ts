/**
 * OPENZFS-GROWTH-INTERVAL in docs/sources/fsx-rules.md: FSx takes a storage increase 6 hours after the last one was
 * asked for, on OpenZFS and Lustre alike. The judge reads DescribeFileSystems' AdministrativeActions. moto's FSx lists
 * none, so the answers here are written for this test in the shapes the API reference gives, not recorded. Its
 * AdministrativeAction has AdministrativeActionType FILE_SYSTEM_UPDATE, STORAGE_OPTIMIZATION and more; Status FAILED,
 * IN_PROGRESS, PENDING, COMPLETED, UPDATED_OPTIMIZING and more; RequestTime; and
 * TargetFileSystemValues.StorageCapacity. The handler's two calls run against moto in
 * test/integration/update-guard.test.ts.
 */
const ACTIONS: { actions: unknown[]; fileSystemId?: string } = { actions: [], fileSystemId: 'fs-0123456789abcdef0' };
jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async () => [],
  stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
  physicalIdIn: async () => ACTIONS.fileSystemId,
  fileSystemActions: async () => {
    if (ACTIONS.actions === undefined) throw new Error('AccessDenied');
    return ACTIONS.actions;
  },
}));
import { handler } from '../../lambda/update-guard';
import { parseGuardProperties, type StorageLayout } from '../../lambda/update-guard/contract';
import { GROWTH_INTERVAL_MS, lastIncreaseRequest } from '../../lambda/update-guard/growth-interval';
import { guardsSharing } from '../../lambda/update-guard/backends';
import { STORAGE_INTERVAL, growthIntervalRefusal, storageIntervalSource } from '../../lambda/update-guard/backends/fsx';
import { lastMetadataRequest, metadataIntervalRefusal } from '../../lambda/update-guard/backends/fsx-lustre';

beforeEach(() => {
  for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation(() => undefined);
});

const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR);
const storageUpdate = (hoursAgo: number, Status = 'COMPLETED') =>
  ({ AdministrativeActionType: 'FILE_SYSTEM_UPDATE', Status, RequestTime: at(hoursAgo), TargetFileSystemValues: { StorageCapacity: 4506 } });

describe('the last increase asked for', () => {
  test('a storage update or its optimization counts; a throughput update, a failed or cancelled request does not', () => {
    expect(lastIncreaseRequest([])).toBeUndefined();
    expect(lastIncreaseRequest([storageUpdate(5), { AdministrativeActionType: 'STORAGE_OPTIMIZATION', Status: 'IN_PROGRESS', RequestTime: at(2) }])).toBe(at(2).getTime());
    expect(lastIncreaseRequest([
      { AdministrativeActionType: 'FILE_SYSTEM_UPDATE', Status: 'COMPLETED', RequestTime: at(1), TargetFileSystemValues: { OpenZFSConfiguration: { ThroughputCapacity: 1280 } } },
      storageUpdate(0.5, 'FAILED'), storageUpdate(0.25, 'CANCELLED'), storageUpdate(7),
    ])).toBe(at(7).getTime());
    // The API's wire form is epoch seconds; the SDK gives a Date.
    expect(lastIncreaseRequest([{ ...storageUpdate(0), RequestTime: at(3).getTime() / 1000 }])).toBe(at(3).getTime());
  });
});

const layout = (backend: 'fsx-openzfs' | 'fsx-lustre', storageCapacityGiB: string, metadataIops = ''): StorageLayout => parseGuardProperties({
  Backend: backend, InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx', AvailabilityZone: 'us-east-1a',
  ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack', SubnetId: 'subnet-0aaaaaaaaaaaaaaa1', AcceptDataLoss: 'false',
  StorageCapacityGiB: storageCapacityGiB, ServiceToken: 't',
  ...(backend === 'fsx-openzfs' ? { FileSystemType: 'SINGLE_AZ_2/SSD', ThroughputCapacity: '640' } : { FileSystemType: 'PERSISTENT_2/SSD', PerUnitStorageThroughput: '125' }),
  ...(metadataIops === '' ? {} : { MetadataIops: metadataIops }),
}).layout;

describe('the refusal', () => {
  // The quote and its row, as the backends holding the rule give them.
  const source = storageIntervalSource(guardsSharing((g) => g.intervals.includes(STORAGE_INTERVAL)));

  test('the backends holding the rule give its source: the guide\'s words and their row', () => {
    expect(source).toBe('"You can\'t make further SSD storage capacity increases on a file system until 6 hours after the last ' +
      'increase was requested": OPENZFS-GROWTH-INTERVAL in docs/sources/fsx-rules.md');
  });

  test('5 h 59 min after the last: refused, naming when; 6 h after: accepted; a shrink or no change is not this rule\'s', () => {
    const o = layout('fsx-openzfs', '4096');
    const n = layout('fsx-openzfs', '4506');
    expect(growthIntervalRefusal(o, n, NOW - GROWTH_INTERVAL_MS + 60_000, NOW, false, source)).toEqual({
      setting: 'StorageCapacityGiB', oldValue: '4096', newValue: '4506', accepted: false,
      why: `FSx takes the next storage increase 6 hours after the last one was asked for (${source}), and the last was asked for at 2026-11-27T06:01:00Z`,
      safePath: 'deploy this capacity again at 2026-11-27T12:01:00Z or later, or keep 4096 GiB until then',
    });
    expect(growthIntervalRefusal(o, n, NOW - GROWTH_INTERVAL_MS, NOW, false, source)).toBeUndefined();
    expect(growthIntervalRefusal(o, n, undefined, NOW, false, source)).toBeUndefined();
    expect(growthIntervalRefusal(n, o, NOW, NOW, false, source)).toBeUndefined();
    expect(growthIntervalRefusal(o, o, NOW, NOW, false, source)).toBeUndefined();
    expect(growthIntervalRefusal(layout('fsx-lustre', '2400'), layout('fsx-lustre', '4800'), NOW - HOUR, NOW, false, source)).toMatchObject({ setting: 'StorageCapacityGiB' });
  });
});

describe('LUSTRE-METADATA: Metadata IOPS increases 6 hours apart', () => {
  const metadataUpdate = (hoursAgo: number, Status = 'COMPLETED') => ({
    AdministrativeActionType: 'FILE_SYSTEM_UPDATE', Status, RequestTime: at(hoursAgo),
    TargetFileSystemValues: { LustreConfiguration: { MetadataConfiguration: { Mode: 'USER_PROVISIONED', Iops: 24000 } } },
  });

  test('the last metadata change asked for: a storage update is not one, and a failed one does not count', () => {
    expect(lastMetadataRequest([storageUpdate(1), metadataUpdate(4), metadataUpdate(0.5, 'FAILED')])).toBe(at(4).getTime());
    expect(lastMetadataRequest([storageUpdate(1)])).toBeUndefined();
  });

  test('12000 -> 24000 five hours after the last: refused, naming when; six: accepted; lower, AUTOMATIC or none is not this rule\'s', () => {
    const o = layout('fsx-lustre', '2400', '12000');
    const n = layout('fsx-lustre', '2400', '24000');
    expect(metadataIntervalRefusal(o, n, at(5).getTime(), NOW, false)).toEqual({
      setting: 'MetadataIops', oldValue: '12000', newValue: '24000', accepted: false,
      why: expect.stringMatching(/^FSx for Lustre takes the next Metadata IOPS increase 6 hours after .* asked for at 2026-11-27T07:00:00Z$/),
      safePath: 'deploy these Metadata IOPS again at 2026-11-27T13:00:00Z or later, or keep 12000 until then',
    });
    expect(metadataIntervalRefusal(o, n, at(6).getTime(), NOW, false)).toBeUndefined();
    expect(metadataIntervalRefusal(n, o, at(1).getTime(), NOW, false)).toBeUndefined();
    expect(metadataIntervalRefusal(o, layout('fsx-lustre', '2400', 'AUTOMATIC'), at(1).getTime(), NOW, false)).toBeUndefined();
    expect(metadataIntervalRefusal(layout('fsx-lustre', '2400', 'AUTOMATIC'), n, at(1).getTime(), NOW, false)).toMatchObject({ setting: 'MetadataIops' });
  });
});

describe('through the handler', () => {
  /** An Update of an OpenZFS guard from `from` to `to` GiB, the file system watched as CloudFormation's record names it. */
  const update = (from: string, to: string) => {
    const props = (gib: string) => ({
      ServiceToken: 't', Backend: 'fsx-openzfs', InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx',
      AvailabilityZone: 'us-east-1a', ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack', FileSystemType: 'SINGLE_AZ_2/SSD',
      StorageCapacityGiB: gib, SubnetId: 'subnet-0aaaaaaaaaaaaaaa1', ThroughputCapacity: '640', AcceptDataLoss: 'false',
      Watched: { FileSystem: { Type: 'AWS::FSx::FileSystem', LogicalId: 'StorageFileSystem1A2B3C4D', Watching: [], Properties: {} } },
    });
    return handler({
      RequestType: 'Update', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1',
      RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard',
      PhysicalResourceId: 'storage-layout-0000000000000000', OldResourceProperties: props(from), ResourceProperties: props(to),
    } as never);
  };

  test('an increase 2 hours after the last is refused by the deploy; 7 hours after, accepted', async () => {
    ACTIONS.actions = [{ ...storageUpdate(0), RequestTime: new Date(Date.now() - 2 * HOUR) }];
    await expect(update('4096', '4506')).rejects.toThrow(/StorageCapacityGiB 4096 -> 4506: FSx takes the next storage increase 6 hours after/);
    await expect(update('4096', '4506')).rejects.toThrow('6 hours after the last increase was requested": OPENZFS-GROWTH-INTERVAL in docs/sources/fsx-rules.md), and the last');
    ACTIONS.actions = [{ ...storageUpdate(0), RequestTime: new Date(Date.now() - 7 * HOUR) }];
    await expect(update('4096', '4506')).resolves.toEqual({ PhysicalResourceId: expect.stringMatching(/^storage-layout-[0-9a-f]{16}$/) });
    // Not asked for a change that grows nothing.
    ACTIONS.actions = [{ ...storageUpdate(0), RequestTime: new Date(Date.now() - 2 * HOUR) }];
    await expect(update('4096', '4096')).resolves.toEqual({ PhysicalResourceId: expect.stringMatching(/^storage-layout-/) });
  });

  test('a Metadata IOPS increase 2 hours after the last metadata change is refused by the deploy', async () => {
    const lustre = (metadataIops: string) => ({
      ServiceToken: 't', Backend: 'fsx-lustre', InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx',
      AvailabilityZone: 'us-east-1a', ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack', FileSystemType: 'PERSISTENT_2/SSD',
      PerUnitStorageThroughput: '125', StorageCapacityGiB: '2400', SubnetId: 'subnet-0aaaaaaaaaaaaaaa1', MetadataIops: metadataIops, AcceptDataLoss: 'false',
      Watched: { FileSystem: { Type: 'AWS::FSx::FileSystem', LogicalId: 'StorageFileSystem1A2B3C4D', Watching: [], Properties: {} } },
    });
    ACTIONS.actions = [{
      AdministrativeActionType: 'FILE_SYSTEM_UPDATE', Status: 'COMPLETED', RequestTime: new Date(Date.now() - 2 * HOUR),
      TargetFileSystemValues: { LustreConfiguration: { MetadataConfiguration: { Mode: 'USER_PROVISIONED', Iops: 12000 } } },
    }];
    await expect(handler({
      RequestType: 'Update', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1',
      RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard',
      PhysicalResourceId: 'storage-layout-0000000000000000', OldResourceProperties: lustre('12000'), ResourceProperties: lustre('24000'),
    } as never)).rejects.toThrow(/MetadataIops 12000 -> 24000: FSx for Lustre takes the next Metadata IOPS increase 6 hours after/);
  });

  test('a Lustre storage increase 2 hours after the last is refused in the same words, its source from the backend giving it', async () => {
    const lustre = (gib: string) => ({
      ServiceToken: 't', Backend: 'fsx-lustre', InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx',
      AvailabilityZone: 'us-east-1a', ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack', FileSystemType: 'PERSISTENT_2/SSD',
      PerUnitStorageThroughput: '125', StorageCapacityGiB: gib, SubnetId: 'subnet-0aaaaaaaaaaaaaaa1', AcceptDataLoss: 'false',
      Watched: { FileSystem: { Type: 'AWS::FSx::FileSystem', LogicalId: 'StorageFileSystem1A2B3C4D', Watching: [], Properties: {} } },
    });
    ACTIONS.actions = [{ ...storageUpdate(0), RequestTime: new Date(Date.now() - 2 * HOUR) }];
    await expect(handler({
      RequestType: 'Update', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1',
      RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard',
      PhysicalResourceId: 'storage-layout-0000000000000000', OldResourceProperties: lustre('2400'), ResourceProperties: lustre('4800'),
    } as never)).rejects.toThrow('StorageCapacityGiB 2400 -> 4800: FSx takes the next storage increase 6 hours after the last one was asked ' +
      'for ("You can\'t make further SSD storage capacity increases on a file system until 6 hours after the last increase was ' +
      'requested": OPENZFS-GROWTH-INTERVAL in docs/sources/fsx-rules.md), and the last was asked for at ');
  });

  test('when FSx cannot be asked the deploy goes on, with a warning (FSx refuses a too-early increase itself)', async () => {
    ACTIONS.actions = undefined as never;
    await expect(update('4096', '4506')).resolves.toEqual({ PhysicalResourceId: expect.stringMatching(/^storage-layout-/) });
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/could not read the last storage increase/));
  });
});
