// planStorage: the capacity rule, forced backends, growth, cost, bad requests and properties over every request.
import * as fc from 'fast-check';
import { Backend } from '../../lib/backend-enum';
import { Generation, StorageRequest, estimateThroughput, planStorage } from '../../lib/sizing';
import { D2_RAW_TIB, D3, LOWER_BOUND, above, d3MonthlyUsd, d3RawTiB } from '../support/plan-figures';

describe('planStorage: auto', () => {
  test.each([
    // [capacityTiB, instanceType, volume GiB]
    [0.05, 'm4.xlarge', 125], // below st1's 125 GiB minimum: rounded up to it
    [1, 'm4.xlarge', 1024],
    [2, 'm4.xlarge', 2048],
    [2 + 1 / 1024, 'm4.2xlarge', 2049],
    [2.01, 'm4.2xlarge', 2059], // 2058.24 GiB, rounded up to whole GiB
    [5, 'm4.2xlarge', 5120],
    [above(5), 'm4.4xlarge', 5121],
    [10, 'm4.4xlarge', 10240],
    [above(10), 'm4.10xlarge', 10241],
    [16, 'm4.10xlarge', 16384],
  ])('%p TiB -> EBS on %s with one st1 volume of %p GiB', (capacityTiB, instanceType, sizeGiB) => {
    // WHEN
    const plan = planStorage({ capacityTiB });
    // THEN
    expect(plan).toMatchObject({ backend: 'ebs', instanceType, instanceStoreDisks: 0 });
    expect(plan.dataVolumes).toEqual([{ volumeType: 'st1', sizeGiB }]);
    expect(plan.rawCapacityTiB).toBe(sizeGiB / 1024);
  });

  test.each([
    [above(16), 'd2.4xlarge', 12],
    [D2_RAW_TIB['d2.4xlarge'], 'd2.4xlarge', 12],
    [above(D2_RAW_TIB['d2.4xlarge']), 'd2.8xlarge', 24],
    [D2_RAW_TIB['d2.8xlarge'], 'd2.8xlarge', 24],
  ])('%p TiB -> instance store on %s with %p disks', (capacityTiB, instanceType, disks) => {
    const plan = planStorage({ capacityTiB });
    expect(plan).toMatchObject({
      backend: 'instance-store',
      instanceType,
      instanceStoreDisks: disks,
      dataVolumes: [],
    });
    expect(plan.rawCapacityTiB).toBeCloseTo(D2_RAW_TIB[instanceType as keyof typeof D2_RAW_TIB], 9);
  });

  test("backend defaults to auto, which a JavaScript caller may also give as the string 'auto'", () => {
    const fromJavaScript = { capacityTiB: 20, backend: 'auto' } as unknown as StorageRequest;
    expect(planStorage({ capacityTiB: 20 })).toEqual(planStorage(fromJavaScript));
    expect(planStorage({ capacityTiB: 20 }).backend).toBe('instance-store');
  });
});

describe('planStorage: forced backends', () => {
  test("'ebs' up to 16 TiB uses the same single-volume tiers as auto", () => {
    // The same plan; only the reason differs, since it names the rule that chose it.
    expect({ ...planStorage({ capacityTiB: 7, backend: Backend.EBS }), reason: '' }).toEqual({ ...planStorage({ capacityTiB: 7 }), reason: '' });
  });

  test.each([
    // [capacityTiB, volumes, GiB each]: fewest volumes of at most 16 TiB, equal sizes, whole GiB
    [above(16), 2, 8193],
    [17, 2, 8704],
    [32, 2, 16384],
    [33, 3, 11264],
    [48, 3, 16384],
  ])("'ebs' %p TiB -> %p striped st1 volumes of %p GiB on m4.16xlarge", (capacityTiB, count, sizeGiB) => {
    const plan = planStorage({ capacityTiB, backend: Backend.EBS });
    expect(plan.dataVolumes).toEqual(Array.from({ length: count }, () => ({ volumeType: 'st1', sizeGiB })));
    // Two or more st1 volumes burst at 2 x 500 MiB/s = 1048.6 MB/s or more: only m4.16xlarge's 10000 Mbps, 1250 MB/s,
    // of EBS bandwidth carries that; m4.10xlarge has 500 MB/s.
    expect(plan.instanceType).toBe('m4.16xlarge');
  });

  test.each([
    [0.1, 'd2.xlarge', 3],
    [D2_RAW_TIB['d2.xlarge'], 'd2.xlarge', 3],
    [above(D2_RAW_TIB['d2.xlarge']), 'd2.2xlarge', 6],
    [above(D2_RAW_TIB['d2.2xlarge']), 'd2.4xlarge', 12],
    [40, 'd2.8xlarge', 24],
  ])("'instance-store' %p TiB -> the smallest d2 that fits, %s", (capacityTiB, instanceType, disks) => {
    const plan = planStorage({ capacityTiB, backend: Backend.INSTANCE_STORE });
    expect(plan).toMatchObject({
      backend: 'instance-store',
      instanceType,
      instanceStoreDisks: disks,
      dataVolumes: [],
    });
  });
});

