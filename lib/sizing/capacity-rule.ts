/**
 * The plan for capacity alone (docs/design.md, section 3), with the reason each gives. It is the capacity rule of
 * `auto`, one st1 volume up to 16 TiB and then the smallest d2 that holds the capacity; or the backend asked for; or
 * the volumes of an existing stripe. Whether that plan also sustains a throughput asked for is plan.ts's question.
 */
import type { Families } from './families';
import { MAX_SINGLE_VOLUME_TIB, planEbs } from './plan-ebs';
import { lowerBound, planInstanceStore } from './plan-instance-store';
import type { Backend } from '../../lambda/register/contract';
import type { StoragePlan } from './plan-types';

/** The plan for capacity alone: the capacity rule of `auto` (docs/design.md, section 3), or the backend asked for. */
export function planForCapacity(capacityTiB: number, backend: Backend | 'auto', count: number | undefined, families: Families): StoragePlan {
  if (count !== undefined) return existingStripe(capacityTiB, count, families);
  if (backend === 'instance-store') return instanceStoreAsAsked(capacityTiB, families);
  if (backend === 'auto' && capacityTiB > MAX_SINGLE_VOLUME_TIB && families.generation === 'previous') {
    return {
      ...planInstanceStore(capacityTiB, families),
      reason: `auto: above ${MAX_SINGLE_VOLUME_TIB} TiB (one st1 volume), the smallest d2 that holds the capacity`,
    };
  }
  return { ...planEbs(capacityTiB, families), reason: ebsReason(backend, families) };
}

/** `dataVolumeCount` volumes, each grown to its share of the capacity; throws when they cannot hold it. */
function existingStripe(capacityTiB: number, count: number, families: Families): StoragePlan {
  if (capacityTiB > count * MAX_SINGLE_VOLUME_TIB) {
    throw new Error(
      `capacityTiB ${capacityTiB} does not fit in dataVolumeCount ${count} st1 volume(s) of at most ` +
        `${MAX_SINGLE_VOLUME_TIB} TiB each (at most ${count * MAX_SINGLE_VOLUME_TIB} TiB); an existing stripe ` +
        'cannot take more volumes: deploy a second server for the rest',
    );
  }
  return { ...planEbs(capacityTiB, families, count), reason: `dataVolumeCount ${count}: the volumes of an existing stripe, each grown` };
}

/** Backend instance-store as asked: the cheapest type of the generation that holds the capacity. */
function instanceStoreAsAsked(capacityTiB: number, families: Families): StoragePlan {
  const plan = planInstanceStore(capacityTiB, families);
  return {
    ...plan,
    reason: families.generation === 'current'
      ? `backend instance-store, generation current: the cheapest d3 or d3en that holds the capacity${lowerBound(plan)}`
      : 'backend instance-store: the smallest d2 that holds the capacity',
  };
}

/** The reason of an EBS plan for capacity alone, by `auto` or backend ebs, and by generation. */
function ebsReason(backend: Backend | 'auto', families: Families): string {
  const current = families.generation === 'current';
  return backend === 'auto'
    ? current
      ? `auto, generation current: up to ${MAX_SINGLE_VOLUME_TIB} TiB, one st1 volume on the ${gpName(families)} whose EBS and network baselines carry its st1 baseline`
      : `auto: up to ${MAX_SINGLE_VOLUME_TIB} TiB, one st1 volume on the original template's m4 tier`
    : current
      ? `backend ebs, generation current: st1 volumes of at most 16 TiB, striped, on the ${gpName(families)} whose EBS and network baselines carry their st1 baseline`
      : 'backend ebs: st1 volumes of at most 16 TiB, striped, on an m4 whose EBS bandwidth carries their burst';
}

/** The capacity rule's types in a reason: on x86_64 the smallest m6i, since m7i has its limits at 5% more. */
function gpName(families: Families): string {
  return families.arch === 'arm64' ? 'cheapest Graviton type (m7g, m6g)' : 'smallest m6i';
}
