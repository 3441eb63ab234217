/**
 * How many EBS data volumes one server may take: each catalogued EBS type's attachment limit, less its root volume,
 * and at most the device names the server's layout gives its data volumes. Pure data, no CDK imports; each figure
 * carries its source, and docs/sources/ebs-attachments.md quotes them:
 *
 * - [DIT] EC2's DescribeInstanceTypes, `EbsInfo.MaximumEbsAttachments` and `AttachmentLimitType`: "Indicates the
 *   maximum number of Amazon EBS volumes that can be attached to the instance type" and "whether the instance type
 *   features a shared or dedicated Amazon EBS volume attachment limit", per EbsInfo in the EC2 API Reference,
 *   https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_EbsInfo.html. Read as moto's copy of AWS's answer holds
 *   it, as catalog-ebs-iops.ts reads its IOPS; test/unit/catalog-ebs-attachments.test.ts holds every row to that copy.
 * - [UG-VOL] EC2 User Guide, "Instance volume limits", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/volume_limits.html
 *   (github.com/awsdocs/amazon-ec2-user-guide, doc_source/volume_limits.md at 2db40719): Nitro instances "support a
 *   maximum number of attachments, which are shared between network interfaces, EBS volumes, and NVMe instance store
 *   volumes", and "if you have no additional network interface attachments on an EBS-only instance, you can attach up
 *   to 27 EBS volumes to it". So a shared 27 already leaves out the server's one network interface, and counts the
 *   root volume, which is EBS too.
 * - [UG-DEV] EC2 User Guide, "Device naming on Linux instances",
 *   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/device_naming.html
 *   (github.com/awsdocs/amazon-ec2-user-guide, doc_source/device_naming.md at 03163c7c): HVM device names
 *   "Available: /dev/sd[a-z]", "Recommended for EBS Volumes: /dev/sd[f-p]". The layout attaches data volumes at
 *   /dev/sdf and on (lib/backends/ec2/layout.ts), so /dev/sdf to /dev/sdz give 21 names: a bound of this project's,
 *   below every catalogued type's own limit.
 */

