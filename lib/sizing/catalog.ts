/**
 * The published numbers the planner is built on: the units, the previous generation's instance types m4 and d2, st1
 * volumes and us-east-1 list prices. The current generation's families have files of their own: catalog-nitro.ts,
 * catalog-graviton.ts, catalog-netopt.ts and catalog-d3.ts. The shape of a row is in catalog-types.ts, and
 * catalog-lookup.ts assembles the whole catalogue. Pure data, no CDK imports. Every number carries its source; change a
 * number only together with it.
 *
 * Sources:
 * - [EBS-OPT] Amazon EC2 User Guide, "Amazon EBS-optimized instance types": dedicated EBS bandwidth.
 * - [STORAGE] Amazon EC2 User Guide, "Storage optimized instances": d2 disks. d2's disk throughput is in
 *   catalog-d2-disks.ts.
 * - [HDD] Amazon EBS User Guide, "Throughput Optimized HDD and Cold HDD volumes": st1 limits and credits.
 * - [TYPES] Amazon EC2 instance type pages for m4 and d2: vCPU, memory, network performance.
 * - [PRICE] Public on-demand price lists for EC2 and EBS, us-east-1, July 2026, Linux, shared tenancy.
 * - [NVME-ENC] Amazon EC2 User Guide, "SSD instance store volumes": "The data on NVMe instance storage is encrypted
 *   using an XTS-AES-256 block cipher implemented in a hardware module on the instance". The AWS Security Blog's "How
 *   to Protect Data at Rest with Amazon EC2 Instance Store Encryption" of 2023 says that on other instance store "files
 *   stored on these disks are not encrypted" by default.
 */

import { D2_DISK_BYTES, D2_DISK_READ_MBPS, D2_DISK_WRITE_MBPS } from './catalog-d2-disks';
import type { InstanceStoreSpec, InstanceTypeSpec } from './catalog-types';

/** Bytes in one GiB: EBS sizes are binary units. */
export const GIB_BYTES = 1024 ** 3;
/** Bytes in one TiB: capacities are binary units. */
export const TIB_BYTES = 1024 ** 4;

/** MB/s in this project means 10^6 bytes per second (docs/design.md, section 3). */
export const MB_BYTES = 1e6;

/** Hours in a billing month as AWS's price calculator counts them. [PRICE] */
export const HOURS_PER_MONTH = 730;

function d2Disks(disks: number): InstanceStoreSpec {
  return {
    disks,
    diskBytes: D2_DISK_BYTES,
    diskReadMBps: D2_DISK_READ_MBPS,
    diskWriteMBps: D2_DISK_WRITE_MBPS,
    platformEncrypted: false, // HDD instance store, not NVMe, nor among [UG-DP]'s HDD types: see catalog-d3.ts
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
  /** Largest capacity of the tier, TiB, inclusive. */
  readonly maxCapacityTiB: number;
  /** The instance type of the tier. */
  readonly instanceType: string;
}[] = [
  { maxCapacityTiB: 2, instanceType: 'm4.xlarge' },
  { maxCapacityTiB: 5, instanceType: 'm4.2xlarge' },
  { maxCapacityTiB: 10, instanceType: 'm4.4xlarge' },
  { maxCapacityTiB: 16, instanceType: 'm4.10xlarge' },
];

/** Throughput Optimized HDD volumes, st1, EBS-ST1-SIZE: 125 to 16,384 GiB. [HDD]; price [PRICE]. */
export const ST1 = {
  /** Smallest st1 volume, GiB. */
  minSizeGiB: 125,
  /** Largest st1 volume, GiB: 16 TiB. */
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
 * Largest capacity one NFS server should hold. The original guidance recommends a single server under about 48 TiB,
 * with 1 GB/s and 32 clients, the original template's limits. With st1's 16 TiB per volume that is 3 striped volumes.
 */
export const MAX_EBS_CAPACITY_TIB = 48;

/** Where a request goes that is too large for any one NFS server. */
export const BEYOND_ONE_SERVER = 'a parallel file system such as Amazon FSx for Lustre is the better tool';

/** Raw capacity of an instance type's local disks, in TiB; 0 for EBS-only types. */
export function instanceStoreTiB(spec: InstanceTypeSpec): number {
  return spec.instanceStore ? (spec.instanceStore.disks * spec.instanceStore.diskBytes) / TIB_BYTES : 0;
}
