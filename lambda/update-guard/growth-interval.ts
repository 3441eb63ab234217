/**
 * Changes FSx takes only hours apart: OPENZFS-GROWTH-INTERVAL, and for Lustre LUSTRE-NO-SHRINK's row and
 * LUSTRE-METADATA. The FSx for OpenZFS guide, "Modifying provisioned SSD storage capacity and IOPS", says: "You can't
 * make further SSD storage capacity increases on a file system until 6 hours after the last increase was requested".
 * The Lustre guide's storage page says the same of Lustre. The guard reads the file system's administrative actions
 * from DescribeFileSystems: AdministrativeAction in the API reference, with AdministrativeActionType, RequestTime,
 * Status and TargetFileSystemValues. It refuses a change asked for sooner, before FSx would, naming when the next may
 * be asked. This file reads the actions and times the wait. Which changes a backend spaces out, and their words, are
 * its descriptor's `intervals`: see backend-guard.ts.
 *
 * It imports nothing, so that test/unit/update-guard-growth-interval.test.ts can test the judge over API-shaped
 * answers.
 */
import type { Refusal } from './policy';

/** AWS's interval between two storage increases, ms. */
export const GROWTH_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The parts of a DescribeFileSystems AdministrativeAction the judges read, named as in the API reference. */
export interface AdministrativeActionView {
  readonly AdministrativeActionType?: string;
  readonly Status?: string;
  readonly RequestTime?: Date | number | string;
  readonly TargetFileSystemValues?: {
    readonly StorageCapacity?: number;
    /** The file system type's configuration: each backend's descriptor reads its own. */
    readonly [configuration: string]: unknown;
  };
}

/**
 * When the last storage increase was asked for, ms since the epoch, or undefined. That is a FILE_SYSTEM_UPDATE whose
 * target names a storage capacity, or the STORAGE_OPTIMIZATION that follows one. A FAILED or CANCELLED request
 * increased nothing and does not count.
 */
export function lastIncreaseRequest(actions: readonly AdministrativeActionView[]): number | undefined {
  return latestRequest(actions, (a) => a.AdministrativeActionType === 'STORAGE_OPTIMIZATION' ||
    (a.AdministrativeActionType === 'FILE_SYSTEM_UPDATE' && a.TargetFileSystemValues?.StorageCapacity !== undefined));
}

/** The latest RequestTime of the actions `counts` picks, not FAILED or CANCELLED, ms since the epoch. */
export function latestRequest(actions: readonly AdministrativeActionView[], counts: (a: AdministrativeActionView) => boolean): number | undefined {
  const times = actions
    .filter((a) => a.Status !== 'FAILED' && a.Status !== 'CANCELLED')
    .filter(counts)
    .map((a) => (a.RequestTime instanceof Date ? a.RequestTime.getTime() : typeof a.RequestTime === 'number' ? a.RequestTime * 1000 : Date.parse(String(a.RequestTime))))
    .filter((t) => Number.isFinite(t));
  return times.length === 0 ? undefined : Math.max(...times);
}

/**
 * The refusal of `change` when it comes within 6 hours of the request at `lastRequestMs`; no request, no refusal. Its
 * words are given the last request's time and the first time the next may be asked, each as ISO 8601 to the second.
 */
export function tooSoon(
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
