/**
 * What EFS would cost and sustain for a request, beside the plans this project deploys. EFS is planner only: never a
 * `StoragePlan`, never what `planStorage` returns. It is Regional Standard storage in each throughput mode, from the
 * figures of efs.ts. Elastic is billed per GB moved. It is priced here as the throughput asked moved all month, 730 h,
 * half read and half write, the footing of the other plans, which deliver that rate all month. Its storage-only price
 * stands beside it.
 */
import { HOURS_PER_MONTH } from './catalog';
import {
  EFS_BURSTING_BASELINE_MIBPS_PER_TIB, EFS_BURSTING_BURST_MIBPS_PER_TIB, EFS_BURSTING_MIN_BURST_MIBPS, EFS_ELASTIC_READ_USD_PER_GB,
  EFS_ELASTIC_WRITE_USD_PER_GB, EFS_MAX_PROVISIONED_MIBPS, EFS_PROVISIONED_USD_PER_MBPS_MONTH, EFS_STORAGE_USD_PER_GB_MONTH, EfsThroughputMode,
  EFS_MODE_IOPS, EFS_MODE_LIMITS, MB_PER_MIB, efsModeBoundMBps,
} from './efs';
import { DEFAULT_IO_SIZE_KIB, iopsMBps } from './io-size';
import { type ClientCeiling, type ClientRequest, efsClientCeiling } from './client-ceiling';
import { floor2, round2 } from './round';

/** One EFS option for a request: Regional, Standard storage, one throughput mode. */
export interface EfsEstimate {
  /** The throughput mode. */
  readonly mode: EfsThroughputMode;
  /** Standard storage priced, GiB: EFS bills what is stored, the capacity asked. */
  readonly storageGiB: number;
  /** Sustained read and write, MB/s: a bound, as `limitedBy` says. */
  readonly sustainedMBps: number;
  /** While credits last on Bursting, else the sustained figure, MB/s. */
  readonly burstMBps: number;
  /**
   * Provisioned mode: the MiB/s provisioned.
   * @default - none, outside Provisioned mode
   */
  readonly provisionedMiBps?: number;
  /** Storage alone, USD a month. */
  readonly storageUsd: number;
  /** Storage and throughput, USD a month; for Elastic, with the throughput asked moved all month. */
  readonly monthlyCostUsd: number;
  /** What binds the sustained figure, and how the row is priced, in words. */
  readonly limitedBy: string;
  /** What one client can reach: EFS's per-client limit for the mode, under the client's own NFS bounds. */
  readonly perClient: ClientCeiling;
}

/** Where EFS prices come from, for the comparison's sources. */
export const EFS_PRICE_SOURCE = "AWS's EFS price data (us-east-1) as github.com/QuinnyPig/aws-price-watcher mirrors it (lib/sizing/efs.ts)";

/** GB, 10^9 bytes, moved in a month at `mbps` MB/s. */
function gbPerMonth(mbps: number): number {
  return (mbps * 3600 * HOURS_PER_MONTH) / 1000;
}

/** The EFS options for `capacityTiB` at `targetMBps`, 0 when none is asked, or why a mode cannot sustain it. */
export function efsEstimates(
  capacityTiB: number, targetMBps = 0, client?: ClientRequest, ioSizeKiB = DEFAULT_IO_SIZE_KIB,
): { mode: EfsThroughputMode; estimate?: EfsEstimate; cannot?: string }[] {
  const storageGiB = Math.ceil(capacityTiB * 1024);
  const storageUsd = round2(storageGiB * EFS_STORAGE_USD_PER_GB_MONTH.STANDARD);
  const rows: ModeRow[] = [elastic(storageGiB, storageUsd, targetMBps)];
  if (targetMBps > 0) rows.push(provisioned(storageGiB, storageUsd, targetMBps));
  rows.push(bursting(storageGiB, storageUsd, capacityTiB, targetMBps));
  return rows.map((row) => atIoSize(row, targetMBps, ioSizeKiB)).map((r) => (r.estimate === undefined ? { mode: r.mode, cannot: r.cannot } : {
    mode: r.mode,
    estimate: { ...r.estimate, perClient: efsClientCeiling(EFS_MODE_LIMITS[r.mode].perClientMiBps * MB_PER_MIB, MODE_NAMES[r.mode], client) },
  }));
}

/**
 * A mode's row for random requests of `ioSizeKiB`: its figures are also bounded by the mode's write IOPS x the size,
 * the write IOPS being the lesser of read and write, as the sustained figure is. A row that then falls short of the
 * target cannot do.
 */
function atIoSize(row: ModeRow, targetMBps: number, ioSizeKiB: number): ModeRow {
  if (row.estimate === undefined || ioSizeKiB === DEFAULT_IO_SIZE_KIB) return row;
  const writeIops = EFS_MODE_IOPS[row.mode][1];
  const bound = floor2(iopsMBps({ iops: writeIops, label: '' }, ioSizeKiB));
  const e = row.estimate;
  if (bound >= e.sustainedMBps) return { ...row, estimate: { ...e, limitedBy: `${e.limitedBy}; random ${ioSizeKiB} KiB requests: no IOPS limit binds` } };
  const says = `${MODE_NAMES[row.mode]}'s ${writeIops.toLocaleString('en-US')} write IOPS at ${ioSizeKiB} KiB`;
  if (targetMBps > bound) return { mode: row.mode, cannot: `${targetMBps} MB/s is more than ${says} move (${bound} MB/s)` };
  return { ...row, estimate: { ...e, sustainedMBps: bound, burstMBps: Math.min(e.burstMBps, bound), limitedBy: `${says} (${e.limitedBy})` } };
}

