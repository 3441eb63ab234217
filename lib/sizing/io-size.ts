/**
 * The I/O-size term: every throughput figure is also bounded by IOPS x request size, for requests smaller than the 1
 * MiB the throughput model describes. Pure arithmetic on a plan, no CDK imports (docs/design.md, section 3). Each
 * backend gives its IOPS limits, its `iops` in lib/sizing/registry.ts, and plan-io-size.ts applies them.
 *
 * What a request counts as, from AWS's words:
 * - [EBS-IO] Amazon EBS User Guide, "I/O characteristics and monitoring": "I/O size is capped at 256 KiB for SSD
 *   volumes and 1,024 KiB for HDD volumes"; "When small I/O operations are physically sequential, Amazon EBS attempts
 *   to merge them into a single I/O operation up to the maximum I/O size". For st1, "we count each random,
 *   non-sequential I/O toward the total IOPS count, which can cause you to hit the volume's IOPS limit sooner than
 *   expected". So the term describes random, unmerged requests. Sequential ones of any size are merged toward the
 *   volume's largest, and the 1 MiB figures hold for them.
 * - [EBS-VT] The same guide, "Amazon EBS volume types": st1 "Max IOPS per volume (1 MiB I/O)" 500.
 * - gp3's provisioned IOPS and the instances' IOPS: catalog-gp3.ts and catalog-ebs-iops.ts.
 * - The FSx file systems' IOPS: each with its backend, in lib/backends/fsx/sizing.ts and
 *   lib/backends/openzfs/sizing.ts.
 * - EFS: [PERF] in efs.ts, per file system, by throughput mode.
 *
 * Where AWS publishes no IOPS, for instance-store HDDs and FSx for Lustre, the figures stay the 1 MiB ones. They are an
 * upper bound for smaller random requests, `upperBoundAtIoSize`, and the search does not count them as sustaining a
 * throughput at such a size: the planner claims only what AWS's figures carry.
 */
import { instanceTypeSpec } from './catalog-lookup';
import { GP3, GP3_MAX_IO_KIB } from './catalog-gp3';
import { ebsIopsOf } from './catalog-ebs-iops';
import type { StoragePlan, ThroughputEstimate } from './plan-types';
import { floor2 } from './round';
import { describe } from './describe';

/** The request size the throughput figures describe, KiB: 1 MiB, the largest an HDD volume counts as one I/O. [EBS-IO] */
export const DEFAULT_IO_SIZE_KIB = 1024;

/** The smallest request size the planner takes, KiB: one 4 KiB page. */
export const MIN_IO_SIZE_KIB = 4;

/** st1's IOPS per volume, counted in requests of up to 1,024 KiB. [EBS-VT] [EBS-IO] */
export const ST1_MAX_IOPS = 500;

/** The largest I/O an HDD st1 volume counts as one, KiB; gp3's, 256, is in catalog-gp3.ts. [EBS-IO] */
export const HDD_MAX_IO_KIB = 1024;

/** What AWS does not publish, in the words the estimate carries. */
export const UPPER_BOUND = 'the 1 MiB figures, an upper bound for smaller random requests';
/** What a cached read at a smaller size says: the disk IOPS AWS publishes do not bound reads from memory, and none other does. */
const CACHED_IOPS_UNPUBLISHED = 'IOPS of reads from the servers\' memory unpublished: an upper bound for smaller random requests';

/** A request size for the planner: a whole number of KiB from 4 to 1,024; `where` names it in the message. */
export function validateIoSize(value: unknown, where = 'ioSizeKiB'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_IO_SIZE_KIB || value > DEFAULT_IO_SIZE_KIB) {
    throw new Error(
      `${where} must be a whole number of KiB from ${MIN_IO_SIZE_KIB} to ${DEFAULT_IO_SIZE_KIB} (the size of random requests; ` +
        `${DEFAULT_IO_SIZE_KIB}, the default, for sequential I/O of any size); got ${describe(value)}`,
    );
  }
  return value;
}

/**
 * Every clause `withIoSize` adds to a reason, wherever later clauses put it, so as to say it anew; none has a `;`
 * inside.
 */
export const IO_SIZE_CLAUSES = /; random \d+ KiB requests: [^;]*/g;

/** One IOPS limit: operations per second, the largest request counted as one, larger ones split, and its name. */
export interface IopsLimit {
  readonly iops: number;
  readonly maxIoKiB?: number;
  readonly label: string;
}

/** The IOPS limits of a plan: those that bound the sustained figures and those that bound the burst ones. */
export interface PlanIops {
  readonly baseline: readonly IopsLimit[];
  readonly burst: readonly IopsLimit[];
  /** AWS publishes no IOPS figure for the storage: what the estimate says instead. */
  readonly unpublished?: string;
}

/** The MB/s `limit` allows with random requests of `ioKiB`. */
export function iopsMBps(limit: IopsLimit, ioKiB: number): number {
  return (limit.iops * Math.min(ioKiB, limit.maxIoKiB ?? ioKiB) * 1024) / 1e6;
}

/**
 * The IOPS of a stripe of EBS volumes, all alike: st1's 500 a volume, gp3's provisioned; each counted up to its largest
 * I/O.
 */
export function volumeIops(volumes: StoragePlan['dataVolumes']): IopsLimit {
  const v = volumes[0];
  const gp3 = v?.volumeType === 'gp3';
  const maxIoKiB = gp3 ? GP3_MAX_IO_KIB : HDD_MAX_IO_KIB;
  const each = gp3 ? v.iops ?? GP3.minIops : ST1_MAX_IOPS;
  return {
    iops: volumes.length * each,
    maxIoKiB,
    label: `${gp3 ? 'gp3 provisioned' : 'st1'} IOPS of ${volumes.length} x ${each.toLocaleString('en-US')} (up to ${maxIoKiB} KiB each)`,
  };
}

