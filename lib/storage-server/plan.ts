import type { Construct } from 'constructs';
import { DISTINCT_PLUGINS } from '../backends/registry';
import type { PlanCheck } from '../backends/plugin';
import { warnAboutPlan } from '../plan-warnings';
import { StoragePlan, StorageRequest, planStorage } from '../sizing';
import { handedDownPlan } from './planned';
import type { StorageServerProps } from './props';
import { snapshotSetProblem } from '../validation';

// The facade's plan: the planner's answer to the props' request, checked by every backend's plugin against the props
// and what the server can record and restore, and adjusted as the chosen backend builds it; with the plan's synth
// warnings.

/** The plan the server is built from, for `capacityTiB`, its default applied, and the props. */
export function planServer(scope: Construct, props: StorageServerProps, capacityTiB: number): StoragePlan {
  const options = DISTINCT_PLUGINS.reduce<Partial<StorageRequest>>((all, plugin) => ({ ...all, ...plugin.requestOptions?.(props) }), {});
  const request: StorageRequest = {
    capacityTiB,
    backend: props.backend,
    dataVolumeCount: props.dataVolumeCount,
    throughputMBps: props.throughputMBps,
    generation: props.generation,
    ...options,
  };
  // The app planned this request already, to check its context keys against the plan: that plan, not a second.
  const planned = handedDownPlan(scope, request) ?? planStorage(request);
  const asked: PlanCheck = { server: props, capacityTiB, request };
  // Every plugin, in the registry's order: each refuses its own options on another backend's plan.
  const plan = DISTINCT_PLUGINS.reduce((p, plugin) => plugin.checkPlan?.(scope, p, asked) ?? p, planned);
  validateSnapshotIds(plan, props.dataVolumeSnapshotIds);
  warnAboutPlan(scope, request, planned, props.instanceType?.toString());
  for (const plugin of DISTINCT_PLUGINS) plugin.warnAboutPlan?.(scope, planned, asked);
  return plan;
}

/** A restore's snapshot set: one snapshot per planned volume. */
function validateSnapshotIds(plan: StoragePlan, ids: string[] | undefined): void {
  if (ids === undefined) return;
  const problem = snapshotSetProblem(plan, ids);
  if (problem) throw new Error(`dataVolumeSnapshotIds: ${problem}.`);
}
