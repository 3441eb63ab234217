/**
 * What `npm run plan` prints: one plan as a small table, and the best plan of each backend side by side (the servers,
 * FSx for Lustre, FSx for OpenZFS, and EFS, which this project does not deploy), each with the source of its price.
 */
import { instanceTypeSpec } from './catalog-lookup';
import { bestPlanOf } from './best-plan';
import { fsxOpenZfsPriceSource } from './fsx-openzfs-catalog';
import { withInstanceType } from './plan-ebs';
import { EFS_PRICE_SOURCE, EfsEstimate, efsEstimates } from './plan-efs';
import type { Backend, StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf } from './limit';

/**
 * Renders a plan as the small table `npm run plan` prints: one row per fact, aligned, so it reads well in
 * a terminal and pastes into an issue or a design note.
 */
export function formatPlanTable(plan: StoragePlan): string {
  const rows: [string, string][] = [
    ['backend', plan.backend],
    [isFsx(plan) ? 'deployment' : 'instance', plan.instanceType],
    [plan.backend === 'ebs' ? 'volumes' : isFsx(plan) ? 'storage' : 'disks', disksOf(plan)],
    ['raw capacity', `${plan.rawCapacityTiB.toFixed(2)} TiB`],
    ...ioSizeRows(plan),
    ['read', `${plan.throughput.readMBps.toFixed(0)} MB/s`],
    ['write', `${plan.throughput.writeMBps.toFixed(0)} MB/s`],
    ['limited by', plan.throughput.limitedBy],
    ['sustained', `${readWrite(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)} (every burst credit spent)`],
    ['burst', `${readWrite(plan.throughput.burstReadMBps, plan.throughput.burstWriteMBps)} (full burst credits)`],
    ...cachedReadRows(plan),
    ...perClientRows(plan),
    ['cost', `$${plan.monthlyCostUsd.toFixed(2)}/month (${COST_NOTE[plan.backend] ?? COST_NOTE.ebs})`],
    ['why', plan.reason],
  ];
  return alignColumns(rows);
}

/** The request size the figures are bounded for, when one was asked (io-size.ts). */
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

/** An FSx plan (deployment and storage rather than instance and disks). */
function isFsx(plan: StoragePlan): boolean {
  return plan.backend === 'fsx-lustre' || plan.backend === 'fsx-openzfs';
}

/** An FSx for OpenZFS plan's SSD IOPS in words. */
function iopsOf(userProvisionedIops: number | undefined): string {
  return userProvisionedIops === undefined ? 'automatic SSD IOPS (3 per GiB)' : `${userProvisionedIops} SSD IOPS provisioned`;
}

/** What a plan's monthly cost counts, by backend. */
const COST_NOTE: Readonly<Record<string, string>> = {
  'ebs': 'on demand, us-east-1, 730 h',
  'fsx-lustre': 'storage, us-east-1; backups extra',
  'fsx-openzfs': 'SSD storage, throughput capacity and SSD IOPS above the included, us-east-1; backups extra',
};

/**
 * What one client can reach beside the aggregate (lib/sizing/client-ceiling.ts), and how many clients the sustained
 * figure takes; nothing for a plan without `perClient`.
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

/** The data disks of a plan in words. */
function disksOf(plan: StoragePlan): string {
  if (plan.backend === 'ebs') {
    const first = plan.dataVolumes[0];
    const each = first?.volumeType === 'gp3'
      ? `${first.sizeGiB} GiB, ${first.throughputMiBps} MiB/s, ${first.iops} IOPS${plan.dataVolumes.length > 1 ? ' each' : ''}`
      : plan.dataVolumes.map((v) => `${v.sizeGiB} GiB`).join(', ');
    return `${plan.dataVolumes.length} x ${first?.volumeType ?? 'st1'} (${each})` +
      (plan.dataVolumes.length > 1 ? ', striped' : '');
  }
  if (plan.fsxLustre) {
    const f = plan.fsxLustre;
    return `FSx for Lustre ${f.deploymentType} ${f.storageType}, ${f.perUnitStorageThroughput} MB/s per TiB, ${f.storageCapacityGiB} GiB` +
      (f.deploymentType === 'SCRATCH_2' ? ' (not replicated)' : '');
  }
  if (plan.fsxOpenZfs) {
    const z = plan.fsxOpenZfs;
    return `FSx for OpenZFS ${z.deploymentType}, ${z.throughputCapacityMBps} MB/s throughput capacity, ${z.storageCapacityGiB} GiB SSD, ` +
      iopsOf(z.userProvisionedIops);
  }
  const diskTB = (instanceTypeSpec(plan.instanceType).instanceStore?.diskBytes ?? 0) / 1e12; // d2 2, d3 1.98, d3en 13.98
  return `${plan.instanceStoreDisks} x ${diskTB} TB instance-store HDD, striped (lost on stop/terminate)`;
}

