import {
  UPDATE_POLICIES,
  compareLayouts,
  guardProperties,
  layoutPhysicalId,
  parseGuardProperties,
  validateLayout,
  type StorageLayout,
} from '../../lambda/update-guard/contract';
import { EFFECTIVE_RULES } from '../../lambda/update-guard/spec-overrides';

type Props = Record<string, string | string[]>;

/** ResourceProperties of an EBS server with two volumes; `DataVolumes` as given. */
function ebs(dataVolumes: string[]): Props {
  return {
    Backend: 'ebs', InstanceStoreType: '', DataVolumes: dataVolumes, SnapshotIds: [], EncryptionKey: 'aws/ebs',
    AvailabilityZone: 'us-east-1a', ImageId: 'ami-0123456789abcdef0', KeyPair: '', PlacementGroup: '',
    VolumeAttachment: 'server', AcceptDataLoss: 'false',
  };
}
const layoutOf = (dataVolumes: string[]): StorageLayout => parseGuardProperties(ebs(dataVolumes)).layout;
const refusals = (from: string[], to: string[]): string[] =>
  compareLayouts(layoutOf(from), layoutOf(to), false).map((r) => `${r.setting}: ${r.why}`);

const ST1 = ['0:1024', '1:1024'];
const GP3 = ['0:1024:gp3:3000:125', '1:1024:gp3:3000:125'];

describe('gp3 in the recorded layout', () => {
  test('a gp3 entry records type, IOPS and throughput; an st1 entry keeps its old form (a deployed guard keeps its properties)', () => {
    expect(layoutOf(['0:1024', '1:200:gp3:6000:500']).dataVolumes).toEqual([
      { index: 0, sizeGiB: 1024 },
      { index: 1, sizeGiB: 200, volumeType: 'gp3', iops: 6000, throughputMiBps: 500 },
    ]);
    const layout: StorageLayout = {
      ...layoutOf(ST1),
      dataVolumes: [{ index: 0, sizeGiB: 1024, volumeType: 'st1' }, { index: 1, sizeGiB: 200, volumeType: 'gp3', iops: 6000, throughputMiBps: 500 }],
    };
    expect(guardProperties(layout, false).DataVolumes).toEqual(['0:1024', '1:200:gp3:6000:500']);
    // An explicit st1 is the same layout, with the same id, as the entry without a type.
    expect(layoutPhysicalId({ ...layout, dataVolumes: [{ index: 0, sizeGiB: 1024, volumeType: 'st1' }] }))
      .toBe(layoutPhysicalId({ ...layout, dataVolumes: [{ index: 0, sizeGiB: 1024 }] }));
  });

  test('the id changes with each gp3 figure: IOPS, throughput and type are part of the layout', () => {
    const ids = [GP3, ['0:1024:gp3:3001:125', '1:1024:gp3:3000:125'], ['0:1024:gp3:3000:126', '1:1024:gp3:3000:125'], ST1]
      .map((v) => layoutPhysicalId(layoutOf(v)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each([
    ['0:1024:gp2:3000:125', /DataVolumes\[0\] must match <index>:<sizeGiB> \(st1\) or <index>:<sizeGiB>:gp3:<iops>:<throughputMiBps>/],
    ['0:1024:gp3:3000', /DataVolumes\[0\] must match/],
  ])('an unreadable entry %s is refused naming the property and the forms', (entry, message) => {
    expect(() => layoutOf([entry])).toThrow(message);
  });

  test.each([
    [{ index: 0, sizeGiB: 1024, volumeType: 'gp3' as const }, /dataVolumes must give a gp3 volume whole iops and throughputMiBps/],
    [{ index: 0, sizeGiB: 1024, iops: 3000 }, /dataVolumes must not give an st1 volume iops or throughputMiBps/],
    [{ index: 0, sizeGiB: 1024, volumeType: 'io2' as never }, /dataVolumes must have a volumeType of 'st1' or 'gp3'/],
  ])('the construct refuses inconsistent type fields: %j', (volume, message) => {
    expect(() => validateLayout({ ...layoutOf(ST1), dataVolumes: [volume] }, (f) => f)).toThrow(message);
  });
});

describe('gp3 in the policy table (EBS Elastic Volumes modify type, IOPS and throughput in place)', () => {
  test('the evidence: CloudFormation updates VolumeType, Iops and Throughput of a volume without replacing it', () => {
    const volume = EFFECTIVE_RULES['AWS::EC2::Volume'];
    expect(volume.updates).toEqual(expect.arrayContaining(['VolumeType', 'Iops', 'Throughput']));
    expect([...volume.replaces, ...volume.mayReplace]).toEqual([]);
  });

  test.each([
    ['st1 -> gp3', ST1, GP3],
    ['gp3 -> st1 within st1\'s sizes', GP3, ST1],
    ['gp3 -> st1 and growth in one deploy', ['0:200:gp3:3000:125'], ['0:1024']],
    ['more IOPS', GP3, ['0:1024:gp3:16000:125', '1:1024:gp3:16000:125']],
    ['less IOPS and throughput (live, no data moves)', ['0:1024:gp3:8000:2000'], ['0:1024:gp3:3000:125']],
    ['more throughput and growth', GP3, ['0:2048:gp3:8000:2000', '1:2048:gp3:8000:2000']],
  ])('allowed: %s', (_name, from, to) => {
    expect(refusals(from, to)).toEqual([]);
  });

  // EBS-TYPE-CHANGE, EBS-ST1-SIZE
  test('refused: gp3 -> st1 below st1\'s 125 GiB (EBS changes a type only within the target type\'s limits)', () => {
    expect(refusals(['0:100:gp3:3000:125'], ['0:100'])).toEqual([
      "DataVolumes: EBS changes a volume's type only within the target type's limits, and st1 volumes are 125 to 16384 GiB",
    ]);
    const [refusal] = compareLayouts(layoutOf(['0:100:gp3:3000:125']), layoutOf(['0:100']), false);
    expect(refusal).toMatchObject({ oldValue: '0:100:gp3:3000:125', newValue: '0:100', safePath: expect.stringMatching(/keep the volumes gp3/) });
  });

  test('refused: gp3 -> st1 beyond st1\'s 16 TiB', () => {
    expect(refusals(['0:20000:gp3:3000:125'], ['0:20000'])).toHaveLength(1);
  });

  test('shrink stays refused, also with a type change', () => {
    expect(refusals(['0:2048:gp3:3000:125'], ['0:1024:gp3:3000:125'])).toEqual(['DataVolumes: EBS cannot shrink a volume']);
    expect(refusals(['0:2048'], ['0:1024:gp3:3000:125'])).toEqual(['DataVolumes: EBS cannot shrink a volume']);
  });

  test('the policy of DataVolumes is still the grow-only one on EBS', () => {
    expect(UPDATE_POLICIES.dataVolumes.name).toMatch(/ebs: grow only/);
  });
});
