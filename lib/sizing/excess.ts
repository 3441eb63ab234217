/**
 * How much more capacity a plan deploys than was asked for, and why, by each backend's own rule, its `excessReason` in
 * registry.ts. FSx for Lustre buys throughput with capacity and comes in capacity steps; a d2, d3 or d3en brings all of
 * its disks; st1 has a smallest size and grows its baseline with size. Pure functions, no CDK imports; the construct
 * turns the answer into a synth warning.
 */
import { instanceStoreTiB } from './catalog';
import { instanceTypeSpec, knownInstanceType } from './catalog-lookup';
import { planServerCore } from './plan';
import type { StoragePlan, StorageRequest } from './plan-types';
import { BACKEND_SIZING } from './registry';

/** Deployed capacity more than this fraction above the request is worth a warning. */
export const CAPACITY_EXCESS_THRESHOLD = 0.1;

/** A plan that deploys more than {@link CAPACITY_EXCESS_THRESHOLD} above the request. */
export interface CapacityExcess {
  /** The capacity asked for, TiB. */
  readonly requestedTiB: number;
  /** The capacity deployed, TiB: the data disks' or the file system's raw capacity. */
  readonly deployedTiB: number;
  /** How much more, in percent of the request, rounded down. */
  readonly percentMore: number;
  /** Why, in words. */
  readonly reason: string;
  /**
   * A `capacityTiB` that plans exactly the same storage: the deployed capacity, rounded down to 0.01 TiB. Asking for it
   * accepts the plan without a warning. Undefined when no such request gives the same storage.
   */
  readonly sameStorageCapacityTiB?: number;
}

/**
 * The excess of `plan` over `request` when it is more than 10 %, else undefined. `instanceType` is the instance type
 * deployed when it is not the plan's, since an instance-store override brings that type's disks.
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
    reason: BACKEND_SIZING[plan.backend].excessReason({ request, plan, instanceType: deployedType?.name ?? plan.instanceType, replan: planServerCore }),
    sameStorageCapacityTiB: sameStorage(request, plan, accept, deployedType?.name) ? accept : undefined,
  };
}

/** Whether asking for `capacityTiB` instead plans the same storage: the same backend, type, disks and file system. */
function sameStorage(request: StorageRequest, plan: StoragePlan, capacityTiB: number, instanceType?: string): boolean {
  let other: StoragePlan;
  try {
    other = planServerCore({ ...request, capacityTiB });
  } catch {
    return false;
  }
  return storageOf(other, other.instanceType) === storageOf(plan, instanceType ?? plan.instanceType);
}

/**
 * What a plan deploys, in one string: `instanceType` and every part of its storage, that is backend, volumes, disks and
 * file system. The fields left out are figures and words that follow from those.
 */
function storageOf(
  { instanceType: _type, rawCapacityTiB: _raw, throughput: _t, monthlyCostUsd: _usd, reason: _why, perClient: _client, ...storage }: StoragePlan,
  instanceType: string,
): string {
  return JSON.stringify([instanceType, storage]);
}
