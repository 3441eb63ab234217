/**
 * The choice `npm run plan` states under the side-by-side comparison: the cheapest row shown that holds the capacity
 * and sustains the throughput asked, EFS included. When that is EFS, which this project does not deploy, it also states
 * the cheapest deployable plan and what `cdk deploy` builds with the request's backend.
 */
import type { BackendComparison } from './plan-table';
import type { StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf } from './limit';

/** A row's monthly cost and sustained figure, or undefined for a row that cannot serve the request. */
function figures(row: BackendComparison): { usd: number; sustained: number; tib: number } | undefined {
  if (row.efs !== undefined) return { usd: row.efs.monthlyCostUsd, sustained: row.efs.sustainedMBps, tib: row.efs.storageGiB / 1024 };
  if (row.plan === undefined) return undefined;
  return { usd: row.plan.monthlyCostUsd, sustained: sustainedOf(row.plan), tib: row.plan.rawCapacityTiB };
}

/**
 * The cheapest row that holds `capacityTiB` and sustains `throughputMBps`, any when none is asked; `deployable` rows
 * only if asked.
 */
export function cheapestShown(request: StorageRequest, rows: readonly BackendComparison[], deployable = false): BackendComparison | undefined {
  const meeting = rows.filter((r) => {
    const f = figures(r);
    if (f === undefined || (deployable && r.efs !== undefined)) return false;
    return f.tib >= request.capacityTiB && f.sustained >= (request.throughputMBps ?? 0);
  });
  return meeting.sort((a, b) => (figures(a)?.usd ?? 0) - (figures(b)?.usd ?? 0))[0];
}

/** A row in words: its name, what it is, its price. */
function describeRow(row: BackendComparison): string {
  const usd = figures(row)?.usd ?? 0;
  return `${row.backend}${row.plan ? ` ${row.plan.instanceType}` : ''} at $${usd.toFixed(2)}/month`;
}

/** The choice line(s) for a request, its comparison rows and the plan `cdk deploy` builds for it. */
export function formatChoice(request: StorageRequest, rows: readonly BackendComparison[], deployed: StoragePlan): string {
  const asked = `holds ${request.capacityTiB} TiB${request.throughputMBps ? ` and sustains ${request.throughputMBps} MB/s` : ''}`;
  const best = cheapestShown(request, rows);
  const builds = `\`cdk deploy\` with backend ${request.backend ?? 'auto'} builds ${deployed.backend} ${deployed.instanceType} ` +
    `($${deployed.monthlyCostUsd.toFixed(2)}/month)`;
  if (best === undefined) return `Choice: no plan shown ${asked}. ${builds}.`;
  const lines = [`Choice: ${describeRow(best)}, the cheapest plan shown that ${asked}.`];
  if (best.efs !== undefined) {
    const deployable = cheapestShown(request, rows, true);
    lines.push("EFS is not deployed by this project: deploy it with aws-cdk-lib's aws-efs (aws_efs.FileSystem).");
    if (deployable !== undefined) lines.push(`The cheapest deployable plan: ${describeRow(deployable)}.`);
  }
  lines.push(`${builds}.`);
  return lines.join('\n');
}
