/**
 * The cheapest-plan search, for `auto` and a throughput when the capacity rule's plan does not do. It takes every
 * single-server plan of the allowed backends that holds the capacity, and gives the cheapest of those that sustain the
 * throughput asked for, with why; or the message naming the best any of them sustains.
 */
import { BEYOND_ONE_SERVER } from './catalog';
import { Families, PREVIOUS } from './families';
import { whyGp3 } from './gp3';
import { DEFAULT_IO_SIZE_KIB } from './io-size';
import { unpublishedIopsRefusal, withIoSize } from './plan-io-size';
import { lowerBound } from './plan-instance-store';
import type { Backend } from '../../lambda/register/contract';
import type { StoragePlan } from './plan-types';
import { sustainedOf } from './limit';
import { BACKEND_SIZING, SEARCH_ORDER } from './registry';

/**
 * The cheapest catalogued plan of `backends` that holds `capacityTiB` and sustains `targetMBps`, with `why` in its
 * reason, which says what the capacity rule could not do. Throws naming the best any of them sustains when none does.
 */
export function cheapestMeeting(
  capacityTiB: number, backends: readonly Backend[], targetMBps: number, why: string, families: Families = PREVIOUS,
  ioSizeKiB = DEFAULT_IO_SIZE_KIB,
): StoragePlan {
  const candidates = candidatePlans(capacityTiB, backends, targetMBps, families, ioSizeKiB);
  const bounded = candidates.map((c) => withIoSize(c, ioSizeKiB));
  const meeting = bounded.map((c, i) => ({ c, i })).filter(({ c }) => sustains(c, targetMBps));
  const cheapest = meeting.sort((a, b) => a.c.monthlyCostUsd - b.c.monthlyCostUsd)[0];
  if (cheapest === undefined) throw new Error(noneSustains(bounded, capacityTiB, backends, targetMBps, ioSizeKiB));
  const plan = candidates[cheapest.i];
  const asked = targetMBps > 0 ? ` and sustains ${targetMBps} MB/s` : '';
  return withIoSize({
    ...plan,
    reason: `the cheapest plan that holds ${capacityTiB} TiB${asked} (${why})${whyGp3(plan, targetMBps)}${lowerBound(plan)}`,
  }, ioSizeKiB);
}

/** Why no candidate will do: the most any of them sustains, and where to go beyond one server. */
function noneSustains(candidates: readonly StoragePlan[], capacityTiB: number, backends: readonly Backend[], targetMBps: number, ioSizeKiB: number): string {
  const counted = candidates.filter((c) => !c.throughput.upperBoundAtIoSize);
  const best = counted.length > 0 ? Math.max(...counted.map(sustainedOf)) : 0;
  const only = backends.length === 1 ? `${backends[0]} ` : '';
  if (candidates.length > 0 && counted.length === 0) {
    return unpublishedIopsRefusal(targetMBps, ioSizeKiB, only);
  }
  const at = ioSizeKiB === DEFAULT_IO_SIZE_KIB ? ''
    : ` in random ${ioSizeKiB} KiB requests (storage without published IOPS, instance store and FSx for Lustre, not counted)`;
  const beyond = SEARCH_ORDER.filter((b) => BACKEND_SIZING[b].scalesOut && !backends.includes(b));
  return `throughputMBps ${targetMBps} is more than any single ${only}server sustains for ${capacityTiB} TiB${at} (at most ` +
    `${best} MB/s once burst credits are spent); beyond that ${BEYOND_ONE_SERVER}` +
    (beyond.length === 0 ? '' : ` (${beyond.map((b) => `backend '${b}'`).join(', ')}, or 'auto')`);
}

/**
 * The single-server plans of `backends` that hold the capacity: each backend's `candidates` in registry.ts, weighed in
 * the registry's order.
 */
function candidatePlans(capacityTiB: number, backends: readonly Backend[], targetMBps: number, families: Families, ioSizeKiB: number): StoragePlan[] {
  const query = { capacityTiB, targetMBps, families, ioSizeKiB };
  return SEARCH_ORDER.filter((b) => backends.includes(b)).flatMap((b) => BACKEND_SIZING[b].candidates(query));
}

/**
 * Whether a plan sustains `mbps` once every credit is spent. A figure that AWS's IOPS figures do not carry at the
 * plan's request size, `upperBoundAtIoSize`, sustains no throughput asked.
 */
export function sustains(plan: Omit<StoragePlan, 'reason'>, mbps: number): boolean {
  return sustainedOf(plan) >= mbps && !(mbps > 0 && plan.throughput.upperBoundAtIoSize === true);
}
