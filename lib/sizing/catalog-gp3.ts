/**
 * General Purpose SSD volumes, gp3: their published limits and us-east-1 list prices, and the smallest gp3 volume that
 * provisions a throughput. Pure data and arithmetic, no CDK imports. Every number carries its source, and
 * docs/sources/netopt.md, "gp3: facts and exact source text", quotes each one.
 *
 * Sources:
 * - [SDK-EC2] AWS's EC2 API model, botocore `botocore/data/ec2/2016-11-15/service-2.json` of 2026-08-07,
 *   CreateVolumeRequest: "gp3: `1 - 65,536` GiB", "gp3: `3,000 `(*default*)` - 80,000` IOPS", and Throughput "Valid
 *   Range: `125 - 2000` MiB/s".
 * - [EBS-UG] Amazon EBS User Guide, "General Purpose SSD volumes", on gp3 performance: "at a ratio of 0.25 MiB/s per
 *   provisioned IOPS" and "at a ratio of 500 IOPS per GiB of volume size". aws-cdk-lib's ec2.Volume enforces the latter
 *   too, with `maximumRatios[GP3] = 500`.
 * - [PRICE-EBS] AWS's EBS price list, us-east-1, as quoted by third-party copies, since AWS publishes no copy with a
 *   citable commit: "$0.08 per GB-month of General Purpose (gp3) provisioned storage - US East (N. Virginia)", "$0.005
 *   per provisioned IOPS-month of gp3", "$0.04 per provisioned MiBps-month of gp3". The price dimension reads 40.96 USD
 *   per GiBps-month, and 40.96 / 1,024 = 0.04.
 * - [EBS-IO] Amazon EBS User Guide, "I/O characteristics and monitoring": "I/O size is capped at 256 KiB for SSD
 *   volumes", quoted in full in io-size.ts.
 */

import { MB_BYTES } from './catalog';
import { DataVolumeType } from './enums';

/** gp3 limits, EBS-GP3-LIMITS [SDK-EC2] [EBS-UG], and prices [PRICE-EBS]. */
export const GP3 = {
  /** Smallest gp3 volume, GiB. [SDK-EC2] */
  minSizeGiB: 1,
  /** Largest gp3 volume, GiB: 64 TiB. [SDK-EC2] */
  maxSizeGiB: 65_536,
  /** Throughput every gp3 volume has, included in the storage price, MiB/s. [SDK-EC2] [PRICE-EBS] */
  minMiBps: 125,
  /** Most throughput one gp3 volume can be provisioned with, MiB/s. [SDK-EC2] */
  maxMiBps: 2_000,
  /** IOPS every gp3 volume has, included in the storage price. [SDK-EC2] [PRICE-EBS] */
  minIops: 3_000,
  /** Most IOPS one gp3 volume can be provisioned with. [SDK-EC2] */
  maxIops: 80_000,
  /** Throughput per provisioned IOPS, at most: MiB/s <= IOPS x 0.25. [EBS-UG] */
  maxMiBpsPerIops: 0.25,
  /** IOPS per GiB of size, at most. [EBS-UG] */
  maxIopsPerGiB: 500,
  /** Storage, USD per GiB-month; EBS bills provisioned GiB as "GB-month". [PRICE-EBS] */
  usdPerGiBMonth: 0.08,
  /** Each provisioned IOPS above `minIops`, USD per month. [PRICE-EBS] */
  usdPerIopsMonth: 0.005,
  /** Each provisioned MiB/s above `minMiBps`, USD per month. [PRICE-EBS] */
  usdPerMiBpsMonth: 0.04,
} as const;

/** MB/s, 10^6 bytes per second, in one MiB/s: 1,048,576 / 10^6. */
export const MB_PER_MIB = 1024 ** 2 / MB_BYTES;

/** One gp3 volume: size, provisioned throughput and IOPS. */
export interface Gp3Volume {
  readonly volumeType: DataVolumeType.GP3;
  readonly sizeGiB: number;
  readonly throughputMiBps: number;
  readonly iops: number;
}

/** The largest I/O a gp3 volume counts as one, KiB [EBS-IO]: "I/O size is capped at 256 KiB for SSD volumes". */
export const GP3_MAX_IO_KIB = 256;

