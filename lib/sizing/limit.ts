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
