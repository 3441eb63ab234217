/**
 * Validators shared by the app's context parser, lib/context.ts, and the StorageServer construct: one rule, one place,
 * so the CLI and the library cannot drift. They are pure functions with no constructs. Each returns the reason a value
 * is bad, a phrase the caller wraps with the key or prop name, or undefined when it is good.
 *
 * This module gathers them. Each concept has its file under lib/validation/: names and ids, client addresses,
 * directories and mount points, comma lists, the alarm e-mail address, the alarm topic's ARN, FSx for Lustre's inputs,
 * and snapshots.
 */
export * from './validation/names';
export * from '../lambda/value-check/network';
export * from '../lambda/value-check/special-purpose';
export * from '../lambda/value-check/mounts';
export * from './validation/lists';
export * from './validation/email';
export * from './validation/topic-arn';
export * from './validation/fsx-lustre';
export * from './validation/snapshots';
