/**
 * A plan made before the server, handed down to the facade so that one synth plans one server once. The app's context
 * parser makes it to check its keys against the plan. It is kept on the stack the server is built in, with the request
 * it answers. The facade takes it only for the very request its own props make, and plans itself otherwise, as in a
 * library user's app or with props that differ from the context's.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StoragePlan, StorageRequest } from '../sizing';

/** A request and its plan. */
export interface PlannedRequest {
  readonly request: StorageRequest;
  readonly plan: StoragePlan;
}

const PLANNED = new WeakMap<Stack, Map<string, StoragePlan>>();

/** The request as one string: its fields sorted and the absent ones dropped, so that equal requests read equal. */
export function requestKey(request: StorageRequest): string {
  return JSON.stringify(request, (_key, value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)))
    : value));
}

/** Hands `planned` down to the servers built in `stack`. */
export function handDownPlan(stack: Stack, planned: PlannedRequest): void {
  const plans = PLANNED.get(stack) ?? new Map<string, StoragePlan>();
  plans.set(requestKey(planned.request), planned.plan);
  PLANNED.set(stack, plans);
}

/** The plan handed down for `request` in the stack of `scope`, if one was. */
export function handedDownPlan(scope: IConstruct, request: StorageRequest): StoragePlan | undefined {
  return PLANNED.get(Stack.of(scope))?.get(requestKey(request));
}
