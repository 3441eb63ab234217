/**
 * One backend's part of the change matrix, split by backend so that jest runs the parts in parallel.
 */
import type { Backend } from '../../lambda/register/contract';
import { backendOf } from '../../lib/backend-enum';
import { BASELINES, rowsOf } from '../unit/guard-matrix.cases';
import { CONSTRUCT_ROWS } from '../unit/guard-matrix-construct.cases';
import { appTemplate, constructTemplate, judge, type Synthesized } from './guard-matrix';

/**
 * Registers the matrix tests of `backend`; its test file mocks the guard's AWS calls with
 * test/support/guard-matrix-aws.ts.
 */
export function matrixSuite(backend: Backend): void {
  const cache = new Map<string, Synthesized>();
  const synth = (context: Record<string, string | undefined>) => {
    const key = JSON.stringify(Object.entries(context).sort());
    if (!cache.has(key)) cache.set(key, appTemplate(context));
    return cache.get(key)!;
  };
  describe(`${backend}: the guard refuses exactly what CloudFormation would lose`, () => {
    for (const row of rowsOf(backend)) {
      test(row.name, async () => {
        const before = synth({ ...BASELINES[backend], ...row.base });
        const after = synth({ ...BASELINES[backend], ...row.base, ...row.change });
        const verdict = await judge(before, after);
        const acceptDataLoss = row.change.acceptDataLoss === 'true';
        const expected = (verdict.lost.length > 0 || row.stricter !== undefined) && !acceptDataLoss ? 'refused' : 'accepted';
        const report = { row: row.name, expected, ...verdict };
        expect(report).toEqual({ ...report, guard: expected });
      });
    }
    const constructBase = { backend: backendOf(backend), capacityTiB: Number(BASELINES[backend].capacityTiB) };
    // The baseline of the construct rows, synthesized once per path; most rows share the default one.
    const befores = new Map<string, Synthesized>();
    const constructBefore = (basePath?: readonly string[]): Synthesized => {
      const key = JSON.stringify(basePath ?? null);
      if (!befores.has(key)) befores.set(key, constructTemplate(constructBase, {}, basePath));
      return befores.get(key)!;
    };
    for (const row of CONSTRUCT_ROWS.filter((r) => !r.backends || r.backends.includes(backend))) {
      test(`construct: ${row.name}`, async () => {
        const before = constructBefore(row.basePath);
        const after = constructTemplate(constructBase, row.props, row.path ?? row.basePath, row.mutate, row.stage);
        const verdict = await judge(before, after);
        const expected = verdict.lost.length > 0 || row.stricter !== undefined ? 'refused' : 'accepted';
        const report = { row: row.name, expected, ...verdict };
        expect(report).toEqual({ ...report, guard: expected });
      });
    }
  });
}
