import { compareLayouts, parseGuardProperties } from '../../lambda/update-guard/contract';
import { appTemplate, judge } from '../support/guard-matrix';

// FSx for Lustre PERSISTENT_2 Metadata IOPS, LUSTRE-METADATA in docs/sources/fsx-rules.md, end to end as in
// update-guard-lustre-throughput.test.ts. The resource specification updates the metadata configuration in place. FSx
// raises the IOPS and never lowers them, "downscaling Metadata IOPS is not supported" per
// UpdateFileSystemLustreMetadataConfiguration in the FSx API reference, and only on a file system created with a
// metadata configuration. The guard refuses a configuration added later, a lower number, or the configuration taken
// out, which FSx would refuse after it.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

const app = (more: Record<string, string>) => appTemplate({ backend: 'fsx-lustre', capacityTiB: '12', ...more });

describe('LUSTRE-METADATA through the guard', () => {
  test.each([
    ['raised 12000 -> 24000', { fsxMetadataIops: '12000' }, { fsxMetadataIops: '24000' }],
    ['AUTOMATIC -> 24000', { fsxMetadataIops: '0' }, { fsxMetadataIops: '24000' }],
    ['24000 -> AUTOMATIC (FSx judges it against the storage\'s automatic default)', { fsxMetadataIops: '24000' }, { fsxMetadataIops: '0' }],
  ])('%s: accepted, nothing replaced', async (_name, before, after) => {
    expect(await judge(app(before), app(after))).toEqual({ lost: [], guard: 'accepted', other: [] });
  });

  test.each([
    ['lowered 24000 -> 12000', { fsxMetadataIops: '24000' }, { fsxMetadataIops: '12000' }, /MetadataIops 24000 -> 12000: FSx for Lustre never lowers a file system's Metadata IOPS/],
    ['taken out', { fsxMetadataIops: '24000' }, {}, /MetadataIops 24000 -> \(none\): FSx for Lustre never lowers a file system's Metadata IOPS/],
  ])('%s: refused, naming the value that works', async (_name, before, after, message) => {
    const verdict = await judge(app(before), app(after));
    expect(verdict).toEqual({ lost: [], guard: 'refused', other: [], message: expect.stringMatching(message) });
    expect(verdict.message).toMatch(/keep fsxLustre\.metadataIops at 24000 or more \(-c fsxMetadataIops=24000\)/);
  });

  test('set on a file system created without one: refused (FSx changes them only on a file system made with one)', async () => {
    const verdict = await judge(app({}), app({ fsxMetadataIops: '12000' }));
    expect(verdict).toEqual({
      lost: [], guard: 'refused', other: [],
      message: expect.stringMatching(/MetadataIops \(none\) -> 12000: FSx for Lustre changes Metadata IOPS only on a file system created with a metadata configuration/),
    });
    expect(verdict.message).toMatch(/leave fsxLustre\.metadataIops out for this file system/);
  });

  test('the refusal\'s words: the old and the new value, and the way to fewer', () => {
    const layout = (MetadataIops: string) => parseGuardProperties({
      Backend: 'fsx-lustre', InstanceStoreType: '', DataVolumes: [], SnapshotIds: [], EncryptionKey: 'aws/fsx', AvailabilityZone: 'us-east-1a',
      ImageId: '', KeyPair: '', PlacementGroup: '', VolumeAttachment: 'stack', FileSystemType: 'PERSISTENT_2/SSD', PerUnitStorageThroughput: '125',
      StorageCapacityGiB: '14400', SubnetId: 'subnet-0aaaaaaaaaaaaaaa1', AcceptDataLoss: 'false', ServiceToken: 't', ...(MetadataIops ? { MetadataIops } : {}),
    }).layout;
    expect(compareLayouts(layout('24000'), layout('12000'), false)).toEqual([expect.objectContaining({
      setting: 'MetadataIops', oldValue: '24000', newValue: '12000', accepted: false,
      why: expect.stringMatching(/and this deploy asks for 12000 after 24000$/),
    })]);
    expect(compareLayouts(layout('24000'), layout(''), false)).toEqual([expect.objectContaining({ why: expect.stringMatching(/asks for no metadata configuration after 24000$/) })]);
    expect(compareLayouts(layout(''), layout('1500'), false)).toEqual([expect.objectContaining({ why: expect.stringMatching(/created without: this deploy asks for 1500$/) })]);
    expect(compareLayouts(layout(''), layout(''), false)).toEqual([]);
    expect(() => layout('USER_PROVISIONED')).toThrow(/ResourceProperties\.MetadataIops must be '', 'AUTOMATIC' or a whole number of Metadata IOPS on the fsx-lustre backend/);
  });
});
