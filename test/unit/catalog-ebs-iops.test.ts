// The EBS IOPS table of lib/sizing/catalog-ebs-iops.ts against AWS's DescribeInstanceTypes answer, as moto's copy holds
// it.
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { EBS_IOPS, ebsIopsOf } from '../../lib/sizing/catalog-ebs-iops';
import { OVERRIDE_EBS_INSTANCE_TYPES } from '../../lib/sizing/catalog-lookup';
import { venvBin } from '../support/venv';

interface EbsOptimizedInfo { BaselineBandwidthInMbps: number; MaximumBandwidthInMbps: number; BaselineIops: number; MaximumIops: number }

/** moto's copy of DescribeInstanceTypes, by type name. */
function describeInstanceTypes(): Record<string, { EbsInfo?: { EbsOptimizedInfo?: EbsOptimizedInfo } }> {
  const lib = path.join(venvBin(), '..', 'lib');
  const [python] = fs.readdirSync(lib).filter((d) => d.startsWith('python'));
  const file = path.join(lib, python, 'site-packages', 'moto', 'ec2', 'resources', 'instance_types.json.gz');
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
}

describe('EBS IOPS of the catalogued types [DIT]', () => {
  const aws = describeInstanceTypes();

  test('every catalogued EBS type has a row, and the table holds no other type', () => {
    const names = OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name).sort();
    expect(Object.keys(EBS_IOPS).sort()).toEqual(names);
    expect(() => ebsIopsOf('m5.large')).toThrow(/^no EBS IOPS figure for m5.large: add its DescribeInstanceTypes row/);
  });

  test.each(OVERRIDE_EBS_INSTANCE_TYPES.map((t) => [t.name, t] as const))('%s: IOPS and EBS bandwidth as AWS answers', (name, spec) => {
    const info = aws[name]?.EbsInfo?.EbsOptimizedInfo;
    expect(info).toBeDefined();
    expect({ name, iops: EBS_IOPS[name] }).toEqual({ name, iops: [info!.BaselineIops, info!.MaximumIops] });
    // The bandwidth the throughput model uses is AWS's too: baseline, and the burst where the type bursts.
    expect({ name, baseline: spec.ebsBandwidthMbps, max: spec.ebsBurstMbps ?? spec.ebsBandwidthMbps })
      .toEqual({ name, baseline: info!.BaselineBandwidthInMbps, max: info!.MaximumBandwidthInMbps });
  });
});