describe('planStorage: growth of an existing EBS layout (dataVolumeCount)', () => {
  test.each<[number, number, number, string]>([
    // capacityTiB, volumes kept, GiB each, as capacity x 1024 / count rounded up, instance
    [8, 1, 8192, 'm4.4xlarge'],
    [20, 2, 10240, 'm4.16xlarge'],
    [30, 2, 15360, 'm4.16xlarge'],
    [0.1, 1, 125, 'm4.xlarge'],
  ])('%s TiB kept on %s volume(s): %s GiB each on %s', (capacityTiB, count, sizeGiB, instanceType) => {
    const plan = planStorage({ capacityTiB, backend: Backend.EBS, dataVolumeCount: count });
    expect(plan.dataVolumes).toEqual(Array.from({ length: count }, () => ({ volumeType: 'st1', sizeGiB })));
    expect(plan.instanceType).toBe(instanceType);
  });

  test('with backend auto it stays on EBS above 16 TiB instead of switching to instance store', () => {
    const plan = planStorage({ capacityTiB: 20, dataVolumeCount: 2 });
    expect(plan.backend).toBe('ebs');
    expect(plan.dataVolumes).toHaveLength(2);
  });

  test.each<[object, RegExp]>([
    [{ capacityTiB: 20, backend: 'ebs', dataVolumeCount: 1 }, /capacityTiB 20 does not fit in dataVolumeCount 1 st1 volume\(s\) of at most 16 TiB/],
    [{ capacityTiB: 5, dataVolumeCount: 0 }, /dataVolumeCount must be a whole number from 1 to 21; got 0/],
    [{ capacityTiB: 5, dataVolumeCount: 1.5 }, /dataVolumeCount must be a whole number from 1 to 21; got 1.5/],
    [{ capacityTiB: 5, dataVolumeCount: 22 }, /dataVolumeCount must be a whole number from 1 to 21; got 22/],
    [{ capacityTiB: 20, backend: 'instance-store', dataVolumeCount: 1 }, /dataVolumeCount applies to the EBS backend only/],
  ])('%j is refused naming the field', (request, message) => {
    expect(() => planStorage(request as never)).toThrow(message);
  });
});

describe('planStorage: monthly cost (730 h on demand + st1 at $0.045 per GiB-month, us-east-1)', () => {
  test.each([
    [{ capacityTiB: 5 }, 0.4 * 730 + 5120 * 0.045],
    [{ capacityTiB: 16 }, 2.0 * 730 + 16384 * 0.045],
    [{ capacityTiB: 48, backend: 'ebs' }, 3.2 * 730 + 3 * 16384 * 0.045],
    [{ capacityTiB: 1, backend: 'instance-store' }, 0.69 * 730],
    [{ capacityTiB: 20 }, 2.76 * 730],
    [{ capacityTiB: 40 }, 5.52 * 730],
  ] as [StorageRequest, number][])('%p costs %p USD', (request, usd) => {
    expect(planStorage(request).monthlyCostUsd).toBeCloseTo(usd, 2);
  });
});

