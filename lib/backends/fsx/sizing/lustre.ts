/**
 * Amazon FSx for Lustre, the backend beyond one NFS server: its deployment types, the storage capacities each accepts,
 * the per-unit throughput each offers, and the throughput a file system of a given size is designed for. It is pure
 * data and functions, with no CDK imports (docs/design.md, section 3). Every number carries its source:
 *
 * - [API] Amazon FSx API Reference, CreateFileSystem: `StorageCapacity`, the valid capacities per deployment type, and
 *   `CreateFileSystemLustreConfiguration.PerUnitStorageThroughput`, the valid values.
 * - [PERF] Amazon FSx for Lustre User Guide, "Performance characteristics of SSD and HDD storage classes",
 *   docs.aws.amazon.com/fsx/latest/LustreGuide/ssd-storage.html. It gives network and disk throughput per TiB, baseline
 *   and burst, and the file servers' memory per TiB, for each deployment option. docs/sources/lustre-performance.md
 *   quotes every figure with how it was read. The SCRATCH_2 and PERSISTENT_2 rows were read on AWS's page; the
 *   PERSISTENT_1 SSD and HDD rows from a copy of the same page's tables.
 * - [PRICE] AWS's FSx price data for US East (N. Virginia), USD per GB-month of storage capacity:
 *   b0.p.awsstatic.com/pricing/2.0/meteredUnitMaps/fsx/USD/current/fsx.json, published 2025-05-29T20:11:21Z, read in
 *   its mirror github.com/QuinnyPig/aws-price-watcher, processed/fsx.json at commit 2a52ba5. AWS groups the storage
 *   rates as "SSD old", PERSISTENT_1's 0.14, 0.19 and 0.29; "SSD new", PERSISTENT_2's 0.145, 0.21, 0.34 and 0.60; and
 *   "HDD New", 0.025 and 0.083, or 0.041 and 0.099 for the same two with the SSD read cache. Each group's rates are
 *   assigned to its per-unit throughputs in ascending order. The PERSISTENT_1 SSD and SCRATCH_2 rates are also in a
 *   us-west-2 Price List ledger with their usage types, at identical rates: Storage.SSD.50/100/200 at 0.14/0.19/0.29,
 *   Scratch_2 at 0.14. SCRATCH_2 is also at $0.140 in AWS's Solutions Library guidance for an FSx for Lustre proof of
 *   concept, us-east-1, April 2025.
 *
 * Backups are not in the cost, since no source this project could read names the FSx for Lustre backup rate. They are
 * incremental and billed per GB-month stored, on top of the storage, as the README's "Choosing a backend" says.
 */
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { CachedReadEstimate } from '../../../sizing/cached-read';
import { describe } from '../../../sizing/describe';
import { floor2, round2 } from '../../../sizing/round';

/** FSx for Lustre deployment types this project deploys; SCRATCH_2 supersedes SCRATCH_1. */
export type FsxLustreDeploymentType = 'SCRATCH_2' | 'PERSISTENT_1' | 'PERSISTENT_2';

/** FSx for Lustre storage types this project deploys: HDD only with PERSISTENT_1. */
export type FsxLustreStorageType = 'SSD' | 'HDD';

// The defaults as aws-cdk-lib's enum values, named by type only: the planner loads no CDK, and the values are strings.
const PERSISTENT_2 = 'PERSISTENT_2' as fsx.LustreDeploymentType.PERSISTENT_2;
const SSD = 'SSD' as fsx.StorageType.SSD;

