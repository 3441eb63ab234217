/**
 * How a message shows the value it refuses: a string quoted, anything else with its type, so that `"5"` and `5`, or
 * `undefined` and `"undefined"`, never read alike. One describer for every message of the planner.
 */

/** `value` for the "got ..." of an error message: `"text"` for a string, `5 (number)` for anything else. */
export function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `${String(value)} (${typeof value})`;
}
