/**
 * How a message shows the value it refuses: a string quoted, anything else with its type, so that `"5"` and `5`, or
 * `undefined` and `"undefined"`, never read alike. It is one describer for every message of the planner.
 */

/**
 * `text` with every character outside printable ASCII written as `\u{hex}`. So a zero-width space, a right-to-left
 * override or a Cyrillic letter that looks Latin is shown for what it is, not rendered.
 */
export function escapeInvisible(text: string): string {
  return text.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** `text` in double quotes for a message, as JSON writes it, with {@link escapeInvisible}'s escapes. */
export function quoted(text: string): string {
  return escapeInvisible(JSON.stringify(text));
}

/** `value` for the "got ..." of an error message: `"text"` for a string, `5 (number)` for anything else. */
export function describe(value: unknown): string {
  return typeof value === 'string' ? quoted(value) : `${String(value)} (${typeof value})`;
}
