/**
 * The published numbers the planner is built on: instance types, st1 volumes and us-east-1 list prices.
 * Pure data, no CDK imports. Every number carries its source; change a number only together with it.
 *
 * Sources:
 * - [EBS-OPT]  Amazon EC2 User Guide, "Amazon EBS-optimized instance types" (dedicated EBS bandwidth).
 * - [STORAGE]  Amazon EC2 User Guide, "Storage optimized instances" (d2 disks). d2's disk throughput: catalog-d2-disks.ts.
 * - [HDD]      Amazon EBS User Guide, "Throughput Optimized HDD and Cold HDD volumes" (st1 limits, credits).
 * - [TYPES]    Amazon EC2 instance type pages for m4 and d2 (vCPU, memory, network performance).
 * - [PRICE]    Public on-demand price lists for EC2 and EBS, us-east-1, July 2026 (Linux, shared tenancy).
 * - [NVME-ENC] Amazon EC2 User Guide, "SSD instance store volumes": "The data on NVMe instance storage is encrypted
 *              using an XTS-AES-256 block cipher implemented in a hardware module on the instance"; the AWS Security
 *              Blog, "How to Protect Data at Rest with Amazon EC2 Instance Store Encryption" (2023): on other
 *              instance store "files stored on these disks are not encrypted" by default.
 */

import { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
import { D2_DISK_BYTES, D2_DISK_READ_MBPS, D2_DISK_WRITE_MBPS } from './catalog-d2-disks';
import { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
import { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
import { CURRENT_EBS_INSTANCE_TYPES } from './catalog-nitro';

/** Bytes in one GiB: EBS sizes are binary units. */
export const GIB_BYTES = 1024 ** 3;
/** Bytes in one TiB: capacities are binary units. */
export const TIB_BYTES = 1024 ** 4;

/** MB/s in this project means 10^6 bytes per second (docs/design.md, section 3). */
export const MB_BYTES = 1e6;

/** Hours in a billing month as AWS's price calculator counts them. [PRICE] */
export const HOURS_PER_MONTH = 730;

/** Local instance-store disks of a storage-optimised type. */
export interface InstanceStoreSpec {
  /**
   * Number of disks: on d2 each listed in the block device mapping as ephemeral0..N-1; on a Nitro type (`nvme`) EC2
   * presents every one at launch. [STORAGE]
   */
  readonly disks: number;
  /** Size of one disk in bytes, decimal as AWS states it (d2 2 TB, d3 1980 GB, d3en 13980 GB). [STORAGE] */
  readonly diskBytes: number;
  /** Sequential read of one disk, MB/s (a lower bound where `throughputBound` says so). */
  readonly diskReadMBps: number;
  /** Sequential write of one disk, MB/s (a lower bound where `throughputBound` says so). */
  readonly diskWriteMBps: number;
  /**
   * `lower`: AWS publishes no per-disk throughput for the type, and `diskReadMBps`/`diskWriteMBps` are a lower bound
   * (d3, d3en: d2's published figure, their disks being newer and larger; catalog-d3.ts). The estimate says so in
   * its `limitedBy`, and `npm run bench:cluster` measures the real figure.
   * @default - the figures are AWS's own (d2)
   */
  readonly throughputBound?: 'lower';
  /**
   * The disks are NVMe devices of a Nitro type: EC2 presents all of them at launch, whatever the block device mapping
   * lists, and the kernel names them nvme<N>n1 beside the root volume (the bootstrap finds them by NVMe model).
   * @default false - Xen (d2): the block device mapping's /dev/sdb... are the kernel's xvdb...
   */
  readonly nvme?: boolean;
  /**
   * Whether the platform encrypts the disks at rest: NVMe SSD instance store does, in hardware [NVME-ENC]; so do the
   * HDDs of d3 and d3en (XTS-AES-256, catalog-d3.ts); d2's HDDs do not.
   */
  readonly platformEncrypted: boolean;
}

/** One EC2 instance type the planner can choose. */
export interface InstanceTypeSpec {
  /** The EC2 instance type name, e.g. `m4.2xlarge`. [TYPES] */
  readonly name: string;
  /**
   * The processor architecture: `arm64` for AWS Graviton types (m7g, m6g), `x86_64` for the rest. The server's
   * default image (Amazon Linux 2023) is the one of this architecture: an x86_64 image does not boot on Graviton.
   */
  readonly arch: 'x86_64' | 'arm64';
  /** Number of vCPUs. [TYPES] */
  readonly vcpus: number;
  /** Memory, GiB. [TYPES] */
  readonly memoryGiB: number;
  /** Network bandwidth a long transfer sees (the baseline, not the burst figure), Gbps = 10^9 bit/s. */
  readonly networkBaselineGbps: number;
  /**
   * The "up to" network figure of a Nitro type, Gbps: reached while network I/O credits last, best effort.
   * @default - the baseline: the type's network does not burst
   */
  readonly networkBurstGbps?: number;
  /**
   * Dedicated EBS bandwidth, Mbps = 10^6 bit/s: the baseline a Nitro type sustains. Only for the types the EBS
   * backend uses. [EBS-OPT]
   * @default - none listed: the type is not used with EBS data volumes (the planner counts 0)
   */
  readonly ebsBandwidthMbps?: number;
  /**
   * The "up to" (maximum) EBS bandwidth of a Nitro type, Mbps: for 30 minutes at least once a day, then the
   * baseline (catalog-nitro.ts, [BURST]).
   * @default - the baseline: the type's EBS bandwidth is flat (m4, and the larger Nitro sizes)
   */
  readonly ebsBurstMbps?: number;
  /**
   * Local disks; present for the types the instance-store backend uses. [STORAGE]
   * @default - no instance-store disks (an EBS-only type)
   */
  readonly instanceStore?: InstanceStoreSpec;
  /** On-demand price, USD per hour, us-east-1. [PRICE] */
  readonly onDemandUsdPerHour: number;
}

function d2Disks(disks: number): InstanceStoreSpec {
  return {
    disks,
    diskBytes: D2_DISK_BYTES,
    diskReadMBps: D2_DISK_READ_MBPS,
    diskWriteMBps: D2_DISK_WRITE_MBPS,
    platformEncrypted: false, // HDD instance store, not NVMe; not among [UG-DP]'s HDD types either (catalog-d3.ts)
  };
}

/**
 * m4 types for the EBS backend, smallest first. vCPU, memory, network baseline [TYPES]; EBS bandwidth
 * [EBS-OPT]; price [PRICE].
 */
export const EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  {
    name: 'm4.xlarge',
    arch: 'x86_64',
    vcpus: 4,
    memoryGiB: 16,
    networkBaselineGbps: 0.75,
    ebsBandwidthMbps: 750,
    onDemandUsdPerHour: 0.2,
  },
  {
    name: 'm4.2xlarge',
    arch: 'x86_64',
    vcpus: 8,
    memoryGiB: 32,
    networkBaselineGbps: 1,
    ebsBandwidthMbps: 1000,
    onDemandUsdPerHour: 0.4,
  },
  {
    name: 'm4.4xlarge',
    arch: 'x86_64',
    vcpus: 16,
    memoryGiB: 64,
    networkBaselineGbps: 2,
    ebsBandwidthMbps: 2000,
    onDemandUsdPerHour: 0.8,
  },
  {
    name: 'm4.10xlarge',
    arch: 'x86_64',
    vcpus: 40,
    memoryGiB: 160,
    networkBaselineGbps: 10,
    ebsBandwidthMbps: 4000,
    onDemandUsdPerHour: 2,
  },
  {
    name: 'm4.16xlarge',
    arch: 'x86_64',
    vcpus: 64,
    memoryGiB: 256,
    networkBaselineGbps: 25,
    ebsBandwidthMbps: 10000,
    onDemandUsdPerHour: 3.2,
  },
];

/**
 * d2 types for the instance-store backend, smallest first. vCPU, memory, network baseline [TYPES];
 * disks [STORAGE]; price [PRICE].
 */
export const INSTANCE_STORE_TYPES: readonly InstanceTypeSpec[] = [
  {
    name: 'd2.xlarge',
    arch: 'x86_64',
    vcpus: 4,
    memoryGiB: 30.5,
    networkBaselineGbps: 1.25,
    instanceStore: d2Disks(3),
    onDemandUsdPerHour: 0.69,
  },
  {
    name: 'd2.2xlarge',
    arch: 'x86_64',
    vcpus: 8,
    memoryGiB: 61,
    networkBaselineGbps: 2.5,
    instanceStore: d2Disks(6),
    onDemandUsdPerHour: 1.38,
  },
  {
    name: 'd2.4xlarge',
    arch: 'x86_64',
    vcpus: 16,
    memoryGiB: 122,
    networkBaselineGbps: 5,
    instanceStore: d2Disks(12),
    onDemandUsdPerHour: 2.76,
  },
  {
    name: 'd2.8xlarge',
    arch: 'x86_64',
    vcpus: 36,
    memoryGiB: 244,
    networkBaselineGbps: 10,
    instanceStore: d2Disks(24),
    onDemandUsdPerHour: 5.52,
  },
];

/**
 * The single-volume EBS tiers of the original template, which `auto` keeps (docs/design.md, section 3): the smallest
 * tier whose `maxCapacityTiB` holds the request.
 */
export const EBS_SINGLE_VOLUME_TIERS: readonly {
  /** Largest capacity of the tier, TiB (inclusive). */
  readonly maxCapacityTiB: number;
  /** The instance type of the tier. */
  readonly instanceType: string;
}[] = [
  { maxCapacityTiB: 2, instanceType: 'm4.xlarge' },
  { maxCapacityTiB: 5, instanceType: 'm4.2xlarge' },
  { maxCapacityTiB: 10, instanceType: 'm4.4xlarge' },
  { maxCapacityTiB: 16, instanceType: 'm4.10xlarge' },
];

/** Throughput Optimized HDD (st1) volumes. [HDD]; price [PRICE]. */
export const ST1 = {
  /** Smallest st1 volume, GiB. */
  minSizeGiB: 125,
  /** Largest st1 volume, GiB (16 TiB). */
  maxSizeGiB: 16 * 1024,
  /** Baseline throughput, which is also the rate the burst bucket refills at. */
  baselineMiBpsPerTiB: 40,
  /** Burst throughput while the bucket holds credit. */
  burstMiBpsPerTiB: 250,
  /** Cap on both baseline and burst throughput of one volume. */
  maxMiBpsPerVolume: 500,
  /** The burst bucket holds up to 1 TiB of credit per TiB of volume size. */
  bucketTiBPerTiB: 1,
  /** EBS bills provisioned GiB as "GB-month". */
  usdPerGiBMonth: 0.045,
} as const;

/**
 * Largest capacity one NFS server should hold: the original guidance recommends a single server under
 * about 48 TiB (with 1 GB/s and 32 clients, the original template's limits); with st1's 16 TiB per volume that is 3 striped volumes.
 */
export const MAX_EBS_CAPACITY_TIB = 48;

/** Where a request goes that is too large for any one NFS server. */
export const BEYOND_ONE_SERVER = 'a parallel file system such as Amazon FSx for Lustre is the better tool';

/**
 * Every type with EBS data volumes an `instanceType` override may name: the planner's m4, m6i and m7i, Graviton (m7g,
 * m6g), and the network-optimized families (c6in, m6in, r6in; Graviton c8gb, m8gb, r8gb). The planner chooses
 * Graviton types only when asked for `arch: 'arm64'`.
 */
export const OVERRIDE_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  ...EBS_INSTANCE_TYPES, ...CURRENT_EBS_INSTANCE_TYPES, ...GRAVITON_EBS_INSTANCE_TYPES, ...NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES,
];

/**
 * Every instance-store type an `instanceType` override may name: d2, and d3/d3en (generation current), whichever
 * generation the plan was made for, as on EBS.
 */
export const OVERRIDE_INSTANCE_STORE_TYPES: readonly InstanceTypeSpec[] = [...INSTANCE_STORE_TYPES, ...CURRENT_INSTANCE_STORE_TYPES];

const ALL_TYPES = new Map([...OVERRIDE_EBS_INSTANCE_TYPES, ...OVERRIDE_INSTANCE_STORE_TYPES].map((t) => [t.name, t]));

/** The catalogue entry for `name`; throws naming the known types when there is none. */
export function instanceTypeSpec(name: string): InstanceTypeSpec {
  const spec = ALL_TYPES.get(name);
  if (!spec) {
    throw new Error(`instanceType must be one of ${cataloguedTypeList()}; got ${JSON.stringify(name)}`);
  }
  return spec;
}

/** Every type the catalogue knows, grouped by family (`familyList`), for the messages that list them. */
export function cataloguedTypeList(): string {
  return familyList([...ALL_TYPES.keys()]);
}

/**
 * Instance type names grouped by family for a message, in the shell's brace form: `m4.{xlarge,2xlarge}, m6i.large`.
 * The catalogue holds over a hundred types: one name after another would bury the message.
 */
export function familyList(names: readonly string[]): string {
  const families = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.indexOf('.');
    const family = name.slice(0, dot);
    families.set(family, [...(families.get(family) ?? []), name.slice(dot + 1)]);
  }
  return [...families].map(([family, sizes]) => (sizes.length === 1 ? `${family}.${sizes[0]}` : `${family}.{${sizes.join(',')}}`)).join(', ');
}

/** Whether the catalogue knows `name`. */
export function knownInstanceType(name: string): boolean {
  return ALL_TYPES.has(name);
}

/** Raw capacity of an instance type's local disks, in TiB (0 for EBS-only types). */
export function instanceStoreTiB(spec: InstanceTypeSpec): number {
  return spec.instanceStore ? (spec.instanceStore.disks * spec.instanceStore.diskBytes) / TIB_BYTES : 0;
}
