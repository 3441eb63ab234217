/**
 * FSx storage increases at least 6 hours apart (OPENZFS-GROWTH-INTERVAL; for Lustre LUSTRE-NO-SHRINK's row): "You
 * can't make further SSD storage capacity increases on a file system until 6 hours after the last increase was
 * requested" (FSx for OpenZFS guide, "Modifying provisioned SSD storage capacity and IOPS"; the Lustre guide's storage
 * page says the same of Lustre). The guard reads the file system's administrative actions (DescribeFileSystems, the
 * API reference's AdministrativeAction: AdministrativeActionType, RequestTime, Status, TargetFileSystemValues) and
 * refuses an increase asked for sooner, naming when the next may be asked, before FSx would refuse it.
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
  readonly TargetFileSystemValues?: { readonly StorageCapacity?: number; readonly [other: string]: unknown };
}

/**
 * When the last storage increase was asked for, ms since the epoch, or undefined: a FILE_SYSTEM_UPDATE whose target
 * names a storage capacity, or the STORAGE_OPTIMIZATION that follows one; a FAILED or CANCELLED request increased
 * nothing and does not count.
 */
export function lastIncreaseRequest(actions: readonly AdministrativeActionView[]): number | undefined {
  const times = actions
    .filter((a) => a.Status !== 'FAILED' && a.Status !== 'CANCELLED')
    .filter((a) => a.AdministrativeActionType === 'STORAGE_OPTIMIZATION' ||
      (a.AdministrativeActionType === 'FILE_SYSTEM_UPDATE' && a.TargetFileSystemValues?.StorageCapacity !== undefined))
    .map((a) => (a.RequestTime instanceof Date ? a.RequestTime.getTime() : typeof a.RequestTime === 'number' ? a.RequestTime * 1000 : Date.parse(String(a.RequestTime))))
    .filter((t) => Number.isFinite(t));
  return times.length === 0 ? undefined : Math.max(...times);
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
  if (lastRequestMs === undefined || !growsFsxStorage(o, n) || nowMs - lastRequestMs >= GROWTH_INTERVAL_MS) return undefined;
  const next = new Date(lastRequestMs + GROWTH_INTERVAL_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    setting: 'StorageCapacityGiB',
    oldValue: o.storageCapacityGiB,
    newValue: n.storageCapacityGiB,
    why: `FSx takes the next storage increase 6 hours after the last one was asked for ("You can't make further SSD storage ` +
      `capacity increases on a file system until 6 hours after the last increase was requested": OPENZFS-GROWTH-INTERVAL in ` +
      `docs/sources/fsx-rules.md), and the last was asked for at ${new Date(lastRequestMs).toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    safePath: `deploy this capacity again at ${next} or later, or keep ${o.storageCapacityGiB} GiB until then`,
    accepted: acceptDataLoss,
  };
}
