/**
 * Props of the FSx monitoring classes, `MonitoredLustreFileSystem` and `MonitoredOpenZfsFileSystem`: the ids their
 * metrics' dimensions name, the numbers their expressions divide by, and the words of their alarms' descriptions.
 */
import { Token } from 'aws-cdk-lib';
import { describe } from '../sizing/describe';

/** An FSx file system id: `fs-` and 8 to 17 hex digits, as the registration reads it from the DNS name. */
const FILE_SYSTEM_ID = /^fs-[0-9a-f]{8,17}$/;

/**
 * A capacity or throughput the metric math divides by or the description shows: a whole number above 0. A token is
 * refused, since the number is written into the expression's text at synth.
 */
export function validatePositiveWhole(owner: string, prop: string, value: unknown, unit: string): void {
  if (typeof value === 'number' && Token.isUnresolved(value)) {
    throw new Error(`${owner}: ${prop} must be a whole number of ${unit} above 0, got a token: the number is written into the alarm at synth, so give it literally.`);
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${owner}: ${prop} must be a whole number of ${unit} above 0, got ${describe(value)}.`);
  }
}

/** A file system id, a metric dimension: `fs-0123456789abcdef0`, or a token such as `CfnFileSystem.ref`. */
export function validateFileSystemId(owner: string, prop: string, value: unknown): void {
  validateId(owner, prop, value, FILE_SYSTEM_ID, 'an FSx file system id such as \'fs-0123456789abcdef0\'');
}

/** A word of a fixed set, or a token, which resolves into the description at deploy. */
export function validateOneOf(owner: string, prop: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value === 'string' && (Token.isUnresolved(value) || allowed.includes(value))) return;
  throw new Error(`${owner}: ${prop} must be one of ${allowed.join(', ')}, got ${describe(value)}.`);
}

/** An id by its pattern, `what` naming it with an example; or a token, which resolves to a resource's own id. */
export function validateId(owner: string, prop: string, value: unknown, pattern: RegExp, what: string): void {
  // A token resolves to the resource's own id at deploy; an empty or mistyped literal would name no metric.
  if (typeof value === 'string' && (Token.isUnresolved(value) || pattern.test(value))) return;
  throw new Error(`${owner}: ${prop} must be ${what}, got ${describe(value)}.`);
}
