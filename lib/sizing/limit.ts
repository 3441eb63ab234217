/** A throughput limit, in MB/s and the words that name it, the one of several that binds, and a plan's sustained figure. */

/** A throughput limit in MB/s and the words that name it. */
export interface Limit {
  readonly mbps: number;
  readonly label: string;
}

/** The smallest limit; every limit that ties with it is named. */
export function binding(limits: Limit[]): Limit {
  const mbps = Math.min(...limits.map((l) => l.mbps));
  const tied = limits.filter((l) => l.mbps - mbps <= 1e-9 * mbps);
  return { mbps, label: tied.map((l) => l.label).join(' and ') };
}

/** The sustained figure of a plan: the lesser of its read and write once every credit is spent, MB/s. */
export function sustainedOf(plan: { readonly throughput: { readonly baselineReadMBps: number; readonly baselineWriteMBps: number } }): number {
  return Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps);
}

/** The clause a reason ends with when the plan sustains the throughput asked, and its pattern, to say it anew for another type. */
export function sustainsAsked(throughputMBps: number): string {
  return `; it sustains the ${throughputMBps} MB/s asked for`;
}
export const SUSTAINS_ASKED = /; it sustains the [0-9.]+ MB\/s asked for/g;
