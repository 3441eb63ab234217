import * as fsx from 'aws-cdk-lib/aws-fsx';
// planStorage with throughputMBps: the cheapest plan that sustains what the cluster needs.
import * as fc from 'fast-check';
import { estimateThroughput, planStorage } from '../../lib/sizing';
import { D2_RAW_TIB } from '../support/plan-figures';
import { Backend } from '../../lib/backend-enum';
import { DataVolumeType } from '../../lib/sizing/enums';

describe('planStorage: throughputMBps (the sustained MB/s the cluster needs)', () => {
  test.each([
    // [capacityTiB, MB/s, backend, instance or FSx deployment, volume GiB (each) or FSx GiB, $/month, why]
    // 10 TiB: the capacity rule's m4.4xlarge sustains 250 MB/s (its EBS bandwidth, 2000 Mbps).
    [10, 100, 'ebs', 'm4.4xlarge', [10240], 0.8 * 730 + 10240 * 0.045, /^auto: up to 16 TiB, one st1 volume .*; it sustains the 100 MB\/s asked for$/],
    // 400: PERSISTENT_1 HDD at 40 MB/s per TiB, 10800 GiB (6 x 1800), 40 x 10800/1024 = 421.9 MB/s, 10800 x $0.083; the
    // cheapest single server that sustains it (m4.10xlarge with a 10 TiB st1 volume, $1920.80) costs twice as much.
    [10, 400, 'fsx-lustre', 'PERSISTENT_1/HDD/40', [10800], 10800 * 0.083, /^the cheapest plan that holds 10 TiB and sustains 400 MB\/s \(m4\.4xlarge, the capacity rule's choice, sustains 250 MB\/s\)$/],
    // 1000: FSx for OpenZFS SINGLE_AZ_1 at 1024 MB/s, disk baseline 1024, on 10240 GiB: $0.09 x 10240 + $0.26 x 1024 +
    // $0.006 x (40000 - 3 x 10240) IOPS = $1243.52. It is cheaper than FSx for Lustre PERSISTENT_2 SSD 125 at 12000
    // GiB, $1740.
    [10, 1000, 'fsx-openzfs', 'SINGLE_AZ_1/1024', [10240], 10240 * 0.09 + 1024 * 0.26 + (40000 - 30720) * 0.006, /^the cheapest plan that holds 10 TiB and sustains 1000 MB\/s/],
    // 5000, more than any single server: PERSISTENT_2 SSD 500, 12000 GiB (5859 MB/s), 12000 x $0.34 = $4080, under
    // 125 MB/s per TiB at 40 TiB (43200 GiB x $0.145 = $6264) and 1000 at 12000 GiB ($7200).
    [10, 5000, 'fsx-lustre', 'PERSISTENT_2/SSD/500', [12000], 12000 * 0.34, /^the cheapest plan that holds 10 TiB and sustains 5000 MB\/s/],
    // 2 TiB at 300 MB/s: FSx for OpenZFS SINGLE_AZ_1 at 512 MB/s, since 256 sustains 256, on 2048 GiB: $0.09 x 2048 +
    // $0.26 x 512 + $0.006 x (20000 - 6144) IOPS = $400.58. It is cheaper than FSx for Lustre PERSISTENT_2 SSD 250 at
    // 2400 GiB, $504.
    [2, 300, 'fsx-openzfs', 'SINGLE_AZ_1/512', [2048], 2048 * 0.09 + 512 * 0.26 + (20000 - 6144) * 0.006, /sustains 83\.88 MB\/s\)$/],
  ] as [number, number, string, string, number[], number, RegExp][])('%p TiB at %p MB/s: %s %s', (capacityTiB, mbps, backend, instanceType, sizes, usd, why) => {
    const plan = planStorage({ capacityTiB, throughputMBps: mbps });
    expect(plan.backend).toBe(backend);
    expect(plan.instanceType).toBe(instanceType);
    const sized = { 'fsx-lustre': [plan.fsxLustre?.storageCapacityGiB], 'fsx-openzfs': [plan.fsxOpenZfs?.storageCapacityGiB] }[backend];
    expect(sized ?? plan.dataVolumes.map((v) => v.sizeGiB)).toEqual(sizes);
    expect(plan.monthlyCostUsd).toBeCloseTo(usd, 2);
    expect(plan.reason).toMatch(why);
    expect(Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)).toBeGreaterThanOrEqual(mbps);
  });

  test('100 TiB, no throughput asked: beyond one server, the cheapest persistent FSx plan (HDD 12 MB/s per TiB)', () => {
    const plan = planStorage({ capacityTiB: 100 });
    // 102400 GiB rounded up to HDD 12's 6000 GiB steps: 108000 GiB x $0.025 = $2700; 12 x 105.47 TiB = 1265.6 MB/s.
    expect(plan).toMatchObject({
      backend: 'fsx-lustre',
      instanceType: 'PERSISTENT_1/HDD/12',
      fsxLustre: { deploymentType: 'PERSISTENT_1', storageType: 'HDD', perUnitStorageThroughput: 12, storageCapacityGiB: 108000 },
      monthlyCostUsd: 2700,
    });
    expect(plan.throughput.baselineReadMBps).toBe(1265.62); // 12 x 108000 / 1024 = 1265.625, down to the cent (never above the limit)
    expect(plan.reason).toBe("the cheapest plan that holds 100 TiB (more than the capacity rule's largest server holds, d2.8xlarge with 43.65 TiB)");
  });

  test('auto never picks SCRATCH_2, even where it would be cheapest; backend fsx-lustre gives it when asked', () => {
    for (const [capacityTiB, mbps] of [[1, 200], [44, undefined], [10, 2000], [200, 20000]] as [number, number | undefined][]) {
      expect(planStorage({ capacityTiB, throughputMBps: mbps }).instanceType).not.toMatch(/^SCRATCH/);
    }
    const scratch = planStorage({ capacityTiB: 10, backend: Backend.FSX_LUSTRE, fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 } });
    expect(scratch.instanceType).toBe('SCRATCH_2/SSD/200');
    expect(scratch.fsxLustre?.storageCapacityGiB).toBe(12000);
  });

  test('forced to one server, 5000 MB/s is refused: the error names the most one sustains and FSx for Lustre', () => {
    expect(() => planStorage({ capacityTiB: 10, throughputMBps: 5000, backend: Backend.INSTANCE_STORE })).toThrow(
      "throughputMBps 5000 is more than any single instance-store server sustains for 10 TiB (at most 1250 MB/s once burst credits are spent); " +
        "beyond that a parallel file system such as Amazon FSx for Lustre is the better tool (backend 'fsx-lustre', or 'auto')",
    );
  });

  test('backend fsx-lustre: its options as asked, sized up for the throughput asked', () => {
    // PERSISTENT_1 SSD 50 at 5 TiB: 7200 GiB holds it (50 x 7.03 = 351.6 MB/s); 1000 MB/s needs 20 TiB: 21600 GiB.
    const plain = planStorage({ capacityTiB: 5, backend: Backend.FSX_LUSTRE, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, perUnitStorageThroughput: 50 } });
    expect(plain.fsxLustre?.storageCapacityGiB).toBe(7200);
    const sized = planStorage({ capacityTiB: 5, backend: Backend.FSX_LUSTRE, throughputMBps: 1000, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, perUnitStorageThroughput: 50 } });
    expect(sized.fsxLustre?.storageCapacityGiB).toBe(21600);
    expect(sized.monthlyCostUsd).toBeCloseTo(21600 * 0.14, 2);
    expect(sized.reason).toBe('backend fsx-lustre, PERSISTENT_1/SSD/50 as asked, sized up to 21600 GiB to sustain 1000 MB/s');
  });

  test('with dataVolumeCount the layout is fixed: a throughput it cannot sustain is refused, not re-planned', () => {
    expect(() => planStorage({ capacityTiB: 5, dataVolumeCount: 1, throughputMBps: 400 })).toThrow(
      /^throughputMBps 400 is more than 1 st1 volume\(s\) for 5 TiB sustain \(125 MB\/s once burst credits are spent\)/,
    );
  });

  test.each([[0], [-5], [Number.NaN], [Number.POSITIVE_INFINITY], ['100' as unknown as number]])('refuses throughputMBps %p', (mbps) => {
    expect(() => planStorage({ capacityTiB: 5, throughputMBps: mbps })).toThrow(/^throughputMBps must be a number of MB\/s greater than 0; got /);
  });

  test('no throughput asked: auto is unchanged and says its rule', () => {
    expect(planStorage({ capacityTiB: 5 }).reason).toBe("auto: up to 16 TiB, one st1 volume on the original template's m4 tier");
    expect(planStorage({ capacityTiB: 20 }).reason).toBe('auto: above 16 TiB (one st1 volume), the smallest d2 that holds the capacity');
  });

  test('property: the plan sustains what is asked, and no catalogued plan of any backend that does costs less', () => {
    // Every plan the catalogue allows, enumerated here independently: each d2; each m4 with 1-3 st1 volumes of any size
    // from 125 GiB to 16 TiB in 128 GiB steps, plus the exact sizes, or with 1-3 gp3; and each persistent FSx for
    // Lustre option at each of its capacity steps up to 200 TiB. FSx's per-TiB figures and prices are AWS's, typed here
    // from the FSx guide and price list, not read from lib/sizing.
    const d2 = ['d2.xlarge', 'd2.2xlarge', 'd2.4xlarge', 'd2.8xlarge'] as const;
    const m4 = ['m4.xlarge', 'm4.2xlarge', 'm4.4xlarge', 'm4.10xlarge', 'm4.16xlarge'] as const;
    const all: { capacityTiB: number; sustained: number; cost: number }[] = [];
    for (const t of d2) {
      const p = planStorage({ capacityTiB: D2_RAW_TIB[t] * 0.999, backend: Backend.INSTANCE_STORE });
      if (p.instanceType !== t) continue;
      all.push({ capacityTiB: p.rawCapacityTiB, sustained: Math.min(p.throughput.baselineReadMBps, p.throughput.baselineWriteMBps), cost: p.monthlyCostUsd });
    }
    const price: Record<string, number> = { 'm4.xlarge': 0.2, 'm4.2xlarge': 0.4, 'm4.4xlarge': 0.8, 'm4.10xlarge': 2, 'm4.16xlarge': 3.2 };
    for (const t of m4) {
      for (let count = 1; count <= 3; count++) {
        for (let size = 128; size <= 16384; size += 128) {
          const gib = Math.max(125, size);
          const e = estimateThroughput(t, Array.from({ length: count }, () => ({ volumeType: DataVolumeType.ST1, sizeGiB: gib })));
          all.push({
            capacityTiB: (count * gib) / 1024,
            sustained: Math.min(e.baselineReadMBps, e.baselineWriteMBps),
            cost: Math.round((price[t] * 730 + count * gib * 0.045) * 100) / 100,
          });
        }
      }
    }
    // gp3 stripes on each m4 (figures typed from AWS's SDK model, EBS guide and price list: 125-2000 MiB/s, IOPS
    // max(3000, 4 x MiB/s), 500 IOPS per GiB at most, $0.08 per GB-month + $0.005 per IOPS above 3000 + $0.04 per MiB/s
    // above 125): 1-3 volumes of 256 GiB steps (at most 48 TiB together), 25 MiB/s steps.
    const limit: Record<string, number> = { 'm4.xlarge': 93.75, 'm4.2xlarge': 125, 'm4.4xlarge': 250, 'm4.10xlarge': 500, 'm4.16xlarge': 1250 };
    for (const t of m4) {
      for (let count = 1; count <= 3; count++) {
        for (let gib = 256; gib * count <= 48 * 1024; gib += 256) {
          for (let mibps = 125; mibps <= 2000; mibps += 25) {
            const iops = Math.max(3000, 4 * mibps);
            if (iops > 500 * gib) continue;
            all.push({
              capacityTiB: (count * gib) / 1024,
              sustained: Math.min(count * mibps * 1.048576, limit[t]),
              cost: Math.round((price[t] * 730 + count * (gib * 0.08 + (iops - 3000) * 0.005 + (mibps - 125) * 0.04)) * 100) / 100,
            });
          }
        }
      }
    }
    // [key, sustained MB/s per TiB (the lesser of disk and network baseline), $ per GB-month, first steps, step]
    const fsx: [string, number, number, number[], number][] = [
      ['PERSISTENT_1/SSD/50', 50, 0.14, [1200], 2400], ['PERSISTENT_1/SSD/100', 100, 0.19, [1200], 2400],
      ['PERSISTENT_1/SSD/200', 200, 0.29, [1200], 2400], ['PERSISTENT_1/HDD/12', 12, 0.025, [], 6000],
      ['PERSISTENT_1/HDD/40', 40, 0.083, [], 1800], ['PERSISTENT_2/SSD/125', 125, 0.145, [1200], 2400],
      ['PERSISTENT_2/SSD/250', 250, 0.21, [1200], 2400], ['PERSISTENT_2/SSD/500', 500, 0.34, [1200], 2400],
      ['PERSISTENT_2/SSD/1000', 1000, 0.6, [1200], 2400],
    ];
    for (const [, perTiB, usd, first, step] of fsx) {
      for (const gib of [...first, ...Array.from({ length: Math.floor((200 * 1024) / step) }, (_, i) => (i + 1) * step)]) {
        all.push({ capacityTiB: gib / 1024, sustained: Math.round(((perTiB * gib) / 1024) * 100) / 100, cost: Math.round(gib * usd * 100) / 100 });
      }
    }
    // FSx for OpenZFS SINGLE_AZ_1, the priced type, typed from the OpenZFS guide's tables and infracost's quote of the
    // price list. Each tier, [MB/s = disk baseline, network baseline, baseline disk IOPS], at every storage from 64 GiB
    // to 200 TiB in 64 GiB steps. SSD IOPS are provisioned to the tier's, at most 1000 per GiB, above 3 per GiB at
    // $0.006.
    const zfs: [number, number, number][] = [
      [64, 200, 2500], [128, 400, 5000], [256, 800, 10000], [512, 1600, 20000],
      [1024, 3200, 40000], [2048, 6400, 80000], [3072, 9600, 120000], [4096, 12800, 160000],
    ];
    for (const [tier, net, iops] of zfs) {
      for (let gib = 64; gib <= 200 * 1024; gib += 64) {
        const extra = Math.max(0, Math.min(iops, 1000 * gib) - 3 * gib);
        all.push({ capacityTiB: gib / 1024, sustained: Math.min(tier, net), cost: Math.round((gib * 0.09 + tier * 0.26 + extra * 0.006) * 100) / 100 });
      }
    }
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 120, noNaN: true }), fc.integer({ min: 50, max: 8000 }), (capacityTiB, mbps) => {
        const plan = planStorage({ capacityTiB, throughputMBps: mbps });
        expect(Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)).toBeGreaterThanOrEqual(mbps);
        expect(plan.rawCapacityTiB).toBeGreaterThanOrEqual(capacityTiB);
        const cheaper = all.filter((p) => p.capacityTiB >= capacityTiB && p.sustained >= mbps && p.cost < plan.monthlyCostUsd - 0.01);
        // The capacity rule's own plan is kept when it sustains the request, even where another would be cheaper.
        if (plan.reason.startsWith('the cheapest plan')) expect(cheaper).toEqual([]);
        expect(plan.instanceType).not.toMatch(/^SCRATCH/);
      }),
      { numRuns: 300 },
    );
  });
});
