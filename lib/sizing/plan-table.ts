/**
 * What `npm run plan` prints: one plan as a small table, and the best plan of each backend side by side, each with the
 * source of its price. Each backend's words are its own, by `table` in registry.ts, and EFS, which this project does
 * not deploy, has a row too.
 */
import { BACKENDS, type Backend } from '../../lambda/register/contract';
import { bestPlanOf } from './best-plan';
import { backendOf } from '../backend-enum';
import { withInstanceType } from './plan-ebs';
import { EFS_PRICE_SOURCE, EfsEstimate, efsEstimates } from './plan-efs';
import type { StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf } from './limit';
import { BACKEND_SIZING } from './registry';
import { UNWRAPPED, alignColumns, wrapLine } from './wrap';

/**
 * Renders a plan as the small table `npm run plan` prints: one row per fact, aligned, so it reads well in a terminal
 * and pastes into an issue or a design note. A fact wider than `width` wraps under its own column.
 */
export function formatPlanTable(plan: StoragePlan, width = UNWRAPPED): string {
  const text = BACKEND_SIZING[plan.backend].table;
  const rows: [string, string][] = [
    ['backend', plan.backend],
    [text.instanceLabel, plan.instanceType],
    [text.storageLabel, text.storage(plan)],
    ['raw capacity', `${plan.rawCapacityTiB.toFixed(2)} TiB`],
    ...ioSizeRows(plan),
    ['read', `${plan.throughput.readMBps.toFixed(0)} MB/s`],
    ['write', `${plan.throughput.writeMBps.toFixed(0)} MB/s`],
    ['limited by', plan.throughput.limitedBy],
    ['sustained', `${readWrite(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)} (every burst credit spent)`],
    ['burst', `${readWrite(plan.throughput.burstReadMBps, plan.throughput.burstWriteMBps)} (full burst credits)`],
    ...cachedReadRows(plan),
    ...perClientRows(plan),
    ['cost', `$${plan.monthlyCostUsd.toFixed(2)}/month (${text.costNote})`],
    ['why', plan.reason],
  ];
  return alignColumns(rows, width);
}

/** The request size the figures are bounded for, when one was asked; see io-size.ts. */
function ioSizeRows(plan: StoragePlan): [string, string][] {
  const t = plan.throughput;
  if (t.ioSizeKiB === undefined) return [];
  return [['requests', `random, ${t.ioSizeKiB} KiB: each figure also bounded by IOPS x size` +
    `${t.upperBoundAtIoSize ? ' (AWS publishes no IOPS for this storage: the 1 MiB figures, an upper bound)' : ''}`]];
}

/** FSx: reads from the file servers' memory, beside the disk-bound figures, when they differ. */
function cachedReadRows(plan: StoragePlan): [string, string][] {
  const c = plan.throughput.cachedRead;
  if (c === undefined) return [];
  const bound = c.upperBoundAtIoSize ? 'up to ' : '';
  return [['cached read', `${bound}${c.readMBps.toFixed(0)} MB/s sustained, ${bound}${c.burstReadMBps.toFixed(0)} MB/s burst, for a working ` +
    `set within the servers' ${c.cacheGiB.toFixed(1)} GiB of memory (${c.limitedBy}); other reads and every write: the figures above`]];
}

/**
 * What one client can reach beside the aggregate, by lib/sizing/client-ceiling.ts, and how many clients the sustained
 * figure takes. Nothing for a plan without `perClient`.
 */
function perClientRows(plan: StoragePlan): [string, string][] {
  const c = plan.perClient;
  if (c === undefined) return [];
  if (c.maxMBps === undefined) return [['one client', c.limitedBy], ...oneFileRows(c)];
  const sustained = sustainedOf(plan);
  return [
    ['one client', `up to ${c.maxMBps.toFixed(0)} MB/s (limited by ${c.limitedBy}; a bound, not a measured figure` +
      `${c.networkMBps === undefined ? "; the client's own network not counted: give its type" : ''})`],
    ['clients', `${c.clientsToSustain} such client${c.clientsToSustain === 1 ? '' : 's'} to move the sustained ${sustained.toFixed(0)} MB/s`],
    ...oneFileRows(c),
  ];
}

/** FSx for Lustre: what one file can move under the default layout, whoever reads it. */
function oneFileRows(c: NonNullable<StoragePlan['perClient']>): [string, string][] {
  const f = c.oneFile;
  if (f === undefined) return [];
  return [['one file', `up to ${f.largeFileMBps.toFixed(0)} MB/s from 1 GiB, ${f.smallFileMBps.toFixed(0)} MB/s under 1 GiB (${f.limitedBy})`]];
}

/** "N MB/s" when read and write agree, else "N MB/s read, M MB/s write". */
function readWrite(read: number, write: number): string {
  return read.toFixed(0) === write.toFixed(0)
    ? `${read.toFixed(0)} MB/s`
    : `${read.toFixed(0)} MB/s read, ${write.toFixed(0)} MB/s write`;
}

/**
 * An EFS row of the comparison: Regional Standard storage in one throughput mode, for the planner only, not deployed.
 */
export type EfsRow = 'efs-elastic' | 'efs-provisioned' | 'efs-bursting';

