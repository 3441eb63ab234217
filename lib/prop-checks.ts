import { Token } from 'aws-cdk-lib';
import { escapeInvisible } from './sizing/describe';

// The run-time checks of a prop's type that TypeScript's types would make, for JavaScript callers and `as any`. The
// facade's props and each backend's option group share them, so every message has one form: the prop, what it must
// be, the value as given.

/** An object prop: present when `required`, and an object, with `member`, when given, as the mark of its type. */
export function validateObject(prop: string, value: unknown, what: string, member?: string, required = false): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'object' || value === null || (member !== undefined && !(member in value))) {
    throw new Error(`${prop} must be ${what}, got ${shown(value)}.`);
  }
}

/** A prop with a fixed set of values; undefined is the default. */
export function validateOneOf(prop: string, value: unknown, allowed: readonly unknown[]): void {
  if (value === undefined || allowed.includes(value)) return;
  // Each of these decides what synth makes, so a token, which is a string to JavaScript and truthy, cannot stand for
  // one.
  const got = Token.isUnresolved(value) ? 'a token: the value decides what synth makes, so give it literally' : describeValue(value);
  throw new Error(`${prop} must be one of ${allowed.map(describeValue).join(', ')}, got ${got}.`);
}

/** Shows a value in a message: a string in single quotes, anything else as {@link describeValue} does. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? `'${escapeInvisible(value)}'` : describeValue(value);
}

/**
 * Describes a value for a message: numbers as themselves, such as NaN, Infinity or -1; undefined and functions by their
 * type; objects that JSON cannot show, such as a construct or a cycle, by their class; anything else as JSON.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === undefined || typeof value === 'function') return typeof value;
  try {
    return escapeInvisible(JSON.stringify(value) ?? String(value));
  } catch {
    return `a ${(value as object).constructor?.name ?? 'object'}`;
  }
}
