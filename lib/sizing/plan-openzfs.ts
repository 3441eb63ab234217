/**
 * The FSx for OpenZFS plan: the file system of the options asked for that holds the capacity and sustains the
 * throughput. FOUNDATION (issue 30): the throughput estimate and the cost are the planner's part and replace the
 * placeholders below.
 */
import { describe } from './describe';
import {
  FSX_OPENZFS_MAX_STORAGE_GIB, FSX_OPENZFS_MIN_STORAGE_GIB, FSX_OPENZFS_THROUGHPUT_CAPACITIES, type FsxOpenZfsOptions, resolveFsxOpenZfsOptions,
} from './fsx-openzfs';
import type { StoragePlan } from './plan-types';

/** The file system of `options` that holds `capacityTiB` and whose throughput capacity is at least `targetMBps`. */
export function fsxOpenZfsPlan(asked: FsxOpenZfsOptions | undefined, capacityTiB: number, targetMBps = 0): StoragePlan {
  const options = resolveFsxOpenZfsOptions(asked);
  const storageCapacityGiB = Math.max(FSX_OPENZFS_MIN_STORAGE_GIB, Math.ceil(capacityTiB * 1024));
  if (storageCapacityGiB > FSX_OPENZFS_MAX_STORAGE_GIB) {
    throw new Error(`capacityTiB ${describe(capacityTiB)} is more than an FSx for OpenZFS file system holds (${FSX_OPENZFS_MAX_STORAGE_GIB} GiB)`);
  }
  const tiers = FSX_OPENZFS_THROUGHPUT_CAPACITIES[options.deploymentType];
  const throughputCapacityMBps = options.throughputCapacityMBps ?? tiers.find((t) => t >= targetMBps) ?? tiers[tiers.length - 1];
  return {
    backend: 'fsx-openzfs',
    instanceType: `${options.deploymentType}/${throughputCapacityMBps}`,
    dataVolumes: [],
    instanceStoreDisks: 0,
    rawCapacityTiB: storageCapacityGiB / 1024,
    fsxOpenZfs: { deploymentType: options.deploymentType, throughputCapacityMBps, storageCapacityGiB },
    throughput: {
      readMBps: throughputCapacityMBps,
      writeMBps: throughputCapacityMBps,
      baselineReadMBps: throughputCapacityMBps,
      baselineWriteMBps: throughputCapacityMBps,
      burstReadMBps: throughputCapacityMBps,
      burstWriteMBps: throughputCapacityMBps,
      limitedBy: 'FOUNDATION: the throughput capacity',
    },
    monthlyCostUsd: 0,
    reason: `backend fsx-openzfs, ${options.deploymentType} at ${throughputCapacityMBps} MB/s`,
  };
}
