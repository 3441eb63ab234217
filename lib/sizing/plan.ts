/**
 * The sizing planner: from the capacity a user asks for to an instance type, its data disks, the throughput clients can
 * expect and the monthly cost. Pure functions, no CDK imports (docs/design.md, section 3): the construct only wires
 * resources from the plan. This file is the entry point and its order of steps. It checks the request, in
 * validate-request.ts, and plans for capacity, in capacity-rule.ts. When that plan cannot hold or sustain what is
 * asked, it searches for the cheapest that does, in cheapest-plan.ts.
 */
import { BACKENDS, type Backend } from '../../lambda/register/contract';
import { cheapestMeeting, sustains } from './cheapest-plan';
import { perClientOf } from './client-ceiling';
import { planForCapacity } from './capacity-rule';
import { MAX_SINGLE_VOLUME_TIB } from './plan-ebs';
import { unpublishedIopsRefusal, withIoSize } from './plan-io-size';
import { LARGEST_INSTANCE_STORE, MAX_INSTANCE_STORE_TIB } from './plan-instance-store';
import type { BackendSizing } from './backend-sizing';
import type { StoragePlan, StorageRequest } from './plan-types';
import { sustainedOf, sustainsAsked } from './limit';
import { BACKEND_SIZING } from './registry';
import { formatTiB } from './round';
import { ValidRequest, validateCapacity, validatePositive, validateRequest } from './validate-request';

/**
 * Every backend `auto` may choose from when the capacity rule's plan does not do. Each offers its candidates, by
 * registry.ts, some only when a throughput is asked.
 */
const ALL_BACKENDS: readonly Backend[] = BACKENDS;

/**
 * Plans the server for a request. Throws an Error naming the field, the value and the allowed range for
 * a bad request, and pointing to a parallel file system when no single server should hold the capacity.
 */
export function planStorage(request: StorageRequest): StoragePlan {
  const plan = planServerCore(request);
  return { ...plan, perClient: perClientOf(plan, request.client, BACKEND_SIZING[plan.backend].clientProtocol) };
}

/**
 * The server's plan for a request, without its per-client figure. The planner's own what-ifs ask it: another capacity's
 * plan for the type tier and the excess warning. So they are part of one planning and not `planStorage` calls of their
 * own.
 */
export function planServerCore(request: StorageRequest): StoragePlan {
  const valid = validateRequest(request);
  return withIoSize(planFor(request, valid), valid.ioSizeKiB);
}

/**
 * The plan of a checked request, each candidate weighed at its request size; withIoSize leaves a bounded plan as it is.
 */
function planFor(request: StorageRequest, valid: ValidRequest): StoragePlan {
  const own = valid.backend === 'auto' ? undefined : BACKEND_SIZING[valid.backend].planAsked;
  if (own !== undefined) return planAsked(own, request, valid);
  if (beyondCapacityRule(request.capacityTiB, valid)) return beyondCapacityRulePlan(request.capacityTiB, valid);
  const capacityTiB = validateCapacity(request.capacityTiB, valid.dataVolumeCount === undefined ? valid.backend : 'ebs', valid.families);
  const plan = withIoSize(planForCapacity(capacityTiB, valid.backend, valid.dataVolumeCount, valid.families), valid.ioSizeKiB);
  return sustaining(plan, capacityTiB, valid);
}

/**
 * The plan of a backend that has its own when asked for by name: FSx, with no capacity rule and no single-server limit.
 * A throughput asked in smaller random requests than the storage's published IOPS describe cannot be claimed.
 */
function planAsked(own: NonNullable<BackendSizing['planAsked']>, request: StorageRequest, valid: ValidRequest): StoragePlan {
  const backend = valid.backend as Backend;
  const { throughputMBps, ioSizeKiB, families } = valid;
  const capacityTiB = validatePositive(request.capacityTiB);
  const cheapest = (why: string) => cheapestMeeting(capacityTiB, [backend], throughputMBps ?? 0, why, families, ioSizeKiB);
  const plan = own({ request, capacityTiB, throughputMBps, ioSizeKiB, cheapest });
  if (throughputMBps !== undefined && withIoSize(plan, ioSizeKiB).throughput.upperBoundAtIoSize) {
    throw new Error(unpublishedIopsRefusal(throughputMBps, ioSizeKiB, `${backend} `));
  }
  return plan;
}

/**
 * Whether `auto` is asked for more than the capacity rule's largest server holds, so that every backend is weighed.
 * That server is one st1 volume in generation current and the largest d2 in previous.
 */
function beyondCapacityRule(capacityTiB: number, valid: ValidRequest): boolean {
  return valid.backend === 'auto' && valid.dataVolumeCount === undefined && validatePositive(capacityTiB) > capacityRuleLimitTiB(valid);
}

/**
 * The most the capacity rule of `auto` holds for a checked request: one st1 volume in generation current, the largest
 * d2 in previous.
 */
export function capacityRuleLimitTiB(valid: Pick<ValidRequest, 'families'>): number {
  return valid.families.generation === 'current' ? MAX_SINGLE_VOLUME_TIB : MAX_INSTANCE_STORE_TIB;
}

/** The cheapest plan of every backend for a capacity beyond the capacity rule, and the reason the rule did not do. */
function beyondCapacityRulePlan(capacityTiB: number, valid: ValidRequest): StoragePlan {
  return cheapestMeeting(capacityTiB, ALL_BACKENDS, valid.throughputMBps ?? 0, valid.families.generation === 'current'
    ? `generation current: more than one st1 volume holds (${MAX_SINGLE_VOLUME_TIB} TiB)`
    : `more than the capacity rule's largest server holds, ${LARGEST_INSTANCE_STORE.name} with ${formatTiB(MAX_INSTANCE_STORE_TIB)} TiB`,
  valid.families, valid.ioSizeKiB);
}

/**
 * The capacity rule's `plan` when it sustains the throughput asked for, saying so; else the cheapest plan of the
 * backends allowed that does. A fixed `dataVolumeCount` cannot change the layout, so it throws instead.
 */
function sustaining(plan: StoragePlan, capacityTiB: number, valid: ValidRequest): StoragePlan {
  const { backend, dataVolumeCount: count, throughputMBps: throughput } = valid;
  if (throughput === undefined) return plan;
  if (sustains(plan, throughput)) return { ...plan, reason: `${plan.reason}${sustainsAsked(throughput)}` };
  if (count !== undefined) {
    throw new Error(
      `throughputMBps ${throughput} is more than ${count} st1 volume(s) for ${capacityTiB} TiB sustain ` +
        `(${sustainedOf(plan)} MB/s once burst credits are spent); dataVolumeCount fixes the layout: ask for less, or ` +
        'deploy a second server',
    );
  }
  return cheapestMeeting(capacityTiB, backend === 'auto' ? ALL_BACKENDS : [backend], throughput,
    `${plan.instanceType}, the capacity rule's choice, sustains ${sustainedOf(plan)} MB/s`, valid.families, valid.ioSizeKiB);
}
