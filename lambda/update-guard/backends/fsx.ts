/**
 * What the two FSx backends, fsx-lustre and fsx-openzfs, share in the update guard: the managed key's name, the grammar
 * of storage and subnet, storage that only grows, increases 6 hours apart, the backups a lower retention deletes, and
 * how a Create over an FSx file system names the backend to pin. Each backend's own rows are in fsx-lustre.ts and
 * fsx-openzfs.ts. The shared words take what they name of a backend (its name, its file system type, its guide's words)
 * from the backends that share them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { isFsxBackend } from '../../register/backend';
import type { Checks, GuardEntry, IntervalRule } from '../backend-guard';
import { lastIncreaseRequest, tooSoon } from '../growth-interval';
import type { StorageLayout } from '../layout';
import { AUTO_CHOOSES } from '../objections';
import { refusedUnless, type Refusal, type UpdatePolicy } from '../policy';
import { ACCEPT_FEWER_SNAPSHOTS, fewerRefused } from '../retention-rules';
import type { TaggedResource } from '../wire';

/** The `EncryptionKey` of an FSx file system encrypted with the account's AWS managed FSx key. */
export const AWS_MANAGED_FSX_KEY = 'aws/fsx';

/** A whole number, as FSx's capacities and throughputs are written. */
export const WHOLE = /^[1-9]\d{0,6}$/;
const SUBNET_ID = /^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

/** A subnet id, as the standby subnet is checked too. */
export function isSubnetId(value: string): boolean {
  return SUBNET_ID.test(value);
}

/** The storage capacity and the subnet, or the preferred one, the same on both FSx backends. */
export function checkStorageAndSubnet(layout: StorageLayout, { check }: Checks): void {
  check('storageCapacityGiB', layout.storageCapacityGiB, WHOLE.test(layout.storageCapacityGiB), 'must be a whole number of GiB');
  check('subnetId', layout.subnetId, isSubnetId(layout.subnetId), "must be a subnet id such as 'subnet-0123456789abcdef0'");
}

/** LUSTRE-NO-SHRINK, OPENZFS-NO-SHRINK: storage grows, never shrinks. */
export function growOnly(service: string, copy: string): UpdatePolicy {
  return refusedUnless(
    'grow only',
    (o, n) => Number(n.storageCapacityGiB) >= Number(o.storageCapacityGiB),
    () => ({
      why: `${service} cannot shrink a file system's storage capacity`,
      safePath: `keep capacityTiB at least its old value; to shrink, ${copy}`,
    }),
  );
}

/** The automatic backups a lower retention deletes, on `service`: AWS does not say that the older ones stay. */
export function fewerBackups(service: string): UpdatePolicy {
  return fewerRefused((was, now, keep) => ({
    why: now === 0
      ? `${service} would stop its daily automatic backups, and AWS does not say that the ${was} days of backups kept now stay`
      : `${service} keeps daily automatic backups ${now} days: the backups older than that, up to ${was - now} of the ` +
        `${was} days kept now, would be deleted`,
    safePath: `${keep}, or, to let the older backups go, deploy again with ${ACCEPT_FEWER_SNAPSHOTS}`,
    waivedBy: 'AcceptFewerSnapshots',
  }));
}

/** Whether the deploy grows an FSx file system's storage; the policy table judges the field's other changes. */
function growsStorage(o: StorageLayout, n: StorageLayout): boolean {
  return o.backend === n.backend && isFsxBackend(n.backend) && Number(n.storageCapacityGiB) > Number(o.storageCapacityGiB);
}

/**
 * OPENZFS-GROWTH-INTERVAL: the refusal of a storage increase asked for within 6 hours of the last, or undefined.
 * `source` is the quote and its row that a backend sharing the rule gives.
 */
export function growthIntervalRefusal(
  o: StorageLayout, n: StorageLayout, lastRequestMs: number | undefined, nowMs: number, acceptDataLoss: boolean, source: string | undefined,
): Refusal | undefined {
  if (!growsStorage(o, n)) return undefined;
  return tooSoon({ setting: 'StorageCapacityGiB', oldValue: o.storageCapacityGiB, newValue: n.storageCapacityGiB, accepted: acceptDataLoss },
    lastRequestMs, nowMs,
    (last) => `FSx takes the next storage increase 6 hours after the last one was asked for${source === undefined ? '' : ` (${source})`}, ` +
      `and the last was asked for at ${last}`,
    (next) => `deploy this capacity again at ${next} or later, or keep ${o.storageCapacityGiB} GiB until then`);
}

/** The source of the storage interval that the first of the backends sharing it gives. */
export function storageIntervalSource(sharing: readonly GuardEntry[]): string | undefined {
  return sharing.map((s) => s.guard.sources?.storageInterval).find((source) => source !== undefined);
}

/** Storage increases 6 hours apart, on both FSx backends. */
export const STORAGE_INTERVAL: IntervalRule = {
  applies: growsStorage,
  refusal: (o, n, actions, nowMs, acceptDataLoss, sharing) =>
    growthIntervalRefusal(o, n, lastIncreaseRequest(actions), nowMs, acceptDataLoss, storageIntervalSource(sharing)),
};

/**
 * The backend to pin when an FSx file system was found: one of the backends sharing this sentence, which its type tells,
 * not its tags.
 */
export function fsxPin(found: readonly TaggedResource[], sharing: readonly GuardEntry[]): string | undefined {
  const fileSystem = found.find((r) => r.kind === 'file-system');
  if (fileSystem === undefined) return undefined;
  const pins = sharing.map((s) => `-c backend=${s.backend}`).join(' or ');
  const types = sharing.map((s) => s.guard.shownBy.fileSystemType).filter((t) => t !== undefined).join(' or ');
  return `if this deploy changed the backend (${AUTO_CHOOSES}), pin the one it belongs to: ${fileSystem.id} is an FSx ` +
    `file system, ${pins} (prop backend likewise), whichever its type is (the tags do not say, aws fsx ` +
    `describe-file-systems --file-system-ids ${fileSystem.id} does: ${types})`;
}