/** The FSx for Lustre options of a request: `StorageRequest.fsxLustre`. */
export interface FsxLustreOptions {
  /**
   * Deployment type: SCRATCH_2, PERSISTENT_1 or PERSISTENT_2; SCRATCH_1 is refused, SCRATCH_2 superseding it.
   * SCRATCH_2 is not replicated, so a failed file server loses its data: only when asked.
   * @default fsx.LustreDeploymentType.PERSISTENT_2
   */
  readonly deploymentType?: fsx.LustreDeploymentType;
  /**
   * Throughput per TiB of storage, MB/s: PERSISTENT_1 SSD 50, 100, 200; PERSISTENT_1 HDD 12, 40; PERSISTENT_2 125, 250,
   * 500, 1000. SCRATCH_2 takes none, being fixed at 200. [API]
   * @default - the smallest the type offers: 125 on PERSISTENT_2, 50 on PERSISTENT_1 SSD, 12 on HDD
   */
  readonly perUnitStorageThroughput?: number;
  /**
   * Storage type: SSD, or HDD with PERSISTENT_1 only; INTELLIGENT_TIERING is refused.
   * @default fsx.StorageType.SSD
   */
  readonly storageType?: fsx.StorageType;
}

/** One deployment option's published figures, per TiB of storage. [PERF] */
export interface FsxLustrePerformance {
  /** Network throughput sustained, MB/s per TiB. */
  readonly networkBaselineMBpsPerTiB: number;
  /** Network throughput while network I/O credits last, MB/s per TiB; the baseline where none is listed. */
  readonly networkBurstMBpsPerTiB: number;
  /** Disk read sustained, MB/s per TiB. */
  readonly diskReadMBpsPerTiB: number;
  /** Disk write sustained, MB/s per TiB. */
  readonly diskWriteMBpsPerTiB: number;
  /** Disk read while disk burst credits last, MB/s per TiB; the sustained figure where none is listed. */
  readonly diskBurstReadMBpsPerTiB: number;
  /** Disk write while disk burst credits last, MB/s per TiB; the sustained figure where none is listed. */
  readonly diskBurstWriteMBpsPerTiB: number;
  /** The file servers' memory, "Cache storage (GiB of RAM/TiB of storage provisioned)". [PERF] */
  readonly memoryGiBPerTiB: number;
}

/** A row with one disk figure for read and write alike. */
function row(netBase: number, netBurst: number, memory: number, disk: number, diskBurst = disk): FsxLustrePerformance {
  return {
    memoryGiBPerTiB: memory,
    networkBaselineMBpsPerTiB: netBase,
    networkBurstMBpsPerTiB: netBurst,
    diskReadMBpsPerTiB: disk,
    diskWriteMBpsPerTiB: disk,
    diskBurstReadMBpsPerTiB: diskBurst,
    diskBurstWriteMBpsPerTiB: diskBurst,
  };
}

/**
 * The performance table, by option key `<deployment type>/<storage type>/<per-unit throughput>`. [PERF] The persistent
 * network burst figures are those of most regions; the page notes some regions burst to 530 MB/s per TiB only.
 */
export const FSX_LUSTRE_PERFORMANCE: Readonly<Record<string, FsxLustrePerformance>> = {
  // SCRATCH_2: disk 200 read, 100 write per TiB; no disk burst listed.
  'SCRATCH_2/SSD/200': { ...row(200, 1300, 6.7, 200), diskWriteMBpsPerTiB: 100, diskBurstWriteMBpsPerTiB: 100 },
  'PERSISTENT_2/SSD/125': row(320, 1300, 3.4, 125, 500),
  'PERSISTENT_2/SSD/250': row(640, 1300, 6.8, 250, 500),
  'PERSISTENT_2/SSD/500': row(1300, 1300, 13.7, 500),
  'PERSISTENT_2/SSD/1000': row(2600, 2600, 27.3, 1000),
  'PERSISTENT_1/SSD/50': row(250, 1300, 2.2, 50, 240),
  'PERSISTENT_1/SSD/100': row(500, 1300, 4.4, 100, 240),
  'PERSISTENT_1/SSD/200': row(750, 1300, 8.8, 200, 240),
  // HDD without the SSD read cache: disk burst 80 read and 50 write at 12; 250 and 150 at 40.
  'PERSISTENT_1/HDD/12': {
    ...row(40, 375, 0.4, 12), diskBurstReadMBpsPerTiB: 80, diskBurstWriteMBpsPerTiB: 50,
  },
  'PERSISTENT_1/HDD/40': {
    ...row(150, 1300, 1.5, 40), diskBurstReadMBpsPerTiB: 250, diskBurstWriteMBpsPerTiB: 150,
  },
};

