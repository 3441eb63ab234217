import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as fc from 'fast-check';
import {
  FsxLustreOptions,
  estimateFsxLustreThroughput,
  fsxLustreCapacityGiB,
  resolveFsxLustreOptions,
} from '../../lib/backends/fsx/sizing/lustre';

// Expected values are worked out here from AWS's published figures, not read from the catalogue: the FSx API's valid
// capacities and per-unit throughputs, and the User Guide's performance table per TiB.

describe('FSx for Lustre options', () => {
  test('defaults: PERSISTENT_2 on SSD at 125 MB/s per TiB (replicated, the lowest persistent tier)', () => {
    expect(resolveFsxLustreOptions()).toEqual({ deploymentType: 'PERSISTENT_2', storageType: 'SSD', perUnitStorageThroughput: 125 });
    expect(resolveFsxLustreOptions({ deploymentType: fsx.LustreDeploymentType.PERSISTENT_1 }).perUnitStorageThroughput).toBe(50);
    expect(resolveFsxLustreOptions({ deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD }).perUnitStorageThroughput).toBe(12);
  });

  test.each([
    [{ deploymentType: 'PERSISTENT_2', perUnitStorageThroughput: 200 }, "fsxLustre.perUnitStorageThroughput must be one of 125, 250, 500, 1000 (MB/s per TiB) for PERSISTENT_2 SSD; got 200 (number)"],
    [{ deploymentType: 'PERSISTENT_1', perUnitStorageThroughput: 125 }, 'must be one of 50, 100, 200 (MB/s per TiB) for PERSISTENT_1 SSD; got 125'],
    [{ deploymentType: 'PERSISTENT_1', storageType: 'HDD', perUnitStorageThroughput: 50 }, 'must be one of 12, 40 (MB/s per TiB) for PERSISTENT_1 HDD; got 50'],
    [{ deploymentType: 'PERSISTENT_2', perUnitStorageThroughput: Number.NaN }, 'got NaN (number)'],
    [{ deploymentType: 'PERSISTENT_2', storageType: 'HDD' }, "fsxLustre.storageType 'HDD' is offered only with deploymentType 'PERSISTENT_1'; got deploymentType 'PERSISTENT_2'"],
    [{ deploymentType: 'SCRATCH_2', perUnitStorageThroughput: 200 }, 'fsxLustre.perUnitStorageThroughput is fixed for SCRATCH_2 (200 MB/s per TiB) and cannot be set'],
    [{ deploymentType: 'SCRATCH_1' }, 'fsxLustre.deploymentType must be one of SCRATCH_2, PERSISTENT_1, PERSISTENT_2; got "SCRATCH_1"'],
    [{ storageType: 'NVME' }, 'fsxLustre.storageType must be one of SSD, HDD; got "NVME"'],
    // aws-cdk-lib's members this project does not deploy: refused as any other value.
    [{ deploymentType: fsx.LustreDeploymentType.SCRATCH_1 }, 'fsxLustre.deploymentType must be one of SCRATCH_2, PERSISTENT_1, PERSISTENT_2; got "SCRATCH_1"'],
    [{ storageType: fsx.StorageType.INTELLIGENT_TIERING }, 'fsxLustre.storageType must be one of SSD, HDD; got "INTELLIGENT_TIERING"'],
  ])('refuses %j, naming the field, the value and the allowed values', (options, message) => {
    expect(() => resolveFsxLustreOptions(options as FsxLustreOptions)).toThrow(message);
  });
});

