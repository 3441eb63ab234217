/**
 * Amazon FSx for OpenZFS, the managed NFS file system: its deployment types, the throughput capacities each offers, the
 * storage it accepts, and the plan of a file system that holds a capacity and sustains a throughput. It is pure data
 * and functions, with no CDK imports (docs/design.md, section 3).
 *
 * These are the shapes the planner, the backend and the guard share. The published figures and prices of each tier are
 * in catalog.ts beside it, and the plan in plan.ts.
 *
 * - [API] Amazon FSx API Reference: CreateFileSystemOpenZFSConfiguration's `DeploymentType` and `ThroughputCapacity`,
 *   the valid values per deployment type; CreateFileSystem's `StorageCapacity`, SSD 64-524,288 GiB.
 * - [GUIDE] FSx for OpenZFS User Guide, "Modifying throughput capacity", managing-throughput-capacity.html: the values
 *   per deployment type, HA and non-HA apart. Each rule's row is in docs/sources/fsx-rules.md.
 */
import { describe } from '../../../sizing/describe';

/**
 * An FSx for OpenZFS deployment type, its value the API's `DeploymentType`. It is written out, since aws-cdk-lib has no
 * L2 for FSx for OpenZFS and so no enum for it. [API]
 */
export enum FsxOpenZfsDeploymentType {
  /** One Availability Zone, first generation: throughput capacity 64-4,096 MB/s, without a standby file server. */
  SINGLE_AZ_1 = 'SINGLE_AZ_1',
  /** One Availability Zone, second generation: 160-10,240 MB/s, with an NVMe read cache. */
  SINGLE_AZ_2 = 'SINGLE_AZ_2',
  /** One Availability Zone with a standby file server (high availability), first generation: 128-4,096 MB/s. */
  SINGLE_AZ_HA_1 = 'SINGLE_AZ_HA_1',
  /** One Availability Zone with a standby file server (high availability), second generation: 160-10,240 MB/s. */
  SINGLE_AZ_HA_2 = 'SINGLE_AZ_HA_2',
  /** A file server in each of two Availability Zones, the second in `standbySubnet`: 160-10,240 MB/s. */
  MULTI_AZ_1 = 'MULTI_AZ_1',
}
/** FSx for OpenZFS deployment types, in the enum's order. [API] */
export const FSX_OPENZFS_DEPLOYMENT_TYPES: readonly FsxOpenZfsDeploymentType[] = Object.values(FsxOpenZfsDeploymentType);

/** Throughput capacities, MB/s, of SINGLE_AZ_1. [API] [GUIDE] */
const GEN1_THROUGHPUT = [64, 128, 256, 512, 1024, 2048, 3072, 4096] as const;
/**
 * SINGLE_AZ_HA_1's tiers, from 128. AWS's texts disagree: the guide lists "Single-AZ 1 (HA) – 128, 256, ... 4096", and
 * the API's DeploymentType says "64 - 4,096". These are the tiers both allow: OPENZFS-HA1-TIERS in
 * docs/sources/fsx-rules.md. [GUIDE]
 */
const HA1_THROUGHPUT = GEN1_THROUGHPUT.filter((t) => t >= 128);
/** Throughput capacities, MB/s, of the second-generation types: SINGLE_AZ_2, SINGLE_AZ_HA_2 and MULTI_AZ_1. [API] */
const GEN2_THROUGHPUT = [160, 320, 640, 1280, 2560, 3840, 5120, 7680, 10240] as const;

/** The throughput capacities, MB/s, each deployment type offers, ascending: OPENZFS-TIERS. [API] */
export const FSX_OPENZFS_THROUGHPUT_CAPACITIES: { readonly [D in FsxOpenZfsDeploymentType]: readonly number[] } = {
  SINGLE_AZ_1: GEN1_THROUGHPUT,
  SINGLE_AZ_HA_1: HA1_THROUGHPUT,
  SINGLE_AZ_2: GEN2_THROUGHPUT,
  SINGLE_AZ_HA_2: GEN2_THROUGHPUT,
  MULTI_AZ_1: GEN2_THROUGHPUT,
};

