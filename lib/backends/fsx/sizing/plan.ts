/**
 * The FSx for Lustre plan: the file system of given options that holds the capacity and sustains the throughput, its
 * estimate and cost, and the reasons such a plan gives. The search in lib/sizing/cheapest-plan.ts chooses among the
 * persistent options.
 */
import {
  ResolvedFsxLustreOptions, estimateFsxLustreThroughput, fsxLustreCapacityFor, fsxLustreKey, fsxLustreMonthlyCost, resolveFsxLustreOptions,
} from './lustre';
import { Backend } from '../../../backend-enum';
import type { StoragePlan } from '../../../sizing/plan-types';

/** Why a plan is the cheapest persistent FSx for Lustre option: the search's `why`. */
export const FSX_PERSISTENT_OPTIONS = 'backend fsx-lustre, persistent options';

/**
 * The file system of the default options, PERSISTENT_2 SSD 125, that holds `capacityTiB` when nothing more is asked.
 */
export function defaultFsxPlan(capacityTiB: number): StoragePlan {
  return { ...fsxPlan(resolveFsxLustreOptions(), capacityTiB), reason: 'backend fsx-lustre: PERSISTENT_2 SSD at 125 MB/s per TiB, the default' };
}

/** The file system of the options asked for that holds `capacityTiB` and sustains `targetMBps`, sized up if it must. */
export function fsxAsAsked(options: ResolvedFsxLustreOptions, capacityTiB: number, targetMBps: number | undefined): StoragePlan {
  const plan = fsxPlan(options, capacityTiB, targetMBps);
  const sized = plan.rawCapacityTiB > capacityTiB && targetMBps !== undefined && fsxPlan(options, capacityTiB).rawCapacityTiB < plan.rawCapacityTiB;
  return {
    ...plan,
    reason: `backend fsx-lustre, ${fsxLustreKey(options)} as asked` +
      (sized ? `, sized up to ${plan.fsxLustre?.storageCapacityGiB} GiB to sustain ${targetMBps} MB/s` : ''),
  };
}

/** The file system of `options` that holds `capacityTiB` and whose baseline sustains `targetMBps`. */
export function fsxPlan(options: ResolvedFsxLustreOptions, capacityTiB: number, targetMBps = 0): StoragePlan {
  const storageCapacityGiB = fsxLustreCapacityFor(capacityTiB, options, targetMBps);
  const t = estimateFsxLustreThroughput(options, storageCapacityGiB);
  return {
    backend: Backend.FSX_LUSTRE,
    instanceType: fsxLustreKey(options),
    dataVolumes: [],
    instanceStoreDisks: 0,
    rawCapacityTiB: storageCapacityGiB / 1024,
    fsxLustre: { ...options, storageCapacityGiB },
    // FSx publishes no burst credit sizes, so the 1 TB workload is estimated at the baseline, which is
    // what a file system sustains once its credits are spent.
    throughput: {
      readMBps: t.baselineReadMBps,
      writeMBps: t.baselineWriteMBps,
      baselineReadMBps: t.baselineReadMBps,
      baselineWriteMBps: t.baselineWriteMBps,
      burstReadMBps: t.burstReadMBps,
      burstWriteMBps: t.burstWriteMBps,
      limitedBy: `${t.limitedBy}; burst credits (size unpublished) not counted`,
      // Only where memory reads faster than the disk-bound figure: said beside it, never instead of it.
      ...(t.cachedRead.readMBps > t.baselineReadMBps ? { cachedRead: t.cachedRead } : {}),
    },
    monthlyCostUsd: fsxLustreMonthlyCost(options, storageCapacityGiB),
    reason: '',
  };
}
