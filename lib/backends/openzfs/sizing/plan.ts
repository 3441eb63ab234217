/**
 * The FSx for OpenZFS plan: the file system of the options asked for that holds the capacity and sustains the
 * throughput, its estimate from the tier's published figures in catalog.ts, and its monthly cost. The cost is storage,
 * throughput capacity and the SSD IOPS provisioned above the included, backups not included. On FSx for OpenZFS
 * throughput is bought apart from capacity, as the smallest tier that sustains the throughput.
 */
import { describe } from '../../../sizing/describe';
import { Backend } from '../../../backend-enum';
import { DEFAULT_IO_SIZE_KIB, type IopsLimit, type PlanIops, boundAtIoSize } from '../../../sizing/io-size';
import { sustainedOf } from '../../../sizing/limit';
import type { StoragePlan } from '../../../sizing/plan-types';
import { round2 } from '../../../sizing/round';
import {
  FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB, FSX_OPENZFS_MAX_IOPS_PER_GIB, FSX_OPENZFS_SINGLE_AZ_1_PRICES, FSX_OPENZFS_TIERS, type FsxOpenZfsTier,
  fsxOpenZfsPriceSource,
} from './catalog';
import {
  FSX_OPENZFS_MAX_STORAGE_GIB, FSX_OPENZFS_MIN_STORAGE_GIB, type FsxOpenZfsDeploymentType, type FsxOpenZfsOptions, resolveFsxOpenZfsOptions,
} from './options';

/**
 * The sustained read and write of a tier: the lesser of its disk and network baselines, and for writes any write cap.
 */
export function tierSustained(tier: FsxOpenZfsTier): { readMBps: number; writeMBps: number } {
  return {
    readMBps: Math.min(tier.diskBaselineMBps, tier.networkBaselineMBps),
    writeMBps: Math.min(tier.diskWriteMBps ?? tier.diskBaselineMBps, tier.networkBaselineMBps),
  };
}

/**
 * The smallest tier of a type that sustains `targetMBps` read and write, or undefined when none does. With random
 * requests of `ioSizeKiB` on `storageGiB` it must also sustain it in IOPS x size, by the SSD IOPS the plan provisions,
 * `openZfsIops`.
 */
export function smallestTierSustaining(
  deploymentType: FsxOpenZfsDeploymentType, targetMBps: number, ioSizeKiB = DEFAULT_IO_SIZE_KIB, storageGiB = FSX_OPENZFS_MIN_STORAGE_GIB, askedIops?: number,
): FsxOpenZfsTier | undefined {
  return FSX_OPENZFS_TIERS[deploymentType].find((t) => Math.min(...Object.values(tierSustained(t))) >= targetMBps &&
    (ioSizeKiB === DEFAULT_IO_SIZE_KIB || sustainedOf(atIoSize(openZfsPlanAt(deploymentType, t, storageGiB, askedIops), ioSizeKiB)) >= targetMBps));
}

/** The storage, GiB, that holds `capacityTiB`: at least 64; throws naming capacityTiB beyond 524,288 GiB. */
export function fsxOpenZfsStorageGiB(capacityTiB: number): number {
  const gib = Math.max(FSX_OPENZFS_MIN_STORAGE_GIB, Math.ceil(capacityTiB * 1024));
  if (gib > FSX_OPENZFS_MAX_STORAGE_GIB) {
    throw new Error(`capacityTiB ${describe(capacityTiB)} is more than an FSx for OpenZFS file system holds: ` +
      `storage ${FSX_OPENZFS_MIN_STORAGE_GIB}-${FSX_OPENZFS_MAX_STORAGE_GIB} GiB (512 TiB)`);
  }
  return gib;
}