/**
 * Storage price per GB-month of capacity, USD, us-east-1, by option key as in {@link FSX_LUSTRE_PERFORMANCE}. [PRICE]
 */
export const FSX_LUSTRE_USD_PER_GB_MONTH: Readonly<Record<string, number>> = {
  'SCRATCH_2/SSD/200': 0.14,
  'PERSISTENT_1/SSD/50': 0.14,
  'PERSISTENT_1/SSD/100': 0.19,
  'PERSISTENT_1/SSD/200': 0.29,
  'PERSISTENT_1/HDD/12': 0.025,
  'PERSISTENT_1/HDD/40': 0.083,
  'PERSISTENT_2/SSD/125': 0.145,
  'PERSISTENT_2/SSD/250': 0.21,
  'PERSISTENT_2/SSD/500': 0.34,
  'PERSISTENT_2/SSD/1000': 0.6,
};

/** The key of an option in the tables: `<deployment type>/<storage type>/<per-unit throughput>`. */
export function fsxLustreKey(options: ResolvedFsxLustreOptions): string {
  return `${options.deploymentType}/${options.storageType}/${options.perUnitStorageThroughput}`;
}

/** Every option this project deploys, resolved; `persistentOnly` leaves out SCRATCH_2, which is not replicated. */
export function fsxLustreOptions(persistentOnly: boolean): ResolvedFsxLustreOptions[] {
  return Object.entries(PER_UNIT)
    .flatMap(([key, perUnits]) => {
      const [deploymentType, storageType] = key.split('/') as [fsx.LustreDeploymentType, fsx.StorageType];
      return perUnits.map((perUnitStorageThroughput) => ({ deploymentType, storageType, perUnitStorageThroughput }));
    })
    .filter((o) => !persistentOnly || o.deploymentType !== 'SCRATCH_2');
}

/** Monthly storage cost of a file system of `storageGiB`, USD, backups not included. [PRICE] */
export function fsxLustreMonthlyCost(options: ResolvedFsxLustreOptions, storageGiB: number): number {
  const price = FSX_LUSTRE_USD_PER_GB_MONTH[fsxLustreKey(options)];
  if (price === undefined) throw new Error(`no price for FSx for Lustre ${fsxLustreKey(options)}`);
  return round2(price * storageGiB);
}

/**
 * The smallest valid storage capacity that holds `capacityTiB` and whose baseline sustains `targetMBps`, read and
 * write. On FSx for Lustre, throughput is bought with capacity. [API] [PERF]
 */
export function fsxLustreCapacityFor(capacityTiB: number, options: ResolvedFsxLustreOptions, targetMBps = 0): number {
  const perf = FSX_LUSTRE_PERFORMANCE[fsxLustreKey(options)];
  const perTiB = Math.min(perf.diskReadMBpsPerTiB, perf.diskWriteMBpsPerTiB, perf.networkBaselineMBpsPerTiB);
  // The TiB the target needs, then one GiB more than its rounding error can take away.
  const forThroughput = targetMBps > 0 ? Math.ceil((targetMBps / perTiB) * 1024) / 1024 : 0;
  // A target so large that the capacity it needs is no number, as 1e308 MB/s, is the target's fault, not capacityTiB's.
  if (!Number.isFinite(forThroughput)) throw new Error(`throughputMBps asks for more than any FSx for Lustre file system gives; got ${describe(targetMBps)}`);
  return fsxLustreCapacityGiB(Math.max(capacityTiB, forThroughput), options);
}

