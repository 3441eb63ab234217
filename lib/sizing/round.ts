/** The precision the planner states its figures in: MB/s, TiB and dollars to the hundredth. */

/** `value` rounded to the nearest at two decimals; a bound that must not be overstated rounds down on its own. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * `value` rounded down to two decimals, so that a figure made from a limit, a bound or an estimate, is never stated
 * above it. The 1e-9 keeps an exact product such as 65.536 x 100 from losing a cent to binary.
 */
export function floor2(value: number): number {
  return Math.floor(value * 100 + 1e-9) / 100;
}

/** Rounds down, so a maximum shown in a message is never above the real one. */
export function formatTiB(value: number): string {
  return String(Math.floor(value * 100) / 100);
}
