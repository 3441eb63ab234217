/**
 * The EBS plan: st1 volumes of at most 16 TiB, striped, on the instance type the capacity rule gives them. That type is
 * the original template's m4 tier, the m4 whose EBS bandwidth carries their burst, or the cheapest Nitro type whose
 * baselines carry theirs. Here too are the st1 stripes a throughput search weighs, and a plan moved to another EBS
 * type.
 */
import { DEFAULT_IO_SIZE_KIB, IO_SIZE_CLAUSES, boundAtIoSize, ebsPlanIops } from './io-size';
import { EBS_INSTANCE_TYPES, EBS_SINGLE_VOLUME_TIERS, MAX_EBS_CAPACITY_TIB, MB_BYTES, ST1 } from './catalog';
import { maxDataVolumesOf } from './catalog-ebs-attachments';
import { OVERRIDE_EBS_INSTANCE_TYPES, instanceTypeSpec } from './catalog-lookup';
import type { InstanceTypeSpec } from './catalog-types';
import { counted } from './client-ceiling';
import { Backend } from '../backend-enum';
import { DataVolumeType } from './enums';
import { monthlyCost } from './cost';
import type { Families } from './families';
import type { DataVolumePlan, StoragePlan } from './plan-types';
import { SUSTAINS_ASKED, sustainedOf } from './limit';
import { st1Volume } from './st1-model';
import { estimateThroughput } from './throughput';

/** The most one st1 volume holds, TiB: 16. */
export const MAX_SINGLE_VOLUME_TIB = ST1.maxSizeGiB / 1024;
/** The most st1 volumes the capacity rule and the st1 search stripe: 48 TiB in 16 TiB volumes. */
export const CAPACITY_STRIPE_VOLUMES = MAX_EBS_CAPACITY_TIB / MAX_SINGLE_VOLUME_TIB;
/**
 * The most data volumes any catalogued EBS type takes, 21, so that `dataVolumeCount` has one range whatever the type:
 * see catalog-ebs-attachments.ts.
 */
export const MAX_DATA_VOLUMES = Math.min(...OVERRIDE_EBS_INSTANCE_TYPES.map((t) => maxDataVolumesOf(t.name)));

/**
 * The capacity rule's EBS plan: the st1 volumes that hold `capacityTiB`, `fixedCount` of them if given, on their type.
 */
export function planEbs(capacityTiB: number, families: Families, fixedCount?: number): Omit<StoragePlan, 'reason'> {
  const volumes = st1VolumesFor(capacityTiB, fixedCount);
  return ebsPlan(capacityRuleType(capacityTiB, families, volumes), volumes);
}

/** The st1 volumes that hold `capacityTiB`, all of one size: as few as hold it, or `fixedCount`. */
function st1VolumesFor(capacityTiB: number, fixedCount?: number): DataVolumePlan[] {
  // Multiplying by a power of two is exact in floating point, so the ceiling never rounds a request down.
  const requiredGiB = Math.max(ST1.minSizeGiB, Math.ceil(capacityTiB * 1024));
  const count = fixedCount ?? Math.ceil(requiredGiB / ST1.maxSizeGiB);
  // Equal sizes: an LVM stripe uses the same extent count on every volume, so extra size would be wasted.
  return st1Volumes(count, Math.max(ST1.minSizeGiB, Math.ceil(requiredGiB / count)));
}

/**
 * The capacity rule's type for the st1 `volumes`. In generation current it is the Nitro type whose baselines carry
 * their baseline. In previous it is the original template's tier for one volume, else the m4 whose EBS bandwidth
 * carries their burst.
 */
function capacityRuleType(capacityTiB: number, families: Families, volumes: DataVolumePlan[]): InstanceTypeSpec {
  const count = volumes.length;
  const st1 = st1Volume(volumes[0].sizeGiB);
  return families.generation === 'current'
    ? sustainingNitro(families.ebs, count * st1.baselineMBps)
    : count === 1 ? singleVolumeTier(capacityTiB) : matchingEbsBandwidth(count * st1.burstMBps);
}

/** `count` st1 volumes of `sizeGiB` each. */
function st1Volumes(count: number, sizeGiB: number): DataVolumePlan[] {
  return Array.from({ length: count }, () => ({ volumeType: DataVolumeType.ST1, sizeGiB }));
}

/**
 * The st1 stripes a throughput search weighs: 1 to 3 volumes. Each is its share of the capacity or, where that is
 * larger, the smallest size whose baseline carries its share of `targetMBps`. st1's baseline grows with size, 40 MiB/s
 * per TiB, so a larger volume sustains more.
 */
export function st1Stripes(capacityTiB: number, targetMBps: number): DataVolumePlan[][] {
  const stripes: DataVolumePlan[][] = [];
  for (let count = 1; count <= CAPACITY_STRIPE_VOLUMES; count++) {
    const shareGiB = Math.max(ST1.minSizeGiB, Math.ceil((capacityTiB * 1024) / count));
    if (shareGiB > ST1.maxSizeGiB) continue;
    const targetGiB = Math.ceil((((targetMBps / count) * MB_BYTES) / 1024 ** 2 / ST1.baselineMiBpsPerTiB) * 1024);
    stripes.push(st1Volumes(count, Math.min(ST1.maxSizeGiB, Math.max(shareGiB, targetGiB))));
  }
  return stripes;
}