/** Valid per-unit throughputs per deployment and storage type, MB/s per TiB. [API] */
const PER_UNIT: Readonly<Record<string, readonly number[]>> = {
  'SCRATCH_2/SSD': [200],
  'PERSISTENT_1/SSD': [50, 100, 200],
  'PERSISTENT_1/HDD': [12, 40],
  'PERSISTENT_2/SSD': [125, 250, 500, 1000],
};

/**
 * Valid storage capacities, GiB: SSD types 1200, 2400, then multiples of 2400; HDD multiples of 6000 at 12 MB/s/TiB or
 * of 1800 at 40 MB/s/TiB. [API]
 */
export function capacitySteps(storageType: string, perUnit: number): { first: number[]; step: number } {
  if (storageType === 'HDD') return perUnit === 12 ? { first: [], step: 6000 } : { first: [], step: 1800 };
  return { first: [1200], step: 2400 };
}

/** The options of a request for the deployment and storage types this project deploys, named as the context names them. */
export interface FsxLustreOptionNames {
  readonly deploymentType?: FsxLustreDeploymentType;
  readonly storageType?: FsxLustreStorageType;
  readonly perUnitStorageThroughput?: number;
}

/** The request's options of `names`: each literal is the value of aws-cdk-lib's enum member of that name. */
export function fsxLustreOptionsOf(names: FsxLustreOptionNames): FsxLustreOptions {
  return {
    ...names,
    deploymentType: names.deploymentType as fsx.LustreDeploymentType | undefined,
    storageType: names.storageType as fsx.StorageType | undefined,
  };
}

/** A request's FSx options with every default filled in and checked. */
export interface ResolvedFsxLustreOptions {
  /** The deployment type: SCRATCH_2, PERSISTENT_1 or PERSISTENT_2. */
  readonly deploymentType: fsx.LustreDeploymentType;
  /** The storage type: SSD, or HDD with PERSISTENT_1. */
  readonly storageType: fsx.StorageType;
  /** MB/s per TiB of storage; 200 for SCRATCH_2, which fixes it. */
  readonly perUnitStorageThroughput: number;
}

const DEPLOYMENT_TYPES: readonly string[] = ['SCRATCH_2', 'PERSISTENT_1', 'PERSISTENT_2'] satisfies FsxLustreDeploymentType[];
const STORAGE_TYPES: readonly string[] = ['SSD', 'HDD'] satisfies FsxLustreStorageType[];

/** Fills in the defaults and checks each option; throws naming the field, the value and the allowed values. */
export function resolveFsxLustreOptions(options: FsxLustreOptions = {}): ResolvedFsxLustreOptions {
  const deploymentType = options.deploymentType ?? PERSISTENT_2;
  if (!DEPLOYMENT_TYPES.includes(deploymentType)) {
    throw new Error(`fsxLustre.deploymentType must be one of ${DEPLOYMENT_TYPES.join(', ')}; got ${describe(deploymentType)}`);
  }
  const storageType = options.storageType ?? SSD;
  if (!STORAGE_TYPES.includes(storageType)) {
    throw new Error(`fsxLustre.storageType must be one of ${STORAGE_TYPES.join(', ')}; got ${describe(storageType)}`);
  }
  const offered = PER_UNIT[`${deploymentType}/${storageType}`];
  if (!offered) {
    throw new Error(`fsxLustre.storageType 'HDD' is offered only with deploymentType 'PERSISTENT_1'; got deploymentType '${deploymentType}'`);
  }
  const perUnit = options.perUnitStorageThroughput ?? offered[0];
  if (deploymentType === 'SCRATCH_2' && options.perUnitStorageThroughput !== undefined) {
    throw new Error(`fsxLustre.perUnitStorageThroughput is fixed for SCRATCH_2 (200 MB/s per TiB) and cannot be set; got ${describe(perUnit)}`);
  }
  if (!offered.includes(perUnit)) {
    throw new Error(
      `fsxLustre.perUnitStorageThroughput must be one of ${offered.join(', ')} (MB/s per TiB) for ${deploymentType} ` +
        `${storageType}; got ${describe(perUnit)}`,
    );
  }
  return { deploymentType, storageType, perUnitStorageThroughput: perUnit };
}

