// The planner tests' expected figures, worked out from the published numbers, the AWS sources lib/sizing/catalog.ts
// lists, and not read from the catalogue. So a wrong number in the catalogue fails the tests.
export const TIB = 2 ** 40;
export const D2_RAW_TIB = {
  'd2.xlarge': 6e12 / TIB,
  'd2.2xlarge': 12e12 / TIB,
  'd2.4xlarge': 24e12 / TIB,
  'd2.8xlarge': 48e12 / TIB,
};
/**
 * d3 and d3en, typed from the EC2 User Guide and the AWS Price List as docs/sources/d3.md quotes them: the instance
 * store table's disks x GB, decimal; the storage optimized instances' network baseline in Gbps; and us-east-1 prices in
 * $/h.
 */
export const D3: { [name: string]: { disks: number; diskGB: number; networkGbps: number; usdPerHour: number } } = {
  'd3.xlarge': { disks: 3, diskGB: 1980, networkGbps: 3, usdPerHour: 0.499 },
  'd3.2xlarge': { disks: 6, diskGB: 1980, networkGbps: 6, usdPerHour: 0.999 },
  'd3.4xlarge': { disks: 12, diskGB: 1980, networkGbps: 12.5, usdPerHour: 1.998 },
  'd3.8xlarge': { disks: 24, diskGB: 1980, networkGbps: 25, usdPerHour: 3.99552 },
  'd3en.xlarge': { disks: 2, diskGB: 13980, networkGbps: 6, usdPerHour: 0.526 },
  'd3en.2xlarge': { disks: 4, diskGB: 13980, networkGbps: 12.5, usdPerHour: 1.051 },
  'd3en.4xlarge': { disks: 8, diskGB: 13980, networkGbps: 25, usdPerHour: 2.103 },
  'd3en.6xlarge': { disks: 12, diskGB: 13980, networkGbps: 40, usdPerHour: 3.154 },
  'd3en.8xlarge': { disks: 16, diskGB: 13980, networkGbps: 50, usdPerHour: 4.20576 },
  'd3en.12xlarge': { disks: 24, diskGB: 13980, networkGbps: 75, usdPerHour: 6.30864 },
};
export const d3RawTiB = (name: string) => (D3[name].disks * D3[name].diskGB * 1e9) / TIB;
/**
 * The lower bound of a d3 or d3en, MB/s sustained: each disk at d2's 3.1 GB/s / 24, the lesser write, under the
 * network.
 */
export const d3SustainedMBps = (name: string) => Math.min((D3[name].disks * 3100) / 24, (D3[name].networkGbps * 1e9) / 8 / 1e6);
export const d3MonthlyUsd = (name: string) => Math.round(D3[name].usdPerHour * 730 * 100) / 100;
export const LOWER_BOUND = 'lower bound: per-disk throughput unpublished';
/** The next double above x: the smallest request that does not fit a limit of exactly x. */
export const above = (x: number) => x * (1 + 2 ** -52);
/**
 * A figure as the planner states it: rounded down to the cent by lib/sizing/round.ts, never above the limit it is made
 * of.
 */
export const down2 = (mbps: number) => Math.floor(mbps * 100 + 1e-9) / 100;
