// The EBS attachment limits and EBS cards of lib/sizing against AWS's DescribeInstanceTypes answer, as moto's copy holds
// it, and the data-volume bound the planner derives from them.
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { DEVICE_NAME_VOLUMES, EBS_ATTACHMENTS, maxDataVolumesOf } from '../../lib/sizing/catalog-ebs-attachments';
import { OVERRIDE_EBS_INSTANCE_TYPES } from '../../lib/sizing/catalog-lookup';
import { MAX_DATA_VOLUMES } from '../../lib/sizing/plan-ebs';
import { ebsDeviceName } from '../../lib/backends/ec2/layout';
import { venvBin } from '../support/venv';

interface EbsInfo {
  MaximumEbsAttachments?: number;
  AttachmentLimitType?: string;
  EbsCards?: { EbsCardIndex: number; BaselineBandwidthInMbps: number; BaselineIops: number }[];
}

/** moto's copy of DescribeInstanceTypes, by type name. */
function describeInstanceTypes(): Record<string, { EbsInfo?: EbsInfo }> {
  const lib = path.join(venvBin(), '..', 'lib');
  const [python] = fs.readdirSync(lib).filter((d) => d.startsWith('python'));
  const file = path.join(lib, python, 'site-packages', 'moto', 'ec2', 'resources', 'instance_types.json.gz');
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
}

describe('EBS attachment limits of the catalogued types [DIT]', () => {
  const aws = describeInstanceTypes();

  test('every catalogued EBS type has a row, and the table holds no other type', () => {
    expect(Object.keys(EBS_ATTACHMENTS).sort()).toEqual(OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name).sort());
    expect(() => maxDataVolumesOf('m5.large')).toThrow(/^no EBS attachment limit for m5.large: add its DescribeInstanceTypes row/);
  });

  test.each(OVERRIDE_EBS_INSTANCE_TYPES.map((t) => [t.name, t] as const))('%s: attachments and EBS cards as AWS answers', (name, spec) => {
    const info = aws[name]?.EbsInfo;
    expect({ name, row: EBS_ATTACHMENTS[name] }).toEqual({ name, row: [info?.MaximumEbsAttachments, info?.AttachmentLimitType] });
    // A type of several EBS cards carries one card's bandwidth, card 0's, where every volume attaches.
    const cards = info?.EbsCards ?? [];
    const card0 = cards.length > 1 ? cards.find((c) => c.EbsCardIndex === 0) : undefined;
    expect({ name, card: [spec.ebsCardMbps, spec.ebsCardIops] }).toEqual({ name, card: [card0?.BaselineBandwidthInMbps, card0?.BaselineIops] });
  });

  test('the data volumes: the limit less the root volume, at most the 21 device names /dev/sdf to /dev/sdz', () => {
    expect(DEVICE_NAME_VOLUMES).toBe(21);
    expect([ebsDeviceName(0), ebsDeviceName(DEVICE_NAME_VOLUMES - 1)]).toEqual(['/dev/sdf', '/dev/sdz']);
    expect(maxDataVolumesOf('c6in.32xlarge')).toBe(21); // 27 shared, less the root volume: 26, then the names
    // Every catalogued type takes the 21, so dataVolumeCount has one range whatever the type.
    expect(Math.min(...Object.values(EBS_ATTACHMENTS).map(([n]) => n - 1))).toBeGreaterThanOrEqual(DEVICE_NAME_VOLUMES);
    expect(MAX_DATA_VOLUMES).toBe(21);
  });
});
