/**
 * How much more capacity a plan deploys than was asked for, and why: FSx for Lustre buys throughput with capacity
 * and comes in capacity steps, a d2, d3 or d3en brings all of its disks, st1 has a smallest size and grows its baseline with
 * size. Pure functions, no CDK imports (the construct turns the answer into a synth warning).
 */
import { ST1, instanceStoreTiB } from './catalog';
import { instanceTypeSpec, knownInstanceType } from './catalog-lookup';
import { GP3 } from './catalog-gp3';
import { FSX_LUSTRE_PERFORMANCE, capacitySteps, fsxLustreCapacityGiB, fsxLustreKey } from './fsx-lustre';
import { FSX_OPENZFS_MIN_STORAGE_GIB } from './fsx-openzfs';
import { planServerCore } from './plan';
import type { StoragePlan, StorageRequest } from './plan-types';

/** Deployed capacity more than this fraction above the request is worth a warning. */
export const CAPACITY_EXCESS_THRESHOLD = 0.1;

/** A plan that deploys more than {@link CAPACITY_EXCESS_THRESHOLD} above the request. */
export interface CapacityExcess {
  /** The capacity asked for, TiB. */
  readonly requestedTiB: number;
  /** The capacity deployed, TiB (the data disks' or the file system's raw capacity). */
  readonly deployedTiB: number;
  /** How much more, in percent of the request, rounded down. */
  readonly percentMore: number;
  /** Why, in words. */
  readonly reason: string;
  /**
   * A `capacityTiB` (the deployed capacity, rounded down to 0.01 TiB) that plans exactly the same storage, so asking
   * for it accepts the plan without a warning; undefined when no such request gives the same storage.
   */
  readonly sameStorageCapacityTiB?: number;
}

/**
 * The excess of `plan` over `request` when it is more than 10 %, else undefined. `instanceType` is the instance
 * type deployed when it is not the plan's (an instance-store override brings that type's disks).
 */
export function capacityExcess(request: StorageRequest, plan: StoragePlan, instanceType?: string): CapacityExcess | undefined {
  const requestedTiB = request.capacityTiB;
  // An override the catalogue does not know is refused by the backend, with its own message; until then, the plan's.
  const deployedType = plan.backend === 'instance-store' && instanceType !== undefined && knownInstanceType(instanceType)
    ? instanceTypeSpec(instanceType)
    : undefined;
  const deployedTiB = deployedType ? instanceStoreTiB(deployedType) : plan.rawCapacityTiB;
  if (!(deployedTiB > requestedTiB * (1 + CAPACITY_EXCESS_THRESHOLD))) return undefined;
  const accept = Math.floor(deployedTiB * 100) / 100;
  return {
    requestedTiB,
    deployedTiB,
    // The epsilon keeps binary fractions from flooring an exact 25 % to 24.
    percentMore: Math.floor(((deployedTiB - requestedTiB) / requestedTiB) * 100 + 1e-9),
    reason: excessReason(request, plan, deployedType?.name ?? plan.instanceType),
    sameStorageCapacityTiB: sameStorage(request, plan, accept, deployedType?.name) ? accept : undefined,
  };
}

