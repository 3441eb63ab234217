import { Annotations, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { type Setting, SettingNames } from '../setting-names';
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

/** The retention, as messages name it. */
export const SNAPSHOT_RETAIN: Setting = { prop: 'snapshots.retain', key: 'snapshotRetain' };
const ACCEPT_FEWER_SNAPSHOTS: Setting = { prop: 'acceptFewerSnapshots', key: 'acceptFewerSnapshots' };

/** A retention as the update guard records it in `snapshotRetain`: the number's text, or a token's string. */
export function retainText(retain: number): string {
  return Token.isUnresolved(retain) ? Token.asString(retain) : String(retain);
}

/** What a retention keeps, in words, for the note of {@link noteRetention}. */
export interface RetentionWords {
  /** With `retain` 0, such as `FSx for Lustre takes no automatic backups`. */
  readonly none: string;
  /** With `retain` above 0, of "that many", such as `FSx for Lustre keeps its daily automatic backups that many days`. */
  readonly kept: string;
}

/** The words of a managed file system's daily automatic backups, `fileSystem` its name, such as `FSx for Lustre`. */
export function dailyBackups(fileSystem: string): RetentionWords {
  return { none: `${fileSystem} takes no automatic backups`, kept: `${fileSystem} keeps its daily automatic backups that many days` };
}

/**
 * Notes at synth the retention the update guard records: `retain` sets of EBS snapshots, or days of FSx backups, in
 * the backend's own words. A lower value later deletes the older ones, which the guard refuses unless
 * `acceptFewerSnapshots`: see lambda/update-guard/retention-rules.ts. Only when the synth states a retention
 * (`stated`), so that a default synth stays quiet; the guard's refusal says the same when it matters.
 */
export function noteRetention(scope: Construct, words: RetentionWords, retain: number, stated: boolean): void {
  if (!stated) return;
  const names = SettingNames.of(scope);
  const value = Token.isUnresolved(retain) ? 'a value known at deploy' : String(retain);
  const what = retain === 0 ? words.none : words.kept;
  Annotations.of(scope).addInfo(`${names.name(SNAPSHOT_RETAIN)} ${value}: ${what}. A lower value on a later deploy ` +
    'deletes the oldest snapshot sets or backups, which the update guard refuses unless ' +
    `${names.set(ACCEPT_FEWER_SNAPSHOTS, 'true')}.`);
}
