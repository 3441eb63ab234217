import * as fc from 'fast-check';
import { DataVolumePlan, Generation, estimateThroughput, planStorage, withInstanceType } from '../../lib/sizing';
import { down2 } from '../support/plan-figures';
import { main } from '../../bin/plan';
import { UNWRAPPED } from '../../lib/sizing/wrap';
import { gp3MonthlyUsd, gp3VolumeFor } from '../../lib/sizing/catalog-gp3';
import { Backend } from '../../lib/backend-enum';
import { Arch, DataVolumeType } from '../../lib/sizing/enums';

// gp3 figures typed here from their sources in docs/sources/netopt.md, not read from lib/sizing. AWS's SDK model gives
// 125-2,000 MiB/s, 3,000-80,000 IOPS and 1-65,536 GiB. The EBS user guide gives 0.25 MiB/s per IOPS and 500 IOPS per
// GiB. AWS's price list, as copies quote it, gives $0.08 per GB-month, $0.005 per IOPS-month above 3,000 and $0.04 per
// MiB/s-month above 125.
const MIB = 1.048576; // MB/s in one MiB/s
const gp3 = (sizeGiB: number, throughputMiBps: number, iops: number, count = 1): DataVolumePlan[] =>
  Array.from({ length: count }, () => ({ volumeType: DataVolumeType.GP3, sizeGiB, throughputMiBps, iops }));
const volumeUsd = (gib: number, mibps: number, iops: number) => gib * 0.08 + (iops - 3000) * 0.005 + (mibps - 125) * 0.04;