/** [MaximumEbsAttachments, AttachmentLimitType] of each EBS type the planner may choose. [DIT] */
export const EBS_ATTACHMENTS: { readonly [type: string]: readonly [number, 'shared' | 'dedicated'] } = {
  'm4.xlarge': [40, 'shared'], 'm4.2xlarge': [40, 'shared'], 'm4.4xlarge': [40, 'shared'],
  'm4.10xlarge': [40, 'shared'], 'm4.16xlarge': [40, 'shared'], 'm6i.large': [27, 'shared'],
  'm6i.xlarge': [27, 'shared'], 'm6i.2xlarge': [27, 'shared'], 'm6i.4xlarge': [27, 'shared'],
  'm6i.8xlarge': [27, 'shared'], 'm6i.12xlarge': [27, 'shared'], 'm6i.16xlarge': [27, 'shared'],
  'm6i.24xlarge': [27, 'shared'], 'm7i.large': [32, 'dedicated'], 'm7i.xlarge': [32, 'dedicated'],
  'm7i.2xlarge': [32, 'dedicated'], 'm7i.4xlarge': [32, 'dedicated'], 'm7i.8xlarge': [32, 'dedicated'],
  'm7i.12xlarge': [32, 'dedicated'], 'm7i.16xlarge': [48, 'dedicated'], 'm7i.24xlarge': [64, 'dedicated'],
  'm7i.48xlarge': [128, 'dedicated'], 'm7g.large': [27, 'shared'], 'm7g.xlarge': [27, 'shared'],
  'm7g.2xlarge': [27, 'shared'], 'm7g.4xlarge': [27, 'shared'], 'm7g.8xlarge': [27, 'shared'],
  'm7g.12xlarge': [27, 'shared'], 'm7g.16xlarge': [27, 'shared'], 'm6g.large': [27, 'shared'],
  'm6g.xlarge': [27, 'shared'], 'm6g.2xlarge': [27, 'shared'], 'm6g.4xlarge': [27, 'shared'],
  'm6g.8xlarge': [27, 'shared'], 'm6g.12xlarge': [27, 'shared'], 'm6g.16xlarge': [27, 'shared'],
  'c6in.large': [27, 'shared'], 'c6in.xlarge': [27, 'shared'], 'c6in.2xlarge': [27, 'shared'],
  'c6in.4xlarge': [27, 'shared'], 'c6in.8xlarge': [27, 'shared'], 'c6in.12xlarge': [27, 'shared'],
  'c6in.16xlarge': [27, 'shared'], 'c6in.24xlarge': [27, 'shared'], 'c6in.32xlarge': [27, 'shared'],
  'm6in.large': [27, 'shared'], 'm6in.xlarge': [27, 'shared'], 'm6in.2xlarge': [27, 'shared'],
  'm6in.4xlarge': [27, 'shared'], 'm6in.8xlarge': [27, 'shared'], 'm6in.12xlarge': [27, 'shared'],
  'm6in.16xlarge': [27, 'shared'], 'm6in.24xlarge': [27, 'shared'], 'm6in.32xlarge': [27, 'shared'],
  'r6in.large': [27, 'shared'], 'r6in.xlarge': [27, 'shared'], 'r6in.2xlarge': [27, 'shared'],
  'r6in.4xlarge': [27, 'shared'], 'r6in.8xlarge': [27, 'shared'], 'r6in.12xlarge': [27, 'shared'],
  'r6in.16xlarge': [27, 'shared'], 'r6in.24xlarge': [27, 'shared'], 'r6in.32xlarge': [27, 'shared'],
  'c8gb.large': [32, 'dedicated'], 'c8gb.xlarge': [32, 'dedicated'], 'c8gb.2xlarge': [32, 'dedicated'],
  'c8gb.4xlarge': [32, 'dedicated'], 'c8gb.8xlarge': [32, 'dedicated'], 'c8gb.12xlarge': [32, 'dedicated'],
  'c8gb.16xlarge': [48, 'dedicated'], 'c8gb.24xlarge': [64, 'dedicated'], 'c8gb.48xlarge': [128, 'dedicated'],
  'm8gb.large': [32, 'dedicated'], 'm8gb.xlarge': [32, 'dedicated'], 'm8gb.2xlarge': [32, 'dedicated'],
  'm8gb.4xlarge': [32, 'dedicated'], 'm8gb.8xlarge': [32, 'dedicated'], 'm8gb.12xlarge': [32, 'dedicated'],
  'm8gb.16xlarge': [48, 'dedicated'], 'm8gb.24xlarge': [64, 'dedicated'], 'm8gb.48xlarge': [128, 'dedicated'],
  'r8gb.large': [32, 'dedicated'], 'r8gb.xlarge': [32, 'dedicated'], 'r8gb.2xlarge': [32, 'dedicated'],
  'r8gb.4xlarge': [32, 'dedicated'], 'r8gb.8xlarge': [32, 'dedicated'], 'r8gb.12xlarge': [32, 'dedicated'],
  'r8gb.16xlarge': [48, 'dedicated'], 'r8gb.24xlarge': [64, 'dedicated'], 'r8gb.48xlarge': [128, 'dedicated'],
};

/** Data volumes the layout can name: /dev/sdf to /dev/sdz, 21 letters. [UG-DEV] */
export const DEVICE_NAME_VOLUMES = 'z'.charCodeAt(0) - 'f'.charCodeAt(0) + 1;

/**
 * The most data volumes `instanceType` takes: its attachment limit less the root volume [DIT] [UG-VOL], at most
 * `DEVICE_NAME_VOLUMES`. Throws for a type without a row.
 */
export function maxDataVolumesOf(instanceType: string): number {
  const row = EBS_ATTACHMENTS[instanceType];
  if (row === undefined) throw new Error(`no EBS attachment limit for ${instanceType}: add its DescribeInstanceTypes row to lib/sizing/catalog-ebs-attachments.ts`);
  return Math.min(row[0] - 1, DEVICE_NAME_VOLUMES);
}
