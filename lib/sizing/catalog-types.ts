/**
 * The shape of a catalogue row: an instance type and its instance-store disks, and `nitro`, which builds the row of a
 * Nitro type from its published figures. catalog.ts holds m4 and d2, each family file its own types, and
 * catalog-lookup.ts assembles them. This file sits below every catalogue file, so that none of them imports another to
 * learn the shape. The tags in brackets name the sources listed in catalog.ts and in each family's file. Types and one
 * constructor, no CDK imports.
 */

/** Local instance-store disks of a storage-optimised type. */
export interface InstanceStoreSpec {
  /**
   * Number of disks. On d2 each is listed in the block device mapping as ephemeral0..N-1; on a Nitro type, `nvme`, EC2
   * presents every one at launch. [STORAGE]
   */
  readonly disks: number;
  /** Size of one disk in bytes, decimal as AWS states it: d2 2 TB, d3 1980 GB, d3en 13980 GB. [STORAGE] */
  readonly diskBytes: number;
  /** Sequential read of one disk, MB/s; a lower bound where `throughputBound` says so. */
  readonly diskReadMBps: number;
  /** Sequential write of one disk, MB/s; a lower bound where `throughputBound` says so. */
  readonly diskWriteMBps: number;
  /**
   * `lower`: AWS publishes no per-disk throughput for the type, and `diskReadMBps` and `diskWriteMBps` are a lower
   * bound. On d3 and d3en they are d2's published figure, their disks being newer and larger: see catalog-d3.ts. The
   * estimate says so in its `limitedBy`, and `npm run bench:cluster` measures the real figure.
   * @default - the figures are AWS's own, as on d2
   */
  readonly throughputBound?: 'lower';
  /**
   * The disks are NVMe devices of a Nitro type. EC2 presents all of them at launch, whatever the block device mapping
   * lists, and the kernel names them nvme<N>n1 beside the root volume. The bootstrap finds them by NVMe model.
   * @default false - Xen, d2: the block device mapping's /dev/sdb and on are the kernel's xvdb and on
   */
  readonly nvme?: boolean;
  /**
   * Whether the platform encrypts the disks at rest. NVMe SSD instance store does, in hardware [NVME-ENC]. So do the
   * HDDs of d3 and d3en, with XTS-AES-256, per catalog-d3.ts. d2's HDDs do not.
   */
  readonly platformEncrypted: boolean;
}

/** One EC2 instance type the planner can choose. */
export interface InstanceTypeSpec {
  /** The EC2 instance type name, e.g. `m4.2xlarge`. [TYPES] */
  readonly name: string;
  /**
   * The processor architecture: `arm64` for AWS Graviton types such as m7g and m6g, `x86_64` for the rest. The server's
   * default image, Amazon Linux 2023, is the one of this architecture, since an x86_64 image does not boot on Graviton.
   */
  readonly arch: 'x86_64' | 'arm64';
  /** Number of vCPUs. [TYPES] */
  readonly vcpus: number;
  /** Memory, GiB. [TYPES] */
  readonly memoryGiB: number;
  /** Network bandwidth a long transfer sees, the baseline rather than the burst figure, Gbps = 10^9 bit/s. */
  readonly networkBaselineGbps: number;
  /**
   * The "up to" network figure of a Nitro type, Gbps: reached while network I/O credits last, best effort.
   * @default - the baseline: the type's network does not burst
   */
  readonly networkBurstGbps?: number;
  /**
   * Dedicated EBS bandwidth, Mbps = 10^6 bit/s: the baseline a Nitro type sustains. Only for the types the EBS backend
   * uses. [EBS-OPT]
   * @default - none listed: the type is not used with EBS data volumes, and the planner counts 0
   */
  readonly ebsBandwidthMbps?: number;
  /**
   * The "up to", or maximum, EBS bandwidth of a Nitro type, Mbps: for 30 minutes at least once a day, then the
   * baseline. See [BURST] in catalog-nitro.ts.
   * @default - the baseline: the type's EBS bandwidth is flat, as on m4 and the larger Nitro sizes
   */
  readonly ebsBurstMbps?: number;
  /**
   * The baseline of one EBS card, Mbps, where the type has several: c8gb, m8gb and r8gb at 48xlarge have two of 150,000
   * Mbps each, per DescribeInstanceTypes' `EbsInfo.EbsCards` (catalog-netopt.ts). A volume attached without a card
   * index goes to card 0, "The default EBS card index is 0" (AWS::EC2::VolumeAttachment, `EbsCardIndex`), and the
   * server attaches its volumes so, so its stripe has one card's bandwidth: a bound derived from those two statements.
   * @default - one EBS card: `ebsBandwidthMbps` is the whole
   */
  readonly ebsCardMbps?: number;
  /**
   * The baseline IOPS of one EBS card, where the type has several: card 0's bounds the stripe as `ebsCardMbps` does.
   * @default - one EBS card: the type's IOPS is the whole
   */
  readonly ebsCardIops?: number;
  /**
   * Local disks; present for the types the instance-store backend uses. [STORAGE]
   * @default - no instance-store disks: an EBS-only type
   */
  readonly instanceStore?: InstanceStoreSpec;
  /** On-demand price, USD per hour, us-east-1. [PRICE] */
  readonly onDemandUsdPerHour: number;
}

/** One Nitro type: [network baseline, burst] Gbps and [EBS baseline, maximum] Mbps; x86_64 unless said. */
export function nitro(
  name: string,
  vcpus: number,
  memoryGiB: number,
  [networkBaselineGbps, networkBurstGbps]: [number, number],
  [ebsBandwidthMbps, ebsBurstMbps]: [number, number],
  onDemandUsdPerHour: number,
  arch: InstanceTypeSpec['arch'] = 'x86_64',
): InstanceTypeSpec {
  return { name, arch, vcpus, memoryGiB, networkBaselineGbps, networkBurstGbps, ebsBandwidthMbps, ebsBurstMbps, onDemandUsdPerHour };
}
