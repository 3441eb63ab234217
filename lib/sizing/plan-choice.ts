/**
 * The answer `npm run plan` states under the side-by-side comparison: what `cdk deploy` builds for the request. When a
 * row shown is cheaper, EFS included, one more line says why the backend asked (`auto` by default) does not build it
 * and how to get it. `auto` keeps its capacity rule's EC2 servers, since moving a deployed stack's backend is refused.
 */
import type { BackendComparison } from './plan-table';
import type { StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf } from './limit';
import { capacityRuleLimitTiB } from './plan';
import { formatTiB } from './round';
import { validateRequest } from './validate-request';
import { UNWRAPPED, wrapText } from './wrap';

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

/**
 * The answer for a request, its comparison rows and the plan `cdk deploy` builds for it: that plan, and when a row
 * shown is cheaper, why the backend asked does not build it and how to get it. Each line wraps at `width`.
 */
export function formatChoice(request: StorageRequest, rows: readonly BackendComparison[], deployed: StoragePlan, width = UNWRAPPED): string {
  const asked = `${request.capacityTiB} TiB${request.throughputMBps ? ` and sustains ${request.throughputMBps} MB/s` : ''}`;
  const backend = request.backend ?? 'auto';
  const usd = deployed.monthlyCostUsd;
  const builds = `${deployed.backend} ${deployed.instanceType} at $${usd.toFixed(2)}/month`;
  const cheaper = (row: BackendComparison | undefined) => (row !== undefined && (figures(row)?.usd ?? usd) < usd - 0.005 ? row : undefined);
  const server = cheaper(cheapestShown(request, rows, true));
  const cheapest = cheaper(cheapestShown(request, rows));
  const efsRow = cheapest?.efs === undefined ? undefined : cheapest;
  const meets = deployed.rawCapacityTiB >= request.capacityTiB && sustainedOf(deployed) >= (request.throughputMBps ?? 0);
  const answer = server === undefined && efsRow === undefined && meets
    ? `Choice: ${builds}, the cheapest plan shown that holds ${asked}; \`cdk deploy\` with backend ${backend} builds it.`
    : `Choice: ${builds}, what \`cdk deploy\` with backend ${backend} builds${meets ? `; it holds ${asked}` : ''}.`;
  const why = server === undefined
    ? efsRow && `${describeRow(efsRow).replace(/ at /, ' is cheaper at ')}, but this project deploys no EFS: ${EFS_HOW}.`
    : `${describeRow(server).replace(/ at /, ' is cheaper at ')}; ${notBuilt(request, deployed)}: pass backend ${server.backend} ` +
      `(-c backend=${server.backend}) to build it.${efsRow ? ` This project deploys no EFS: ${describeRow(efsRow)} is cheaper still ` +
        `(${EFS_HOW}).` : ''}`;
  return wrapText([answer, why].filter(Boolean).join('\n'), width, 2);
}

/** Where to get an EFS file system, which this project does not deploy. */
const EFS_HOW = "deploy it with aws-cdk-lib's aws_efs.FileSystem";

/** In a few words, why the backend asked builds `deployed` and not a cheaper row. */
function notBuilt(request: StorageRequest, deployed: StoragePlan): string {
  const backend = request.backend ?? 'auto';
  if (backend !== 'auto') return `you asked for backend ${backend}`;
  if (request.dataVolumeCount !== undefined) return `dataVolumeCount ${request.dataVolumeCount} keeps an existing EBS stripe`;
  const limit = capacityRuleLimitTiB(validateRequest(request));
  if (request.capacityTiB <= limit) {
    return `auto keeps EC2 up to ${formatTiB(limit)} TiB${request.throughputMBps ? ' where it sustains the throughput' : ''}, ` +
      'so a deployed stack keeps its backend';
  }
  return `auto chose by its own rule (${deployed.reason})`;
}
