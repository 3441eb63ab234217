/**
 * The cheapest-plan search: every single-server plan of the allowed backends that holds the capacity, and the
 * cheapest of those that sustain the throughput asked for, with why; or the message naming the best any of them
 * sustains. What `auto` and a throughput lead to when the capacity rule's plan does not do.
 */
import { BEYOND_ONE_SERVER, instanceStoreTiB } from './catalog';
import { Families, PREVIOUS } from './families';
import { fsxLustreOptions } from './fsx-lustre';
import { FSX_OPENZFS_MAX_STORAGE_GIB, FSX_OPENZFS_MIN_STORAGE_GIB } from './fsx-openzfs';
import { FSX_OPENZFS_PRICED, FSX_OPENZFS_TIERS } from './fsx-openzfs-catalog';
import { gp3Stripes, whyGp3 } from './gp3';
import { DEFAULT_IO_SIZE_KIB, unpublishedIopsRefusal, withIoSize } from './io-size';
import { ebsPlan, st1Stripes } from './plan-ebs';
import { fsxPlan } from './plan-fsx';
import { instanceStorePlan, lowerBound } from './plan-instance-store';
import { openZfsPlanAt, smallestTierSustaining } from './plan-openzfs';
import type { Backend, StoragePlan } from './plan-types';
import { sustainedOf } from './limit';

/**
 * The cheapest catalogued plan of `backends` that holds `capacityTiB` and sustains `targetMBps`, with `why` (what
 * the capacity rule could not do) in its reason; throws naming the best any of them sustains when none does.
 */
export function cheapestMeeting(
  capacityTiB: number, backends: readonly Backend[], targetMBps: number, why: string, families: Families = PREVIOUS,
  ioSizeKiB = DEFAULT_IO_SIZE_KIB,
): StoragePlan {
  const candidates = candidatePlans(capacityTiB, backends, targetMBps, families, ioSizeKiB);
  const bounded = candidates.map((c) => withIoSize(c, ioSizeKiB));
  const meeting = bounded.map((c, i) => ({ c, i })).filter(({ c }) => sustains(c, targetMBps));
  const cheapest = meeting.sort((a, b) => a.c.monthlyCostUsd - b.c.monthlyCostUsd)[0];
  if (cheapest === undefined) throw new Error(noneSustains(bounded, capacityTiB, backends, targetMBps, ioSizeKiB));
  const plan = candidates[cheapest.i];
  const asked = targetMBps > 0 ? ` and sustains ${targetMBps} MB/s` : '';
  return withIoSize({
    ...plan,
    reason: `the cheapest plan that holds ${capacityTiB} TiB${asked} (${why})${whyGp3(plan, targetMBps)}${lowerBound(plan)}`,
  }, ioSizeKiB);
}

/** Why no candidate will do: the most any of them sustains, and where to go beyond one server. */
function noneSustains(candidates: readonly StoragePlan[], capacityTiB: number, backends: readonly Backend[], targetMBps: number, ioSizeKiB: number): string {
  const counted = candidates.filter((c) => !c.throughput.upperBoundAtIoSize);
  const best = counted.length > 0 ? Math.max(...counted.map(sustainedOf)) : 0;
  const only = backends.length === 1 ? `${backends[0]} ` : '';
  if (candidates.length > 0 && counted.length === 0) {
    return unpublishedIopsRefusal(targetMBps, ioSizeKiB, only);
  }
  const at = ioSizeKiB === DEFAULT_IO_SIZE_KIB ? ''
    : ` in random ${ioSizeKiB} KiB requests (storage without published IOPS, instance store and FSx for Lustre, not counted)`;
  return `throughputMBps ${targetMBps} is more than any single ${only}server sustains for ${capacityTiB} TiB${at} (at most ` +
    `${best} MB/s once burst credits are spent); beyond that ${BEYOND_ONE_SERVER}` +
    (backends.includes('fsx-lustre') ? '' : " (backend 'fsx-lustre', or 'auto')");
}

/**
 * The single-server plans that hold the capacity: each d2 (d3, d3en) that fits; each persistent FSx for Lustre
 * option; on EBS each type of the generation (and, when a throughput is asked, of its network-optimized families)
 * with 1 to 3 st1 volumes (`st1Stripes`) and, when a throughput is asked, with 1 to 3 gp3 volumes provisioned for it
 * (`gp3Stripes`); when a throughput is asked, FSx for OpenZFS at the smallest tier of each priced deployment type that
 * sustains it (without a throughput the search is the capacity rule's beyond its largest server: unchanged).
 */
function candidatePlans(capacityTiB: number, backends: readonly Backend[], targetMBps: number, families: Families, ioSizeKiB: number): StoragePlan[] {
  return [
    ...(backends.includes('instance-store') ? instanceStoreCandidates(capacityTiB, families) : []),
    ...(backends.includes('fsx-lustre') ? fsxLustreOptions(true).map((options) => fsxPlan(options, capacityTiB, targetMBps)) : []),
    ...(backends.includes('ebs') ? ebsCandidates(capacityTiB, targetMBps, families, ioSizeKiB) : []),
    ...(backends.includes('fsx-openzfs') && targetMBps > 0 ? openZfsCandidates(capacityTiB, targetMBps, ioSizeKiB) : []),
  ];
}

/**
 * Each priced FSx for OpenZFS deployment type (only SINGLE_AZ_1's rates are sourced) at its smallest tier that sustains
 * `targetMBps`, else its largest (so the message can name the best); none beyond the largest storage.
 */
function openZfsCandidates(capacityTiB: number, targetMBps: number, ioSizeKiB: number): StoragePlan[] {
  const storageGiB = Math.max(FSX_OPENZFS_MIN_STORAGE_GIB, Math.ceil(capacityTiB * 1024));
  if (storageGiB > FSX_OPENZFS_MAX_STORAGE_GIB) return [];
  return FSX_OPENZFS_PRICED.map((type) => {
    const tiers = FSX_OPENZFS_TIERS[type];
    return openZfsPlanAt(type, smallestTierSustaining(type, targetMBps, ioSizeKiB, storageGiB) ?? tiers[tiers.length - 1], storageGiB);
  });
}

/** Each instance-store type of the generation that holds the capacity. */
function instanceStoreCandidates(capacityTiB: number, families: Families): StoragePlan[] {
  return families.instanceStore.filter((t) => instanceStoreTiB(t) >= capacityTiB).map((spec) => ({ ...instanceStorePlan(spec), reason: '' }));
}

/** Each EBS type the search weighs with each stripe it weighs: st1, and gp3 when a throughput is asked. */
function ebsCandidates(capacityTiB: number, targetMBps: number, families: Families, ioSizeKiB: number): StoragePlan[] {
  const types = targetMBps > 0 ? [...families.ebs, ...families.fastEbs] : families.ebs;
  const stripes = [...st1Stripes(capacityTiB, targetMBps), ...(targetMBps > 0 ? gp3Stripes(capacityTiB, targetMBps, ioSizeKiB) : [])];
  return stripes.flatMap((volumes) => types.map((spec) => ({ ...ebsPlan(spec, volumes), reason: '' })));
}

/**
 * Whether a plan sustains `mbps` once every credit is spent. A figure AWS's IOPS figures do not carry at the plan's
 * request size (`upperBoundAtIoSize`) sustains no throughput asked.
 */
export function sustains(plan: Omit<StoragePlan, 'reason'>, mbps: number): boolean {
  return sustainedOf(plan) >= mbps && !(mbps > 0 && plan.throughput.upperBoundAtIoSize === true);
}
