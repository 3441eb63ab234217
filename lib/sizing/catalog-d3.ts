/**
 * The current-generation Nitro dense HDD instance-store types the planner offers with `generation: 'current'`: d3 and
 * d3en. Pure data, no CDK imports; every number carries its source. docs/sources/d3.md holds the research, with every
 * quotation. The EC2 User Guide is read in AWS's documentation repository, github.com/awsdocs/amazon-ec2-user-guide at
 * e3707c43, 2023-06-15:
 *
 * - [UG-SO] "Storage optimized instances",
 *   https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/storage-optimized-instances.md: vCPU and
 *   memory, and the network baseline and burst. For the types marked †, which "can use a network I/O credit mechanism
 *   to burst beyond their baseline bandwidth on a best effort basis", the "baseline and burst bandwidth" table gives
 *   both. The others have one figure: d3.8xlarge 25, d3en.4xlarge 25, 6xlarge 40, 8xlarge 50, 12xlarge 75 Gigabit. The
 *   release notes say: "The d3.8xlarge and d3en.12xlarge instances support a maximum of three attachments, including
 *   the root volume."
 * - [UG-IS] "Amazon EC2 instance store",
 *   https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/InstanceStorage.md, its instance store
 *   volumes table: d3 3/6/12/24 x 1980 GB and d3en 2/4/8/12/16/24 x 13980 GB, "NVMe HDD". GB as AWS states it is taken
 *   as decimal, and DescribeInstanceTypes' TotalSizeInGB agrees: d3.xlarge 5940, d3en.12xlarge 335520.
 * - [UG-EBSOPT] "Amazon EBS-optimized instances",
 *   https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/ebs-optimized.md, storage optimized
 *   table: EBS baseline and maximum Mbps. The maximum of the smaller sizes lasts "30 minutes at least once every 24
 *   hours", as [BURST] in catalog-nitro.ts says. These are recorded for completeness: an instance-store server's data
 *   never crosses EBS, so they never limit its estimate.
 * - [UG-DP] "Data protection in Amazon EC2",
 *   https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/data-protection.md, encryption at rest:
 *   "The data on HDD instance store volumes on H1, D3, and D3en instances is encrypted using XTS-AES-256 and one-time
 *   keys." Unlike its NVMe SSD sentence, it says nothing of a hardware module.
 * - [FAQ] Amazon EC2 FAQs, Storage Optimized, aws.amazon.com/ec2/faqs/: "Q: Do D3 and D3en instances encrypt storage
 *   volumes and network traffic? Yes; data written onto the storage volumes will be encrypted at rest using
 *   AES-256-XTS."
 * - [PRICE26] On-demand Linux prices, us-east-1, as for m6i: Karpenter's price file generated from the AWS Price List,
 *   github.com/aws/karpenter-provider-aws, pkg/providers/pricing/zz_generated.pricing_aws.go at 1d927085, "generated at
 *   2026-07-20T13:44:30Z for us-east-1".
 *
 * Disk throughput: AWS publishes none per size or per disk for d3 or d3en in any source this project could read, per
 * docs/sources/d3.md, section 2 (b). The only figures are an "up to" aggregate on the largest size and a comparison
 * with D2. [FAQ] says "d3en.12xlarge, can deliver up to 6.2 GiB/s read and 6.2 GiB/s write disk throughput with a 128k
 * block size", about 277 MB/s a disk, and "D3 and D3en instances provide up to 45% and 100% higher disk throughput than
 * D2 instances". Neither guarantees a rate at every size. So each disk is counted at d2's published figure, [FAQ-D2] in
 * catalog-d2-disks.ts, as a LOWER BOUND, `throughputBound: 'lower'`: the disks are newer and larger than d2's, and AWS
 * says D3 and D3en improve on D2 in storage. The estimate says so in `limitedBy`, and `npm run bench:cluster` measures
 * what a deployed server gives.
 */
import { D2_DISK_READ_MBPS, D2_DISK_WRITE_MBPS } from './catalog-d2-disks';
import { type InstanceTypeSpec, nitro } from './catalog-types';

/** One d3 disk, bytes: 1980 GB. [UG-IS] */
const D3_DISK_BYTES = 1980e9;
/** One d3en disk, bytes: 13980 GB. [UG-IS] */
const D3EN_DISK_BYTES = 13980e9;

/**
 * A d3 or d3en: a Nitro type, with [network] and [EBS] as for `nitro()`, with `disks` HDDs of `diskBytes`, counted at
 * the lower bound.
 */
function dense(
  name: string,
  vcpus: number,
  memoryGiB: number,
  network: [number, number],
  ebs: [number, number],
  onDemandUsdPerHour: number,
  disks: number,
  diskBytes: number,
): InstanceTypeSpec {
  return {
    ...nitro(name, vcpus, memoryGiB, network, ebs, onDemandUsdPerHour),
    instanceStore: {
      disks,
      diskBytes,
      diskReadMBps: D2_DISK_READ_MBPS,
      diskWriteMBps: D2_DISK_WRITE_MBPS,
      throughputBound: 'lower',
      nvme: true, // "NVMe HDD" [UG-IS]
      platformEncrypted: true, // XTS-AES-256 [UG-DP] [FAQ]
    },
  };
}

/**
 * d3 then d3en, smallest first in each: vCPU, memory, [network baseline, burst] Gbps [UG-SO]; [EBS baseline, maximum]
 * Mbps [UG-EBSOPT]; $/h [PRICE26]; disks x size [UG-IS]. All are x86_64, Cascade Lake 8259CL [UG-SO].
 */
export const CURRENT_INSTANCE_STORE_TYPES: readonly InstanceTypeSpec[] = [
  dense('d3.xlarge', 4, 32, [3, 15], [850, 2800], 0.499, 3, D3_DISK_BYTES),
  dense('d3.2xlarge', 8, 64, [6, 15], [1700, 2800], 0.999, 6, D3_DISK_BYTES),
  dense('d3.4xlarge', 16, 128, [12.5, 15], [2800, 2800], 1.998, 12, D3_DISK_BYTES),
  dense('d3.8xlarge', 32, 256, [25, 25], [5000, 5000], 3.99552, 24, D3_DISK_BYTES),
  dense('d3en.xlarge', 4, 16, [6, 25], [850, 2800], 0.526, 2, D3EN_DISK_BYTES),
  dense('d3en.2xlarge', 8, 32, [12.5, 25], [1700, 2800], 1.051, 4, D3EN_DISK_BYTES),
  dense('d3en.4xlarge', 16, 64, [25, 25], [2800, 2800], 2.103, 8, D3EN_DISK_BYTES),
  dense('d3en.6xlarge', 24, 96, [40, 40], [4000, 4000], 3.154, 12, D3EN_DISK_BYTES),
  dense('d3en.8xlarge', 32, 128, [50, 50], [5000, 5000], 4.20576, 16, D3EN_DISK_BYTES),
  dense('d3en.12xlarge', 48, 192, [75, 75], [7000, 7000], 6.30864, 24, D3EN_DISK_BYTES),
];
