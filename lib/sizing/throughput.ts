/**
 * The throughput estimate of a server, from published limits only (docs/design.md, section 3): the data disks, which
 * are st1, gp3 or instance-store HDDs, the instance's EBS bandwidth and its network, each with its burst where it has
 * one. The st1 credit model is in st1-model.ts.
 */
import { MB_BYTES } from './catalog';
import { instanceTypeSpec } from './catalog-lookup';
import type { InstanceStoreSpec, InstanceTypeSpec } from './catalog-types';
import { Limit, binding } from './limit';
import type { DataVolumePlan, ThroughputEstimate } from './plan-types';
import { floor2, round2 } from './round';
import { BurstingLimits, afterBurstCredits, gp3Limits, st1Volume, transferWithBursts } from './st1-model';
import { validateVolumes } from './validate-volumes';

/** What an estimate on disks of unpublished throughput, d3 and d3en, says of itself in `limitedBy` and `reason`. */
export const LOWER_BOUND = 'lower bound: per-disk throughput unpublished';

/**
 * Estimates the aggregate sequential throughput of a server from published limits only. They are the data disks, the
 * instance's EBS bandwidth and its network baseline. The disks are st1 with its baseline, burst and credits; gp3 with
 * its provisioned throughput, which does not burst; or instance-store HDDs. Pass the st1 or gp3 volumes for an
 * EBS-backed type, and none for an instance-store type, whose local disks are used. A d3 or d3en's disks have no
 * published figure: each counts at d2's, a lower bound, and `limitedBy` ends with "lower bound: per-disk throughput
 * unpublished".
 */
export function estimateThroughput(
  instanceType: string,
  dataVolumes: DataVolumePlan[] = [],
): ThroughputEstimate {
  const spec = instanceTypeSpec(instanceType);
  const network: Limit = {
    mbps: (spec.networkBaselineGbps * 1e9) / 8 / MB_BYTES,
    label: `network baseline of ${spec.name} (${spec.networkBaselineGbps} Gbps)`,
  };
  const disks = spec.instanceStore;
  return disks ? instanceStoreEstimate(spec, disks, dataVolumes, network) : ebsEstimate(spec, dataVolumes, network);
}

/** The estimate of an instance-store type: its local HDDs and its network. */
function instanceStoreEstimate(spec: InstanceTypeSpec, disks: InstanceStoreSpec, dataVolumes: DataVolumePlan[], network: Limit): ThroughputEstimate {
  if (dataVolumes.length > 0) {
    throw new Error(
      `dataVolumes must be empty for ${spec.name}: its data lives on its ${disks.disks} instance-store disks; got ${dataVolumes.length} volume(s)`,
    );
  }
  // Local HDDs do not burst. d2's network is flat: sustained, burst and the 1 TB figure are one. A d3/d3en's network
  // bursts on credits for an unpublished time: the burst figure may use it, the 1 TB figure only its baseline.
  const bound = disks.throughputBound === 'lower';
  const each = (mbps: number) => (bound ? ` at d2's ${round2(mbps)} MB/s each` : '');
  const readDisks: Limit = { mbps: disks.disks * disks.diskReadMBps, label: `${disks.disks} instance-store HDDs of ${spec.name}${each(disks.diskReadMBps)} (read)` };
  const writeDisks: Limit = { mbps: disks.disks * disks.diskWriteMBps, label: `${disks.disks} instance-store HDDs of ${spec.name}${each(disks.diskWriteMBps)} (write)` };
  const networkBurst = networkBurstOf(spec, network);
  const read = binding([readDisks, network]);
  const write = binding([writeDisks, network]);
  const estimate = combine(read, write, { read, write }, { read: binding([readDisks, networkBurst]), write: binding([writeDisks, networkBurst]) });
  // AWS publishes no disk figure for d3/d3en: every figure rests on the lower bound, whichever limit binds.
  return bound ? { ...estimate, limitedBy: `${estimate.limitedBy}; ${LOWER_BOUND}` } : estimate;
}

/** The estimate of an EBS-backed type: its striped st1 or gp3 volumes, its EBS bandwidth and its network. */
function ebsEstimate(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[], network: Limit): ThroughputEstimate {
  const { gp3, st1, count, st1Burst, st1Baseline } = stripeLimits(validateVolumes(spec, dataVolumes), dataVolumes.length);
  const { ebs, ebsBurst, nitroEbs } = ebsLimits(spec);
  const steady = binding([st1Burst, ebs, network]);
  const baseline = binding([st1Baseline, ebs, network]);
  const burst = binding([st1Burst, ebsBurst, networkBurstOf(spec, network)]);
  // st1 reads and writes draw on the same limits and the same credits, so one figure serves both. A Nitro type's
  // EBS burst lasts its 30 minutes; its network burst is best effort for an unpublished time, so the 1 TB
  // workload counts only the network baseline.
  const workload = nitroEbs
    ? transferWithBursts({ st1Burst, st1Baseline, st1, count, ebs, ebsBurst, network })
    : gp3 ? steady : afterBurstCredits(steady, st1, count);
  return combine(workload, workload, { read: baseline, write: baseline }, { read: burst, write: burst });
}

