/**
 * The update guard's policy of the snapshot retention: `SnapshotRetain`, the layout's `snapshotRetain`. A lower value
 * deletes what the higher one kept, so it is refused unless the deploy says `AcceptFewerSnapshots` or `AcceptDataLoss`,
 * and the refusal counts what would go. What a lower value deletes is each backend's to say, in its descriptor's
 * `snapshotRetain` row, built here:
 *
 * - EBS: DLM's count-based retention keeps `Count` snapshots of each volume: "When the fourth snapshot is created, the
 *   oldest retained snapshot is deleted", per CloudFormation's AWS::DLM::LifecyclePolicy RetainRule, Count. A lower
 *   count deletes the oldest sets beyond it at the policy's next run. `0` removes the policy, which deletes nothing:
 *   "If you delete a policy, the snapshots or AMIs created by that policy are not automatically deleted", per the EBS
 *   User Guide, "Delete Amazon Data Lifecycle Manager policies".
 * - FSx: AutomaticBackupRetentionDays is "the number of days to retain automatic backups. Setting this property to 0
 *   disables automatic backups", per the file system configurations of the FSx API reference. AWS does not say that a
 *   lower value spares the backups older than it, nor that 0 keeps the existing ones, so the guard counts them as lost.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { Objection, UpdatePolicy } from './policy';

/** The opt-in, as the context key and the prop name it. */
export const ACCEPT_FEWER_SNAPSHOTS = 'acceptFewerSnapshots=true (context) or acceptFewerSnapshots: true (prop)';

/**
 * A recorded retention as a number; undefined for `''`, not recorded, as on instance store or a guard deployed before
 * the field.
 */
function retention(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * What a lower retention deletes on one backend, `was` -> `now` with `now` < `was`, given `keep`, the safe path that
 * keeps the old value; undefined when nothing kept now is deleted.
 */
export type FewerSnapshots = (was: number, now: number, keep: string) => Objection | undefined;

/** The retention's policy on a backend that keeps snapshots: more is allowed, fewer refused as `fewer` words it. */
export function fewerRefused(fewer: FewerSnapshots): UpdatePolicy {
  return {
    name: 'fewer refused unless AcceptFewerSnapshots',
    objections: (o, n) => {
      const was = retention(o.snapshotRetain);
      const now = retention(n.snapshotRetain);
      if (was === undefined || now === undefined || now >= was) return [];
      const objection = fewer(was, now, `keep snapshotRetain at ${was} (-c snapshotRetain=${was}, prop snapshots.retain: ${was})`);
      return objection ? [objection] : [];
    },
  };
}
