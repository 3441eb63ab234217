/**
 * The Amazon EFS catalogue, for the planner only, since this project deploys no EFS: storage classes and their
 * us-east-1 prices, and the throughput modes Elastic, Provisioned and Bursting with their published limits and prices.
 * Pure data, no CDK imports (docs/design.md, section 3). Every number carries its source:
 *
 * - [PERF] Amazon EFS User Guide, "Amazon EFS performance specifications",
 *   docs.aws.amazon.com/efs/latest/ug/performance.html: the table for file systems using General Purpose mode. Regional
 *   Elastic gives a maximum throughput per file system of 20-60 GiBps read and 1-5 GiBps write, and 1,500 MiBps per
 *   client. Regional Provisioned gives 3-10 GiBps read, 1-3.33 GiBps write and 500 MiBps per client. Regional Bursting
 *   gives 3-5 GiBps read, 1-3 GiBps write and 500 MiBps per client. One Zone, in any mode, gives 3 GiBps read, 1 GiBps
 *   write and 500 MiBps per client. The page's footnote says the per-file-system maximums "depend on the AWS Region".
 *   The Region's figure is in the quotas page's table, not read here, so the planner counts the least of each range: a
 *   bound.
 * - [KC] AWS Knowledge Center, "efs-choosing-correct-throughput-mode" on repost.aws. Bursting's baseline is 50 KiB/s
 *   per GiB of storage, "the equivalent of 50 MiB/s per TiB". Every file system can burst to 100 MiB/s, larger ones to
 *   100 MiB/s per TiB of storage, while it has burst credits.
 * - [API] Amazon EFS API Reference, in the AWS SDK for Kotlin's copy of UpdateFileSystem: ProvisionedThroughputInMibps
 *   "Valid values are 1-3414 MiBps, with the upper limit depending on Region".
 * - [PRICE] AWS's EFS price data for US East (N. Virginia), read in its mirror github.com/QuinnyPig/aws-price-watcher,
 *   processed/efs.json at commit 33830cd, which quotes AWS's price list. Per GB-month: General Purpose Standard storage
 *   $0.30, Infrequent Access $0.025, Archive $0.008, One Zone $0.16, One Zone-IA $0.0133. Elastic throughput's
 *   transfers are "EFS Storage Requests Read per GB" at $0.03 and "Write per GB" at $0.06. "Throughput Provisioned" is
 *   $6.00 per MB/s-month.
 * - [BILL] What Provisioned throughput bills: "the average throughput provisioned in excess of what your EFS Standard
 *   storage allows for the month". An answer on AWS re:Post, repost.aws/questions/QU7xlbWYDzQYu1F7w2nDYe8A, quotes it
 *   from the EFS pricing page and its example 3. What Standard storage allows is Bursting's baseline, 50 MiB/s per TiB
 *   stored.
 */

/** MB/s in one MiB/s: EFS states its limits in MiB/s and GiB/s, and the planner's figures are MB/s. */
export const MB_PER_MIB = 1.048576;

/** An EFS storage class. */
export type EfsStorageClass = 'STANDARD' | 'INFREQUENT_ACCESS' | 'ARCHIVE' | 'ONE_ZONE' | 'ONE_ZONE_IA';

/** Storage price per GB-month, USD, us-east-1. [PRICE] */
export const EFS_STORAGE_USD_PER_GB_MONTH: { readonly [C in EfsStorageClass]: number } = {
  STANDARD: 0.3,
  INFREQUENT_ACCESS: 0.025,
  ARCHIVE: 0.008,
  ONE_ZONE: 0.16,
  ONE_ZONE_IA: 0.0133,
};

/** Elastic throughput's transfer prices per GB, USD, us-east-1. [PRICE] */
export const EFS_ELASTIC_READ_USD_PER_GB = 0.03;
export const EFS_ELASTIC_WRITE_USD_PER_GB = 0.06;

/** Provisioned throughput, USD per MB/s-month; the planner provisions MiB/s and charges each at this rate. [PRICE] */
export const EFS_PROVISIONED_USD_PER_MBPS_MONTH = 6;

/** The largest throughput one can provision, MiB/s; the upper limit depends on the Region. [API] */
export const EFS_MAX_PROVISIONED_MIBPS = 3414;

/** An EFS throughput mode. */
export type EfsThroughputMode = 'elastic' | 'provisioned' | 'bursting';

/** One throughput mode's published limits for Regional file systems in General Purpose mode, GiB/s and MiB/s. [PERF] */
export interface EfsModeLimits {
  /** Read per file system, GiB/s: [least, most] across Regions. */
  readonly readGiBps: readonly [number, number];
  /** Write per file system, GiB/s: [least, most] across Regions. */
  readonly writeGiBps: readonly [number, number];
  /** Read and write per client, MiB/s. */
  readonly perClientMiBps: number;
}

/** The limits of each mode. [PERF] */
export const EFS_MODE_LIMITS: { readonly [M in EfsThroughputMode]: EfsModeLimits } = {
  elastic: { readGiBps: [20, 60], writeGiBps: [1, 5], perClientMiBps: 1500 },
  provisioned: { readGiBps: [3, 10], writeGiBps: [1, 3.33], perClientMiBps: 500 },
  bursting: { readGiBps: [3, 5], writeGiBps: [1, 3], perClientMiBps: 500 },
};

/**
 * IOPS per file system of each mode, [read, write]. [PERF] The table gives Elastic 900,000-2,500,000 read and 500,000
 * write; Provisioned 55,000 and 25,000; Bursting 35,000 and 7,000. Elastic's footnote says "By default, file systems
 * that use Elastic throughput" drive up to 90,000 read IOPS for infrequently accessed data, 250,000 for frequently
 * accessed data and 50,000 write IOPS, raised on request. The footnote was read in AWS's own Japanese and Chinese
 * translations of the page; the English one was not in the copy read, and the English page governs. The planner counts
 * Elastic's defaults for Standard, frequently accessed data.
 */
export const EFS_MODE_IOPS: { readonly [M in EfsThroughputMode]: readonly [number, number] } = {
  elastic: [250_000, 50_000],
  provisioned: [55_000, 25_000],
  bursting: [35_000, 7_000],
};

/** Bursting: baseline MiB/s per TiB of Standard storage, burst MiB/s per TiB, and the burst every file system has. [KC] */
export const EFS_BURSTING_BASELINE_MIBPS_PER_TIB = 50;
export const EFS_BURSTING_BURST_MIBPS_PER_TIB = 100;
export const EFS_BURSTING_MIN_BURST_MIBPS = 100;

/** The sustained bound of a mode, MB/s: the least write, the lower of read and write, of its published range. [PERF] */
export function efsModeBoundMBps(mode: EfsThroughputMode): number {
  const l = EFS_MODE_LIMITS[mode];
  return Math.min(l.readGiBps[0], l.writeGiBps[0]) * 1024 * MB_PER_MIB;
}