/** Why the plan holds more than asked: the rule of its backend that made it so. */
function excessReason(request: StorageRequest, plan: StoragePlan, instanceType: string): string {
  const asked = request.capacityTiB;
  const fsx = plan.fsxLustre;
  if (fsx) {
    const key = fsxLustreKey(fsx);
    const forCapacity = fsxLustreCapacityGiB(asked, fsx);
    if (fsx.storageCapacityGiB > forCapacity) {
      const perf = FSX_LUSTRE_PERFORMANCE[key];
      const perTiB = Math.min(perf.diskReadMBpsPerTiB, perf.diskWriteMBpsPerTiB, perf.networkBaselineMBpsPerTiB);
      return `FSx for Lustre ${key} sustains ${perTiB} MB/s per TiB of storage, so sustaining throughputMBps ` +
        `${request.throughputMBps} takes ${fsx.storageCapacityGiB} GiB; ${forCapacity} GiB would hold the capacity`;
    }
    const { first, step } = capacitySteps(fsx.storageType, fsx.perUnitStorageThroughput);
    const steps = [...first.map((g) => `${g} GiB`), `${first.length > 0 ? 'then ' : ''}multiples of ${step} GiB`].join(', ');
    return `FSx for Lustre ${fsx.deploymentType} ${fsx.storageType} comes in capacity steps (${steps}); the smallest ` +
      `that holds ${asked} TiB is ${fsx.storageCapacityGiB} GiB`;
  }
  const zfs = plan.fsxOpenZfs;
  if (zfs) {
    // The planner rounds up to whole GiB and to OpenZFS's smallest file system, nothing else.
    return zfs.storageCapacityGiB === FSX_OPENZFS_MIN_STORAGE_GIB
      ? `an FSx for OpenZFS file system is at least ${FSX_OPENZFS_MIN_STORAGE_GIB} GiB of SSD (CreateFileSystem, StorageCapacity)`
      : `FSx for OpenZFS storage is whole GiB, ${zfs.storageCapacityGiB} GiB`;
  }
  if (plan.backend === 'instance-store') {
    const store = instanceTypeSpec(instanceType).instanceStore;
    const disks = `${store?.disks} disks of ${(store?.diskBytes ?? 0) / 1e12} TB`;
    const family = instanceType.split('.')[0];
    if (instanceType !== plan.instanceType) return `instanceType ${instanceType} as asked: its ${disks} come with it`;
    // The capacity rule's choice for the request's generation: the smallest d2, or the cheapest d3 or d3en, that holds it.
    const byCapacity = planServerCore({ capacityTiB: asked, backend: 'instance-store', generation: request.generation });
    if (byCapacity.instanceType !== instanceType) {
      return `${instanceType} and its ${disks} were chosen for throughput (${plan.reason}); a ${family}'s disks come with it`;
    }
    const rule = family === 'd2' ? 'the smallest d2' : 'the cheapest d3 or d3en';
    return `a ${family} comes with all of its disks: ${instanceType}, with ${disks}, is ${rule} that holds ${asked} TiB`;
  }
  const count = plan.dataVolumes.length;
  const sizeGiB = plan.dataVolumes[0].sizeGiB;
  const iops = plan.dataVolumes[0].iops;
  if (plan.dataVolumes[0].volumeType === 'gp3') {
    return iops !== undefined && sizeGiB * GP3.maxIopsPerGiB === iops
      ? `gp3 allows at most ${GP3.maxIopsPerGiB} IOPS per GiB: ${count} x ${iops} IOPS (the fewest gp3 and their throughput allow) take ${count} x ${sizeGiB} GiB`
      : `gp3 volumes are whole GiB, ${count} x ${sizeGiB} GiB`;
  }
  const shareGiB = Math.max(ST1.minSizeGiB, Math.ceil(Math.ceil(asked * 1024) / count));
  if (sizeGiB > shareGiB) {
    return `st1's baseline grows with its size (${ST1.baselineMiBpsPerTiB} MiB/s per TiB): ${count} x ${sizeGiB} GiB sustain ` +
      `throughputMBps ${request.throughputMBps}, where ${count} x ${shareGiB} GiB would hold the capacity`;
  }
  return `an st1 volume is at least ${ST1.minSizeGiB} GiB`;
}

/** Whether asking for `capacityTiB` instead plans the same storage: the same backend, type, disks and file system. */
function sameStorage(request: StorageRequest, plan: StoragePlan, capacityTiB: number, instanceType?: string): boolean {
  let other: StoragePlan;
  try {
    other = planServerCore({ ...request, capacityTiB });
  } catch {
    return false;
  }
  const storage = (p: StoragePlan, type: string) => JSON.stringify([p.backend, type, p.dataVolumes, p.instanceStoreDisks, p.fsxLustre, p.fsxOpenZfs]);
  return storage(other, other.instanceType) === storage(plan, instanceType ?? plan.instanceType);
}
