/**
 * The check of a storage request: each field within what the planner accepts, with an error naming the field, the value
 * and the allowed range. And the capacity checks, which depend on the backend and the families the request resolves to.
 * plan.ts calls them where the plan needs them, so that each request meets its own message.
 */
import { BEYOND_ONE_SERVER, MAX_EBS_CAPACITY_TIB, instanceStoreTiB } from './catalog';
import { describe } from './describe';
import { FAMILIES, Families } from './families';
import { DEFAULT_IO_SIZE_KIB, validateIoSize } from './io-size';
import { MAX_DATA_VOLUMES, MAX_SINGLE_VOLUME_TIB } from './plan-ebs';
import { largestInstanceStore } from './plan-instance-store';
import { BACKENDS, type Backend } from '../../lambda/register/contract';
import type { ArchName, GenerationName, StorageRequest } from './plan-types';
import { BACKEND_SIZING } from './registry';
import { formatTiB } from './round';

/** The backends a request may name: 'auto', where the planner chooses, or one the records know. */
export const BACKEND_CHOICES: readonly (Backend | 'auto')[] = ['auto', ...BACKENDS];

/** A request whose fields but the capacity are checked: its backend, layout, families, throughput and request size. */
export interface ValidRequest {
  /** The backend asked for, or `auto`. */
  readonly backend: Backend | 'auto';
  /** The EBS volumes of an existing stripe, when asked. */
  readonly dataVolumeCount: number | undefined;
  /** The instance types of the generation and architecture asked for. */
  readonly families: Families;
  /** The throughput asked for, MB/s. */
  readonly throughputMBps: number | undefined;
  /** The random request size, KiB; 1,024 when not asked. */
  readonly ioSizeKiB: number;
}

/** Checks every field of `request` but its capacity, in an order that decides the message when several are wrong. */
export function validateRequest(request: StorageRequest): ValidRequest {
  if (typeof request !== 'object' || request === null) {
    throw new Error(`request must be an object { capacityTiB, backend? }; got ${describe(request)}`);
  }
  const backend = validBackend(request.backend);
  const dataVolumeCount = validDataVolumeCount(request.dataVolumeCount, backend);
  checkOptionsScope(request, backend);
  const families = validFamilies(request.arch, request.generation, backend);
  if (backend !== 'auto') BACKEND_SIZING[backend].options?.check?.(request);
  const throughputMBps = validThroughput(request.throughputMBps);
  const ioSizeKiB = request.ioSizeKiB === undefined ? DEFAULT_IO_SIZE_KIB : validateIoSize(request.ioSizeKiB);
  return { backend, dataVolumeCount, families, throughputMBps, ioSizeKiB };
}

function validBackend(value: Backend | 'auto' | undefined): Backend | 'auto' {
  const backend = value ?? 'auto';
  if (!BACKEND_CHOICES.includes(backend)) {
    throw new Error(
      `backend must be one of ${BACKEND_CHOICES.map((b) => `'${b}'`).join(', ')}; got ${describe(backend)}`,
    );
  }
  return backend;
}

function validDataVolumeCount(count: number | undefined, backend: Backend | 'auto'): number | undefined {
  if (count === undefined) return undefined;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_DATA_VOLUMES) {
    throw new Error(`dataVolumeCount must be a whole number from 1 to ${MAX_DATA_VOLUMES}; got ${describe(count)}`);
  }
  if (backend !== 'ebs' && backend !== 'auto') {
    throw new Error(`dataVolumeCount applies to the EBS backend only; got backend '${backend}'`);
  }
  return count;
}

/** A backend's options that it alone takes, `refusedElsewhere`, given with another backend. */
function checkOptionsScope(request: StorageRequest, backend: Backend | 'auto'): void {
  for (const [owner, sizing] of Object.entries(BACKEND_SIZING)) {
    const options = sizing.options;
    if (options?.refusedElsewhere === undefined || request[options.field] === undefined || backend === owner) continue;
    throw new Error(
      `${options.field} options apply to backend '${owner}' only; got backend '${backend}'` +
        (backend === 'auto' ? ` (${options.refusedElsewhere})` : ''),
    );
  }
}

/** The families of the architecture and generation asked for; arm64 is current only, with no instance store. */
function validFamilies(asked: ArchName | undefined, askedGeneration: GenerationName | undefined, backend: Backend | 'auto'): Families {
  const arch = asked ?? 'x86_64';
  if (arch !== 'x86_64' && arch !== 'arm64') {
    throw new Error(`arch must be 'x86_64' or 'arm64' (AWS Graviton); got ${describe(arch)}`);
  }
  const generation = askedGeneration ?? (arch === 'arm64' ? 'current' : 'previous');
  if (generation !== 'previous' && generation !== 'current') {
    throw new Error(`generation must be 'previous' (d2, m4) or 'current' (Nitro: m6i, m7i, the network-optimized types, d3, d3en); got ${describe(generation)}`);
  }
  const families = FAMILIES[`${generation} ${arch}`];
  if (families === undefined) {
    throw new Error(`arch 'arm64' (AWS Graviton) is current generation only; got generation '${generation}': give generation 'current' or leave it out`);
  }
  if (arch === 'arm64' && backend === 'instance-store') {
    throw new Error("backend 'instance-store' with arch 'arm64': AWS sells no Graviton type with instance-store HDDs; give backend 'ebs', 'fsx-lustre' or 'auto', or arch 'x86_64'");
  }
  return families;
}

function validThroughput(throughput: number | undefined): number | undefined {
  if (throughput !== undefined && (typeof throughput !== 'number' || !Number.isFinite(throughput) || throughput <= 0)) {
    throw new Error(`throughputMBps must be a number of MB/s greater than 0; got ${describe(throughput)}`);
  }
  return throughput;
}

/** A capacity for FSx for Lustre, which has no single-server limit: a finite number greater than 0. */
export function validatePositive(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`capacityTiB must be a number greater than 0; got ${describe(value)}`);
  }
  return value;
}

/** A capacity the backend can hold on one server: a finite number greater than 0, at most its `capacityLimit`. */
export function validateCapacity(value: unknown, backend: Backend | 'auto', families: Families): number {
  const limit = capacityLimit(backend, families);
  const allowed = `a number greater than 0 and at most ${formatTiB(limit.maxTiB)} for backend '${backend}' (${limit.why})`;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`capacityTiB must be ${allowed}; got ${describe(value)}`);
  }
  if (value > limit.maxTiB) {
    throw new Error(`capacityTiB must be ${allowed}; got ${value}. ${limit.beyond}`);
  }
  return value;
}

/** The most a backend can hold, why, and where to go beyond it; for instance store, the generation's largest. */
function capacityLimit(backend: Backend | 'auto', families: Families): { maxTiB: number; why: string; beyond: string } {
  // Graviton has no instance store, so `auto` on arm64 holds what EBS holds; planStorage refuses instance-store there.
  if (backend === 'ebs' || families.instanceStore.length === 0) {
    return {
      maxTiB: MAX_EBS_CAPACITY_TIB,
      why: `striped st1 volumes of at most ${MAX_SINGLE_VOLUME_TIB} TiB each`,
      beyond: `Beyond that ${BEYOND_ONE_SERVER}.`,
    };
  }
  const largest = largestInstanceStore(families);
  return {
    maxTiB: instanceStoreTiB(largest),
    why: `the largest instance store, ${largest.name}, holds ${formatTiB(instanceStoreTiB(largest))} TiB`,
    // 'auto' never reaches here above its limit: planStorage weighs every backend beyond it.
    beyond: `Beyond that ${BEYOND_ONE_SERVER}.`,
  };
}