describe('planStorage: bad requests name the field, the value and the allowed range', () => {
  test.each([
    [{ capacityTiB: 0 }, /capacityTiB must be a number greater than 0; got 0 \(number\)/],
    [{ capacityTiB: 0, backend: 'ebs' }, /capacityTiB must be a number greater than 0 and at most 48 for backend 'ebs'.*got 0 \(number\)/],
    [{ capacityTiB: -3, backend: 'fsx-lustre' }, /capacityTiB must be a number greater than 0; got -3 \(number\)/],
    [{ capacityTiB: -1 }, /capacityTiB must be .*greater than 0.*got -1/],
    [{ capacityTiB: NaN }, /capacityTiB must be .*got NaN/],
    [
      { capacityTiB: Infinity, backend: 'ebs' },
      /capacityTiB must be .*at most 48 for backend 'ebs'.*got Infinity/,
    ],
    [{ capacityTiB: '5' }, /capacityTiB must be a number.*got "5"/],
    [{}, /capacityTiB must be a number.*got undefined/],
    [{ capacityTiB: 48.01, backend: 'ebs' }, /at most 48 for backend 'ebs'.*got 48\.01\. .*FSx for Lustre/],
    [
      { capacityTiB: 43.66, backend: 'instance-store' },
      /at most 43\.65 for backend 'instance-store'.*got 43\.66\. .*FSx for Lustre/,
    ],
    [{ capacityTiB: 5, backend: 'gp3' }, /backend must be one of 'auto', 'ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'; got "gp3"/],
    [{ capacityTiB: 5, fsxLustre: {} }, /^fsxLustre options apply to backend 'fsx-lustre' only; got backend 'auto' \(auto chooses/],
    [{ capacityTiB: 5, backend: 'ebs', fsxLustre: { deploymentType: 'SCRATCH_2' } }, /^fsxLustre options apply to backend 'fsx-lustre' only; got backend 'ebs'$/],
    [{ capacityTiB: 5, backend: 'fsx-lustre', fsxLustre: { perUnitStorageThroughput: 300 } }, /^fsxLustre\.perUnitStorageThroughput must be one of 125, 250, 500, 1000 \(MB\/s per TiB\) for PERSISTENT_2 SSD; got 300/],
    [{ capacityTiB: 5, backend: 'fsx-lustre', dataVolumeCount: 1 }, /^dataVolumeCount applies to the EBS backend only; got backend 'fsx-lustre'$/],
    [null, /request must be an object.*got null/],
  ])('%p', (request, message) => {
    expect(() => planStorage(request as unknown as StorageRequest)).toThrow(message);
  });

  test('the largest capacity each backend accepts is planned, not refused', () => {
    expect(planStorage({ capacityTiB: 48, backend: Backend.EBS }).rawCapacityTiB).toBe(48);
    expect(
      planStorage({ capacityTiB: D2_RAW_TIB['d2.8xlarge'], backend: Backend.INSTANCE_STORE }).instanceType,
    ).toBe('d2.8xlarge');
  });
});

describe('planStorage: properties over every valid request', () => {
  // fc.double alone favours tiny values; add capacities spread evenly over the range and whole GiB.
  const capacity = (max: number) =>
    fc.oneof(
      fc.double({ min: 0, max, minExcluded: true, noNaN: true }),
      fc.integer({ min: 1, max: 1_000_000 }).map((i) => (max * i) / 1_000_000),
      fc.integer({ min: 1, max: Math.floor(max * 1024) }).map((gib) => gib / 1024),
    );
  /** Requests for `backend`, or for auto's choice when it is undefined. */
  const request = (backend: Backend | undefined, max: number) =>
    capacity(max).map((capacityTiB): StorageRequest => ({ capacityTiB, backend }));
  const anyRequest = fc.oneof(
    request(undefined, D2_RAW_TIB['d2.8xlarge']),
    request(Backend.EBS, 48),
    request(Backend.INSTANCE_STORE, D2_RAW_TIB['d2.8xlarge']),
  );
  /** Instance store of the current generation: d3 and d3en, up to d3en.12xlarge. */
  const currentStore = request(Backend.INSTANCE_STORE, d3RawTiB('d3en.12xlarge')).map((r) => ({ ...r, generation: Generation.CURRENT }));

  test('raw capacity is never less than asked; the disks match the backend', () => {
    fc.assert(
      fc.property(anyRequest, (req) => {
        const plan = planStorage(req);
        expect(plan.rawCapacityTiB).toBeGreaterThanOrEqual(req.capacityTiB);
        if (plan.backend === 'ebs') {
          expect(plan.instanceStoreDisks).toBe(0);
          expect(plan.instanceType).toMatch(/^m4\./);
        } else {
          expect(plan.dataVolumes).toEqual([]);
          expect(plan.instanceStoreDisks).toBeGreaterThan(0);
          expect(plan.instanceType).toMatch(/^d2\./);
        }
        if (req.backend === undefined)
          expect(plan.backend).toBe(req.capacityTiB <= 16 ? 'ebs' : 'instance-store');
        if (req.backend !== undefined) expect(plan.backend).toBe(req.backend);
      }),
    );
  });

  test('current generation, instance store: a d3 or d3en, the cheapest that holds the request, its disks, its bound', () => {
    fc.assert(
      fc.property(currentStore, (req) => {
        const plan = planStorage(req);
        const holding = Object.keys(D3).filter((t) => d3RawTiB(t) >= req.capacityTiB);
        const cheapest = Math.min(...holding.map(d3MonthlyUsd));
        expect(plan.instanceType).toMatch(/^d3(en)?\./);
        expect(plan.monthlyCostUsd).toBeCloseTo(cheapest, 2);
        expect(plan.rawCapacityTiB).toBeGreaterThanOrEqual(req.capacityTiB);
        expect(plan.rawCapacityTiB).toBeCloseTo(d3RawTiB(plan.instanceType), 9);
        expect(plan).toMatchObject({ backend: 'instance-store', dataVolumes: [], instanceStoreDisks: D3[plan.instanceType].disks });
        expect(plan.reason).toContain(LOWER_BOUND);
      }),
    );
  });

  test('EBS volumes: the fewest that hold the request, equal, whole GiB within st1 limits, under 1 GiB spare each', () => {
    fc.assert(
      fc.property(request(Backend.EBS, 48), (req) => {
        const { dataVolumes } = planStorage(req);
        const wantedGiB = Math.max(125, Math.ceil(req.capacityTiB * 1024));
        const sizes = dataVolumes.map((v) => v.sizeGiB);
        expect(new Set(sizes).size).toBe(1);
        expect(Number.isInteger(sizes[0]) && sizes[0] >= 125 && sizes[0] <= 16384).toBe(true);
        expect((dataVolumes.length - 1) * 16384).toBeLessThan(wantedGiB);
        expect(sizes[0] * dataVolumes.length - wantedGiB).toBeLessThan(dataVolumes.length);
      }),
    );
  });

  test('the throughput in a plan is estimateThroughput() of its instance type and volumes', () => {
    const currentAuto = request(undefined, 305).map((r) => ({ ...r, generation: Generation.CURRENT }));
    fc.assert(
      fc.property(fc.oneof(anyRequest, currentStore, currentAuto), (req) => {
        const plan = planStorage(req);
        const volumes = plan.backend === 'ebs' ? plan.dataVolumes : undefined;
        if (plan.backend === 'fsx-lustre') return; // no instance: its estimate is the file system's: fsx-lustre.test.ts
        expect(plan.throughput).toEqual(estimateThroughput(plan.instanceType, volumes));
      }),
    );
  });

  test.each([[Backend.EBS, Generation.PREVIOUS], [Backend.INSTANCE_STORE, Generation.PREVIOUS], [Backend.INSTANCE_STORE, Generation.CURRENT]] as const)(
    "with backend '%s', generation %s, asking for more never costs less",
    (backend, generation) => {
      const max = backend === 'ebs' ? 48 : generation === 'current' ? d3RawTiB('d3en.12xlarge') : D2_RAW_TIB['d2.8xlarge'];
      const req = request(backend, max).map((r) => ({ ...r, generation }));
      fc.assert(
        fc.property(req, req, (a, b) => {
          const [small, large] = a.capacityTiB <= b.capacityTiB ? [a, b] : [b, a];
          expect(planStorage(large).monthlyCostUsd).toBeGreaterThanOrEqual(planStorage(small).monthlyCostUsd);
        }),
      );
    },
  );
});
