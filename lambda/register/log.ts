/**
 * How the registration handler logs: one JSON object per line, and the name of an error to log or to branch on.
 */

/**
 * One JSON object per line on stdout, which Lambda forwards to CloudWatch Logs unchanged. Callers pass
 * names and ids only, never the event: it carries the presigned ResponseURL.
 */
export function log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
}

/** The error's name, such as `ParameterNotFound` or `TimeoutError`, or its type when it is not an Error. */
export function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}