describe('gp3 in the planner (issue 28)', () => {
  test('1 TiB at 250 MB/s on EBS: gp3, since st1 would need 5.96 TiB for its baseline; the reason says so', () => {
    const plan = planStorage({ capacityTiB: 1, throughputMBps: 250, backend: Backend.EBS });
    // Two 512 GiB gp3 at the included 125 MiB/s each (262.14 MB/s) on m4.4xlarge (2000 Mbps EBS, 2 Gbps network: 250 MB/s):
    // 0.8 x 730 + 1024 x 0.08 = $665.92; st1 sized for 250 MB/s (6104 GiB) on the same m4 would be $858.68.
    expect(plan.dataVolumes).toEqual(gp3(512, 125, 3000, 2));
    expect(plan.instanceType).toBe('m4.4xlarge');
    expect(plan.monthlyCostUsd).toBeCloseTo(0.8 * 730 + 2 * volumeUsd(512, 125, 3000), 2);
    expect(plan.throughput.baselineReadMBps).toBe(250);
    expect(plan.reason).toBe(
      "the cheapest plan that holds 1 TiB and sustains 250 MB/s (m4.xlarge, the capacity rule's choice, sustains 41.94 MB/s); " +
        'gp3, 2 x 125 MiB/s provisioned (no burst credits): st1 would need 5.96 TiB for its baseline (40 MiB/s per TiB) to sustain it',
    );
  });

  test('`npm run plan -- 1 --backend ebs --throughput 250` shows the gp3 volumes with their throughput and IOPS', () => {
    const out: string[] = [];
    expect(main(['1', '--backend', 'ebs', '--throughput', '250'], { out: (t) => out.push(t), err: (t) => out.push(t), width: UNWRAPPED })).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^volumes {7}2 x gp3 \(512 GiB, 125 MiB\/s, 3000 IOPS each\), striped$/m);
    expect(text).toMatch(/^ebs .* 665\.92 +m4\.4xlarge, 2 x gp3 \(512 GiB, 125 MiB\/s, 3000 IOPS each\), striped$/m);
    expect(text).toMatch(/^why .*st1 would need 5\.96 TiB for its baseline/m);
  });

  test('without a throughput the capacity rule stays st1, on either generation and backend', () => {
    for (const generation of [Generation.PREVIOUS, Generation.CURRENT]) {
      for (const backend of [undefined, Backend.EBS]) {
        expect(planStorage({ capacityTiB: 1, backend, generation }).dataVolumes.map((v) => v.volumeType)).toEqual(['st1']);
      }
    }
    // A throughput the capacity rule's st1 already sustains keeps it too.
    expect(planStorage({ capacityTiB: 10, throughputMBps: 100 }).dataVolumes[0].volumeType).toBe('st1');
  });

  test('10 TiB at 1000 MB/s on EBS: 3 x gp3 at 318 MiB/s each on m4.16xlarge, $3178.52 (st1 2 x 12208 GiB: $3434.72)', () => {
    const plan = planStorage({ capacityTiB: 10, throughputMBps: 1000, backend: Backend.EBS });
    // 1000 / 3 / 1.048576 = 317.9 MiB/s, rounded up; 3414 GiB = ceil(10240 / 3).
    expect(plan.dataVolumes).toEqual(gp3(3414, 318, 3000, 3));
    expect(plan.monthlyCostUsd).toBeCloseTo(3.2 * 730 + 3 * volumeUsd(3414, 318, 3000), 2);
    expect(plan.throughput.baselineReadMBps).toBe(down2(3 * 318 * MIB));
    expect(plan.throughput.limitedBy).toBe('gp3 provisioned throughput of 3 x 318 MiB/s (3414 GiB each)');
  });

  test('the smallest gp3 for a share: IOPS max(3000, 4 x MiB/s), size grown to 1 GiB per 500 IOPS, throughput 125-2000', () => {
    expect(gp3VolumeFor(100, 50)).toEqual({ volumeType: 'gp3', sizeGiB: 100, throughputMiBps: 125, iops: 3000 });
    // 1200 MB/s = 1144.4 MiB/s -> 1145 MiB/s, 4580 IOPS; 4580 / 500 = 9.16 -> 10 GiB.
    expect(gp3VolumeFor(1, 1200)).toEqual({ volumeType: 'gp3', sizeGiB: 10, throughputMiBps: 1145, iops: 4580 });
    expect(gp3VolumeFor(1, 5000)).toEqual({ volumeType: 'gp3', sizeGiB: 16, throughputMiBps: 2000, iops: 8000 });
    // An exact MiB/s needs no more: 125 MiB/s x 2 = 262.144 MB/s.
    expect(gp3VolumeFor(10, 2 * 125 * MIB).throughputMiBps).toBe(250);
  });

  test('cost: sizeGiB x 0.08 + (IOPS - 3000) x 0.005 + (MiB/s - 125) x 0.04 per volume, plus 730 h on demand', () => {
    expect(gp3MonthlyUsd({ sizeGiB: 1024, iops: 4580, throughputMiBps: 1145 })).toBeCloseTo(81.92 + 7.9 + 40.8, 9);
    expect(gp3MonthlyUsd({ sizeGiB: 1024, iops: 3000, throughputMiBps: 125 })).toBeCloseTo(81.92, 9);
    const base = planStorage({ capacityTiB: 1, throughputMBps: 250, backend: Backend.EBS });
    const other = withInstanceType({ ...base, dataVolumes: gp3(1024, 1145, 4580) }, 'm4.16xlarge');
    expect(other.monthlyCostUsd).toBeCloseTo(3.2 * 730 + volumeUsd(1024, 1145, 4580), 2);
    expect(other.dataVolumes).toEqual(gp3(1024, 1145, 4580));
  });

  test('the estimate: no burst credits; provisioned MiB/s x 1.048576 under the EBS and network limits', () => {
    // m4.16xlarge (10000 Mbps EBS, 25 Gbps): 2 x 500 MiB/s = 1,048.576 MB/s throughout, stated rounded down.
    const flat = estimateThroughput('m4.16xlarge', gp3(1000, 500, 3000, 2));
    expect([flat.readMBps, flat.baselineReadMBps, flat.burstReadMBps, flat.writeMBps]).toEqual([1048.57, 1048.57, 1048.57, 1048.57]);
    // m4.xlarge's 750 Mbps binds: 93.75 MB/s.
    expect(estimateThroughput('m4.xlarge', gp3(1000, 500, 3000)).baselineReadMBps).toBe(93.75);
    // m6i.large: sustained at its EBS baseline (650 Mbps = 81.25 MB/s); burst at the volume's 524.29 MB/s (under the
    // EBS burst, 1250 MB/s, and the network burst, 1562.5 MB/s).
    const nitro = estimateThroughput('m6i.large', gp3(1000, 500, 3000));
    expect(nitro.baselineReadMBps).toBe(81.25);
    expect(nitro.burstReadMBps).toBe(down2(500 * MIB));
  });

  // EBS-GP3-LIMITS
  test.each<[string, DataVolumePlan[], RegExp]>([
    ['size 0', gp3(0, 125, 3000), /^dataVolumes\[0\]\.sizeGiB must be a whole number from 1 to 65536 for gp3; got 0$/],
    ['size 65537', gp3(65537, 125, 3000), /sizeGiB must be a whole number from 1 to 65536 for gp3; got 65537/],
    ['124 MiB/s', gp3(100, 124, 3000), /^dataVolumes\[0\]\.throughputMiBps must be a whole number from 125 to 2000; got 124$/],
    ['2001 MiB/s', gp3(100, 2001, 9000), /throughputMiBps must be a whole number from 125 to 2000; got 2001/],
    ['2999 IOPS', gp3(100, 125, 2999), /^dataVolumes\[0\]\.iops must be a whole number from 3000 to 80000; got 2999$/],
    ['80001 IOPS', gp3(1000, 125, 80001), /iops must be a whole number from 3000 to 80000; got 80001/],
    ['1000 MiB/s on 3000 IOPS', gp3(100, 1000, 3000), /^dataVolumes\[0\]\.iops must be at least throughputMiBps \/ 0\.25 \(4000 for 1000 MiB\/s\); got 3000$/],
    ['8000 IOPS on 10 GiB', gp3(10, 125, 8000), /^dataVolumes\[0\]\.iops must be at most 500 per GiB \(5000 for 10 GiB\); got 8000$/],
    ['st1 with iops', [{ volumeType: DataVolumeType.ST1, sizeGiB: 1024, iops: 3000 }], /^dataVolumes\[0\]: throughputMiBps and iops apply to gp3 only/],
    ['a mixed stripe', [...gp3(100, 125, 3000), ...gp3(100, 250, 3000)], /^dataVolumes must all have the same volumeType, throughputMiBps and iops/],
    ['gp3 and st1', [...gp3(1024, 125, 3000), { volumeType: DataVolumeType.ST1, sizeGiB: 1024 }], /^dataVolumes must all have the same volumeType/],
  ])('refuses a gp3 volume: %s', (_what, volumes, message) => {
    expect(() => estimateThroughput('m4.16xlarge', volumes)).toThrow(message);
  });

  test('property (backend ebs, both generations, both architectures): the plan holds and sustains the request, and no st1 or gp3 stripe on any type it may choose costs less', () => {
    // [name, EBS baseline Mbps, network baseline Gbps, $/h], typed from the EC2 guides and AWS's price list of 2026-07
    // as docs/sources/netopt.md quotes them, not read from lib/sizing. m4 comes from catalog.ts's sources; m6i, m7i and
    // m6in from gp.html; c6in from co.html; r6in from mo.html; Graviton from gp.html, co.html and mo.html.
    const sizes = ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'];
    const sixIn = (family: string, usd: number[]): [string, number, number, number][] => sizes.map((size, i) =>
      [`${family}.${size}`, [1562, 3125, 6250, 12500, 25000, 37500, 50000, 75000, 100000][i], [3.125, 6.25, 12.5, 25, 50, 75, 100, 150, 200][i], usd[i]]);
    const eightGb = (family: string, usd: number[]): [string, number, number, number][] => [...sizes.slice(0, 8), '48xlarge'].map((size, i) =>
      [`${family}.${size}`, [3125, 6250, 12500, 25000, 50000, 75000, 100000, 150000, 300000][i], [4.166, 8.333, 16.666, 33.33, 66.66, 100, 133.33, 200, 400][i], usd[i]]);
    const types: Record<'previous' | 'current' | 'arm64', [string, number, number, number][]> = {
      previous: [['m4.xlarge', 750, 0.75, 0.2], ['m4.2xlarge', 1000, 1, 0.4], ['m4.4xlarge', 2000, 2, 0.8], ['m4.10xlarge', 4000, 10, 2], ['m4.16xlarge', 10000, 25, 3.2]],
      current: [['m6i.large', 650, 0.781, 0.096], ['m6i.xlarge', 1250, 1.562, 0.192], ['m6i.2xlarge', 2500, 3.125, 0.384],
        ['m6i.4xlarge', 5000, 6.25, 0.768], ['m6i.8xlarge', 10000, 12.5, 1.536], ['m6i.12xlarge', 15000, 18.75, 2.304],
        ['m6i.16xlarge', 20000, 25, 3.072], ['m6i.24xlarge', 30000, 37.5, 4.608], ['m7i.48xlarge', 40000, 50, 9.6768],
        ...sixIn('c6in', [0.1134, 0.2268, 0.4536, 0.9072, 1.8144, 2.7216, 3.6288, 5.4432, 7.2576]),
        ...sixIn('m6in', [0.13923, 0.27846, 0.55692, 1.11384, 2.22768, 3.34152, 4.45536, 6.68304, 8.91072]),
        ...sixIn('r6in', [0.17433, 0.34866, 0.69732, 1.39464, 2.78928, 4.18392, 5.57856, 8.36784, 11.15712])],
      arm64: [['m6g.large', 630, 0.75, 0.077], ['m6g.xlarge', 1188, 1.25, 0.154], ['m6g.2xlarge', 2375, 2.5, 0.308],
        ['m6g.4xlarge', 4750, 5, 0.616], ['m6g.8xlarge', 9500, 12, 1.232], ['m6g.12xlarge', 14250, 20, 1.848], ['m6g.16xlarge', 19000, 25, 2.464],
        ['m7g.large', 630, 0.937, 0.0816], ['m7g.xlarge', 1250, 1.876, 0.1632], ['m7g.2xlarge', 2500, 3.75, 0.3264],
        ['m7g.4xlarge', 5000, 7.5, 0.6528], ['m7g.8xlarge', 10000, 15, 1.3056], ['m7g.12xlarge', 15000, 22.5, 1.9584], ['m7g.16xlarge', 20000, 30, 2.6112],
        ...eightGb('c8gb', [0.1185, 0.237, 0.474, 0.948, 1.896, 2.844, 3.792, 5.688, 11.376]),
        ...eightGb('m8gb', [0.1455, 0.291, 0.582, 1.164, 2.328, 3.492, 4.656, 6.984, 13.968]),
        ...eightGb('r8gb', [0.18218, 0.36436, 0.72872, 1.45744, 2.91488, 4.37232, 5.82976, 8.74464, 17.48928])],
    };
    fc.assert(
      fc.property(fc.constantFrom<'previous' | 'current' | 'arm64'>('previous', 'current', 'arm64'), fc.double({ min: 0.01, max: 40, noNaN: true }), fc.integer({ min: 20, max: 7000 }),
        (family, capacityTiB, mbps) => {
          const generation = family === 'previous' ? Generation.PREVIOUS : Generation.CURRENT;
          let plan;
          try {
            plan = planStorage({ capacityTiB, throughputMBps: mbps, backend: Backend.EBS, generation, arch: family === 'arm64' ? Arch.ARM64 : undefined });
          } catch {
            plan = undefined;
          }
          const sustained = plan && Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps);
          if (plan) {
            expect(sustained).toBeGreaterThanOrEqual(mbps);
            expect(plan.rawCapacityTiB).toBeGreaterThanOrEqual(capacityTiB);
          }
          // Independent enumeration: every type, 1-3 volumes; st1 in 64 GiB steps from the share (125 GiB at least,
          // 16 TiB at most); gp3 at the share rounded up to 64 GiB, every whole MiB/s from 125 to 2000 with IOPS
          // max(3000, 4 x MiB/s) rounded up to 100 and 1 GiB per 500 IOPS.
          // A plan sustains the request when both its stripe and its type's limit do: the cheapest is, for each volume
          // count, the cheapest stripe that sustains it on the cheapest type whose limit does.
          let cheapest = Infinity;
          for (let count = 1; count <= 3; count++) {
            const share = Math.ceil((capacityTiB * 1024) / count / 64) * 64;
            let stripeUsd = Infinity;
            for (let gib = Math.max(128, share); gib <= 16384; gib += 64) {
              if (count * Math.min(40 * (gib / 1024), 500) * MIB >= mbps) {
                stripeUsd = Math.min(stripeUsd, count * gib * 0.045);
                break;
              }
            }
            for (let mibps = 125; mibps <= 2000; mibps++) {
              const iops = Math.ceil(Math.max(3000, 4 * mibps) / 100) * 100;
              const gib = Math.max(share, Math.ceil(iops / 500));
              if (gib <= 65536 && count * mibps * MIB >= mbps) stripeUsd = Math.min(stripeUsd, count * volumeUsd(gib, mibps, iops));
            }
            for (const [, ebsMbps, gbps, usdPerHour] of types[family]) {
              if (Math.min(ebsMbps / 8, (gbps * 1e9) / 8 / 1e6) >= mbps) cheapest = Math.min(cheapest, usdPerHour * 730 + stripeUsd);
            }
          }
          // Some catalogued stripe sustains it: the planner must find one. The capacity rule's own plan is kept when it
          // sustains the request, even where another would be cheaper; a searched plan is the cheapest.
          if (cheapest < Infinity) expect(plan).toBeDefined();
          if (plan?.reason.startsWith('the cheapest plan')) expect(plan.monthlyCostUsd).toBeLessThanOrEqual(cheapest + 0.01);
        }),
      { numRuns: 100 },
    );
  });
});

describe('gp3: the reason when st1 could not sustain the throughput at all', () => {
  test('1 TiB at 1600 MB/s on current-generation EBS: gp3; st1 sustains at most 3 x 500 MiB/s (1572.86 MB/s)', () => {
    const plan = planStorage({ capacityTiB: 1, throughputMBps: 1600, backend: Backend.EBS, generation: Generation.CURRENT });
    expect(plan.dataVolumes[0].volumeType).toBe('gp3');
    expect(plan.reason).toMatch(/; gp3, \d x \d+ MiB\/s provisioned \(no burst credits\): st1's baseline cannot sustain it \(at most 3 x 500 MiB\/s\)$/);
  });
});