/** The file system of `options` that holds `capacityTiB` and sustains `targetMBps`; throws naming the field otherwise. */
export function fsxOpenZfsPlan(asked: FsxOpenZfsOptions | undefined, capacityTiB: number, targetMBps = 0, ioSizeKiB = DEFAULT_IO_SIZE_KIB): StoragePlan {
  const options = resolveFsxOpenZfsOptions(asked);
  const type = options.deploymentType;
  const storageGiB = fsxOpenZfsStorageGiB(capacityTiB);
  const tiers = FSX_OPENZFS_TIERS[type];
  const largest = tiers[tiers.length - 1];
  const tier = options.throughputCapacityMBps !== undefined
    ? tiers.find((t) => t.throughputCapacityMBps === options.throughputCapacityMBps) as FsxOpenZfsTier
    : smallestTierSustaining(type, targetMBps, ioSizeKiB, storageGiB, options.provisionedIops);
  const atSize = ioSizeKiB === DEFAULT_IO_SIZE_KIB ? '' : ` in random ${ioSizeKiB} KiB requests on ${storageGiB} GiB`;
  if (tier === undefined) {
    const best = atSize === '' ? Math.min(...Object.values(tierSustained(largest)))
      : sustainedOf(atIoSize(openZfsPlanAt(type, largest, storageGiB, options.provisionedIops), ioSizeKiB));
    throw new Error(`throughputMBps ${targetMBps} is more than FSx for OpenZFS ${type} sustains${atSize}: its largest ` +
      `throughput capacity, ${largest.throughputCapacityMBps} MB/s, sustains ${best} MB/s` +
      (type === 'SINGLE_AZ_1' ? '; SINGLE_AZ_2 goes to 10240 MB/s (fsxOpenZfs.deploymentType; its us-east-1 rates unsourced)' : ''));
  }
  const sustained = Math.min(...Object.values(tierSustained(tier)));
  if (sustained < targetMBps) {
    throw new Error(`fsxOpenZfs.throughputCapacityMBps ${tier.throughputCapacityMBps} sustains ${sustained} MB/s, less than the ` +
      `throughputMBps ${targetMBps} asked; ${type} offers ${tiers.map((t) => t.throughputCapacityMBps).join(', ')}`);
  }
  const plan = openZfsPlanAt(type, tier, storageGiB, options.provisionedIops);
  const atSizeMBps = sustainedOf(atIoSize(plan, ioSizeKiB));
  if (atSizeMBps < targetMBps) {
    throw new Error(`fsxOpenZfs.throughputCapacityMBps ${tier.throughputCapacityMBps} with ${plan.fsxOpenZfs?.userProvisionedIops ?? 'automatic'} ` +
      `SSD IOPS sustains ${atSizeMBps} MB/s in random ${ioSizeKiB} KiB requests (ioSizeKiB), less than the throughputMBps ` +
      `${targetMBps} asked; ${type} offers ${tiers.map((t) => t.throughputCapacityMBps).join(', ')} (fsxOpenZfs.provisionedIops raises the SSD IOPS)`);
  }
  const chosen = options.throughputCapacityMBps !== undefined ? 'as asked' : targetMBps > 0 ? `the smallest that sustains ${targetMBps} MB/s` : 'the smallest';
  return { ...plan, reason: `backend fsx-openzfs, ${type} at ${tier.throughputCapacityMBps} MB/s (${chosen}); ${fsxOpenZfsPriceSource(type)}` };
}

/**
 * The SSD IOPS of a plan, undefined for AUTOMATIC. It is `asked` within AWS's range, with 0 for AUTOMATIC. Else it is
 * the tier's disk IOPS, which AWS says to provision to drive the server-disk connection, within 50 per GiB, the least
 * any Region allows: FSX_OPENZFS_MAX_IOPS_PER_GIB. Throws naming fsxOpenZfs.provisionedIops and the range for this
 * storage and type.
 */
export function openZfsProvisionedIops(deploymentType: FsxOpenZfsDeploymentType, tier: FsxOpenZfsTier, storageGiB: number, asked?: number): number | undefined {
  const automaticIops = FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB * storageGiB;
  if (asked === 0) return undefined;
  if (asked !== undefined) {
    const tiers = FSX_OPENZFS_TIERS[deploymentType];
    // OPENZFS-IOPS: from the automatic 3 per GiB up to 50 per GiB, and no more than the type's largest tier drives.
    const most = Math.min(FSX_OPENZFS_MAX_IOPS_PER_GIB * storageGiB, tiers[tiers.length - 1].diskIops);
    if (asked < automaticIops || asked > most) {
      throw new Error(`fsxOpenZfs.provisionedIops (-c openZfsProvisionedIops) must be 0 (AUTOMATIC) or from ${automaticIops} ` +
        `(3 per GiB of ${storageGiB} GiB) to ${most} (50 per GiB, at most ${tiers[tiers.length - 1].diskIops} on ${deploymentType}); got ${asked}`);
    }
    return asked;
  }
  const iops = Math.min(tier.diskIops, FSX_OPENZFS_MAX_IOPS_PER_GIB * storageGiB);
  return iops > automaticIops ? iops : undefined;
}