/** Smallest and largest SSD storage capacity, GiB: OPENZFS-STORAGE-RANGE. [API] */
export const FSX_OPENZFS_MIN_STORAGE_GIB = 64;
export const FSX_OPENZFS_MAX_STORAGE_GIB = 524_288;

/** The FSx for OpenZFS options of a request: `StorageRequest.fsxOpenZfs`. */
export interface FsxOpenZfsOptions {
  /**
   * Deployment type. MULTI_AZ_1 needs two subnets in two Availability Zones. SINGLE_AZ_1 is the default: it is the one
   * type whose us-east-1 rates this project could source, in catalog.ts, and it has the smallest tiers, from 64 MB/s.
   * @default FsxOpenZfsDeploymentType.SINGLE_AZ_1
   */
  readonly deploymentType?: FsxOpenZfsDeploymentType;
  /**
   * Throughput capacity, MB/s: one of the deployment type's tiers. SINGLE_AZ_1 has 64-4,096, SINGLE_AZ_HA_1 128-4,096,
   * and SINGLE_AZ_2, SINGLE_AZ_HA_2 and MULTI_AZ_1 160-10,240. [API] [GUIDE]
   * @default - the smallest tier that sustains `throughputMBps`, or the type's smallest
   */
  readonly throughputCapacityMBps?: number;
  /**
   * SSD IOPS to provision, or 0 for AUTOMATIC, which is 3 IOPS per GiB of storage. It is a whole number from 3 IOPS per
   * GiB to 50 per GiB, the least any Region allows, and at most the type's largest tier's disk IOPS: 160,000 on the
   * first generation, 400,000 on the second. [IOPS] [PERF] It pins the IOPS so that a throughput capacity change need
   * not change them in the same deploy, since FSx takes no throughput update while an IOPS update runs:
   * OPENZFS-IOPS-WITH-THROUGHPUT.
   * @default - the tier's disk IOPS within 50 per GiB when more than the automatic, else AUTOMATIC
   */
  readonly provisionedIops?: number;
}

/** The FSx for OpenZFS file system of a plan. */
export interface FsxOpenZfsPlan {
  /** Deployment type. */
  readonly deploymentType: FsxOpenZfsDeploymentType;
  /** Throughput capacity, MB/s: one of the type's tiers. */
  readonly throughputCapacityMBps: number;
  /** SSD storage capacity, GiB: 64-524,288. */
  readonly storageCapacityGiB: number;
  /**
   * SSD IOPS to provision, as `DiskIopsConfiguration` Mode USER_PROVISIONED and Iops: the tier's baseline disk IOPS, as
   * AWS recommends to drive the tier's disk throughput, when that is more than the automatic 3 IOPS per GiB.
   * @default - AUTOMATIC, 3 IOPS per GiB of storage
   */
  readonly userProvisionedIops?: number;
}

/** The options asked for, with the defaults filled in; throws naming the option and the allowed values. */
export function resolveFsxOpenZfsOptions(options: FsxOpenZfsOptions = {}): Required<Pick<FsxOpenZfsOptions, 'deploymentType'>> & FsxOpenZfsOptions {
  const deploymentType = options.deploymentType ?? FsxOpenZfsDeploymentType.SINGLE_AZ_1;
  if (!(FSX_OPENZFS_DEPLOYMENT_TYPES as readonly string[]).includes(deploymentType)) {
    throw new Error(`fsxOpenZfs.deploymentType must be one of ${FSX_OPENZFS_DEPLOYMENT_TYPES.join(', ')}; got ${describe(deploymentType)}`);
  }
  const tiers = FSX_OPENZFS_THROUGHPUT_CAPACITIES[deploymentType];
  const t = options.throughputCapacityMBps;
  if (t !== undefined && !tiers.includes(t)) {
    throw new Error(`fsxOpenZfs.throughputCapacityMBps must be one of ${tiers.join(', ')} for ${deploymentType}; got ${describe(t)}`);
  }
  const iops = options.provisionedIops;
  if (iops !== undefined && !(Number.isSafeInteger(iops) && iops >= 0)) {
    throw new Error(`fsxOpenZfs.provisionedIops must be a whole number of SSD IOPS, or 0 for AUTOMATIC; got ${describe(iops)}`);
  }
  return { ...options, deploymentType };
}