describe('FSx for Lustre capacity: rounded up to the steps the type accepts', () => {
  test.each([
    // SSD types: 1200 GiB, 2400 GiB, then multiples of 2400 GiB.
    [{}, 0.5, 1200],
    [{}, 1200 / 1024, 1200],
    [{}, 1.2, 2400], // 1228.8 GiB: over 1200
    [{}, 2, 2400],
    [{}, 2400 / 1024 + 1 / 1024, 4800],
    [{}, 10, 12000], // 10240 GiB -> 5 x 2400
    [{ deploymentType: 'SCRATCH_2' }, 12, 14400], // 12288 GiB -> 6 x 2400
    [{ deploymentType: 'PERSISTENT_1' }, 100, 103200], // 102400 GiB -> 43 x 2400
    // HDD: multiples of 6000 GiB at 12 MB/s per TiB, of 1800 GiB at 40.
    [{ deploymentType: 'PERSISTENT_1', storageType: 'HDD' }, 1, 6000],
  ] as [FsxLustreOptions, number, number][])('%j %p TiB -> %p GiB', (options, tib, gib) => {
    expect(fsxLustreCapacityGiB(tib, resolveFsxLustreOptions(options))).toBe(gib);
  });

  test('HDD steps: 6 TiB (6144 GiB) needs two 6000 GiB steps at 12 MB/s per TiB, four 1800 GiB steps at 40', () => {
    expect(fsxLustreCapacityGiB(6, resolveFsxLustreOptions({ deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD }))).toBe(12000);
    expect(fsxLustreCapacityGiB(6, resolveFsxLustreOptions({ deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD, perUnitStorageThroughput: 40 }))).toBe(7200);
  });

  test('property: never below the request, a valid step, and less than one step above it', () => {
    const options = fc.constantFrom<FsxLustreOptions>(
      {}, { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 }, { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, perUnitStorageThroughput: 200 },
      { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD },
      { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD, perUnitStorageThroughput: 40 },
    );
    fc.assert(fc.property(options, fc.double({ min: 0.001, max: 2000, noNaN: true }), (o, tib) => {
      const r = resolveFsxLustreOptions(o);
      const gib = fsxLustreCapacityGiB(tib, r);
      const step = r.storageType === 'HDD' ? (r.perUnitStorageThroughput === 12 ? 6000 : 1800) : 2400;
      expect(gib).toBeGreaterThanOrEqual(tib * 1024);
      expect(gib === 1200 || gib % step === 0).toBe(true);
      expect(gib - tib * 1024).toBeLessThan(step);
    }));
  });

  test.each([[0], [-1], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses capacity %p', (tib) => {
    expect(() => fsxLustreCapacityGiB(tib, resolveFsxLustreOptions())).toThrow(/capacityTiB must be a number greater than 0; got/);
  });
});

describe('FSx for Lustre throughput: the per-TiB table times the storage, disk or network, whichever is less', () => {
  test.each([
    // [options, GiB, sustained read, sustained write, burst read, burst write] PERSISTENT_2 125: disk 125, burst 500;
    // network 320, burst 1300; per TiB.
    [{}, 2400, 292.97, 292.97, 1171.88, 1171.88],
    [{}, 12000, 1464.84, 1464.84, 5859.38, 5859.38],
    // PERSISTENT_2 1000: disk 1000, network 2600, no burst listed.
    [{ perUnitStorageThroughput: 1000 }, 2400, 2343.75, 2343.75, 2343.75, 2343.75],
    [{ perUnitStorageThroughput: 1000 }, 12000, 11718.75, 11718.75, 11718.75, 11718.75],
    // SCRATCH_2: disk 200 read and 100 write, network 200, burst 1300; no disk burst listed.
    [{ deploymentType: 'SCRATCH_2' }, 2400, 468.75, 234.38, 468.75, 234.38],
    [{ deploymentType: 'SCRATCH_2' }, 12000, 2343.75, 1171.88, 2343.75, 1171.88],
    // PERSISTENT_1 50 SSD: disk 50, burst 240; network 250, burst 1300.
    [{ deploymentType: 'PERSISTENT_1' }, 4800, 234.38, 234.38, 1125, 1125],
    // PERSISTENT_1 HDD 12: disk 12, burst 80 read and 50 write; network 40, burst 375.
    [{ deploymentType: 'PERSISTENT_1', storageType: 'HDD' }, 6000, 70.31, 70.31, 468.75, 292.97],
    // PERSISTENT_1 HDD 40: disk 40, burst 250 read and 150 write; network 150, burst 1300.
    [{ deploymentType: 'PERSISTENT_1', storageType: 'HDD', perUnitStorageThroughput: 40 }, 18000, 703.13, 703.13, 4394.53, 2636.72],
  ] as [FsxLustreOptions, number, number, number, number, number][])(
    '%j at %p GiB: sustained %p / %p, burst %p / %p MB/s',
    (options, gib, baseRead, baseWrite, burstRead, burstWrite) => {
      const t = estimateFsxLustreThroughput(resolveFsxLustreOptions(options), gib);
      expect(t.baselineReadMBps).toBeCloseTo(baseRead, 1);
      expect(t.baselineWriteMBps).toBeCloseTo(baseWrite, 1);
      expect(t.burstReadMBps).toBeCloseTo(burstRead, 1);
      expect(t.burstWriteMBps).toBeCloseTo(burstWrite, 1);
    },
  );

  test("AWS's worked example: 4.8 TiB at 50 MB/s per TiB, 240 MB/s sustained and 1.152 GB/s burst from disk", () => {
    const t = estimateFsxLustreThroughput(resolveFsxLustreOptions({ deploymentType: fsx.LustreDeploymentType.PERSISTENT_1 }), 4.8 * 1024);
    expect(t.baselineReadMBps).toBe(240);
    expect(t.burstReadMBps).toBe(1152);
    expect(t.limitedBy).toBe('disk throughput of FSx for Lustre PERSISTENT_1/SSD/50 (50 MB/s per TiB x 4.8 TiB)');
  });
});
