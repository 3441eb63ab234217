/**
 * Benchmark of the sizing planner against published measurements: `npm run bench:planner`, which runs
 * `ts-node --transpile-only test/bench/planner-bench.ts`.
 *
 * The points are those of test/bench/planner-points.json; docs/sources/planner-points.md gives their sources and exact
 * configurations. It prints:
 * - for every point, the measured figure, the planner's figure for the same configuration and the error,
 *   `(planner - measured) / measured`;
 * - the median |error| overall and per category;
 * - the excluded points, with the reason class and the source's own words;
 * - the points the planner does not model.
 *
 * Every figure is MB/s, 10^6 bytes/s. The planner's figure always comes from lib/sizing. Each point's `model`,
 * `{kind, inputs, figure, why}`, says which function, with which inputs, and which of its figures matches the run:
 * baseline, burst, cachedRead or perClient. Where an EBS instance type is not in the catalogue, the planner's volume
 * model is bounded by the instance limit the point states, with the AWS page it comes from. It asserts nothing and
 * always exits 0; `benchPlanner(points)` returns the same rows and medians for a test.
 */
import * as fs from 'fs';
import * as path from 'path';
import { MB_PER_MIB } from '../../lib/sizing/catalog-gp3';
import { type ClientProtocol, type ClientRequest, clientCeiling, gbpsToMBps } from '../../lib/sizing/client-ceiling';
import type { EfsThroughputMode } from '../../lib/sizing/efs';
import type { FsxLustreOptions } from '../../lib/backends/fsx/sizing/lustre';
import { planStorage } from '../../lib/sizing';
import { instanceTypeSpec, knownInstanceType } from '../../lib/sizing/catalog-lookup';
import { DEFAULT_IO_SIZE_KIB, iopsMBps, volumeIops } from '../../lib/sizing/io-size';
import { withIoSize } from '../../lib/sizing/plan-io-size';
import { ebsPlan } from '../../lib/sizing/plan-ebs';
import { efsEstimates } from '../../lib/sizing/plan-efs';
import type { DataVolumePlan } from '../../lib/sizing/plan-types';
import { gp3Limits, st1Volume } from '../../lib/sizing/st1-model';
import { Backend } from '../../lib/backend-enum';
import { dataVolumeTypeOf } from '../../lib/sizing/enums';

/** The only reasons a point may be excluded for. */
export const EXCLUDE_REASONS = ['bound by metadata or small files', 'compressed data', 'a setup the source leaves unclear'] as const;
export const CATEGORIES = ['ebs-volume', 'ebs-server', 'instance-store', 'efs', 'fsx-lustre', 'fsx-openzfs', 'one-client'] as const;

type Figure = 'baseline' | 'burst' | 'cachedRead' | 'perClient';
/** EBS volumes on one instance: `estimateThroughput` for a catalogued type, else the volume model under `instanceLimit`. */
interface EbsInputs {
  volumeType: 'gp3' | 'st1'; count: number; sizeGiB: number | null; throughputMiBps?: number; iops?: number; instanceType: string;
  /** Random requests of this size, by io-size.ts's rule: the figure is also bounded by IOPS x size. */
  ioSizeKiB?: number;
  instanceLimit?: { ebsBaselineMbps: number; ebsMaximumMbps: number; ebsBaselineIops?: number; ebsMaximumIops?: number; source: string };
}
interface EfsInputs { mode: EfsThroughputMode; capacityTiB: number | null; client?: ClientRequest; clients?: number }
interface FsxInputs { capacityTiB: number; fsxLustre: FsxLustreOptions; client?: ClientRequest; clientNetworkSource?: string; clients?: number }
interface ClientInputs { client: ClientRequest; protocol?: ClientProtocol; clientNetworkSource?: string }
export type Model =
  | { kind: 'ebs'; inputs: EbsInputs; figure: Figure; why: string }
  | { kind: 'efs'; inputs: EfsInputs; figure: Figure; why: string }
  | { kind: 'fsx-lustre'; inputs: FsxInputs; figure: Figure; why: string }
  | { kind: 'client'; inputs: ClientInputs; figure: Figure; why: string }
  | { kind: 'not-modelled'; why: string }
  | { kind: 'excluded'; inputs: { reason: (typeof EXCLUDE_REASONS)[number] }; why: string };

