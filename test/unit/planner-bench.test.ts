/**
 * The planner against published measurements. `npm run bench:planner`, test/bench/planner-bench.ts, prints the figures;
 * this test holds what the benchmark must be, not its errors, since a benchmark asserts no target. Every point is
 * compared, excluded for an allowed reason, or listed as not modelled. There are at least 12 points across EBS, EFS,
 * FSx for Lustre and one client, each with a source. Each compared figure is the planner's own.
 */
import { EXCLUDE_REASONS, benchPlanner, type Point } from '../bench/planner-bench';
import points from '../bench/planner-points.json';

const result = benchPlanner(points as unknown as Point[]);

test('every point is compared, excluded for an allowed reason, or listed as not modelled', () => {
  expect(result.rows.length + result.excluded.length + result.notModelled.length).toBe(points.length);
  for (const e of result.excluded) expect(EXCLUDE_REASONS).toContain(e.reason);
});

test('at least 12 published points across EBS, EFS, FSx for Lustre and one client, each with its source', () => {
  const all = [...result.rows, ...result.excluded, ...result.notModelled];
  expect(all.length).toBeGreaterThanOrEqual(12);
  for (const c of ['ebs-volume', 'ebs-server', 'efs', 'fsx-lustre', 'one-client']) expect(all.filter((p) => p.category === c).length).toBeGreaterThanOrEqual(2);
  for (const p of all) expect(p.url).toMatch(/^https:\/\//);
});

test('each compared figure is a finite planner figure, and the medians are the medians of the rows', () => {
  for (const r of result.rows) expect(Number.isFinite(r.plannerMBps) && r.plannerMBps > 0).toBe(true);
  const errors = result.rows.map((r) => Math.abs(r.errorPct)).sort((a, b) => a - b);
  const mid = Math.floor(errors.length / 2);
  const median = errors.length % 2 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
  expect(result.medians.overall).toEqual({ medianAbsErrorPct: median, n: errors.length });
});

test('a point whose exclusion the JSON and the model disagree on is refused', () => {
  const [first] = points as unknown as Point[];
  expect(() => benchPlanner([{ ...first, exclude: 'compressed data' }])).toThrow(/disagree/);
});

test('a point with a request size is bounded by IOPS x size: gp3 at 10,000 IOPS in 4 KiB requests, 10,000 x 4,096 B = 40.96 MB/s', () => {
  const row = result.rows.find((r) => r.id === 'longhorn-m5zn-2xlarge-gp3-10000iops-randread-4k');
  expect(row?.plannerMBps).toBeCloseTo(40.96, 2);
  expect(row?.basis).toMatch(/^binds: gp3 provisioned IOPS of 1 x 10,000 \(up to 256 KiB each\) at 4 KiB/);
  // A catalogued type goes through the planner's own withIoSize: one gp3 of 4,000 IOPS moves 65.54 MB/s in 16 KiB
  // requests, under which m6i.large's 3,600 baseline IOPS bind: 3,600 x 16,384 B = 58.98 MB/s.
  const [first] = points as unknown as Point[];
  const gp3 = { ...first, id: 'by-hand', model: { kind: 'ebs', figure: 'baseline', why: '', inputs: {
    volumeType: 'gp3', count: 1, sizeGiB: 100, throughputMiBps: 1000, iops: 4000, instanceType: 'm6i.large', ioSizeKiB: 16 } } } as unknown as Point;
  expect(benchPlanner([gp3]).rows[0].plannerMBps).toBeCloseTo(58.98, 2);
});