/** The IOPS limits of an EBS plan: its volumes', and its instance's EBS IOPS. */
export function ebsPlanIops({ instanceType, dataVolumes }: Pick<StoragePlan, 'instanceType' | 'dataVolumes'>): PlanIops {
  const disks = volumeIops(dataVolumes);
  const maxIoKiB = disks.maxIoKiB;
  const spec = instanceTypeSpec(instanceType);
  const [typeBaseline, typeMax] = ebsIopsOf(spec.name);
  // Every volume attaches at card 0, so a type of several EBS cards has that card's IOPS: catalog-types.ts.
  const card = spec.ebsCardIops !== undefined && spec.ebsCardIops < typeBaseline ? spec.ebsCardIops : undefined;
  const [baselineIops, maxIops] = card === undefined ? [typeBaseline, typeMax] : [card, card];
  const of = card === undefined ? instanceType : `card 0 of ${instanceType}`;
  const instance = (iops: number, what: string): IopsLimit => ({ iops, maxIoKiB, label: `EBS ${what} IOPS of ${of} (${iops.toLocaleString('en-US')})` });
  return {
    baseline: [disks, instance(baselineIops, 'baseline')],
    burst: [disks, instance(maxIops, maxIops > baselineIops ? 'maximum' : 'baseline')],
  };
}

/**
 * The lesser of `figure` and the IOPS bounds, rounded down, and the label of what binds; undefined for the figure's own
 * limit. A bound within the cent that `figure` was rounded to ties with it, and the figure's own limit stays named.
 */
function bounded(figure: number, limits: readonly IopsLimit[], ioKiB: number): { mbps: number; label?: string } {
  const tightest = limits
    .map((l) => ({ mbps: iopsMBps(l, ioKiB), label: `${l.label} at ${ioKiB} KiB` }))
    .sort((a, b) => a.mbps - b.mbps)[0];
  if (tightest === undefined || tightest.mbps >= figure) return { mbps: figure };
  return tightest.mbps < figure - 0.005 ? { mbps: floor2(tightest.mbps), label: tightest.label } : { mbps: floor2(tightest.mbps) };
}

/**
 * `plan` for random requests of `ioKiB`, bounded by the limits `iopsOf` gives. Each figure is the lesser of the
 * throughput model's and IOPS x size. `limitedBy` names the IOPS limit where one binds the 1 TB workload, and the
 * reason says which binds. Where AWS publishes no IOPS, the figures stay as they are, marked `upperBoundAtIoSize`. At
 * the default 1 MiB the plan is returned as it is, since the planner provisions every IOPS limit at or above its
 * throughput there, as a test holds. A plan already bounded for `ioKiB` is returned as it is.
 */
export function boundAtIoSize<P extends StoragePlan>(plan: P, ioKiB: number, iopsOf: (plan: P) => PlanIops): P {
  if (ioKiB === DEFAULT_IO_SIZE_KIB || plan.throughput.ioSizeKiB === ioKiB) return plan;
  const limits = iopsOf(plan);
  const t = plan.throughput;
  if (limits.unpublished !== undefined) {
    const throughput: ThroughputEstimate = {
      ...t, limitedBy: `${t.limitedBy}; ${limits.unpublished}`, ioSizeKiB: ioKiB, upperBoundAtIoSize: true, ...cachedUpperBound(t),
    };
    return { ...plan, throughput, reason: `${plan.reason}; random ${ioKiB} KiB requests: ${limits.unpublished}` };
  }
  const read = bounded(t.readMBps, limits.baseline, ioKiB);
  const write = bounded(t.writeMBps, limits.baseline, ioKiB);
  const baselineRead = bounded(t.baselineReadMBps, limits.baseline, ioKiB);
  const baselineWrite = bounded(t.baselineWriteMBps, limits.baseline, ioKiB);
  const burstRead = bounded(t.burstReadMBps, limits.burst, ioKiB);
  const burstWrite = bounded(t.burstWriteMBps, limits.burst, ioKiB);
  // Any figure an IOPS limit lowers is named, the burst ones too.
  const binds = [read, write, baselineRead, baselineWrite, burstRead, burstWrite].find((f) => f.label !== undefined)?.label;
  // Each side's binding limit: the IOPS one where it binds, else what bound it before, in the old words, whole.
  const limitedBy = read.label === undefined && write.label === undefined ? t.limitedBy
    : read.label === write.label ? read.label as string
      : `read: ${read.label ?? t.limitedBy}; write: ${write.label ?? t.limitedBy}`;
  const throughput: ThroughputEstimate = {
    ...t,
    readMBps: read.mbps,
    writeMBps: write.mbps,
    baselineReadMBps: baselineRead.mbps,
    baselineWriteMBps: baselineWrite.mbps,
    burstReadMBps: burstRead.mbps,
    burstWriteMBps: burstWrite.mbps,
    limitedBy,
    ioSizeKiB: ioKiB,
    ...cachedUpperBound(t),
  };
  const says = binds === undefined ? `no IOPS limit binds at ${ioKiB} KiB` : `${binds} binds`;
  return { ...plan, throughput, reason: `${plan.reason}; random ${ioKiB} KiB requests: ${says}` };
}

/** A plan's cached read at a smaller size, marked an upper bound: no published IOPS figure bounds reads from memory. */
function cachedUpperBound(t: ThroughputEstimate): Pick<ThroughputEstimate, 'cachedRead'> {
  if (t.cachedRead === undefined) return {};
  return { cachedRead: { ...t.cachedRead, limitedBy: `${t.cachedRead.limitedBy}; ${CACHED_IOPS_UNPUBLISHED}`, upperBoundAtIoSize: true } };
}
