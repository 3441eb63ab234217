import type { CrossRegionCopy } from '../snapshot-policy';

// Scheduled snapshots, as both backends read them: EBS data volumes' DLM snapshots (lib/snapshot-policy.ts) on
// the EC2 server, automatic daily backups on FSx for Lustre's persistent types.

/** Scheduled EBS snapshots of the data volumes (EBS backend only). */
export interface SnapshotOptions {
  /**
   * Snapshots kept; 0 turns scheduled snapshots off.
   * @default 7
   */
  readonly retain?: number;
  /**
   * Hours between snapshots (DLM accepts 1, 2, 3, 4, 6, 8, 12, 24).
   * @default 24
   */
  readonly intervalHours?: number;
  /**
   * UTC time of day (HH:MM) of the first snapshot.
   * @default '03:00'
   */
  readonly startTimeUtc?: string;
  /**
   * Freeze the XFS file system around each snapshot (fsfreeze through an SSM document), so the set restores
   * without log replay. A failed freeze still yields a crash-consistent snapshot.
   * @default true
   */
  readonly applicationConsistent?: boolean;
  /**
   * Copy each snapshot to another region.
   * @default - no copy
   */
  readonly crossRegionCopy?: CrossRegionCopy;
}