const MODE_NAMES: { readonly [M in EfsThroughputMode]: string } = { elastic: 'Elastic', provisioned: 'Provisioned', bursting: 'Bursting' };

/** One mode's row before its per-client figure. */
type ModeRow = { mode: EfsThroughputMode; estimate?: Omit<EfsEstimate, 'perClient'>; cannot?: string };

function elastic(storageGiB: number, storageUsd: number, targetMBps: number): ModeRow {
  const bound = floor2(efsModeBoundMBps('elastic'));
  if (targetMBps > bound) return { mode: 'elastic', cannot: cannotSay('Elastic', targetMBps, bound) };
  const gb = gbPerMonth(targetMBps);
  const transferUsd = (gb / 2) * EFS_ELASTIC_READ_USD_PER_GB + (gb / 2) * EFS_ELASTIC_WRITE_USD_PER_GB;
  return {
    mode: 'elastic',
    estimate: {
      mode: 'elastic', storageGiB, sustainedMBps: bound, burstMBps: bound, storageUsd, monthlyCostUsd: round2(storageUsd + transferUsd),
      limitedBy: `Elastic's least published write per file system (1 GiBps; 1-5 by Region): a bound; ` + (targetMBps > 0
        ? `priced as ${targetMBps} MB/s moved all month, half read ($${EFS_ELASTIC_READ_USD_PER_GB}/GB), half write ($${EFS_ELASTIC_WRITE_USD_PER_GB}/GB); storage alone $${storageUsd.toFixed(2)}`
        : `storage only: transfers extra, $${EFS_ELASTIC_READ_USD_PER_GB}/GB read, $${EFS_ELASTIC_WRITE_USD_PER_GB}/GB written`),
    },
  };
}

function provisioned(storageGiB: number, storageUsd: number, targetMBps: number): ModeRow {
  const mibps = Math.ceil(targetMBps / MB_PER_MIB);
  const bound = floor2(Math.min(efsModeBoundMBps('provisioned'), EFS_MAX_PROVISIONED_MIBPS * MB_PER_MIB));
  if (targetMBps > bound) return { mode: 'provisioned', cannot: cannotSay('Provisioned', targetMBps, bound) };
  const sustained = floor2(mibps * MB_PER_MIB);
  // Billed: what is provisioned above the throughput Standard storage allows, Bursting's baseline. [BILL]
  const included = (EFS_BURSTING_BASELINE_MIBPS_PER_TIB * storageGiB) / 1024;
  const billed = Math.max(0, mibps - included);
  return {
    mode: 'provisioned',
    estimate: {
      mode: 'provisioned', storageGiB, sustainedMBps: sustained, burstMBps: sustained, provisionedMiBps: mibps, storageUsd,
      monthlyCostUsd: round2(storageUsd + billed * EFS_PROVISIONED_USD_PER_MBPS_MONTH),
      limitedBy: `the ${mibps} MiB/s provisioned, billed above the ${round2(included)} MiB/s Standard storage allows (50 MiB/s per ` +
        `TiB stored) at $${EFS_PROVISIONED_USD_PER_MBPS_MONTH} per MB/s-month; storage alone $${storageUsd.toFixed(2)}`,
    },
  };
}

function bursting(storageGiB: number, storageUsd: number, capacityTiB: number, targetMBps: number): ModeRow {
  const tib = storageGiB / 1024;
  const baseline = floor2(Math.min(EFS_BURSTING_BASELINE_MIBPS_PER_TIB * tib * MB_PER_MIB, efsModeBoundMBps('bursting')));
  if (targetMBps > baseline) {
    const needTiB = Math.ceil((targetMBps / MB_PER_MIB / EFS_BURSTING_BASELINE_MIBPS_PER_TIB) * 100) / 100;
    return { mode: 'bursting', cannot: `Bursting's baseline for ${capacityTiB} TiB is ${baseline} MB/s (50 MiB/s per TiB stored); ${targetMBps} MB/s needs ${needTiB} TiB stored` };
  }
  const burst = floor2(Math.max(EFS_BURSTING_MIN_BURST_MIBPS, EFS_BURSTING_BURST_MIBPS_PER_TIB * tib) * MB_PER_MIB);
  return {
    mode: 'bursting',
    estimate: {
      mode: 'bursting', storageGiB, sustainedMBps: baseline, burstMBps: Math.max(burst, baseline), storageUsd, monthlyCostUsd: storageUsd,
      limitedBy: 'Bursting baseline, 50 MiB/s per TiB of Standard storage; throughput included in the storage price',
    },
  };
}

function cannotSay(mode: string, targetMBps: number, bound: number): string {
  return `${targetMBps} MB/s is more than EFS ${mode} is published to sustain in every Region (${bound} MB/s write per file system)`;
}