const COMPARED: readonly Backend[] = ['ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'];

/** An EFS row of the comparison: Regional Standard storage in one throughput mode (planner only: not deployed). */
export type EfsRow = 'efs-elastic' | 'efs-provisioned' | 'efs-bursting';

/** One row of the comparison: a backend's best plan for the request (or an EFS option), or why it has none. */
export interface BackendComparison {
  /** The backend of this row, or the EFS option. */
  readonly backend: Backend | EfsRow;
  /**
   * The backend's best plan for the request.
   * @default - none: an EFS row (see `efs`), or the backend cannot serve the request (see `cannot`)
   */
  readonly plan?: StoragePlan;
  /**
   * An EFS row's estimate (EFS is not deployed by this project).
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
   * The EBS row on this catalogued EBS instance type instead of the planner's choice (see `withInstanceType`).
   * @default - the planner's choice
   */
  readonly instanceType?: string;
}

/**
 * The best plan of each backend for one request (`bestPlanOf`), or why there is none. The EBS layout options
 * (`dataVolumeCount`, `instanceType`) shape the `ebs` row only and FSx options the `fsx-lustre` row only: every
 * other backend is weighed for the same capacity, throughput and generation.
 */
export function compareBackends(request: StorageRequest, options: ComparisonOptions = {}): BackendComparison[] {
  const servers = COMPARED.map((backend): BackendComparison => {
    const best = bestPlanOf(backend, backend === 'ebs' ? request : { ...request, dataVolumeCount: undefined });
    const priceSource = priceSourceOf(backend, typeof best === 'string' ? undefined : best);
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

/** The EFS rows for a request: Elastic, Provisioned (when a throughput is asked) and Bursting. */
function efsRows(request: StorageRequest): BackendComparison[] {
  const { capacityTiB, throughputMBps, client, ioSizeKiB } = request;
  if (typeof capacityTiB !== 'number' || !(capacityTiB > 0)) return [];
  return efsEstimates(capacityTiB, throughputMBps ?? 0, client, ioSizeKiB).map(({ mode, estimate, cannot }) => ({
    backend: `efs-${mode}` as EfsRow, ...(estimate ? { efs: estimate } : { cannot: cannot as string }), priceSource: EFS_PRICE_SOURCE,
  }));
}

/** Where a backend's price comes from. */
function priceSourceOf(backend: Backend, plan: StoragePlan | undefined): string {
  if (backend === 'fsx-lustre') return "AWS's FSx price data (us-east-1) as cited in lib/sizing/fsx-lustre.ts; storage only, backups extra";
  if (backend === 'fsx-openzfs') return `${fsxOpenZfsPriceSource(plan?.fsxOpenZfs?.deploymentType ?? 'SINGLE_AZ_1')}; backups extra`;
  return 'on-demand list prices, us-east-1, 730 h, as cited in lib/sizing/catalog*.ts';
}

/**
 * The best plan of each backend for one request, side by side (`npm run plan` prints it under the chosen plan):
 * what each would cost and sustain, or why it cannot serve the request. The plan, or the reason, is the last
 * column, so a long reason widens no other column: every row's cells start at the same offsets.
 */
export function formatBackendComparison(request: StorageRequest, options: ComparisonOptions = {}): string {
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
      plan.backend === 'ebs' ? `${plan.instanceType}, ${disksOf(plan)}`
        : plan.fsxOpenZfs ? `${plan.instanceType}, ${plan.fsxOpenZfs.storageCapacityGiB} GiB SSD, ${iopsOf(plan.fsxOpenZfs.userProvisionedIops)}`
        : plan.backend === 'fsx-lustre' ? `${plan.instanceType}, ${plan.fsxLustre?.storageCapacityGiB} GiB` : plan.instanceType,
    ];
  });
  return `${alignColumns([header, ...rows])}\n\nPrices, USD a month:\n${priceSources(compared)}`;
}

/** Each distinct price source and the rows it prices, one a line. */
function priceSources(rows: readonly BackendComparison[]): string {
  const bySource = new Map<string, string[]>();
  for (const r of rows) bySource.set(r.priceSource, [...(bySource.get(r.priceSource) ?? []), r.backend]);
  return [...bySource].map(([source, names]) => `  ${names.join(', ')}: ${source}`).join('\n');
}

/**
 * Rows of cells as lines: each column as wide as its widest cell (the last one unpadded), two spaces between
 * columns, so every cell of a column starts at the same offset.
 */
export function alignColumns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('  ').trimEnd()).join('\n');
}
