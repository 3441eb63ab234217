/**
 * The st1 model: one volume's burst, baseline and credit bucket, and what a stripe of them moves over the 1 TB workload
 * the estimate describes, as the credits drain and, on a Nitro type, the EBS burst runs out. A gp3 volume is expressed
 * in its terms: burst = baseline, no credit.
 */
import { GIB_BYTES, MB_BYTES, ST1, TIB_BYTES } from './catalog';
import { EBS_BURST_SECONDS } from './catalog-nitro';
import { GP3, MB_PER_MIB } from './catalog-gp3';
import { Limit, binding } from './limit';
import type { DataVolumePlan } from './plan-types';
import { round2 } from './round';

/**
 * The workload the estimate describes: 8 or more clients moving about 1 TB in total with 1 MiB I/O, starting with full
 * st1 burst credits (docs/design.md, section 3). With 8+ clients no single TCP flow limit binds.
 */
const ESTIMATE_TRANSFER_BYTES = 1e12;

/** One st1 volume's published limits, in MB/s and bytes. */
export interface St1Volume {
  readonly burstMBps: number;
  readonly baselineMBps: number;
  readonly bucketBytes: number;
}

/**
 * One st1 volume of `sizeGiB`: its burst and baseline, MB/s, each per TiB of size up to the volume cap, and its credit
 * bucket.
 */
export function st1Volume(sizeGiB: number): St1Volume {
  const tib = sizeGiB / 1024;
  const mibps = (perTiB: number) => (Math.min(perTiB * tib, ST1.maxMiBpsPerVolume) * 1024 ** 2) / MB_BYTES;
  return {
    burstMBps: mibps(ST1.burstMiBpsPerTiB),
    baselineMBps: mibps(ST1.baselineMiBpsPerTiB),
    bucketBytes: ST1.bucketTiBPerTiB * tib * TIB_BYTES,
  };
}

/** A gp3 volume in the terms of the st1 model: burst = baseline = its provisioned throughput, no credit. */
export function gp3Limits(volume: DataVolumePlan): St1Volume {
  const mbps = (volume.throughputMiBps ?? GP3.minMiBps) * MB_PER_MIB;
  return { burstMBps: mbps, baselineMBps: mbps, bucketBytes: 0 };
}

/**
 * Average throughput over the whole transfer when the stripe runs at `steady`. Each volume carries an
 * equal share; above its baseline it drains credits at (rate - baseline), and once the bucket is empty
 * it falls back to its baseline for the rest of its share.
 */
export function afterBurstCredits(steady: Limit, st1: St1Volume, count: number): Limit {
  const perVolumeMBps = steady.mbps / count;
  const shareBytes = ESTIMATE_TRANSFER_BYTES / count;
  if (perVolumeMBps <= st1.baselineMBps) return steady;
  const burstSeconds = st1.bucketBytes / ((perVolumeMBps - st1.baselineMBps) * MB_BYTES);
  const burstBytes = perVolumeMBps * MB_BYTES * burstSeconds;
  if (burstBytes >= shareBytes) return steady;
  const seconds = burstSeconds + (shareBytes - burstBytes) / (st1.baselineMBps * MB_BYTES);
  return {
    mbps: ESTIMATE_TRANSFER_BYTES / seconds / MB_BYTES,
    label:
      `st1 burst credits of ${count} x ${st1.bucketBytes / GIB_BYTES} GiB (empty after ` +
      `${Math.round((count * burstBytes) / 1e9)} GB, then st1 baseline ${round2(count * st1.baselineMBps)} MB/s)`,
  };
}

/** The limits of an st1 stripe on a Nitro type whose EBS bandwidth bursts. */
export interface BurstingLimits {
  readonly st1Burst: Limit;
  readonly st1Baseline: Limit;
  readonly st1: St1Volume;
  readonly count: number;
  readonly ebs: Limit;
  readonly ebsBurst: Limit;
  readonly network: Limit;
}

/**
 * Average throughput over the 1 TB transfer on a Nitro type, phase by phase. Each phase runs at the lesser of three:
 * the stripe, at st1 burst while each volume's bucket holds credit and then at its baseline; the EBS bandwidth, at its
 * burst for the first 30 minutes and then at its baseline; and the network baseline. The label names each phase's
 * binding limit.
 */
export function transferWithBursts(l: BurstingLimits): Limit {
  let seconds = 0;
  let moved = 0;
  let credit = l.st1.bucketBytes; // per volume
  const phases: { label: string; bytes: number }[] = [];
  for (let step = 0; step < 8 && moved < ESTIMATE_TRANSFER_BYTES; step++) {
    const ebsBursting = seconds < EBS_BURST_SECONDS;
    const now = binding([credit > 0 ? l.st1Burst : l.st1Baseline, ebsBursting ? l.ebsBurst : l.ebs, l.network]);
    const rate = now.mbps * MB_BYTES;
    const drain = Math.max(0, rate / l.count - l.st1.baselineMBps * MB_BYTES);
    const until = Math.min(
      drain > 0 && credit > 0 ? credit / drain : Infinity,
      ebsBursting ? EBS_BURST_SECONDS - seconds : Infinity,
      (ESTIMATE_TRANSFER_BYTES - moved) / rate,
    );
    moved += rate * until;
    credit = Math.max(0, credit - drain * until);
    seconds += until;
    const last = phases[phases.length - 1];
    if (last?.label === now.label) last.bytes += rate * until;
    else phases.push({ label: now.label, bytes: rate * until });
  }
  return {
    mbps: ESTIMATE_TRANSFER_BYTES / seconds / MB_BYTES,
    label: phases.length === 1
      ? phases[0].label
      : phases.map((p, i) => (i < phases.length - 1 ? `${p.label} for ${Math.round(p.bytes / 1e9)} GB` : `then ${p.label}`)).join(', '),
  };
}
