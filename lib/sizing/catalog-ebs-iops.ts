/**
 * The IOPS of each catalogued EBS type: the baseline and the maximum its EBS-optimized connection carries. The maximum
 * is the "up to" figure, for 30 minutes a day on the Nitro types that burst. Pure data, no CDK imports; the I/O-size
 * term in io-size.ts reads it.
 *
 * Source:
 * - [DIT] EC2's DescribeInstanceTypes, `EbsInfo.EbsOptimizedInfo` `BaselineIops` and `MaximumIops`, "The baseline
 *   input/output storage operations per seconds for an EBS-optimized instance type" per EbsOptimizedInfo in the EC2 API
 *   Reference. It is read as moto's copy of AWS's answer holds it, moto/ec2/resources/instance_types.json.gz of moto
 *   5.2.5, pinned in test/requirements.txt. test/unit/catalog-ebs-iops.test.ts holds every row and every catalogued EBS
 *   bandwidth to that copy, and fails when a catalogued EBS type has no row here.
 */

/** [baseline IOPS, maximum IOPS] of each EBS type the planner may choose. [DIT] */
export const EBS_IOPS: { readonly [type: string]: readonly [number, number] } = {
  'm4.xlarge': [6_000, 6_000], 'm4.2xlarge': [8_000, 8_000], 'm4.4xlarge': [16_000, 16_000], 'm4.10xlarge': [32_000, 32_000],
  'm4.16xlarge': [65_000, 65_000], 'm6i.large': [3_600, 40_000], 'm6i.xlarge': [6_000, 40_000], 'm6i.2xlarge': [12_000, 40_000],
  'm6i.4xlarge': [20_000, 40_000], 'm6i.8xlarge': [40_000, 40_000], 'm6i.12xlarge': [60_000, 60_000], 'm6i.16xlarge': [80_000, 80_000],
  'm6i.24xlarge': [120_000, 120_000], 'm7i.large': [3_600, 40_000], 'm7i.xlarge': [6_000, 40_000], 'm7i.2xlarge': [12_000, 40_000],
  'm7i.4xlarge': [20_000, 40_000], 'm7i.8xlarge': [40_000, 40_000], 'm7i.12xlarge': [60_000, 60_000], 'm7i.16xlarge': [80_000, 80_000],
  'm7i.24xlarge': [120_000, 120_000], 'm7i.48xlarge': [240_000, 240_000], 'm7g.large': [3_600, 40_000], 'm7g.xlarge': [6_000, 40_000],
  'm7g.2xlarge': [12_000, 40_000], 'm7g.4xlarge': [20_000, 40_000], 'm7g.8xlarge': [40_000, 40_000], 'm7g.12xlarge': [60_000, 60_000],
  'm7g.16xlarge': [80_000, 80_000], 'm6g.large': [3_600, 20_000], 'm6g.xlarge': [6_000, 20_000], 'm6g.2xlarge': [12_000, 20_000],
  'm6g.4xlarge': [20_000, 20_000], 'm6g.8xlarge': [40_000, 40_000], 'm6g.12xlarge': [50_000, 50_000], 'm6g.16xlarge': [80_000, 80_000],
  'c6in.large': [6_250, 100_000], 'c6in.xlarge': [12_500, 100_000], 'c6in.2xlarge': [25_000, 100_000], 'c6in.4xlarge': [50_000, 100_000],
  'c6in.8xlarge': [100_000, 100_000], 'c6in.12xlarge': [150_000, 150_000], 'c6in.16xlarge': [200_000, 200_000], 'c6in.24xlarge': [300_000, 300_000],
  'c6in.32xlarge': [400_000, 400_000], 'm6in.large': [6_250, 100_000], 'm6in.xlarge': [12_500, 100_000], 'm6in.2xlarge': [25_000, 100_000],
  'm6in.4xlarge': [50_000, 100_000], 'm6in.8xlarge': [100_000, 100_000], 'm6in.12xlarge': [150_000, 150_000], 'm6in.16xlarge': [200_000, 200_000],
  'm6in.24xlarge': [300_000, 300_000], 'm6in.32xlarge': [400_000, 400_000], 'r6in.large': [6_250, 100_000], 'r6in.xlarge': [12_500, 100_000],
  'r6in.2xlarge': [25_000, 100_000], 'r6in.4xlarge': [50_000, 100_000], 'r6in.8xlarge': [100_000, 100_000], 'r6in.12xlarge': [150_000, 150_000],
  'r6in.16xlarge': [200_000, 200_000], 'r6in.24xlarge': [300_000, 300_000], 'r6in.32xlarge': [400_000, 400_000], 'c8gb.large': [15_000, 120_000],
  'c8gb.xlarge': [30_000, 120_000], 'c8gb.2xlarge': [60_000, 120_000], 'c8gb.4xlarge': [120_000, 120_000], 'c8gb.8xlarge': [240_000, 240_000],
  'c8gb.12xlarge': [360_000, 360_000], 'c8gb.16xlarge': [480_000, 480_000], 'c8gb.24xlarge': [720_000, 720_000], 'c8gb.48xlarge': [1_440_000, 1_440_000],
  'm8gb.large': [15_000, 120_000], 'm8gb.xlarge': [30_000, 120_000], 'm8gb.2xlarge': [60_000, 120_000], 'm8gb.4xlarge': [120_000, 120_000],
  'm8gb.8xlarge': [240_000, 240_000], 'm8gb.12xlarge': [360_000, 360_000], 'm8gb.16xlarge': [480_000, 480_000], 'm8gb.24xlarge': [720_000, 720_000],
  'm8gb.48xlarge': [1_440_000, 1_440_000], 'r8gb.large': [15_000, 120_000], 'r8gb.xlarge': [30_000, 120_000], 'r8gb.2xlarge': [60_000, 120_000],
  'r8gb.4xlarge': [120_000, 120_000], 'r8gb.8xlarge': [240_000, 240_000], 'r8gb.12xlarge': [360_000, 360_000], 'r8gb.16xlarge': [480_000, 480_000],
  'r8gb.24xlarge': [720_000, 720_000], 'r8gb.48xlarge': [1_440_000, 1_440_000],
};

/** The [baseline, maximum] IOPS of an EBS type; throws naming the type when the table has none. */
export function ebsIopsOf(instanceType: string): readonly [number, number] {
  const row = EBS_IOPS[instanceType];
  if (row === undefined) throw new Error(`no EBS IOPS figure for ${instanceType}: add its DescribeInstanceTypes row to lib/sizing/catalog-ebs-iops.ts`);
  return row;
}
