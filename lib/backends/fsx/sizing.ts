/**
 * FSx for Lustre as the planner of lib/sizing/backend-sizing.ts knows it: its persistent options in the search, its
 * plan as asked, its excess, its lines in `npm run plan`'s tables and its words in the stack's outputs. It is pure,
 * with no CDK imports, since `npm run plan` loads it.
 *
 * - [LUSTRE] FSx for Lustre's performance table, docs/sources/lustre-performance.md, section e: "Network IOPS (IOPS/TiB
 *   of storage provisioned)", "Tens of thousands baseline Hundreds of thousands burst" for every row, and no disk IOPS.
 *   So there is no number to bound a smaller request size with.
 */
import type { BackendSizing } from '../../sizing/backend-sizing';
import { UPPER_BOUND } from '../../sizing/io-size';
import type { StoragePlan } from '../../sizing/plan-types';
import { FSX_LUSTRE_CONTEXT, type FsxLustreContext } from './context';
import { FSX_LUSTRE_PERFORMANCE, capacitySteps, fsxLustreCapacityGiB, fsxLustreKey, fsxLustreOptions, resolveFsxLustreOptions } from './sizing/lustre';
import { FSX_PERSISTENT_OPTIONS, defaultFsxPlan, fsxAsAsked, fsxPlan } from './sizing/plan';

/** What an estimate at a smaller request size says. [LUSTRE] */
const LUSTRE_IOPS_UNPUBLISHED = `FSx for Lustre IOPS published as "tens of thousands" per TiB, disk IOPS not at all: ${UPPER_BOUND}`;

/** A plan's file system; every FSx for Lustre plan has one. */
const fileSystemOf = (plan: StoragePlan) => plan.fsxLustre as NonNullable<StoragePlan['fsxLustre']>;

/** Why the file system holds more than asked: throughput bought with capacity, or its capacity steps. */
function excessReason(plan: StoragePlan, asked: number, throughputMBps: number | undefined): string {
  const fsx = fileSystemOf(plan);
  const key = fsxLustreKey(fsx);
  const forCapacity = fsxLustreCapacityGiB(asked, fsx);
  if (fsx.storageCapacityGiB > forCapacity) {
    const perf = FSX_LUSTRE_PERFORMANCE[key];
    const perTiB = Math.min(perf.diskReadMBpsPerTiB, perf.diskWriteMBpsPerTiB, perf.networkBaselineMBpsPerTiB);
    return `FSx for Lustre ${key} sustains ${perTiB} MB/s per TiB of storage, so sustaining throughputMBps ` +
      `${throughputMBps} takes ${fsx.storageCapacityGiB} GiB; ${forCapacity} GiB would hold the capacity`;
  }
  const { first, step } = capacitySteps(fsx.storageType, fsx.perUnitStorageThroughput);
  const steps = [...first.map((g) => `${g} GiB`), `${first.length > 0 ? 'then ' : ''}multiples of ${step} GiB`].join(', ');
  return `FSx for Lustre ${fsx.deploymentType} ${fsx.storageType} comes in capacity steps (${steps}); the smallest ` +
    `that holds ${asked} TiB is ${fsx.storageCapacityGiB} GiB`;
}

/** FSx for Lustre in the planner. */
export const FSX_LUSTRE_SIZING: BackendSizing<FsxLustreContext> = {
  fileSystem: 'FSx for Lustre',
  // Persistent only: SCRATCH_2 is not replicated, and is planned only when asked.
  candidates: ({ capacityTiB, targetMBps }) => fsxLustreOptions(true).map((options) => fsxPlan(options, capacityTiB, targetMBps)),
  // With options, the file system of those options; without, the default, or the cheapest persistent option that
  // sustains the throughput asked.
  planAsked: ({ request, capacityTiB, throughputMBps, cheapest }) => {
    if (request.fsxLustre !== undefined) return fsxAsAsked(resolveFsxLustreOptions(request.fsxLustre), capacityTiB, throughputMBps);
    return throughputMBps === undefined ? defaultFsxPlan(capacityTiB) : cheapest(FSX_PERSISTENT_OPTIONS);
  },
  // Without options its best is its cheapest persistent option, as `auto` weighs it, not the default.
  bestAsCheapest: (request) => (request.fsxLustre === undefined ? FSX_PERSISTENT_OPTIONS : undefined),
  options: {
    field: 'fsxLustre',
    check: (request) => {
      if (request.fsxLustre !== undefined) resolveFsxLustreOptions(request.fsxLustre);
    },
    refusedElsewhere: "auto chooses among the persistent FSx options itself: set backend 'fsx-lustre' to choose",
  },
  iops: () => ({ baseline: [], burst: [], unpublished: LUSTRE_IOPS_UNPUBLISHED }),
  iopsUnpublished: 'FSx for Lustre',
  clientProtocol: 'lustre',
  mountedAs: 'FSx for Lustre with its client installed where missing',
  // Loaded only when the facade builds: the planner loads no CDK.
  plugin: () => (require('../fsx-lustre') as typeof import('../fsx-lustre')).FSX_LUSTRE_PLUGIN,
  scalesOut: true,
  excessReason: ({ request, plan }) => excessReason(plan, request.capacityTiB, request.throughputMBps),
  table: {
    instanceLabel: 'deployment',
    storageLabel: 'storage',
    storage: (plan) => {
      const f = fileSystemOf(plan);
      return `FSx for Lustre ${f.deploymentType} ${f.storageType}, ${f.perUnitStorageThroughput} MB/s per TiB, ${f.storageCapacityGiB} GiB` +
        (f.deploymentType === 'SCRATCH_2' ? ' (not replicated)' : '');
    },
    summary: (plan) => `${plan.instanceType}, ${plan.fsxLustre?.storageCapacityGiB} GiB`,
    costNote: 'storage, us-east-1; backups extra',
    priceSource: () => "AWS's FSx price data (us-east-1) as cited in lib/backends/fsx/sizing/lustre.ts; storage only, backups extra",
  },
  outputs: {
    what: 'FSx for Lustre file system',
    layout: (plan) => {
      const f = fileSystemOf(plan);
      return `${f.deploymentType} ${f.storageType} ${f.perUnitStorageThroughput} MB/s/TiB, ${f.storageCapacityGiB} GiB`;
    },
    costNote: 'storage (backups extra)',
    mountCommand: 'Mount the file system on a client by hand (the Lustre client must be installed: see the README)',
  },
  context: FSX_LUSTRE_CONTEXT,
};