/**
 * The cheapest gp3 volume of at least `shareGiB` that provisions `targetMBps`, clamped to 125-2,000 MiB/s and rounded
 * up to whole MiB/s. It takes the fewest IOPS that allow that throughput, at least 3,000 and at least MiB/s / 0.25, and
 * that carry it in random requests of `ioSizeKiB`, MiB/s x 1,024 / the size, each request counted up to 256 KiB
 * [EBS-IO], at most 80,000. The size is grown where 500 IOPS per GiB needs it. The size is not checked against 64 TiB
 * here, since the caller skips larger shares.
 */
export function gp3VolumeFor(shareGiB: number, targetMBps: number, ioSizeKiB = 1024): Gp3Volume {
  const throughputMiBps = Math.min(GP3.maxMiBps, Math.max(GP3.minMiBps, Math.ceil(targetMBps / MB_PER_MIB - 1e-9)));
  const forIoSize = Math.ceil((throughputMiBps * 1024) / Math.min(ioSizeKiB, GP3_MAX_IO_KIB));
  const iops = Math.min(GP3.maxIops, Math.max(GP3.minIops, Math.ceil(throughputMiBps / GP3.maxMiBpsPerIops), forIoSize));
  const sizeGiB = Math.max(GP3.minSizeGiB, Math.ceil(shareGiB), Math.ceil(iops / GP3.maxIopsPerGiB));
  return { volumeType: DataVolumeType.GP3, sizeGiB, throughputMiBps, iops };
}

/**
 * One gp3 volume's monthly list price, USD, us-east-1 [PRICE-EBS]:
 * sizeGiB x 0.08 + max(0, iops - 3,000) x 0.005 + max(0, MiB/s - 125) x 0.04.
 */
export function gp3MonthlyUsd(v: { sizeGiB: number; iops?: number; throughputMiBps?: number }): number {
  return v.sizeGiB * GP3.usdPerGiBMonth
    + Math.max(0, (v.iops ?? GP3.minIops) - GP3.minIops) * GP3.usdPerIopsMonth
    + Math.max(0, (v.throughputMiBps ?? GP3.minMiBps) - GP3.minMiBps) * GP3.usdPerMiBpsMonth;
}

/**
 * Why a gp3 volume is not valid, naming the field and the allowed values, or undefined when it is. `where` names the
 * volume in the message, e.g. `dataVolumes[0]`.
 */
export function gp3VolumeError(v: { sizeGiB: number; iops?: number; throughputMiBps?: number }, where: string): string | undefined {
  const whole = (x: unknown, min: number, max: number) => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;
  const iops = v.iops ?? GP3.minIops;
  const mibps = v.throughputMiBps ?? GP3.minMiBps;
  if (!whole(v.sizeGiB, GP3.minSizeGiB, GP3.maxSizeGiB)) {
    return `${where}.sizeGiB must be a whole number from ${GP3.minSizeGiB} to ${GP3.maxSizeGiB} for gp3; got ${String(v.sizeGiB)}`;
  }
  if (!whole(mibps, GP3.minMiBps, GP3.maxMiBps)) {
    return `${where}.throughputMiBps must be a whole number from ${GP3.minMiBps} to ${GP3.maxMiBps}; got ${String(mibps)}`;
  }
  if (!whole(iops, GP3.minIops, GP3.maxIops)) {
    return `${where}.iops must be a whole number from ${GP3.minIops} to ${GP3.maxIops}; got ${String(iops)}`;
  }
  if (mibps > iops * GP3.maxMiBpsPerIops) {
    return `${where}.iops must be at least throughputMiBps / ${GP3.maxMiBpsPerIops} (${Math.ceil(mibps / GP3.maxMiBpsPerIops)} for ${mibps} MiB/s); got ${iops}`;
  }
  if (iops > v.sizeGiB * GP3.maxIopsPerGiB) {
    return `${where}.iops must be at most ${GP3.maxIopsPerGiB} per GiB (${v.sizeGiB * GP3.maxIopsPerGiB} for ${v.sizeGiB} GiB); got ${iops}`;
  }
  return undefined;
}
