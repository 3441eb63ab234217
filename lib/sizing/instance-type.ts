/**
 * The instance type beside the planner's choice: which types an `instanceType` override may name for a plan. And the
 * capacities over which the planner's automatic choice stays one type, its tier, for the synth warning that growth
 * across a tier stops and starts the instance. Pure functions, no CDK imports.
 */
import { MAX_EBS_CAPACITY_TIB, instanceStoreTiB } from './catalog';
import { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES, familyList } from './catalog-lookup';
import { planServerCore } from './plan';
import { withInstanceType } from './plan-ebs';
import type { StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf } from './limit';
import { BACKEND_SIZING } from './registry';
import { estimateThroughput } from './throughput';

/**
 * The catalogued types an `instanceType` override may name for `plan` of `capacityTiB`. On EBS that is every type with
 * EBS data volumes: m4, m6i, m7i, Graviton m7g and m6g, and the network-optimized families. On instance store it is
 * each d2, d3 or d3en whose disks hold the capacity, of either generation, as on EBS. None for a file system, which has
 * no instance.
 */
export function instanceTypesFor(plan: Pick<StoragePlan, 'backend' | 'instanceType'>, capacityTiB: number): string[] {
  if (plan.backend === 'ebs') return OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name);
  if (plan.backend === 'instance-store') {
    return OVERRIDE_INSTANCE_STORE_TYPES.filter((t) => instanceStoreTiB(t) >= capacityTiB || t.name === plan.instanceType).map((t) => t.name);
  }
  return [];
}

/**
 * What is wrong with `name` as the instance type of `plan`, in the words of an "allowed is ..." message; undefined when
 * nothing is. It names the types the plan's backend takes, the backend, and, when `auto` chose it, the capacity it
 * chose it for. With `throughputMBps` it names those of them that sustain it on the plan's disks. With no plan, any
 * catalogued type: the planner refused the request and says why itself.
 */
export function instanceTypeProblem(
  name: string,
  plan: StoragePlan | undefined,
  asked: Pick<StorageRequest, 'capacityTiB' | 'backend' | 'throughputMBps'>,
): string | undefined {
  if (plan === undefined) {
    const all = [...OVERRIDE_EBS_INSTANCE_TYPES, ...OVERRIDE_INSTANCE_STORE_TYPES].map((t) => t.name);
    return all.includes(name) ? undefined : `a catalogued instance type: ${familyList(all)}`;
  }
  const chosen = (asked.backend ?? 'auto') === 'auto' ? ` (auto's choice for capacityTiB=${asked.capacityTiB})` : '';
  const fileSystem = BACKEND_SIZING[plan.backend].fileSystem;
  if (fileSystem !== undefined) {
    return `no instanceType with backend ${plan.backend}${chosen}: an ${fileSystem} file system has no instance (leave ` +
      'instanceType out, or give backend=ebs or backend=instance-store)';
  }
  const allowed = instanceTypesFor(plan, asked.capacityTiB);
  if (allowed.includes(name)) {
    const target = asked.throughputMBps;
    if (target === undefined || sustainedOn(plan, name) >= target) return undefined;
    const meeting = allowed.filter((t) => sustainedOn(plan, t) >= target);
    return `a type that sustains throughputMBps=${target} on the plan's ${disksOf(plan)} (${name} sustains ` +
      `${sustainedOn(plan, name)} MB/s${plan.backend === 'ebs' ? ' once burst credits are spent' : ''}): ${familyList(meeting)}`;
  }
  if (plan.backend === 'ebs') {
    return `for backend ebs${chosen} a catalogued type with EBS data volumes: ${familyList(allowed)} (m7g, m6g, c8gb, m8gb ` +
      'and r8gb are Graviton: the server gets the arm64 image)';
  }
  const ebsType = OVERRIDE_EBS_INSTANCE_TYPES.some((t) => t.name === name);
  return `for backend instance-store${chosen} a d2, d3 or d3en whose disks hold capacityTiB=${asked.capacityTiB}: ${familyList(allowed)}` +
    (ebsType ? ` (${name} has no instance store: give backend=ebs for it)` : '');
}

/** What `plan`'s disks sustain on the instance type `name` once every burst credit is spent, MB/s. */
function sustainedOn(plan: StoragePlan, name: string): number {
  return sustainedOf({ throughput: plan.backend === 'ebs' ? withInstanceType(plan, name).throughput : estimateThroughput(name) });
}

function disksOf(plan: StoragePlan): string {
  const v = plan.dataVolumes[0];
  if (plan.backend !== 'ebs') return 'instance-store disks';
  return `${plan.dataVolumes.length} x ${v.volumeType} ${v.sizeGiB} GiB` + (v.volumeType === 'gp3' ? ` at ${v.throughputMiBps} MiB/s` : '');
}