export interface Point {
  id: string;
  category: string;
  source: { url: string };
  measured: { value: number; unit: string; direction: string };
  exclude: string | null;
  model: Model;
}

export interface Row { id: string; category: string; measuredMBps: number; plannerMBps: number; errorPct: number; figure: string; basis: string; url: string }
export interface Excluded { id: string; category: string; measuredMBps: number; reason: string; sourceReason: string; url: string }
export interface NotModelled { id: string; category: string; measuredMBps: number; why: string; url: string }
export interface Median { medianAbsErrorPct: number | undefined; n: number }
export interface BenchResult {
  rows: Row[];
  excluded: Excluded[];
  notModelled: NotModelled[];
  medians: { overall: Median; byCategory: Record<string, Median> };
}

/** MB/s, 10^6 bytes/s, in one of each unit the points use. fio 2.x and iotune print MiB as "MB": the JSON says MiB/s. */
const MBPS_PER_UNIT: Record<string, number> = {
  'MB/s': 1,
  'MiB/s': MB_PER_MIB,
  'GB/s': 1000,
  'Gbps': gbpsToMBps(1),
  'Gibit/s': 2 ** 30 / 8 / 1e6, // nload 0.7.4's "GBit/s"
};

export function toMBps(value: number, unit: string): number {
  const factor = MBPS_PER_UNIT[unit];
  if (factor === undefined) throw new Error(`unknown unit ${JSON.stringify(unit)}; known: ${Object.keys(MBPS_PER_UNIT).join(', ')}`);
  return value * factor;
}

/** The planner's figure for a modelled point, MB/s, and what it rests on: function, field, binding limit. */
interface Estimate { mbps: number; basis: string }

function direction(p: Point): 'read' | 'write' {
  const d = p.measured.direction;
  if (d !== 'read' && d !== 'write') throw new Error(`${p.id}: a modelled point needs direction read or write; got ${d}`);
  return d;
}

/** Field of a read/write figure: burst + read = burstReadMBps. */
function field(figure: 'baseline' | 'burst', dir: 'read' | 'write'): 'baselineReadMBps' | 'baselineWriteMBps' | 'burstReadMBps' | 'burstWriteMBps' {
  return `${figure}${dir === 'read' ? 'Read' : 'Write'}MBps`;
}

function ebs(p: Point, m: Extract<Model, { kind: 'ebs' }>): Estimate {
  const { inputs: i, figure } = m;
  if (figure !== 'baseline' && figure !== 'burst') throw new Error(`${p.id}: ebs figure must be baseline or burst; got ${figure}`);
  // gp3Limits reads only the provisioned throughput; an st1 volume needs its size.
  if (i.sizeGiB === null && i.volumeType === 'st1') throw new Error(`${p.id}: an st1 volume needs sizeGiB`);
  const volume: DataVolumePlan = { volumeType: dataVolumeTypeOf(i.volumeType), sizeGiB: i.sizeGiB ?? 0, throughputMiBps: i.throughputMiBps, iops: i.iops };
  const volumes = Array.from({ length: i.count }, () => volume);
  const io = i.ioSizeKiB ?? DEFAULT_IO_SIZE_KIB;
  if (knownInstanceType(i.instanceType)) {
    const key = field(figure, direction(p));
    const plan = withIoSize({ ...ebsPlan(instanceTypeSpec(i.instanceType), volumes), reason: '' }, io);
    return { mbps: plan.throughput[key], basis: `withIoSize(ebsPlan(${i.instanceType}, ${i.count} x ${i.volumeType}), ${io} KiB).${key}: ${plan.throughput.limitedBy}` };
  }
  if (!i.instanceLimit) throw new Error(`${p.id}: ${i.instanceType} is not catalogued: give instanceLimit (and its source)`);
  const one = i.volumeType === 'gp3' ? gp3Limits(volume) : st1Volume(volume.sizeGiB);
  const stripe = i.count * (figure === 'burst' ? one.burstMBps : one.baselineMBps);
  const mbps = figure === 'burst' ? i.instanceLimit.ebsMaximumMbps : i.instanceLimit.ebsBaselineMbps;
  const bound = mbps / 8;
  const stripeLabel = `${i.volumeType === 'gp3' ? 'gp3Limits' : 'st1Volume'} ${figure}: ${i.count} x ${round(stripe / i.count)} MB/s`;
  const boundLabel = `${i.instanceType} EBS ${figure === 'burst' ? 'maximum' : 'baseline'} ${mbps} Mbps (bound; not catalogued: ${i.instanceLimit.source})`;
  const limits = [{ mbps: stripe, label: stripeLabel }, { mbps: bound, label: boundLabel }, ...uncataloguedIops(p, i, figure, io)];
  const binds = limits.reduce((a, b) => (b.mbps < a.mbps ? b : a));
  return { mbps: binds.mbps, basis: `binds: ${binds.label}; of: ${limits.map((l) => `${l.label} ${round(l.mbps)} MB/s`).join(', ')}` };
}

