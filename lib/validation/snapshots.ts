/**
 * Snapshots and backups: the EBS snapshot id, a snapshot set to restore the data volumes from, checked against the
 * plan, and the time of day a daily schedule starts.
 */
import { Token } from 'aws-cdk-lib';
import type { StoragePlan } from '../sizing';
import { duplicateValues } from './lists';
import { ec2IdPattern } from './names';

/** An EBS snapshot id. */
export const SNAPSHOT_ID_PATTERN = ec2IdPattern('snap');

/** A time of day in UTC, `HH:MM` from 00:00 to 23:59, for DLM's CreateRule Times and FSx's daily backup start. */
export const TIME_OF_DAY_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/**
 * Checks a snapshot set to restore the data volumes from against the plan: the EBS backend, one distinct snapshot
 * id per data volume. Returns the reason it is bad, or undefined. Unresolved tokens pass the form check.
 */
export function snapshotSetProblem(plan: StoragePlan, ids: readonly string[]): string | undefined {
  const bad = ids.find((id) => !Token.isUnresolved(id) && !SNAPSHOT_ID_PATTERN.test(id));
  if (bad !== undefined) return `each entry must be a snapshot id such as 'snap-0123456789abcdef0', got '${bad}'`;
  const repeated = duplicateValues(ids.filter((id) => !Token.isUnresolved(id)));
  if (repeated.length > 0) {
    return `each data volume needs its own snapshot, but ${repeated.join(', ')} appears more than once`;
  }
  if (plan.backend !== 'ebs') return `only the EBS backend has data volumes, but the plan is ${plan.backend}`;
  if (ids.length !== plan.dataVolumes.length) {
    return `the plan has ${plan.dataVolumes.length} data volume(s), so give exactly ${plan.dataVolumes.length} ` +
      `snapshot id(s) in stripe order, got ${ids.length} (${ids.join(', ')})`;
  }
  return undefined;
}