/** The smallest valid storage capacity, GiB, that holds `capacityTiB` for these options. [API] */
export function fsxLustreCapacityGiB(capacityTiB: number, options: ResolvedFsxLustreOptions): number {
  if (typeof capacityTiB !== 'number' || !Number.isFinite(capacityTiB) || capacityTiB <= 0) {
    throw new Error(`capacityTiB must be a number greater than 0; got ${describe(capacityTiB)}`);
  }
  // Multiplying by a power of two is exact: the ceiling never rounds a request down.
  const wanted = Math.ceil(capacityTiB * 1024);
  const { first, step } = capacitySteps(options.storageType, options.perUnitStorageThroughput);
  const small = first.find((c) => c >= wanted);
  return small ?? Math.max(step, Math.ceil(wanted / step) * step);
}

/** Throughput a file system of `storageGiB` is designed for, MB/s, that is 10^6 bytes per second. [PERF] */
export interface FsxLustreThroughput {
  /** Read sustained when every credit is spent: min(disk, network) baselines. */
  readonly baselineReadMBps: number;
  /** Write sustained when every credit is spent. */
  readonly baselineWriteMBps: number;
  /** Read while disk and network credits last: min(disk, network) bursts. */
  readonly burstReadMBps: number;
  /** Write while disk and network credits last. */
  readonly burstWriteMBps: number;
  /** The figure that binds the sustained read, in words. */
  readonly limitedBy: string;
  /** Reads of a working set within the servers' memory: at the network rate. */
  readonly cachedRead: CachedReadEstimate;
}

/** The designed throughput of a file system: per-TiB figures times its storage, the lesser of disk and network. */
export function estimateFsxLustreThroughput(options: ResolvedFsxLustreOptions, storageGiB: number): FsxLustreThroughput {
  const key = `${options.deploymentType}/${options.storageType}/${options.perUnitStorageThroughput}`;
  const perf = FSX_LUSTRE_PERFORMANCE[key];
  if (!perf) throw new Error(`no published performance for FSx for Lustre ${key}`);
  const tib = storageGiB / 1024;
  // Down to the cent: an estimate is never stated above a published limit it is made of.
  const at = (perTiB: number) => floor2(perTiB * tib);
  const diskBinds = perf.diskReadMBpsPerTiB <= perf.networkBaselineMBpsPerTiB;
  return {
    baselineReadMBps: at(Math.min(perf.diskReadMBpsPerTiB, perf.networkBaselineMBpsPerTiB)),
    baselineWriteMBps: at(Math.min(perf.diskWriteMBpsPerTiB, perf.networkBaselineMBpsPerTiB)),
    burstReadMBps: at(Math.min(perf.diskBurstReadMBpsPerTiB, perf.networkBurstMBpsPerTiB)),
    burstWriteMBps: at(Math.min(perf.diskBurstWriteMBpsPerTiB, perf.networkBurstMBpsPerTiB)),
    limitedBy: diskBinds
      ? `disk throughput of FSx for Lustre ${key} (${perf.diskReadMBpsPerTiB} MB/s per TiB x ${round2(tib)} TiB)`
      : `network baseline of FSx for Lustre ${key} (${perf.networkBaselineMBpsPerTiB} MB/s per TiB x ${round2(tib)} TiB)`,
    cachedRead: {
      readMBps: at(perf.networkBaselineMBpsPerTiB),
      burstReadMBps: at(perf.networkBurstMBpsPerTiB),
      cacheGiB: at(perf.memoryGiBPerTiB),
      limitedBy: `network of FSx for Lustre ${key} (${perf.networkBaselineMBpsPerTiB} MB/s per TiB baseline, ` +
        `${perf.networkBurstMBpsPerTiB} burst) for data in the file servers' memory (${perf.memoryGiBPerTiB} GiB per TiB)`,
    },
  };
}