/** One row of the comparison: a backend's best plan for the request, or an EFS option, or why it has none. */
export interface BackendComparison {
  /** The backend of this row, or the EFS option. */
  readonly backend: Backend | EfsRow;
  /**
   * The backend's best plan for the request.
   * @default - none: an EFS row, see `efs`, or the backend cannot serve the request, see `cannot`
   */
  readonly plan?: StoragePlan;
  /**
   * An EFS row's estimate; this project does not deploy EFS.
   * @default - none: a backend's row
   */
  readonly efs?: EfsEstimate;
  /** Where the row's price comes from, in words. */
  readonly priceSource: string;
  /**
   * Why the backend cannot serve the request: the planner's message.
   * @default - none: see `plan`
   */
  readonly cannot?: string;
}

/** What shapes the comparison's `ebs` row beyond the request. */
export interface ComparisonOptions {
  /**
   * The EBS row on this catalogued EBS instance type instead of the planner's choice; see `withInstanceType`.
   * @default - the planner's choice
   */
  readonly instanceType?: string;
}

/**
 * The best plan of each backend for one request by `bestPlanOf`, or why there is none. The EBS layout options,
 * `dataVolumeCount` and `instanceType`, shape the `ebs` row only. A backend's options object, `fsxLustre` or
 * `fsxOpenZfs`, shapes its own row only. Every other backend is weighed for the same capacity, throughput and
 * generation.
 */
export function compareBackends(request: StorageRequest, options: ComparisonOptions = {}): BackendComparison[] {
  const servers = BACKENDS.map((backend): BackendComparison => {
    const best = bestPlanOf(backendOf(backend), backend === 'ebs' ? request : { ...request, dataVolumeCount: undefined });
    const priceSource = BACKEND_SIZING[backend].table.priceSource(typeof best === 'string' ? undefined : best);
    if (typeof best === 'string') return { backend, cannot: best, priceSource };
    if (backend !== 'ebs' || options.instanceType === undefined) return { backend, plan: best, priceSource };
    try {
      return { backend, plan: withInstanceType(best, options.instanceType, request.throughputMBps), priceSource };
    } catch (err) {
      return { backend, cannot: (err as Error).message, priceSource };
    }
  });
  return [...servers, ...efsRows(request)];
}

/** The EFS rows for a request: Elastic, Provisioned when a throughput is asked, and Bursting. */
function efsRows(request: StorageRequest): BackendComparison[] {
  const { capacityTiB, throughputMBps, client, ioSizeKiB } = request;
  if (typeof capacityTiB !== 'number' || !(capacityTiB > 0)) return [];
  return efsEstimates(capacityTiB, throughputMBps ?? 0, client, ioSizeKiB).map(({ mode, estimate, cannot }) => ({
    backend: `efs-${mode}` as EfsRow, ...(estimate ? { efs: estimate } : { cannot: cannot as string }), priceSource: EFS_PRICE_SOURCE,
  }));
}

/**
 * The best plan of each backend for one request, side by side; `npm run plan` prints it under the chosen plan. It shows
 * what each would cost and sustain, or why it cannot serve the request. The plan, or the reason, is the last column, so
 * a long reason widens no other column. When the table is wider than `width`, the figures and the plans are two
 * tables, each wrapped to fit.
 */
export function formatBackendComparison(request: StorageRequest, options: ComparisonOptions = {}, width = UNWRAPPED): string {
  const header = ['backend', 'raw TiB', 'sustained MB/s', 'burst MB/s', '$/month', 'plan'];
  const compared = compareBackends(request, options);
  const rows = compared.map(({ backend, plan, efs, cannot }) => {
    if (efs !== undefined) {
      return [backend, (efs.storageGiB / 1024).toFixed(2), `${efs.sustainedMBps.toFixed(0)} MB/s`, `${efs.burstMBps.toFixed(0)} MB/s`,
        efs.monthlyCostUsd.toFixed(2), `EFS (not deployed here), Regional Standard, ${efs.mode}: ${efs.limitedBy}; one client up to ` +
          `${(efs.perClient.maxMBps as number).toFixed(0)} MB/s (${efs.perClient.limitedBy})`];
    }
    if (plan === undefined) return [backend, '-', '-', '-', '-', `cannot: ${cannot}`];
    const t = plan.throughput;
    return [
      backend,
      plan.rawCapacityTiB.toFixed(2),
      readWrite(t.baselineReadMBps, t.baselineWriteMBps),
      readWrite(t.burstReadMBps, t.burstWriteMBps),
      plan.monthlyCostUsd.toFixed(2),
      BACKEND_SIZING[plan.backend].table.summary(plan),
    ];
  });
  const whole = alignColumns([header, ...rows]);
  const tables = whole.split('\n').every((line) => line.length <= width) ? whole
    : `${alignColumns([header, ...rows].map((r) => r.slice(0, -1)), width)}\n\n` +
      `${alignColumns([header, ...rows].map((r) => [r[0], r[r.length - 1]]), width)}`;
  return `${tables}\n\nPrices, USD a month:\n${priceSources(compared, width)}`;
}

/** Each distinct price source and the rows it prices, one a line. */
function priceSources(rows: readonly BackendComparison[], width: number): string {
  const bySource = new Map<string, string[]>();
  for (const r of rows) bySource.set(r.priceSource, [...(bySource.get(r.priceSource) ?? []), r.backend]);
  return [...bySource].flatMap(([source, names]) => wrapLine(`  ${names.join(', ')}: ${source}`, width, 4)).join('\n');
}
