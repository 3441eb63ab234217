/**
 * A snapshot policy's settings: the props' defaults, checked against what DLM accepts before any resource is made. DLM
 * bounds the intervals, times and counts, and the copy's region and key.
 */
import { Token } from 'aws-cdk-lib';

/** Hours between snapshots that DLM accepts for an interval schedule, by CreateRule.Interval. */
export const SNAPSHOT_INTERVAL_HOURS = [1, 2, 3, 4, 6, 8, 12, 24] as const;

/** The cross-region copy as the checks read it: CrossRegionCopy in lib/snapshot-policy.ts. */
export interface CopySettings {
  readonly targetRegion: string;
  readonly retainDays?: number;
  readonly cmkArn?: string;
  readonly encrypted?: boolean;
}

/** What the props may give: SnapshotPolicyProps in lib/snapshot-policy.ts. */
export interface SnapshotSettingsProps {
  readonly dataMountPath: string;
  readonly retain?: number;
  readonly intervalHours?: number;
  readonly startTimeUtc?: string;
  readonly applicationConsistent?: boolean;
  readonly maxFreezeSeconds?: number;
  readonly crossRegionCopy?: CopySettings;
}

/** The settings, defaults applied. */
export interface SnapshotSettings {
  readonly retain: number;
  readonly intervalHours: number;
  readonly startTimeUtc: string;
  readonly applicationConsistent: boolean;
  readonly maxFreezeSeconds: number;
  readonly copy?: CopySettings;
}

/** The props' settings with their defaults, each checked, unresolved tokens passing; throws naming the prop. */
export function snapshotSettings(props: SnapshotSettingsProps, stackRegion: string): SnapshotSettings {
  const settings: SnapshotSettings = {
    retain: props.retain ?? 7,
    intervalHours: props.intervalHours ?? 24,
    startTimeUtc: props.startTimeUtc ?? '03:00',
    applicationConsistent: props.applicationConsistent ?? true,
    maxFreezeSeconds: props.maxFreezeSeconds ?? 60,
    copy: props.crossRegionCopy,
  };
  validateWholeNumber('retain', settings.retain, 1, 1000, '; keeping 0 snapshots means not creating a SnapshotPolicy');
  validateIntervalHours(settings.intervalHours);
  validateStartTime(settings.startTimeUtc);
  validateWholeNumber('maxFreezeSeconds', settings.maxFreezeSeconds, 10, 600);
  validateMountPath(props.dataMountPath);
  if (settings.copy) validateCrossRegionCopy(settings.copy, stackRegion);
  return settings;
}

function validateWholeNumber(prop: string, value: number, min: number, max: number, hint = ''): void {
  if (Token.isUnresolved(value)) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${prop} must be a whole number from ${min} to ${max}, got ${value}${hint}`);
  }
}

function validateIntervalHours(hours: number): void {
  if (Token.isUnresolved(hours)) return;
  if (!(SNAPSHOT_INTERVAL_HOURS as readonly number[]).includes(hours)) {
    throw new Error(`intervalHours must be one of ${SNAPSHOT_INTERVAL_HOURS.join(', ')} (DLM), got ${hours}`);
  }
}

function validateStartTime(time: string): void {
  if (Token.isUnresolved(time)) return;
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
    throw new Error(`startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got '${time}'`);
  }
}

function validateMountPath(mountPath: string): void {
  if (Token.isUnresolved(mountPath)) return;
  const segments = mountPath.split('/').slice(1);
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(mountPath) || segments.some((s) => s === '.' || s === '..')) {
    throw new Error(
      `dataMountPath must be an absolute path of [A-Za-z0-9._-] segments, without '.', '..' or a ` +
        `trailing '/', and not '/', got '${mountPath}'`,
    );
  }
}

const REGION = /^([a-z]+-){2,3}\d$/;
const KMS_KEY_ARN = /^arn:aws(-[a-z]{1,3}){0,2}:kms:(([a-z]+-){2,3}\d):\d+:key\//;

function validateCrossRegionCopy(copy: CopySettings, stackRegion: string): void {
  const { targetRegion, cmkArn } = copy;
  if (!Token.isUnresolved(targetRegion)) {
    if (!REGION.test(targetRegion)) {
      throw new Error(
        `crossRegionCopy.targetRegion must be a region name like eu-west-1, got '${targetRegion}'`,
      );
    }
    if (!Token.isUnresolved(stackRegion) && targetRegion === stackRegion) {
      throw new Error(
        `crossRegionCopy.targetRegion must differ from the stack's region, got '${targetRegion}' for both`,
      );
    }
  }
  validateWholeNumber('crossRegionCopy.retainDays', copy.retainDays ?? 7, 1, 36500);
  if (cmkArn === undefined || Token.isUnresolved(cmkArn)) return;
  const match = KMS_KEY_ARN.exec(cmkArn);
  if (!match) {
    throw new Error(
      `crossRegionCopy.cmkArn must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got '${cmkArn}'`,
    );
  }
  if (!Token.isUnresolved(targetRegion) && match[2] !== targetRegion) {
    throw new Error(
      `crossRegionCopy.cmkArn must be a key in the target region ${targetRegion}, got a key in ${match[2]}: '${cmkArn}'`,
    );
  }
  if (copy.encrypted === false) {
    throw new Error(
      `crossRegionCopy.encrypted is false but cmkArn is set ('${cmkArn}'); a key implies encryption`,
    );
  }
}
