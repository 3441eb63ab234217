/**
 * How a context value is read and refused:
 * - the text of a key, from the strings of `-c` or the JSON values of cdk.json;
 * - the one error every bad value produces, naming the key, the value and what is allowed;
 * - the parsers of the value kinds many keys share: booleans, whole numbers, a pattern.
 */
import { quoted } from '../sizing/describe';

/** The Error every bad context value produces: key, value, what is allowed. */
export function contextError(key: string, value: string, allowed: string): Error {
  return new Error(`Invalid context value ${key}=${quoted(value)}: allowed is ${allowed}.`);
}

/**
 * A context as the parsers read it: a key's text, or a key parsed when it is given. `K` is the keys a parser may read:
 * the whole key table's for the shared parsers, its own for a backend's.
 */
export interface ContextValues<K extends string> {
  /** The key's value as trimmed text; undefined when absent. Blank text, objects and arrays are refused. */
  readonly raw: (key: K) => string | undefined;
  /** The key's value parsed by `parse`; undefined when absent. */
  readonly optional: <T>(key: K, parse: (key: K, value: string) => T) => T | undefined;
}

/** Reads the context through `read`; the app passes `(key) => app.node.tryGetContext(key)`. */
export function contextValues<K extends string>(read: (key: K) => unknown): ContextValues<K> {
  const raw = (key: K): string | undefined => {
    const value = read(key);
    if (value === undefined || value === null) return undefined;
    // A blank value is a mistake more often than a choice: `-c vpcId=$VPC` with VPC unset would make a new VPC.
    if (typeof value === 'string' && value.trim() === '') throw contextError(key, value, 'a value: a blank one is refused; leave the key out for its default');
    if (typeof value === 'string') return value.trim();
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw contextError(key, JSON.stringify(value), 'a string, number or boolean');
  };
  const optional = <T>(key: K, parse: (key: K, value: string) => T): T | undefined => {
    const value = raw(key);
    return value === undefined ? undefined : parse(key, value);
  };
  return { raw, optional };
}

/** `true` or `false`, the text `-c` gives or cdk.json's boolean. */
export function parseBoolean(key: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw contextError(key, value, "'true' or 'false'");
}

/** A whole number min..max written in plain decimal: no sign, no leading zero, no exponent. */
export function parseWholeNumber(key: string, value: string, min: number, max: number, allowed: string): number {
  const n = Number(value);
  if (!/^(0|[1-9][0-9]{0,8})$/.test(value) || n < min || n > max) throw contextError(key, value, allowed);
  return n;
}

/** The value when `pattern` matches it; `expected` says in words what is allowed. */
export function matching(key: string, value: string, pattern: RegExp, expected: string): string {
  if (!pattern.test(value)) throw contextError(key, value, expected);
  return value;
}
