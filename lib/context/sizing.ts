/**
 * The keys that size the server and choose its backend, the plan they give, and `instanceType`, checked against that
 * plan. The sizing keys are `capacityTiB`, `backend`, `generation`, `dataVolumeCount`, `throughputMBps`,
 * `restoreSnapshotIds` and each backend's own keys. The planner is pure, so the app plans here and a problem with the
 * plan names the context key rather than the construct's prop.
 */
import type { Backend } from '../../lambda/register/contract';
import { backendOrAuto } from '../backend-enum';
import { GenerationName, StoragePlan, StorageRequest, generationOf, instanceTypeProblem, planStorage } from '../sizing';
import { MAX_DATA_VOLUMES } from '../sizing/plan-ebs';
import { BACKEND_CHOICES } from '../sizing/validate-request';
import { duplicateValues } from '../validation/lists';
import { SNAPSHOT_ID_PATTERN, snapshotSetProblem } from '../validation/snapshots';
import type { NetworkKeys } from './backend-context';
import { checkBackendPlan, parseBackendKeys } from './backends';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { BackendContextSlices, StorageServerContext } from './storage-server-context';
import { ContextValues, contextError } from './values';

/** The context's sizing members: what the planner is asked. */
export type SizingContext = Pick<
  StorageServerContext, 'capacityTiB' | 'backend' | 'dataVolumeCount' | 'throughputMBps' | 'restoreSnapshotIds' | 'generation'
> & BackendContextSlices;

/** The sizing keys and the request they make. */
export interface SizingKeys {
  readonly sizing: SizingContext;
  readonly request: StorageRequest;
}

/**
 * The sizing keys, in the order they are checked: the backends' own keys last, and checked against the network keys
 * once their values are.
 */
export function parseSizingKeys(values: ContextValues<ContextKey>, network: NetworkKeys): SizingKeys {
  const { optional } = values;
  const capacityTiB = optional('capacityTiB', parseCapacity) ?? CONTEXT_DEFAULTS.capacityTiB;
  const backend = optional('backend', parseBackend) ?? CONTEXT_DEFAULTS.backend;
  const dataVolumeCount = optional('dataVolumeCount', parseVolumeCount);
  const throughputMBps = optional('throughputMBps', parseThroughput);
  const restoreSnapshotIds = optional('restoreSnapshotIds', parseSnapshotIds);
  const generation = optional('generation', parseGeneration) ?? CONTEXT_DEFAULTS.generation;
  const own = parseBackendKeys(values, backend, network);
  return {
    sizing: { capacityTiB, backend, dataVolumeCount, throughputMBps, restoreSnapshotIds, generation, ...own.context },
    request: { capacityTiB, backend: backendOrAuto(backend), dataVolumeCount, throughputMBps, generation: generationOf(generation), ...own.request },
  };
}

/**
 * The plan the sizing keys give, with the request it answers. It is checked to be a plan its backend can hold, and
 * against the snapshot set to restore. The plan is undefined when the planner refuses the request, whose reason the
 * construct reports.
 */
export function checkedPlan(values: ContextValues<ContextKey>, { sizing, request }: SizingKeys): { request: StorageRequest; plan: StoragePlan | undefined } {
  const { capacityTiB, throughputMBps, restoreSnapshotIds } = sizing;
  const plan = planOf(request);
  if (plan !== undefined) checkBackendPlan(plan, { capacityTiB, throughputMBps });
  if (restoreSnapshotIds !== undefined && plan !== undefined) checkSnapshotSet(restoreSnapshotIds, plan, capacityTiB, values.raw('restoreSnapshotIds')!);
  return { request, plan };
}

/** The `instanceType` key: a catalogued type the plan's backend takes, as lib/sizing/instance-type.ts decides. */
export function parseInstanceTypeKey(values: ContextValues<ContextKey>, plan: StoragePlan | undefined, sizing: SizingContext): string | undefined {
  const { capacityTiB, backend, throughputMBps } = sizing;
  return values.optional('instanceType', (key, value) => parseInstanceType(key, value, plan, { capacityTiB, backend: backendOrAuto(backend), throughputMBps }));
}

function parseCapacity(key: ContextKey, value: string): number {
  // Number('') and Number('0x10') are surprising; accept plain decimals only.
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) {
    throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  }
  const n = Number(value);
  // A number of hundreds of digits is too large for a double and reads as Infinity: refused here, as typed.
  if (!(n > 0) || !Number.isFinite(n)) throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  return n;
}

function parseThroughput(key: ContextKey, value: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(Number(value) > 0) || !Number.isFinite(Number(value))) {
    throw contextError(key, value, 'a positive number of MB/s (10^6 bytes per second), e.g. 400');
  }
  return Number(value);
}

function parseGeneration(key: ContextKey, value: string): GenerationName {
  if (value === 'previous' || value === 'current') return value;
  throw contextError(key, value, "'previous' (d2, m4) or 'current' (Nitro: m6i with st1, d3 and d3en)");
}

function parseBackend(key: ContextKey, value: string): Backend | 'auto' {
  const backend = BACKEND_CHOICES.find((b) => b === value);
  if (backend !== undefined) return backend;
  throw contextError(key, value, `one of ${BACKEND_CHOICES.map((b) => `'${b}'`).join(', ')}`);
}

function parseVolumeCount(key: ContextKey, value: string): number {
  if (!/^[1-9][0-9]?$/.test(value) || Number(value) > MAX_DATA_VOLUMES) {
    throw contextError(key, value, `a whole number of EBS data volumes from 1 to ${MAX_DATA_VOLUMES} (at most 16 TiB each, 48 TiB in all)`);
  }
  return Number(value);
}

function parseSnapshotIds(key: ContextKey, value: string): string[] {
  const ids = value.split(',').map((id) => id.trim());
  for (const id of ids) {
    if (!SNAPSHOT_ID_PATTERN.test(id)) {
      throw contextError(key, value, `a comma-separated list of snapshot ids such as 'snap-0123456789abcdef0' (bad: '${id}')`);
    }
  }
  const repeated = duplicateValues(ids);
  if (repeated.length > 0) {
    throw contextError(key, value, `a comma-separated list of distinct snapshot ids, one per data volume (repeated: ${repeated.join(', ')})`);
  }
  return ids;
}

/** The plan the context asks for, or undefined when the planner refuses it; the construct reports the refusal. */
function planOf(request: StorageRequest): StoragePlan | undefined {
  try {
    return planStorage(request);
  } catch {
    return undefined;
  }
}

/**
 * The snapshot set against the plan the same context gives, which the pure planner makes here, so that every problem
 * with it names the context key rather than the construct's prop.
 */
function checkSnapshotSet(ids: string[], plan: StoragePlan, capacityTiB: number, value: string): void {
  const problem = snapshotSetProblem(plan, ids);
  if (problem) {
    throw contextError('restoreSnapshotIds', value, `a snapshot set that fits the plan (${plan.backend} on ` +
      `${plan.instanceType} for capacityTiB=${capacityTiB}): ${problem}`);
  }
}

function parseInstanceType(
  key: ContextKey, value: string, plan: StoragePlan | undefined, asked: Pick<StorageRequest, 'capacityTiB' | 'backend' | 'throughputMBps'>,
): string {
  const problem = instanceTypeProblem(value, plan, asked);
  if (problem) throw contextError(key, value, problem);
  return value;
}