/**
 * The IOPS x size bounds of an uncatalogued EBS point, by io-size.ts's rule: the volumes' IOPS, `volumeIops`, and the
 * instance's as the point gives them, each request counted up to the volume's largest I/O. None at 1 MiB.
 */
function uncataloguedIops(p: Point, i: EbsInputs, figure: 'baseline' | 'burst', io: number): { mbps: number; label: string }[] {
  if (io === DEFAULT_IO_SIZE_KIB) return [];
  const disks = volumeIops(Array.from({ length: i.count }, () => ({
    volumeType: dataVolumeTypeOf(i.volumeType), sizeGiB: i.sizeGiB ?? 0, throughputMiBps: i.throughputMiBps, iops: i.iops })));
  const instanceIops = figure === 'burst' ? i.instanceLimit?.ebsMaximumIops : i.instanceLimit?.ebsBaselineIops;
  if (instanceIops === undefined) throw new Error(`${p.id}: at ${io} KiB an uncatalogued type needs instanceLimit.ebs${figure === 'burst' ? 'Maximum' : 'Baseline'}Iops`);
  return [
    { mbps: iopsMBps(disks, io), label: `${disks.label} at ${io} KiB` },
    { mbps: iopsMBps({ iops: instanceIops, maxIoKiB: disks.maxIoKiB, label: '' }, io), label: `${i.instanceType} EBS ${figure} IOPS ${instanceIops} at ${io} KiB` },
  ];
}

/** `fs`, the file system's figure when counted, under `clients` x the per-client ceiling when bounded. */
function underClients(fs: Estimate | undefined, clients: number | undefined, perClient: number | undefined, perClientBy: string): Estimate {
  const cap = clients !== undefined && perClient !== undefined ? { mbps: clients * perClient, basis: `${clients} x perClient ${perClient} MB/s (${perClientBy})` } : undefined;
  const both = [fs, cap].filter((e): e is Estimate => e !== undefined);
  if (both.length === 0) throw new Error('neither a file system figure nor a per-client ceiling to compare');
  const binding = both.reduce((a, b) => (b.mbps < a.mbps ? b : a));
  return { mbps: binding.mbps, basis: both.length === 2 ? `binds: ${binding.basis}; other: ${(binding === fs ? cap : fs)?.basis}` : binding.basis };
}

