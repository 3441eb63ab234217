/**
 * How the update guard reads its stack's status before a refusal, with `stackStatus` in aws.ts. It is the one fact that
 * tells CloudFormation's rollback of an update the guard accepted from a user's update back to the same properties. The
 * stack of a rollback is `UPDATE_ROLLBACK_IN_PROGRESS`; a revert is judged like any update. Both send the guard the
 * same kind of Update, so a failed read leaves the guard unable to tell them apart. It then refuses, and messages.ts
 * says how to go on, because a stack in UPDATE_ROLLBACK_FAILED can be continued and lost data cannot be brought back.
 *
 * It imports nothing: the SDK client takes this configuration as a plain object, and messages.ts, which the construct
 * imports at synth time, quotes the bounds.
 */

/**
 * Attempts of the DescribeStacks call, the first included, retried by the SDK's standard retry strategy: exponential
 * backoff with full jitter. In the lockfile's SDK, which the handler bundles, that is a random wait of up to 1, 2, 4
 * and 8 s before retries 1 to 4 after throttling, and from 50 ms doubling after a 5xx or a timeout. The SDK's default
 * of 3 attempts rides out at most about 3 s of throttling; 5 ride out up to 15 s, half that on average. The "adaptive"
 * mode adds a client-side rate limiter, which helps a client that sends many calls, not one that sends one.
 */
export const STATUS_MAX_ATTEMPTS = 5;

/**
 * The longest the read may take, retries and their waits included: the 15 s of backoff above and the requests
 * themselves.
 */
export const STATUS_DEADLINE_MS = 18_000;

/**
 * What the read leaves of the function's remaining time for the refusal to reach CloudFormation: a function Lambda
 * stops fails the request without the message that says how to go on. The read is an Update's last AWS call, so only
 * the log lines and the throw follow it; the calls before it have spent their time already.
 */
export const STATUS_RESERVE_MS = 3_000;

/**
 * The read's deadline when the function has `remainingMs` left (Lambda's `getRemainingTimeInMillis`): at most
 * {@link STATUS_DEADLINE_MS}, and never into {@link STATUS_RESERVE_MS}. Unknown remaining time: the full deadline.
 */
export function statusDeadlineMs(remainingMs?: number): number {
  if (remainingMs === undefined || !Number.isFinite(remainingMs)) return STATUS_DEADLINE_MS;
  return Math.max(0, Math.min(STATUS_DEADLINE_MS, Math.floor(remainingMs) - STATUS_RESERVE_MS));
}

/** The CloudFormation client's configuration for the read: the attempts above, and requests bounded in time. */
export const STATUS_CLIENT_CONFIG = {
  maxAttempts: STATUS_MAX_ATTEMPTS,
  retryMode: 'standard',
  // A stalled connection becomes a timeout, which the SDK retries, instead of using up the deadline.
  requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
};

/** What the read found: the stack's status, or why it could not read it. */
export interface StackStatusRead {
  /** The stack's status, e.g. `UPDATE_ROLLBACK_IN_PROGRESS`; absent when it could not be read. */
  readonly status?: string;
  /** Why the status could not be read, by the last error, when it could not. */
  readonly error?: string;
  /** DescribeStacks calls made, when the SDK reports them. */
  readonly attempts?: number;
  /** How long the read took, in milliseconds. */
  readonly elapsedMs?: number;
}

/** Why a read failed, in one line: the SDK's last error, or the deadline (`deadlineMs`) when the read was cut short. */
export function statusReadError(err: unknown, deadlineMs: number = STATUS_DEADLINE_MS): string {
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError') && /abort/i.test(err.message)) {
    // A deadline of 0 aborts before any request: the function's own time was spent.
    if (deadlineMs <= 0) return `not asked: the function had no time left beyond the ${STATUS_RESERVE_MS / 1000} s it keeps in reserve`;
    return `no answer within the ${Number((deadlineMs / 1000).toFixed(1))} s the guard gives the read`;
  }
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The attempts the SDK counted for a failed call, `$metadata.attempts`, when it did. */
export function attemptsOf(err: unknown): number | undefined {
  const attempts = (err as { $metadata?: { attempts?: unknown } } | undefined)?.$metadata?.attempts;
  return typeof attempts === 'number' ? attempts : undefined;
}
