/** Comma lists given as context or props: the values they repeat, such as a CIDR or a snapshot id given twice. */

/** The values that occur more than once, each once, in order of first repetition. */
export function duplicateValues(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) repeated.add(v);
    seen.add(v);
  }
  return [...repeated];
}
