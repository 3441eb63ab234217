import { appTemplate, constructTemplate, judge } from '../support/guard-matrix';
import { Backend } from '../../lib/backend-enum';

// FSx for Lustre's throughput per unit of storage, end to end: the two templates of the app and of the construct, cdk
// diff's engine with the guard's replacement rules, the specification plus lambda/update-guard/spec-overrides.ts, and
// the guard's handler. FSx changes the tier in place on persistent SSD file systems, PERSISTENT_1 at 50, 100 or 200
// MB/s/TiB and PERSISTENT_2 at 125, 250, 500 or 1000 alike, and not on HDD. The source is the FSx for Lustre guide,
// "Managing throughput capacity", https://docs.aws.amazon.com/fsx/latest/LustreGuide/managing-throughput-capacity.html.
// The resource specification still calls the change a replacement; AWS's CloudFormation reference says "Update
// requires: No interruption", and the override row follows it. The change matrix, guard-matrix-fsx-lustre, derives the
// same verdicts; here they are stated outright.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

const app = (more: Record<string, string>) => appTemplate({ backend: 'fsx-lustre', capacityTiB: '12', ...more });

describe('FSx for Lustre per-unit throughput: accepted in place on persistent SSD, nothing lost (LUSTRE-THROUGHPUT-IN-PLACE)', () => {
  test('PERSISTENT_2 125 -> 250 (the app): accepted, nothing replaced', async () => {
    const verdict = await judge(app({}), app({ fsxPerUnitStorageThroughput: '250' }));
    expect(verdict).toEqual({ lost: [], guard: 'accepted', other: [] });
  });

  test('PERSISTENT_2 1000 -> 125 (the app, down): accepted, nothing replaced', async () => {
    const verdict = await judge(app({ fsxPerUnitStorageThroughput: '1000' }), app({ fsxPerUnitStorageThroughput: '125' }));
    expect(verdict).toEqual({ lost: [], guard: 'accepted', other: [] });
  });

  test('PERSISTENT_2 125 -> 250 (the construct): accepted, nothing replaced', async () => {
    const base = { backend: Backend.FSX_LUSTRE, capacityTiB: 12 };
    const verdict = await judge(constructTemplate(base), constructTemplate(base, { fsxLustre: { perUnitStorageThroughput: 250 } }));
    expect(verdict).toEqual({ lost: [], guard: 'accepted', other: [] });
  });

  test('PERSISTENT_1 SSD 50 -> 200: accepted, nothing replaced', async () => {
    const p1 = { fsxDeploymentType: 'PERSISTENT_1' };
    const verdict = await judge(app({ ...p1, fsxPerUnitStorageThroughput: '50' }), app({ ...p1, fsxPerUnitStorageThroughput: '200' }));
    expect(verdict).toEqual({ lost: [], guard: 'accepted', other: [] });
  });

  test('PERSISTENT_1 HDD 12 -> 40: refused by the guard\'s policy (FSx cannot change it), though nothing would be replaced', async () => {
    // 17.5 TiB is 18000 GiB at either tier: HDD 12 grows in steps of 6000 GiB, HDD 40 in steps of 1800 GiB.
    const hdd = { fsxDeploymentType: 'PERSISTENT_1', fsxStorageType: 'HDD', capacityTiB: '17.5' };
    const verdict = await judge(app({ ...hdd, fsxPerUnitStorageThroughput: '12' }), app({ ...hdd, fsxPerUnitStorageThroughput: '40' }));
    expect(verdict).toEqual({
      lost: [], guard: 'refused', other: [],
      message: expect.stringMatching(/PerUnitStorageThroughput 12 -> 40: FSx changes the throughput per unit of storage in place only on persistent SSD file systems \(this one is PERSISTENT_1\/HDD\)/),
    });
  });
});
