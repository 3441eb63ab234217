/**
 * FSx storage increases at least 6 hours apart (OPENZFS-GROWTH-INTERVAL; for Lustre LUSTRE-NO-SHRINK's row): "You
 * can't make further SSD storage capacity increases on a file system until 6 hours after the last increase was
 * requested" (FSx for OpenZFS guide, "Modifying provisioned SSD storage capacity and IOPS"; the Lustre guide's storage
 * page says the same of Lustre). The guard reads the file system's administrative actions (DescribeFileSystems, the
 * API reference's AdministrativeAction: AdministrativeActionType, RequestTime, Status, TargetFileSystemValues) and
 * refuses an increase asked for sooner, naming when the next may be asked, before FSx would refuse it. The same for
 * FSx for Lustre's Metadata IOPS (LUSTRE-METADATA): "as long as metadata performance increase requests are at least 6
 * hours apart" (FSx for Lustre guide, "Managing metadata performance").
 *
 * Dependency-free on purpose: the judge is tested over API-shaped answers (test/unit/update-guard-growth-interval.test.ts).
 */
import type { StorageLayout } from './layout';
import type { Refusal } from './policy';

/** AWS's interval between two storage increases, ms. */
export const GROWTH_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The parts of a DescribeFileSystems AdministrativeAction the judge reads (the API reference's names). */
export interface AdministrativeActionView {
  readonly AdministrativeActionType?: string;
  readonly Status?: string;
  readonly RequestTime?: Date | number | string;
  readonly TargetFileSystemValues?: {
    readonly StorageCapacity?: number;
    readonly LustreConfiguration?: { readonly MetadataConfiguration?: unknown };
    readonly [other: string]: unknown;
  };
}

/**
 * When the last storage increase was asked for, ms since the epoch, or undefined: a FILE_SYSTEM_UPDATE whose target
 * names a storage capacity, or the STORAGE_OPTIMIZATION that follows one; a FAILED or CANCELLED request increased
 * nothing and does not count.
 */
export function lastIncreaseRequest(actions: readonly AdministrativeActionView[]): number | undefined {
  return latest(actions, (a) => a.AdministrativeActionType === 'STORAGE_OPTIMIZATION' ||
    (a.AdministrativeActionType === 'FILE_SYSTEM_UPDATE' && a.TargetFileSystemValues?.StorageCapacity !== undefined));
}

/** When the last Metadata IOPS change was asked for: a FILE_SYSTEM_UPDATE whose target names a metadata configuration. */
export function lastMetadataRequest(actions: readonly AdministrativeActionView[]): number | undefined {
  return latest(actions, (a) => a.AdministrativeActionType === 'FILE_SYSTEM_UPDATE' &&
    a.TargetFileSystemValues?.LustreConfiguration?.MetadataConfiguration !== undefined);
}

/** The latest RequestTime of the actions `counts` picks, not FAILED or CANCELLED, ms since the epoch. */
function latest(actions: readonly AdministrativeActionView[], counts: (a: AdministrativeActionView) => boolean): number | undefined {
  const times = actions
    .filter((a) => a.Status !== 'FAILED' && a.Status !== 'CANCELLED')
    .filter(counts)
    .map((a) => (a.RequestTime instanceof Date ? a.RequestTime.getTime() : typeof a.RequestTime === 'number' ? a.RequestTime * 1000 : Date.parse(String(a.RequestTime))))
    .filter((t) => Number.isFinite(t));
  return times.length === 0 ? undefined : Math.max(...times);
}

/** Whether the deploy raises a Lustre file system's provisioned Metadata IOPS (a number above the old number or AUTOMATIC). */
export function raisesMetadataIops(o: StorageLayout, n: StorageLayout): boolean {
  return o.backend === 'fsx-lustre' && n.backend === 'fsx-lustre' && o.metadataIops !== '' && /^\d+$/.test(n.metadataIops) &&
    (o.metadataIops === 'AUTOMATIC' || Number(n.metadataIops) > Number(o.metadataIops));
}

/** The refusal of a Metadata IOPS increase asked for within 6 hours of the last metadata change, or undefined. */
export function metadataIntervalRefusal(
  o: StorageLayout, n: StorageLayout, lastRequestMs: number | undefined, nowMs: number, acceptDataLoss: boolean,
): Refusal | undefined {
  if (!raisesMetadataIops(o, n)) return undefined;
  return tooSoon({ setting: 'MetadataIops', oldValue: o.metadataIops, newValue: n.metadataIops, accepted: acceptDataLoss }, lastRequestMs, nowMs,
    (last) => `FSx for Lustre takes the next Metadata IOPS increase 6 hours after the last was asked for ("as long as metadata ` +
      `performance increase requests are at least 6 hours apart": LUSTRE-METADATA in docs/sources/fsx-rules.md), and the last ` +
      `was asked for at ${last}`,
    (next) => `deploy these Metadata IOPS again at ${next} or later, or keep ${o.metadataIops} until then`);
}

/**
 * The refusal of `change` when it comes within 6 hours of the request at `lastRequestMs` (none: no refusal), its words
 * given the last request's time and the first time the next may be asked, each as ISO 8601 to the second.
 */
function tooSoon(
  change: Pick<Refusal, 'setting' | 'oldValue' | 'newValue' | 'accepted'>, lastRequestMs: number | undefined, nowMs: number,
  why: (last: string) => string, safePath: (next: string) => string,
): Refusal | undefined {
  if (lastRequestMs === undefined || nowMs - lastRequestMs >= GROWTH_INTERVAL_MS) return undefined;
  return { ...change, why: why(isoSeconds(lastRequestMs)), safePath: safePath(isoSeconds(lastRequestMs + GROWTH_INTERVAL_MS)) };
}

/** A time as ISO 8601 to the second. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Whether the deploy grows an FSx file system's storage (the other changes of the field are the policy table's). */
export function growsFsxStorage(o: StorageLayout, n: StorageLayout): boolean {
  return o.backend === n.backend && (n.backend === 'fsx-lustre' || n.backend === 'fsx-openzfs') &&
    Number(n.storageCapacityGiB) > Number(o.storageCapacityGiB);
}

/** The refusal of a storage increase asked for within 6 hours of the last, or undefined. */
export function growthIntervalRefusal(
  o: StorageLayout, n: StorageLayout, lastRequestMs: number | undefined, nowMs: number, acceptDataLoss: boolean,
): Refusal | undefined {
  if (!growsFsxStorage(o, n)) return undefined;
  return tooSoon({ setting: 'StorageCapacityGiB', oldValue: o.storageCapacityGiB, newValue: n.storageCapacityGiB, accepted: acceptDataLoss },
    lastRequestMs, nowMs,
    (last) => `FSx takes the next storage increase 6 hours after the last one was asked for ("You can't make further SSD storage ` +
      `capacity increases on a file system until 6 hours after the last increase was requested": OPENZFS-GROWTH-INTERVAL in ` +
      `docs/sources/fsx-rules.md), and the last was asked for at ${last}`,
    (next) => `deploy this capacity again at ${next} or later, or keep ${o.storageCapacityGiB} GiB until then`);
}
