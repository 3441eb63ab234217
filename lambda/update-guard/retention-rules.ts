/**
 * The update guard's policy of the snapshot retention (`SnapshotRetain`, the layout's `snapshotRetain`): a lower value
 * deletes what the higher one kept, so it is refused unless the deploy says `AcceptFewerSnapshots` (or
 * `AcceptDataLoss`), and the refusal counts what would go. Its row of the table is policies.ts's `snapshotRetain`.
 *
 * - EBS: DLM's count-based retention keeps `Count` snapshots of each volume: "When the fourth snapshot is created, the
 *   oldest retained snapshot is deleted" (CloudFormation, AWS::DLM::LifecyclePolicy RetainRule, Count). A lower count
 *   deletes the oldest sets beyond it at the policy's next run. `0` removes the policy, which deletes nothing: "If you
 *   delete a policy, the snapshots or AMIs created by that policy are not automatically deleted" (EBS User Guide,
 *   "Delete Amazon Data Lifecycle Manager policies").
 * - FSx: AutomaticBackupRetentionDays is "the number of days to retain automatic backups. Setting this property to 0
 *   disables automatic backups" (FSx API reference, the file system configurations). AWS does not say that a lower
 *   value spares the backups older than it, nor that 0 keeps the existing ones: the guard counts them as lost.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import type { Backend } from '../register/backend';
import type { StorageLayout } from './layout';
import { ALLOWED, type Objection, type UpdatePolicy, perBackend } from './policy';

/** The opt-in, as the context key and the prop name it. */
export const ACCEPT_FEWER_SNAPSHOTS = 'acceptFewerSnapshots=true (context) or acceptFewerSnapshots: true (prop)';

/** A recorded retention as a number; undefined for `''` (not recorded: a guard deployed before the field, instance store). */
function retention(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The objection to `o` -> `n` on `backend`, or none when nothing kept now is deleted. */
export function fewerSnapshots(backend: Backend, o: StorageLayout, n: StorageLayout): Objection | undefined {
  const was = retention(o.snapshotRetain);
  const now = retention(n.snapshotRetain);
  if (was === undefined || now === undefined || now >= was) return undefined;
  const keep = `keep snapshotRetain at ${was} (-c snapshotRetain=${was}, prop snapshots.retain: ${was})`;
  if (backend === 'ebs') {
    // No policy, no deletion: the sets it made stay, unmanaged.
    if (now === 0) return undefined;
    const gone = was - now;
    return {
      why: `DLM keeps the ${now} newest snapshot sets of the data volumes and deletes the older ones at its next run: the ` +
        `${gone} oldest of the ${was} sets kept now would be deleted`,
      safePath: `${keep}, or, to let the ${gone} oldest sets go, deploy again with ${ACCEPT_FEWER_SNAPSHOTS}`,
      waivedBy: 'AcceptFewerSnapshots',
    };
  }
  const service = backend === 'fsx-lustre' ? 'FSx for Lustre' : 'FSx for OpenZFS';
  return {
    why: now === 0
      ? `${service} would stop its daily automatic backups, and AWS does not say that the ${was} days of backups kept now stay`
      : `${service} keeps daily automatic backups ${now} days: the backups older than that, up to ${was - now} of the ` +
        `${was} days kept now, would be deleted`,
    safePath: `${keep}, or, to let the older backups go, deploy again with ${ACCEPT_FEWER_SNAPSHOTS}`,
    waivedBy: 'AcceptFewerSnapshots',
  };
}

function fewerRefused(backend: Backend): UpdatePolicy {
  return {
    name: 'fewer refused unless AcceptFewerSnapshots',
    objections: (o, n) => {
      const objection = fewerSnapshots(backend, o, n);
      return objection ? [objection] : [];
    },
  };
}

/** The retention's policy: more is allowed, fewer refused (EBS: but 0, which deletes nothing); instance store has none. */
export const SNAPSHOT_RETENTION: UpdatePolicy = perBackend({
  ebs: fewerRefused('ebs'),
  'instance-store': ALLOWED, // always '': no snapshots
  'fsx-lustre': fewerRefused('fsx-lustre'),
  'fsx-openzfs': fewerRefused('fsx-openzfs'),
});
