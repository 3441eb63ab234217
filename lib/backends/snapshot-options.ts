import { Annotations, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { CrossRegionCopy } from '../snapshot-policy';

// Scheduled snapshots, as every backend reads them: the EBS data volumes' DLM snapshots of lib/snapshot-policy.ts on
// the EC2 server, and automatic daily backups on FSx for Lustre's persistent types.

/** Scheduled EBS snapshots of the data volumes, on the EBS backend only. */
export interface SnapshotOptions {
  /**
   * Snapshots kept; 0 turns scheduled snapshots off.
   * @default 7
   */
  readonly retain?: number;
  /**
   * Hours between snapshots; DLM accepts 1, 2, 3, 4, 6, 8, 12 and 24.
   * @default 24
   */
  readonly intervalHours?: number;
  /**
   * UTC time of day of the first snapshot, as HH:MM.
   * @default '03:00'
   */
  readonly startTimeUtc?: string;
  /**
   * Freeze the XFS file system around each snapshot with fsfreeze through an SSM document, so the set restores without
   * log replay. A failed freeze still yields a crash-consistent snapshot.
   * @default true
   */
  readonly applicationConsistent?: boolean;
  /**
   * Copy each snapshot to another region.
   * @default - no copy
   */
  readonly crossRegionCopy?: CrossRegionCopy;
}

/** A retention as the update guard records it in `snapshotRetain`: the number's text, or a token's string. */
export function retainText(retain: number): string {
  return Token.isUnresolved(retain) ? Token.asString(retain) : String(retain);
}

/**
 * Notes at synth the retention the update guard records: `retain` sets of EBS snapshots, or days of FSx backups. A
 * lower value later deletes the older ones, which the guard refuses unless `acceptFewerSnapshots`: see
 * lambda/update-guard/retention-rules.ts.
 */
export function noteRetention(scope: Construct, kept: 'ebs' | 'FSx for Lustre' | 'FSx for OpenZFS', retain: number): void {
  const value = Token.isUnresolved(retain) ? 'a value known at deploy' : String(retain);
  const what = kept === 'ebs'
    ? (retain === 0 ? 'no snapshot policy (sets an earlier policy made stay, unmanaged)' : 'DLM keeps that many snapshot sets of the data volumes')
    : (retain === 0 ? `${kept} takes no automatic backups` : `${kept} keeps its daily automatic backups that many days`);
  Annotations.of(scope).addInfo(`snapshots.retain (-c snapshotRetain) ${value}: ${what}. A lower value on a later deploy ` +
    'deletes the oldest snapshot sets or backups, which the update guard refuses unless acceptFewerSnapshots=true ' +
    '(context) or acceptFewerSnapshots: true (prop).');
}
