/**
 * The planner against published measurements (issue 41, item 4): `npm run bench:planner` (test/bench/planner-bench.ts)
 * prints the figures; this test holds what the benchmark must be, not its errors (a benchmark asserts no target): every
 * point compared, excluded for an allowed reason, or listed as not modelled; at least 12 points across EBS, EFS,
 * FSx for Lustre and one client, each with a source; and each compared figure the planner's own.
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
