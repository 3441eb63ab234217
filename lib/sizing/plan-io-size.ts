/**
 * A plan at a request size: the I/O-size term of io-size.ts with the IOPS limits of the plan's backend, each backend
 * giving its own in lib/sizing/registry.ts; and the refusal of a throughput the published IOPS cannot carry.
 */
import { BACKENDS } from '../../lambda/register/contract';
import { type PlanIops, boundAtIoSize } from './io-size';
import type { StoragePlan } from './plan-types';
import { BACKEND_SIZING } from './registry';

/**
 * The published IOPS limits of a plan's storage: the volumes and the instance of an EC2 NFS server, or FSx's file
 * system.
 */
export function planIops(plan: StoragePlan): PlanIops {
  return BACKEND_SIZING[plan.backend].iops(plan);
}

/**
 * `plan` for random requests of `ioKiB`, by io-size.ts's `boundAtIoSize` with its backend's IOPS. At the default 1 MiB,
 * and for a plan already bounded for `ioKiB`, the plan as it is.
 */
export function withIoSize<P extends StoragePlan>(plan: P, ioKiB: number): P {
  return boundAtIoSize(plan, ioKiB, planIops);
}

/**
 * The refusal of a throughput asked in random requests of `ioKiB` from storage whose IOPS AWS does not publish,
 * `upperBoundAtIoSize`. `which` names the backend where one was asked for, e.g. 'instance-store '.
 */
export function unpublishedIopsRefusal(targetMBps: number, ioKiB: number, which = ''): string {
  const unpublished = BACKENDS.flatMap((b) => BACKEND_SIZING[b].iopsUnpublished ?? []);
  const published = BACKENDS.filter((b) => BACKEND_SIZING[b].iopsUnpublished === undefined);
  return `throughputMBps ${targetMBps} in random ${ioKiB} KiB requests (ioSizeKiB): AWS publishes no IOPS number for ` +
    `${unpublished.join(' or ')}, so no ${which}figure at that size can be claimed; leave ioSizeKiB out to plan on ` +
    `the 1 MiB figures (sequential I/O), or choose a backend whose IOPS are published (${published.join(', ')})`;
}