function efs(p: Point, m: Extract<Model, { kind: 'efs' }>): Estimate {
  const { inputs: i, figure } = m;
  if (i.capacityTiB === null && figure !== 'perClient') throw new Error(`${p.id}: the ${figure} figure needs capacityTiB`);
  // perClient does not depend on the capacity: an unknown size is planned at 1 TiB and only perClient is read.
  const row = efsEstimates(i.capacityTiB ?? 1, 0, i.client).find((r) => r.mode === i.mode);
  const e = row?.estimate;
  if (!e) throw new Error(`${p.id}: efsEstimates gives no ${i.mode} estimate: ${row?.cannot}`);
  direction(p);
  const fsFigure: Estimate | undefined = figure === 'burst' ? { mbps: e.burstMBps, basis: `efsEstimates ${i.mode} burstMBps (${i.capacityTiB} TiB)` }
    : figure === 'baseline' ? { mbps: e.sustainedMBps, basis: `efsEstimates ${i.mode} sustainedMBps (${i.capacityTiB} TiB): ${e.limitedBy}` } : undefined;
  return underClients(fsFigure, i.clients ?? (figure === 'perClient' ? 1 : undefined), e.perClient.maxMBps, e.perClient.limitedBy);
}

function fsxLustre(p: Point, m: Extract<Model, { kind: 'fsx-lustre' }>): Estimate {
  const { inputs: i, figure } = m;
  const plan = planStorage({ capacityTiB: i.capacityTiB, backend: Backend.FSX_LUSTRE, fsxLustre: i.fsxLustre, client: i.client });
  const t = plan.throughput;
  const dir = direction(p);
  const gib = plan.fsxLustre?.storageCapacityGiB;
  let fsFigure: Estimate | undefined;
  if (figure === 'baseline' || figure === 'burst') {
    fsFigure = { mbps: t[field(figure, dir)], basis: `planStorage fsx-lustre ${plan.instanceType} ${gib} GiB throughput.${field(figure, dir)}` };
  } else if (figure === 'cachedRead') {
    if (!t.cachedRead || dir !== 'read') throw new Error(`${p.id}: no cachedRead figure for this plan and direction`);
    fsFigure = { mbps: t.cachedRead.readMBps, basis: `planStorage fsx-lustre ${gib} GiB throughput.cachedRead (${t.cachedRead.limitedBy})` };
  }
  const by = `${plan.perClient?.limitedBy}${i.clientNetworkSource ? ` [${i.clientNetworkSource}]` : ''}`;
  return underClients(fsFigure, i.clients ?? (figure === 'perClient' ? 1 : undefined), plan.perClient?.maxMBps, by);
}

function client(p: Point, m: Extract<Model, { kind: 'client' }>): Estimate {
  if (m.figure !== 'perClient') throw new Error(`${p.id}: a client point compares perClient; got ${m.figure}`);
  const c = clientCeiling(m.inputs.client, m.inputs.protocol ?? 'nfs');
  if (c.maxMBps === undefined) throw new Error(`${p.id}: clientCeiling gives no bound: ${c.limitedBy}`);
  const src = m.inputs.clientNetworkSource ? ` [${m.inputs.clientNetworkSource}]` : '';
  return { mbps: c.maxMBps, basis: `clientCeiling ${JSON.stringify(m.inputs.client)}: ${c.limitedBy}${src}` };
}

/** The planner's figure for a modelled point, generic over kinds: a new kind fails loudly. */
export function plannerFigure(p: Point): Estimate {
  const m = p.model;
  switch (m.kind) {
    case 'ebs': return ebs(p, m);
    case 'efs': return efs(p, m);
    case 'fsx-lustre': return fsxLustre(p, m);
    case 'client': return client(p, m);
    default: throw new Error(`${p.id}: model kind ${m.kind} gives no figure`);
  }
}

export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function round(x: number, digits = 2): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