/**
 * What `spec` carries to the clients once its bursts are spent, MB/s: the lesser of its EBS and network baselines,
 * the EBS one card's where it has several (catalog-types.ts, `ebsCardMbps`).
 */
export function carriedMBps(spec: InstanceTypeSpec): number {
  const ebsMbps = Math.min(spec.ebsBandwidthMbps ?? 0, spec.ebsCardMbps ?? Infinity);
  return Math.min(ebsMbps / 8, (spec.networkBaselineGbps * 1e9) / 8 / MB_BYTES);
}

/** The striped `dataVolumes` on the EBS type `spec`: their estimate and cost. */
export function ebsPlan(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): Omit<StoragePlan, 'reason'> {
  return {
    backend: Backend.EBS,
    instanceType: spec.name,
    dataVolumes,
    instanceStoreDisks: 0,
    rawCapacityTiB: dataVolumes.reduce((sum, v) => sum + v.sizeGiB, 0) / 1024,
    throughput: estimateThroughput(spec.name, dataVolumes),
    monthlyCostUsd: monthlyCost(spec, dataVolumes),
  };
}

/** The original template's tier for one volume (`auto` keeps them: docs/design.md, section 3). */
function singleVolumeTier(capacityTiB: number): InstanceTypeSpec {
  const tier = EBS_SINGLE_VOLUME_TIERS.find((t) => capacityTiB <= t.maxCapacityTiB);
  if (!tier) throw new Error(`capacityTiB ${capacityTiB} is over the largest single-volume tier`);
  return instanceTypeSpec(tier.instanceType);
}

/**
 * Generation current: the cheapest type whose EBS baseline and network baseline carry the volumes' st1 baseline, so
 * that what the disks sustain reaches the clients. Their burst rides on the type's EBS burst while it lasts.
 */
function sustainingNitro(types: readonly InstanceTypeSpec[], volumesBaselineMBps: number): InstanceTypeSpec {
  const carrying = types.filter((t) => carriedMBps(t) >= volumesBaselineMBps);
  // The cheapest that carries it, m6i before m7i at the same limits; when none does, the one that carries most.
  const pool = carrying.length > 0 ? carrying : types.filter((t) => carriedMBps(t) === Math.max(...types.map(carriedMBps)));
  return pool.reduce((best, t) => (t.onDemandUsdPerHour < best.onDemandUsdPerHour ? t : best));
}

/** The smallest m4 whose EBS bandwidth carries the volumes' burst throughput, else the largest m4. */
function matchingEbsBandwidth(volumesMBps: number): InstanceTypeSpec {
  return (
    EBS_INSTANCE_TYPES.find((t) => (t.ebsBandwidthMbps ?? 0) / 8 >= volumesMBps) ??
    EBS_INSTANCE_TYPES[EBS_INSTANCE_TYPES.length - 1]
  );
}

/**
 * A plan on another EBS instance type than the planner chose, by the `instanceType` override: the same volumes, that
 * type's estimate and cost, and with `throughputMBps`, the throughput asked, whether that type sustains it. Throws
 * naming the catalogued types when `instanceType` is not one the planner knows.
 */
export function withInstanceType(plan: StoragePlan, instanceType: string, throughputMBps?: number): StoragePlan {
  if (plan.backend !== 'ebs') throw new Error(`withInstanceType applies to EBS plans only; got backend '${plan.backend}'`);
  if (instanceType === plan.instanceType) return plan;
  const spec = instanceTypeSpec(instanceType);
  if (spec.instanceStore) throw new Error(`instanceType ${instanceType} has instance-store disks; an EBS plan needs an EBS type`);
  const replanned = ebsPlan(spec, plan.dataVolumes);
  // What the request size did, and whether the throughput asked is sustained, said again for this type.
  const reason = `${plan.reason.replace(IO_SIZE_CLAUSES, '').replace(SUSTAINS_ASKED, '')}; instanceType ${instanceType} as asked (the planner chose ${plan.instanceType})`;
  const bounded = boundAtIoSize({ ...replanned, reason }, plan.throughput.ioSizeKiB ?? DEFAULT_IO_SIZE_KIB, ebsPlanIops);
  const said = throughputMBps === undefined ? bounded : { ...bounded, reason: `${bounded.reason}; ${sustainsOn(bounded, throughputMBps)}` };
  return { ...said, perClient: plan.perClient && counted(plan.perClient, bounded) };
}

/** Whether the overridden type sustains the throughput asked, in words: the planner's choice did, this one may not. */
function sustainsOn(plan: StoragePlan, throughputMBps: number): string {
  const sustained = sustainedOf(plan);
  return sustained >= throughputMBps
    ? `${plan.instanceType} sustains the ${throughputMBps} MB/s asked for`
    : `${plan.instanceType} sustains ${sustained} MB/s, less than the ${throughputMBps} MB/s asked for`;
}