/** The capacities, in whole GiB, for which the planner makes an EBS server of one type with the same volume count. */
export interface InstanceTypeTier {
  /** The type the planner chooses for the request. */
  readonly instanceType: string;
  /** The smallest capacity, GiB, that gets this type; 1 when nothing smaller gets another. */
  readonly minGiB: number;
  /** The largest capacity, GiB, that gets this type. */
  readonly maxGiB: number;
  /**
   * The type the planner chooses just above `maxGiB` with the same backend and volume count: growth there changes the
   * instance type alone. Absent when growth past `maxGiB` changes the backend or the volume count, which the update
   * guard refuses anyway, or when nothing larger can be planned.
   * @default - none
   */
  readonly nextInstanceType?: string;
}

/** Capacities are whole GiB to the planner, which sizes st1 volumes in GiB, so the tier is searched in GiB. */
const GIB_PER_TIB = 1024;
const MAX_GIB = MAX_EBS_CAPACITY_TIB * GIB_PER_TIB;

/**
 * The tier of the planner's automatic choice for `request`: the capacities that get the same backend, volume count and
 * instance type, the request's other fields unchanged. EBS only, undefined otherwise, since an instance-store type
 * change loses the data and the update guard refuses it. The bounds are found by doubling steps and bisection. So they
 * are exact where the choice changes once at each bound, as the capacity rules do. With `throughputMBps` the cheapest
 * plan may switch back and forth, and the nearest switch is then the one reported.
 */
export function instanceTypeTier(request: StorageRequest): InstanceTypeTier | undefined {
  const plan = planServerCore(request);
  if (plan.backend !== 'ebs') return undefined;
  const key = (p: StoragePlan) => `${p.backend} ${p.dataVolumes.length} ${p.instanceType}`;
  const planAt = (gib: number): StoragePlan | undefined => {
    if (gib < 1 || gib > MAX_GIB) return undefined;
    try {
      return planServerCore({ ...request, capacityTiB: gib / GIB_PER_TIB });
    } catch {
      return undefined;
    }
  };
  const same = (gib: number) => {
    const p = planAt(gib);
    return p !== undefined && key(p) === key(plan);
  };
  const start = Math.ceil(request.capacityTiB * GIB_PER_TIB);
  const maxGiB = lastSame(start, 1, same);
  const minGiB = lastSame(start, -1, same);
  const next = planAt(maxGiB + 1);
  const growsInPlace = next !== undefined && next.backend === plan.backend && next.dataVolumes.length === plan.dataVolumes.length;
  return {
    instanceType: plan.instanceType,
    minGiB,
    maxGiB,
    nextInstanceType: growsInPlace && next.instanceType !== plan.instanceType ? next.instanceType : undefined,
  };
}

/** From `start`, which is `same`, in `direction`: the last capacity still `same`, by doubling steps, then bisection. */
function lastSame(start: number, direction: 1 | -1, same: (gib: number) => boolean): number {
  let good = start;
  let step = 1;
  let bad: number | undefined;
  while (bad === undefined) {
    const at = good + direction * step;
    if (at < 1 || at > MAX_GIB || !same(at)) bad = Math.min(Math.max(at, 0), MAX_GIB + 1);
    else {
      good = at;
      step *= 2;
    }
  }
  while (Math.abs(bad - good) > 1) {
    const mid = Math.trunc((good + bad) / 2);
    if (same(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/**
 * The synth note for an instance type the planner chose: another capacity of the same backend and volume count gets
 * another type, and a change of instance type stops and starts the instance. Undefined when growth keeps the type, or
 * is not an instance type change alone. `pin` says how to pin a type where the note is read.
 */
export function stopStartWarning(request: StorageRequest, pin: (instanceType: string) => string): string | undefined {
  const tier = instanceTypeTier(request);
  if (tier?.nextInstanceType === undefined) return undefined;
  const t = tier.instanceType;
  const range = tier.minGiB <= 1 ? `up to ${tib(tier.maxGiB)} TiB` : `above ${tib(tier.minGiB - 1)} TiB up to ${tib(tier.maxGiB)} TiB`;
  const asked = [`generation ${request.generation ?? 'previous'}`,
    ...(request.throughputMBps !== undefined ? [`throughputMBps ${request.throughputMBps}`] : [])].join(', ');
  return `instanceType ${t} is the planner's choice ${range} (${asked}); above ${tib(tier.maxGiB)} TiB it chooses ` +
    `${tier.nextInstanceType}. A change of instance type (capacityTiB across ${tib(tier.maxGiB)} TiB, or another ` +
    'generation) stops and starts the instance: minutes of outage; the data volumes are kept. To keep this instance ' +
    `across growth, pin its type: ${pin(t)}.`;
}

/** GiB as TiB for a message: whole TiB plain, else two decimals rounded down, so a bound is never overstated. */
function tib(gib: number): string {
  const value = gib / GIB_PER_TIB;
  return Number.isInteger(value) ? String(value) : String(Math.floor(value * 100) / 100);
}