/** Every point compared, excluded or listed as not modelled, and the median |error| overall and per category. */
export function benchPlanner(points: readonly Point[]): BenchResult {
  const rows: Row[] = [];
  const excluded: Excluded[] = [];
  const notModelled: NotModelled[] = [];
  for (const p of points) {
    if (!p.model) throw new Error(`${p.id}: no model`);
    const measuredMBps = toMBps(p.measured.value, p.measured.unit);
    const base = { id: p.id, category: p.category, measuredMBps, url: p.source.url };
    if ((p.exclude !== null) !== (p.model.kind === 'excluded')) {
      throw new Error(`${p.id}: exclude ${JSON.stringify(p.exclude)} and model kind ${p.model.kind} disagree`);
    }
    if (p.model.kind === 'excluded') {
      const reason = p.model.inputs.reason;
      if (!EXCLUDE_REASONS.includes(reason)) throw new Error(`${p.id}: exclusion reason must be one of ${EXCLUDE_REASONS.join('; ')}; got ${reason}`);
      excluded.push({ ...base, reason, sourceReason: p.exclude ?? '' });
    } else if (p.model.kind === 'not-modelled') {
      notModelled.push({ ...base, why: p.model.why });
    } else {
      const e = plannerFigure(p);
      const errorPct = ((e.mbps - measuredMBps) / measuredMBps) * 100;
      rows.push({ ...base, plannerMBps: e.mbps, errorPct, figure: `${p.model.figure}: ${p.model.why}`, basis: e.basis });
    }
  }
  const of = (rs: Row[]): Median => ({ medianAbsErrorPct: median(rs.map((r) => Math.abs(r.errorPct))), n: rs.length });
  const categories = [...new Set([...CATEGORIES, ...points.map((p) => p.category)])];
  const byCategory = Object.fromEntries(categories.map((c) => [c, of(rows.filter((r) => r.category === c))]));
  return { rows, excluded, notModelled, medians: { overall: of(rows), byCategory } };
}

function pct(m: Median): string {
  return m.medianAbsErrorPct === undefined ? `n/a (0 points)` : `${m.medianAbsErrorPct.toFixed(1)}% (${m.n} point${m.n === 1 ? '' : 's'})`;
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l: string[]) => l.map((c, i) => (i === l.length - 1 ? c : c.padEnd(widths[i]))).join(' | ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(fmt)].join('\n');
}

/** The report `npm run bench:planner` prints. */
export function formatBench(r: BenchResult): string {
  const mb = (x: number) => x.toFixed(x < 10 ? 2 : 1);
  const out: string[] = ['Planner vs published measurements (MB/s = 10^6 bytes/s; error = (planner - measured) / measured)', ''];
  out.push(table(
    ['id', 'category', 'measured MB/s', 'planner MB/s', 'error %', 'figure used', 'source URL'],
    r.rows.map((x) => [x.id, x.category, mb(x.measuredMBps), mb(x.plannerMBps), `${x.errorPct >= 0 ? '+' : ''}${x.errorPct.toFixed(1)}`, x.figure, x.url]),
  ));
  out.push('', 'What each planner figure rests on:');
  for (const x of r.rows) out.push(`  ${x.id}: ${x.basis}`);
  const cats = Object.entries(r.medians.byCategory).map(([c, m]) => `${c} ${pct(m)}`).join('; ');
  out.push('', `median |error|: overall ${pct(r.medians.overall)}; per category ${cats}`);
  out.push('', `Excluded (${r.excluded.length}; not in the medians):`);
  for (const x of r.excluded) out.push(`  ${x.id} (${x.category}, ${mb(x.measuredMBps)} MB/s): ${x.reason} -- the source: "${x.sourceReason}" -- ${x.url}`);
  out.push('', `Not modelled by the planner (${r.notModelled.length}; not in the medians):`);
  for (const x of r.notModelled) out.push(`  ${x.id} (${x.category}, ${mb(x.measuredMBps)} MB/s): ${x.why} -- ${x.url}`);
  out.push('', `${r.rows.length} compared, ${r.excluded.length} excluded, ${r.notModelled.length} not modelled.`);
  return out.join('\n');
}

if (require.main === module) {
  try {
    const file = path.join(__dirname, 'planner-points.json');
    console.log(formatBench(benchPlanner(JSON.parse(fs.readFileSync(file, 'utf8')) as Point[])));
  } catch (e) {
    // A benchmark, not a test: report and exit 0.
    console.error(`bench:planner could not run: ${e instanceof Error ? e.message : String(e)}`);
  }
  process.exitCode = 0;
}