/** The plan of one tier on `storageGiB` of SSD: its estimate and its cost, without a reason. */
export function openZfsPlanAt(deploymentType: FsxOpenZfsDeploymentType, tier: FsxOpenZfsTier, storageGiB: number, askedIops?: number): StoragePlan {
  const automaticIops = FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB * storageGiB;
  const userProvisionedIops = openZfsProvisionedIops(deploymentType, tier, storageGiB, askedIops);
  const iops = userProvisionedIops ?? automaticIops;
  const { readMBps, writeMBps } = tierSustained(tier);
  const burstRead = Math.min(tier.diskBurstMBps, tier.networkBurstMBps);
  const burstWrite = Math.min(tier.diskWriteMBps ?? tier.diskBurstMBps, tier.networkBurstMBps);
  const iopsShort = askedIops !== undefined ? (iops < tier.diskIops ? `; SSD IOPS ${iops} as asked, of the tier's ${tier.diskIops}` : '')
    : iops < tier.diskIops ? `; SSD IOPS held to ${FSX_OPENZFS_MAX_IOPS_PER_GIB} per GiB, the least any Region allows (${iops} of the tier's ${tier.diskIops})` : '';
  return {
    backend: Backend.FSX_OPENZFS,
    instanceType: `${deploymentType}/${tier.throughputCapacityMBps}`,
    dataVolumes: [],
    instanceStoreDisks: 0,
    rawCapacityTiB: storageGiB / 1024,
    fsxOpenZfs: {
      deploymentType, throughputCapacityMBps: tier.throughputCapacityMBps, storageCapacityGiB: storageGiB,
      ...(userProvisionedIops === undefined ? {} : { userProvisionedIops }),
    },
    // FSx publishes no credit sizes. So the 1 TB workload is estimated at the baseline, what the file system sustains
    // once every credit is spent, for data read from disk; cached reads reach the network baseline.
    throughput: {
      readMBps, writeMBps, baselineReadMBps: readMBps, baselineWriteMBps: writeMBps, burstReadMBps: burstRead, burstWriteMBps: burstWrite,
      limitedBy: `${bindingLimit(deploymentType, tier)}${iopsShort}; burst credits (size unpublished) not counted`,
      // Data in the file server's memory, its ARC, is read at the network rate; said only where that is faster.
      ...(tier.networkBaselineMBps > readMBps ? {
        cachedRead: {
          readMBps: tier.networkBaselineMBps, burstReadMBps: tier.networkBurstMBps, cacheGiB: round2(tier.memoryGB * 1e9 / 2 ** 30),
          limitedBy: `network of FSx for OpenZFS ${deploymentType} at ${tier.throughputCapacityMBps} MB/s (${tier.networkBaselineMBps} ` +
            `MB/s baseline, ${tier.networkBurstMBps} burst) for data in the file server's memory (${tier.memoryGB} GB)`,
        },
      } : {}),
    },
    monthlyCostUsd: fsxOpenZfsMonthlyCost(storageGiB, tier.throughputCapacityMBps, Math.max(0, iops - automaticIops)),
    reason: '',
  };
}

/** Which published limit binds the sustained figure, in words. */
function bindingLimit(type: FsxOpenZfsDeploymentType, tier: FsxOpenZfsTier): string {
  const t = tier.throughputCapacityMBps;
  const disk = tier.diskBaselineMBps <= tier.networkBaselineMBps
    ? `disk throughput baseline of FSx for OpenZFS ${type} at ${t} MB/s throughput capacity (${tier.diskBaselineMBps} MB/s)`
    : `network baseline of FSx for OpenZFS ${type} at ${t} MB/s throughput capacity (${tier.networkBaselineMBps} MB/s)`;
  return tier.diskWriteMBps === undefined ? disk : `${disk}, writes held to ${tier.diskWriteMBps} MB/s (AWS's Multi-AZ note)`;
}

/**
 * Monthly cost, USD: SSD storage, throughput capacity and SSD IOPS above the included, at SINGLE_AZ_1's us-east-1
 * rates. Those are the only rates sourced, and other types say so in their reason. Backups, $0.05 per GB-month, are not
 * included.
 */
export function fsxOpenZfsMonthlyCost(storageGiB: number, throughputCapacityMBps: number, extraIops: number): number {
  const p = FSX_OPENZFS_SINGLE_AZ_1_PRICES;
  return round2(storageGiB * p.ssdUsdPerGbMonth + throughputCapacityMBps * p.throughputUsdPerMBpsMonth + extraIops * p.iopsUsdPerIopsMonth);
}

/**
 * The IOPS limits of an FSx for OpenZFS plan: the SSD IOPS provisioned, and its tier's disk IOPS, from catalog.ts
 * [PERF].
 */
export function openZfsIops(plan: StoragePlan): PlanIops {
  const fs = plan.fsxOpenZfs as NonNullable<StoragePlan['fsxOpenZfs']>;
  const tier = FSX_OPENZFS_TIERS[fs.deploymentType].find((t) => t.throughputCapacityMBps === fs.throughputCapacityMBps);
  const ssd = fs.userProvisionedIops ?? fs.storageCapacityGiB * FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB;
  const ssdLimit: IopsLimit = { iops: ssd, label: `SSD IOPS provisioned (${ssd.toLocaleString('en-US')})` };
  if (tier === undefined) return { baseline: [ssdLimit], burst: [ssdLimit] };
  const disk = (iops: number, what: string): IopsLimit => ({ iops, label: `${what} disk IOPS of the ${fs.throughputCapacityMBps} MB/s tier (${iops.toLocaleString('en-US')})` });
  return {
    baseline: [ssdLimit, disk(tier.diskIops, 'baseline')],
    burst: [ssdLimit, disk(tier.diskBurstIops, tier.diskBurstIops > tier.diskIops ? 'burst' : 'baseline')],
  };
}

/** An FSx for OpenZFS plan at a request size, bounded by its own IOPS. */
function atIoSize(plan: StoragePlan, ioSizeKiB: number): StoragePlan {
  return boundAtIoSize(plan, ioSizeKiB, openZfsIops);
}
