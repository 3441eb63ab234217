/**
 * The best plan of one backend for a request, or why there is none: the rows of `npm run plan`'s side-by-side view in
 * plan-table.ts. It sits above the planner's entry point, which it asks.
 */
import { cheapestMeeting } from './cheapest-plan';
import { perClientOf } from './client-ceiling';
import { planStorage } from './plan';
import type { Backend, StoragePlan, StorageRequest } from './plan-types';
import { BACKEND_SIZING } from './registry';

/**
 * The best plan of one backend for a request, or the reason there is none, for `npm run plan`'s side-by-side view. It
 * is what `planStorage` gives with that backend, without the options of the others. A backend whose best is its
 * cheapest candidate, `bestAsCheapest`, gets that instead: FSx for Lustre without options, as `auto` would weigh it.
 */
export function bestPlanOf(backend: Backend, request: StorageRequest): StoragePlan | string {
  try {
    const why = BACKEND_SIZING[backend].bestAsCheapest?.(request);
    if (why !== undefined) {
      planStorage({ ...request, backend }); // refuses what the request gets wrong, with its message
      const plan = cheapestMeeting(request.capacityTiB, [backend], request.throughputMBps ?? 0, why, undefined, request.ioSizeKiB);
      return { ...plan, perClient: perClientOf(plan, request.client, BACKEND_SIZING[backend].clientProtocol) };
    }
    return planStorage({ ...withoutOthersOptions(backend, request), backend });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * `request` without the options objects of the backends other than `backend`, since each refuses or ignores the
 * others'.
 */
function withoutOthersOptions(backend: Backend, request: StorageRequest): StorageRequest {
  const others = Object.entries(BACKEND_SIZING).filter(([b, s]) => b !== backend && s.options !== undefined && request[s.options.field] !== undefined);
  return others.length === 0 ? request : { ...request, ...Object.fromEntries(others.map(([, s]) => [s.options?.field, undefined])) };
}