/** The limits of `count` striped volumes like `volume`: burst and baseline together, and one volume's model. */
function stripeLimits(volume: DataVolumePlan, count: number): Stripe {
  const sizeGiB = volume.sizeGiB;
  const gp3 = volume.volumeType === 'gp3';
  // gp3 does not burst: its burst and baseline are the provisioned throughput, with no credit bucket.
  const st1 = gp3 ? gp3Limits(volume) : st1Volume(sizeGiB);
  const gp3Label = `gp3 provisioned throughput of ${count} x ${volume.throughputMiBps} MiB/s (${sizeGiB} GiB each)`;
  const st1Burst: Limit = { mbps: count * st1.burstMBps, label: gp3 ? gp3Label : `st1 burst of ${count} x ${sizeGiB} GiB` };
  const st1Baseline: Limit = { mbps: count * st1.baselineMBps, label: gp3 ? gp3Label : `st1 baseline of ${count} x ${sizeGiB} GiB` };
  return { gp3, st1, count, st1Burst, st1Baseline };
}

/** A stripe's limits in the st1 model's terms, and whether it is gp3, whose throughput does not burst. */
interface Stripe extends Pick<BurstingLimits, 'st1Burst' | 'st1Baseline' | 'st1' | 'count'> {
  readonly gp3: boolean;
}

/**
 * The EBS bandwidth of `spec`, its burst, which is itself where it does not burst, and whether it bursts, as a Nitro
 * type's does.
 */
function ebsLimits(spec: InstanceTypeSpec): { ebs: Limit; ebsBurst: Limit; nitroEbs: boolean } {
  const nitroEbs = spec.ebsBurstMbps !== undefined && spec.ebsBurstMbps > (spec.ebsBandwidthMbps ?? 0);
  if (spec.ebsCardMbps !== undefined && spec.ebsCardMbps < (spec.ebsBandwidthMbps ?? 0)) {
    // Every volume attaches at card 0, so the stripe has that card's bandwidth: catalog-types.ts, `ebsCardMbps`.
    const card: Limit = { mbps: spec.ebsCardMbps / 8, label: `EBS card 0 of ${spec.name} (${spec.ebsCardMbps} of its ${spec.ebsBandwidthMbps} Mbps)` };
    return { ebs: card, ebsBurst: card, nitroEbs: false };
  }
  const ebs: Limit = {
    mbps: (spec.ebsBandwidthMbps ?? 0) / 8,
    label: nitroEbs
      ? `EBS baseline of ${spec.name} (${spec.ebsBandwidthMbps} Mbps)`
      : `EBS bandwidth of ${spec.name} (${spec.ebsBandwidthMbps} Mbps)`,
  };
  const ebsBurst: Limit = nitroEbs
    ? { mbps: (spec.ebsBurstMbps ?? 0) / 8, label: `EBS burst of ${spec.name} (up to ${spec.ebsBurstMbps} Mbps, 30 minutes a day)` }
    : ebs;
  return { ebs, ebsBurst, nitroEbs };
}

/** The network burst of a Nitro type while its credits last; `network`, the baseline, where the network is flat. */
function networkBurstOf(spec: InstanceTypeSpec, network: Limit): Limit {
  return spec.networkBurstGbps !== undefined && spec.networkBurstGbps > spec.networkBaselineGbps
    ? { mbps: (spec.networkBurstGbps * 1e9) / 8 / MB_BYTES, label: `network burst of ${spec.name} (up to ${spec.networkBurstGbps} Gbps, while credits last)` }
    : network;
}

/** A read and a write limit. */
interface ReadWrite {
  readonly read: Limit;
  readonly write: Limit;
}

/** The estimate from its binding limits: the 1 TB workload's read and write, the sustained and the burst figures. */
function combine(read: Limit, write: Limit, baseline: ReadWrite, burst: ReadWrite): ThroughputEstimate {
  return {
    readMBps: floor2(read.mbps),
    writeMBps: floor2(write.mbps),
    baselineReadMBps: floor2(baseline.read.mbps),
    baselineWriteMBps: floor2(baseline.write.mbps),
    burstReadMBps: floor2(burst.read.mbps),
    burstWriteMBps: floor2(burst.write.mbps),
    limitedBy: read.label === write.label ? read.label : `read: ${read.label}; write: ${write.label}`,
  };
}
