/**
 * The best plan of one backend for a request, or why there is none: the rows of `npm run plan`'s side-by-side view
 * (plan-table.ts). Above the planner's entry point, which it asks.
 */
import { cheapestMeeting } from './cheapest-plan';
import { perClientOf } from './client-ceiling';
import { planStorage } from './plan';
import { FSX_PERSISTENT_OPTIONS } from './plan-fsx';
import type { Backend, StoragePlan, StorageRequest } from './plan-types';

/**
 * The best plan of one backend for a request, or the reason there is none (`npm run plan`'s side-by-side view):
 * what `planStorage` gives with that backend, except that FSx for Lustre without options is its cheapest persistent
 * option that holds the capacity (and sustains the throughput), as `auto` would weigh it.
 */
export function bestPlanOf(backend: Backend, request: StorageRequest): StoragePlan | string {
  try {
    if (backend === 'fsx-lustre' && request.fsxLustre === undefined) {
      planStorage({ ...request, backend: 'fsx-lustre' }); // refuses what the request gets wrong, with its message
      const plan = cheapestMeeting(request.capacityTiB, ['fsx-lustre'], request.throughputMBps ?? 0, FSX_PERSISTENT_OPTIONS, undefined, request.ioSizeKiB);
      return { ...plan, perClient: perClientOf(plan, request.client) };
    }
    return planStorage({ ...request, backend, fsxLustre: backend === 'fsx-lustre' ? request.fsxLustre : undefined });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
