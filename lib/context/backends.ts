/**
 * What the shared parser asks of every backend, through the registry in lib/sizing/registry.ts alone: its own keys,
 * parsed only with that backend; its refusals of a plan and of `nconnect`; the keys only another kind honours; and,
 * for the stack, the facade's props its keys set.
 */
import type { Backend } from '../../lambda/register/contract';
import type { BackendSizing } from '../sizing/backend-sizing';
import type { StoragePlan, StorageRequest } from '../sizing/plan-types';
import { BACKEND_SIZING, SEARCH_ORDER } from '../sizing/registry';
import type { BackendProps, NetworkKeys, PlanAsked, PropsLookups } from './backend-context';
import type { ContextKey } from './keys';
import type { BackendContextSlices, StorageServerContext } from './storage-server-context';
import { type ContextValues, contextError } from './values';

/** The registry read as one type: what every descriptor has. */
const DESCRIPTORS: { readonly [B in Backend]: BackendSizing } = BACKEND_SIZING;

/**
 * The backends' own keys, backend by backend in the registry's order, with the request's fields they set. A key given
 * with another backend is refused; the others are parsed by their backend's descriptor.
 */
export function parseBackendKeys(
  values: ContextValues<ContextKey>, backend: Backend | 'auto', network: NetworkKeys,
): { context: BackendContextSlices; request: Partial<StorageRequest> } {
  let context = {};
  let request: Partial<StorageRequest> = {};
  for (const name of SEARCH_ORDER) {
    const keys = DESCRIPTORS[name].context?.keys;
    if (keys === undefined) continue;
    // The key table is built from these defaults, so each is a ContextKey.
    const given = (Object.keys(keys.defaults) as ContextKey[]).filter((key) => values.raw(key) !== undefined);
    if (given.length === 0) continue;
    if (backend !== name) {
      throw contextError(given[0], values.raw(given[0])!, `only together with backend=${name} (backend is '${backend}')`);
    }
    const parsed = keys.parse(values, network);
    context = { ...context, ...parsed.context };
    request = { ...request, ...parsed.request };
  }
  return { context: context as BackendContextSlices, request };
}

/** Refuses a plan its backend says the stack cannot hold. */
export function checkBackendPlan(plan: StoragePlan, asked: PlanAsked): void {
  DESCRIPTORS[plan.backend].context?.checkPlan?.(plan, asked);
}

/** What a refusal of `nconnect` says is allowed on this plan; undefined where the clients mount NFS. */
export function nconnectRefusal(plan: StoragePlan | undefined): string | undefined {
  return plan === undefined ? undefined : DESCRIPTORS[plan.backend].context?.nconnectRefusal;
}

/**
 * Refuses a given key that only another kind of backend honours, naming the key as typed rather than the construct's
 * prop it sets. `false` for a switch is the same as leaving it out; for a key of text it is a value like any other.
 */
export function refuseExclusiveKeys(values: ContextValues<ContextKey>, plan: StoragePlan | undefined): void {
  if (plan === undefined) return;
  const own = DESCRIPTORS[plan.backend].context?.exclusiveKeys;
  for (const exclusive of new Set(SEARCH_ORDER.map((name) => DESCRIPTORS[name].context?.exclusiveKeys))) {
    if (exclusive === undefined || exclusive === own) continue;
    // Keys of the shared table, as test/unit/context-backends.test.ts checks.
    for (const key of exclusive.keys as readonly ContextKey[]) {
      const value = values.raw(key);
      if (value === undefined || (value === 'false' && (exclusive.switches ?? []).includes(key))) continue;
      throw contextError(key, value, `nothing with backend ${plan.backend}: ${key} applies to ${exclusive.holders} only; leave ${key} out`);
    }
  }
}

/**
 * The facade's props the keys of the backend asked for by name set, for the stack to spread into the server's; none
 * under `auto`, since every backend's own keys are refused then.
 */
export function backendProps(context: StorageServerContext, lookups: PropsLookups): BackendProps {
  if (context.backend === 'auto') return {};
  return DESCRIPTORS[context.backend].context?.props?.(context, lookups) ?? {};
}
