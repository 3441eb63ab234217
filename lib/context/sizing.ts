/**
 * The keys that size the server and choose its backend (`capacityTiB`, `backend`, `generation`, `dataVolumeCount`,
 * `throughputMBps`, `restoreSnapshotIds`, the FSx and OpenZFS keys), the plan they give (the planner is pure, so a problem with
 * the plan names the context key rather than the construct's prop), and `instanceType`, checked against that plan.
 */
import { Backend, Generation, StoragePlan, StorageRequest, instanceTypeProblem, planStorage } from '../sizing';
import { BACKEND_CHOICES } from '../sizing/validate-request';
import { MAX_FSX_STORAGE_CAPACITY_GIB, oversizedFsxField } from '../validation/fsx-lustre';
import { duplicateValues } from '../validation/lists';
import { SNAPSHOT_ID_PATTERN, snapshotSetProblem } from '../validation/snapshots';
import { FsxContext, fsxRequest, parseFsxKeys } from './fsx-lustre';
import { OpenZfsContext, openZfsRequest, parseOpenZfsKeys } from './fsx-openzfs';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError } from './values';

/** The context's sizing members: what the planner is asked. */
export type SizingContext = Pick<
  StorageServerContext, 'capacityTiB' | 'backend' | 'dataVolumeCount' | 'throughputMBps' | 'restoreSnapshotIds' | 'generation'
> & FsxContext & OpenZfsContext;

/** The sizing keys, in the order they are checked. */
export function parseSizingKeys(values: ContextValues): SizingContext {
  const { optional } = values;
  const capacityTiB = optional('capacityTiB', parseCapacity) ?? CONTEXT_DEFAULTS.capacityTiB;
  const backend = optional('backend', parseBackend) ?? CONTEXT_DEFAULTS.backend;
  const dataVolumeCount = optional('dataVolumeCount', parseVolumeCount);
  const throughputMBps = optional('throughputMBps', parseThroughput);
  const restoreSnapshotIds = optional('restoreSnapshotIds', parseSnapshotIds);
  const generation = optional('generation', parseGeneration) ?? CONTEXT_DEFAULTS.generation;
  const fsx = parseFsxKeys(values, backend);
  const zfs = parseOpenZfsKeys(values, backend);
  return { capacityTiB, backend, dataVolumeCount, throughputMBps, restoreSnapshotIds, generation, ...fsx, ...zfs };
}

/**
 * The plan the sizing keys give, checked (a size the stack can hold, and the snapshot set to restore), with the request
 * it answers. The plan is undefined when the planner refuses the request (the construct reports the planner's reason).
 */
export function checkedPlan(values: ContextValues, sizing: SizingContext): { request: StorageRequest; plan: StoragePlan | undefined } {
  const { capacityTiB, backend, dataVolumeCount, throughputMBps, restoreSnapshotIds, generation } = sizing;
  const request: StorageRequest = {
    capacityTiB, backend, dataVolumeCount, throughputMBps, generation, fsxLustre: fsxRequest(sizing), fsxOpenZfs: openZfsRequest(sizing),
  };
  const plan = planOf(request);
  checkPlanSize(plan, capacityTiB, throughputMBps);
  if (restoreSnapshotIds !== undefined && plan !== undefined) checkSnapshotSet(restoreSnapshotIds, plan, capacityTiB, values.raw('restoreSnapshotIds')!);
  return { request, plan };
}

/** The `instanceType` key: a catalogued type the plan's backend takes (lib/sizing/instance-type.ts says which). */
export function parseInstanceTypeKey(values: ContextValues, plan: StoragePlan | undefined, sizing: SizingContext): string | undefined {
  const { capacityTiB, backend, throughputMBps } = sizing;
  return values.optional('instanceType', (key, value) => parseInstanceType(key, value, plan, { capacityTiB, backend, throughputMBps }));
}

function parseCapacity(key: ContextKey, value: string): number {
  // Number('') and Number('0x10') are surprising; accept plain decimals only.
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) {
    throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  }
  const n = Number(value);
  // A number too large for a double (hundreds of digits) reads as Infinity: refused here, as typed.
  if (!(n > 0) || !Number.isFinite(n)) throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  return n;
}

function parseThroughput(key: ContextKey, value: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(Number(value) > 0) || !Number.isFinite(Number(value))) {
    throw contextError(key, value, 'a positive number of MB/s (10^6 bytes per second), e.g. 400');
  }
  return Number(value);
}

function parseGeneration(key: ContextKey, value: string): Generation {
  if (value === 'previous' || value === 'current') return value;
  throw contextError(key, value, "'previous' (d2, m4) or 'current' (Nitro: m6i with st1, d3 and d3en)");
}

function parseBackend(key: ContextKey, value: string): Backend | 'auto' {
  const backend = BACKEND_CHOICES.find((b) => b === value);
  if (backend !== undefined) return backend;
  throw contextError(key, value, `one of ${BACKEND_CHOICES.map((b) => `'${b}'`).join(', ')}`);
}

function parseVolumeCount(key: ContextKey, value: string): number {
  if (!/^[1-3]$/.test(value)) {
    throw contextError(key, value, 'a whole number of EBS data volumes from 1 to 3 (at most 16 TiB each, 48 TiB in all)');
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

/** The plan the context asks for, or undefined when the planner refuses it (the construct reports the planner). */
function planOf(request: StorageRequest): StoragePlan | undefined {
  try {
    return planStorage(request);
  } catch {
    return undefined;
  }
}

/**
 * A plan the stack can hold: an FSx for Lustre file system of at most {@link MAX_FSX_STORAGE_CAPACITY_GIB} (the
 * planner has no upper bound of its own there). Names throughputMBps when the file system was sized up for it.
 */
function checkPlanSize(plan: StoragePlan | undefined, capacityTiB: number, throughputMBps: number | undefined): void {
  const gib = plan?.fsxLustre?.storageCapacityGiB;
  const field = oversizedFsxField(gib, capacityTiB, throughputMBps);
  if (field === 'throughputMBps') {
    throw contextError('throughputMBps', String(throughputMBps), `a throughput an FSx for Lustre file system of at most ` +
      `${MAX_FSX_STORAGE_CAPACITY_GIB} GiB sustains (the plan sized it up to ${gib} GiB)`);
  }
  // No "at most N TiB": FSx's capacity steps round a request up, so the largest that fits is not a whole TiB figure.
  if (field === 'capacityTiB') {
    throw contextError('capacityTiB', String(capacityTiB), `a positive number of TiB whose FSx for Lustre plan fits in ` +
      `${MAX_FSX_STORAGE_CAPACITY_GIB} GiB, the largest file system this app records (capacityTiB=${capacityTiB} is planned ` +
      `as ${gib} GiB after FSx's capacity steps)`);
  }
}

/**
 * The snapshot set against the plan the same context gives (the planner is pure), so that every problem with it
 * names the context key rather than the construct's prop.
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
