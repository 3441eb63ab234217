// The shape of an FSx plan's cached-read figure: apart, so that the catalogue and the plan's types import it alike.

/**
 * Reads served from the file servers' memory on FSx: "When you read data that is stored on the file server's in-memory
 * or SSD cache, file system performance is determined by the network throughput", per the FSx for Lustre guide, "How
 * FSx for Lustre file systems work", and docs/sources/lustre-performance.md. For a working set within `cacheGiB`.
 */
export interface CachedReadEstimate {
  /** Sustained read of data in the servers' memory: the network baseline, MB/s. */
  readonly readMBps: number;
  /** The same while network credits last: the network burst, MB/s. */
  readonly burstReadMBps: number;
  /** The file servers' memory together, GiB: a working set within it is read at `readMBps`. */
  readonly cacheGiB: number;
  /** Where the figures come from, in words. */
  readonly limitedBy: string;
  /**
   * The figures are an upper bound for the plan's smaller random requests. AWS publishes no IOPS figure for reads from
   * the servers' memory, so none bounds them: see io-size.ts.
   * @default false
   */
  readonly upperBoundAtIoSize?: boolean;
}
