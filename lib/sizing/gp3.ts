/**
 * gp3 in the planner's throughput search: the gp3 stripes it weighs and the words that explain a gp3 choice. The
 * figures are in catalog-gp3.ts; the estimate and the price of a gp3 volume are with st1's, in st1-model.ts and cost.ts.
 */
import { MAX_EBS_CAPACITY_TIB, ST1 } from './catalog';
import { maxDataVolumesOf } from './catalog-ebs-attachments';
import { GP3, MB_PER_MIB, gp3VolumeFor } from './catalog-gp3';
import type { InstanceTypeSpec } from './catalog-types';
import { carriedMBps } from './plan-ebs';
import type { DataVolumePlan, StoragePlan } from './plan-types';
import { round2 } from './round';

/**
 * The most volumes a stripe has where three carry the throughput: as many as st1 needs for 48 TiB, so a gp3 stripe
 * can later be grown like one. `wideGp3Stripe` goes past it only for a throughput three cannot carry.
 */
const GP3_STRIPE_MAX_VOLUMES = 3;

/**
 * The gp3 stripes a throughput search weighs: 1 to 3 volumes, each its share of the capacity, at most 64 TiB, within
 * the 48 TiB one server should hold. Each is provisioned with its share of `targetMBps` and the IOPS that share needs
 * at random requests of `ioSizeKiB`, by catalog-gp3.ts.
 */
export function gp3Stripes(capacityTiB: number, targetMBps: number, ioSizeKiB?: number): DataVolumePlan[][] {
  const stripes: DataVolumePlan[][] = [];
  if (capacityTiB > MAX_EBS_CAPACITY_TIB) return stripes;
  for (let count = 1; count <= GP3_STRIPE_MAX_VOLUMES; count++) {
    const shareGiB = Math.ceil((capacityTiB * 1024) / count);
    if (shareGiB > GP3.maxSizeGiB) continue;
    const volume = gp3VolumeFor(shareGiB, targetMBps / count, ioSizeKiB);
    stripes.push(Array.from({ length: count }, () => volume));
  }
  return stripes;
}

/** The most one gp3 volume provisions, MB/s: 2,000 MiB/s. */
const GP3_MAX_MBPS = GP3.maxMiBps * MB_PER_MIB;

/**
 * The wider gp3 stripe for `spec` when a throughput needs more than three volumes: the fewest gp3 volumes at their most
 * that carry the lesser of `targetMBps` and what `spec` carries, at most the data volumes `spec` takes. Undefined when
 * three do, or `spec` carries no more than three. st1 is never widened: past three gp3 volumes, 6,291 MB/s, st1 would
 * need 13 volumes of 12.5 TiB at 500 MiB/s each, which cost more than gp3 at any capacity one server holds.
 */
export function wideGp3Stripe(capacityTiB: number, targetMBps: number, spec: InstanceTypeSpec, ioSizeKiB?: number): DataVolumePlan[] | undefined {
  if (capacityTiB > MAX_EBS_CAPACITY_TIB) return undefined;
  const count = Math.min(maxDataVolumesOf(spec.name), Math.ceil(Math.min(targetMBps, carriedMBps(spec)) / GP3_MAX_MBPS - 1e-9));
  if (count <= GP3_STRIPE_MAX_VOLUMES) return undefined;
  const volume = gp3VolumeFor(Math.ceil((capacityTiB * 1024) / count), targetMBps / count, ioSizeKiB);
  return Array.from({ length: count }, () => volume);
}

/** For a gp3 plan: what it provisions and what st1 would have needed for the same sustained throughput. */
export function whyGp3(plan: Pick<StoragePlan, 'dataVolumes'>, targetMBps: number): string {
  const v = plan.dataVolumes[0];
  if (v?.volumeType !== 'gp3') return '';
  const mibps = targetMBps / MB_PER_MIB;
  const st1TiB = mibps / ST1.baselineMiBpsPerTiB;
  const st1 = mibps > GP3_STRIPE_MAX_VOLUMES * ST1.maxMiBpsPerVolume
    ? `st1's baseline cannot sustain it (at most ${GP3_STRIPE_MAX_VOLUMES} x ${ST1.maxMiBpsPerVolume} MiB/s)`
    : `st1 would need ${round2(st1TiB)} TiB for its baseline (${ST1.baselineMiBpsPerTiB} MiB/s per TiB) to sustain it`;
  return `; gp3, ${plan.dataVolumes.length} x ${v.throughputMiBps} MiB/s provisioned (no burst credits): ${st1}`;
}
