/**
 * The instance-store plan: the cheapest d2, in generation previous, or d3 or d3en, in current, whose local disks hold
 * the capacity, with its estimate and its cost, and the note a plan on disks of unpublished throughput carries.
 */
import { INSTANCE_STORE_TYPES, instanceStoreTiB } from './catalog';
import { instanceTypeSpec } from './catalog-lookup';
import type { InstanceTypeSpec } from './catalog-types';
import { monthlyCost } from './cost';
import { Backend } from '../backend-enum';
import type { Families } from './families';
import type { StoragePlan } from './plan-types';
import { LOWER_BOUND, estimateThroughput } from './throughput';

/** The capacity rule's largest server, d2.8xlarge, and what it holds, TiB: beyond it, `auto` weighs every backend. */
export const LARGEST_INSTANCE_STORE = INSTANCE_STORE_TYPES[INSTANCE_STORE_TYPES.length - 1];
export const MAX_INSTANCE_STORE_TIB = instanceStoreTiB(LARGEST_INSTANCE_STORE);

/**
 * The cheapest instance-store type of the generation that holds the capacity. On d2 it is the smallest that does. On d3
 * and d3en it is d3.xlarge up to its 5.4 TiB, then the d3en that holds it, d3en being the cheaper per TiB at every
 * size.
 */
export function planInstanceStore(capacityTiB: number, families: Families): Omit<StoragePlan, 'reason'> {
  // validateCapacity guarantees the largest type fits.
  const holding = families.instanceStore.filter((t) => instanceStoreTiB(t) >= capacityTiB);
  const cheapest = holding.reduce<InstanceTypeSpec | undefined>(
    (best, t) => (best === undefined || t.onDemandUsdPerHour < best.onDemandUsdPerHour ? t : best), undefined);
  return instanceStorePlan(cheapest ?? largestInstanceStore(families));
}

/** The instance-store type of the generation with the most raw capacity. */
export function largestInstanceStore(families: Families): InstanceTypeSpec {
  return families.instanceStore.reduce((a, b) => (instanceStoreTiB(b) > instanceStoreTiB(a) ? b : a));
}

/** The note a plan on disks of unpublished throughput carries in its reason; '' for any other plan. */
export function lowerBound(plan: Omit<StoragePlan, 'reason'>): string {
  if (plan.backend !== 'instance-store' || instanceTypeSpec(plan.instanceType).instanceStore?.throughputBound !== 'lower') return '';
  return `; its throughput is a ${LOWER_BOUND} (npm run bench:cluster measures the real figure)`;
}

/** A plan on the instance-store type `spec`: its disks, estimate and cost. */
export function instanceStorePlan(spec: InstanceTypeSpec): Omit<StoragePlan, 'reason'> {
  return {
    backend: Backend.INSTANCE_STORE,
    instanceType: spec.name,
    dataVolumes: [],
    instanceStoreDisks: spec.instanceStore?.disks ?? 0,
    rawCapacityTiB: instanceStoreTiB(spec),
    throughput: estimateThroughput(spec.name),
    monthlyCostUsd: monthlyCost(spec, []),
  };
}
