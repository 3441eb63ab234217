/**
 * One backend's part of the change matrix (split by backend so that jest runs the parts in parallel).
 */
import type { Backend } from '../../lambda/register/contract';
import { BASELINES, CONSTRUCT_ROWS, rowsOf } from '../unit/guard-matrix.cases';
import { appTemplate, constructTemplate, judge, type Template } from './guard-matrix';

type Lookup = (serverId: string) => { kind: string; id: string }[];

/** Registers the matrix tests of `backend`; `setLookup` sets what the mocked tag lookup answers. */
export function matrixSuite(backend: Backend, setLookup: (f: Lookup) => void): void {
  const cache = new Map<string, { template: Template; stackName: string }>();
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
        const verdict = await judge(before, after, setLookup);
        const acceptDataLoss = row.change.acceptDataLoss === 'true';
        const expected = (verdict.lost.length > 0 || row.stricter !== undefined) && !acceptDataLoss ? 'refused' : 'accepted';
        const report = { row: row.name, expected, ...verdict };
        expect(report).toEqual({ ...report, guard: expected });
      });
    }
    const constructBase = { backend, capacityTiB: Number(BASELINES[backend].capacityTiB) } as const;
    for (const row of CONSTRUCT_ROWS.filter((r) => !r.backends || r.backends.includes(backend))) {
      test(`construct: ${row.name}`, async () => {
        const before = constructTemplate(constructBase);
        const after = constructTemplate(constructBase, row.props, row.path, row.mutate);
        const verdict = await judge(before, after, setLookup);
        const expected = verdict.lost.length > 0 || row.stricter !== undefined ? 'refused' : 'accepted';
        const report = { row: row.name, expected, ...verdict };
        expect(report).toEqual({ ...report, guard: expected });
      });
    }
  });
}
