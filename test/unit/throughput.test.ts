import * as fc from 'fast-check';
import { DataVolumePlan, estimateThroughput } from '../../lib/sizing';
import { down2 } from '../support/plan-figures';
import { DataVolumeType } from '../../lib/sizing/enums';

// Expected values come from the published limits, the sources lib/sizing/catalog.ts lists, worked out here. MB/s = 10^6
// B/s, Gbps and Mbps are 10^9 and 10^6 bit/s, and st1 figures are MiB/s per TiB.
const MIB = 2 ** 20;
const st1 = (sizeGiB: number, count = 1): DataVolumePlan[] =>
  Array.from({ length: count }, () => ({ volumeType: DataVolumeType.ST1, sizeGiB }));
/** st1 burst of one volume, MB/s: 250 MiB/s per TiB, at most 500 MiB/s. */
const st1BurstMBps = (sizeGiB: number) => (Math.min(250 * (sizeGiB / 1024), 500) * MIB) / 1e6;
/** st1 baseline of one volume, MB/s: 40 MiB/s per TiB, at most 500 MiB/s. */
const st1BaselineMBps = (sizeGiB: number) => (Math.min(40 * (sizeGiB / 1024), 500) * MIB) / 1e6;

/** Published EBS bandwidth and network baseline of the m4 types, MB/s. */
const M4 = {
  'm4.xlarge': { ebs: 750 / 8, network: 750 / 8 },
  'm4.2xlarge': { ebs: 1000 / 8, network: 1000 / 8 },
  'm4.4xlarge': { ebs: 2000 / 8, network: 2000 / 8 },
  'm4.10xlarge': { ebs: 4000 / 8, network: 10000 / 8 },
  'm4.16xlarge': { ebs: 10000 / 8, network: 25000 / 8 },
};

describe('estimateThroughput: instance store (d2)', () => {
  test.each([
    // Disks: 145.8 MB/s read and 129.2 MB/s write each, 3.5 and 3.1 GB/s over d2.8xlarge's 24. So even d2.xlarge's 3
    // disks, at 437 and 387 MB/s, outrun its network baseline: the network binds on every d2.
    ['d2.xlarge', 1.25],
    ['d2.2xlarge', 2.5],
    ['d2.4xlarge', 5],
    ['d2.8xlarge', 10],
  ])('%s: network baseline of %p Gbps binds read and write', (instanceType, gbps) => {
    const estimate = estimateThroughput(instanceType);
    expect(estimate.readMBps).toBe(down2((gbps * 1e9) / 8 / 1e6));
    expect(estimate.writeMBps).toBe(down2((gbps * 1e9) / 8 / 1e6));
    expect(estimate.limitedBy).toBe(`network baseline of ${instanceType} (${gbps} Gbps)`);
    // Local disks and a fixed network have no burst: sustained and burst are the same figure.
    for (const key of ['baselineReadMBps', 'baselineWriteMBps', 'burstReadMBps', 'burstWriteMBps'] as const) {
      expect(estimate[key]).toBeCloseTo((gbps * 1e9) / 8 / 1e6, 2);
    }
  });
});

describe('estimateThroughput: instance store (d3, d3en): a lower bound', () => {
  // AWS publishes no disk throughput for d3 or d3en, per docs/sources/d3.md: each disk counts at d2's published figure,
  // 3.5 and 3.1 GB/s over d2.8xlarge's 24 disks, under the network. The disk counts come from the EC2 User Guide's
  // instance store table and the network baseline and burst, Gbps, from its storage optimized instances, typed here.
  const D2_READ = 3500 / 24;
  const D2_WRITE = 3100 / 24;
  const D3: [string, number, number, number][] = [
    ['d3.xlarge', 3, 3, 15], ['d3.2xlarge', 6, 6, 15], ['d3.4xlarge', 12, 12.5, 15], ['d3.8xlarge', 24, 25, 25],
    ['d3en.xlarge', 2, 6, 25], ['d3en.2xlarge', 4, 12.5, 25], ['d3en.4xlarge', 8, 25, 25], ['d3en.6xlarge', 12, 40, 40],
    ['d3en.8xlarge', 16, 50, 50], ['d3en.12xlarge', 24, 75, 75],
  ];
  const mbps = (gbps: number) => (gbps * 1e9) / 8 / 1e6;

  test.each(D3)('%s: %p disks at d2\'s figure under a %p Gbps network baseline', (instanceType, disks, baseline, burst) => {
    const e = estimateThroughput(instanceType);
    const read = Math.min(disks * D2_READ, mbps(baseline));
    const write = Math.min(disks * D2_WRITE, mbps(baseline));
    for (const key of ['readMBps', 'baselineReadMBps'] as const) expect(e[key]).toBe(down2(read));
    for (const key of ['writeMBps', 'baselineWriteMBps'] as const) expect(e[key]).toBe(down2(write));
    // The network's burst, on credits for an unpublished time, shows only in the burst figure; the disks never burst.
    expect(e.burstReadMBps).toBe(down2(Math.min(disks * D2_READ, mbps(burst))));
    expect(e.burstWriteMBps).toBe(down2(Math.min(disks * D2_WRITE, mbps(burst))));
    expect(e.limitedBy).toMatch(/; lower bound: per-disk throughput unpublished$/);
    // Never more than the bound: the disks at d2's figure, nor the network baseline, burst aside.
    for (const key of ['readMBps', 'baselineReadMBps', 'burstReadMBps'] as const) expect(e[key]).toBeLessThanOrEqual(disks * D2_READ + 0.005);
    for (const key of ['writeMBps', 'baselineWriteMBps', 'burstWriteMBps'] as const) expect(e[key]).toBeLessThanOrEqual(disks * D2_WRITE + 0.005);
    for (const key of ['readMBps', 'writeMBps', 'baselineReadMBps', 'baselineWriteMBps'] as const) {
      expect(e[key]).toBeLessThanOrEqual(mbps(baseline) + 0.005);
    }
  });

  test('limitedBy names the binding limit with the bound: d3.xlarge is network-bound, d3en.xlarge disk-bound', () => {
    // d3.xlarge: 3 disks give 437.5 and 387.5 MB/s, over its 3 Gbps baseline of 375 MB/s.
    expect(estimateThroughput('d3.xlarge').limitedBy).toBe('network baseline of d3.xlarge (3 Gbps); lower bound: per-disk throughput unpublished');
    // d3en.xlarge: 2 disks give 291.67 and 258.33 MB/s, under its 6 Gbps of 750 MB/s.
    expect(estimateThroughput('d3en.xlarge').limitedBy).toBe(
      "read: 2 instance-store HDDs of d3en.xlarge at d2's 145.83 MB/s each (read); write: 2 instance-store HDDs of d3en.xlarge " +
        "at d2's 129.17 MB/s each (write); lower bound: per-disk throughput unpublished",
    );
    // d2's own figure is AWS's: no bound in its words.
    expect(estimateThroughput('d2.xlarge').limitedBy).not.toMatch(/lower bound/);
  });
});

describe('estimateThroughput: EBS (m4 + st1)', () => {
  test.each([
    // The original tiers: EBS bandwidth and network baseline are equal on the three smaller m4s.
    [
      'm4.xlarge',
      2048,
      93.75,
      /^EBS bandwidth of m4\.xlarge \(750 Mbps\) and network baseline of m4\.xlarge \(0\.75 Gbps\)$/,
    ],
    ['m4.2xlarge', 5120, 125, /^EBS bandwidth of m4\.2xlarge \(1000 Mbps\) and network baseline/],
    ['m4.4xlarge', 10240, 250, /^EBS bandwidth of m4\.4xlarge \(2000 Mbps\) and network baseline/],
    ['m4.10xlarge', 16384, 500, /^EBS bandwidth of m4\.10xlarge \(4000 Mbps\)$/],
  ])('%s with one %p GiB volume: %p MB/s', (instanceType, sizeGiB, mbps, limitedBy) => {
    const estimate = estimateThroughput(instanceType, st1(sizeGiB));
    expect(estimate).toMatchObject({ readMBps: mbps, writeMBps: mbps });
    expect(estimate.limitedBy).toMatch(limitedBy);
  });

  test.each([
    // [volumes, GiB each, MB/s, limit]
    [1, 16384, st1BurstMBps(16384), 'st1 burst of 1 x 16384 GiB'], // 500 MiB/s per volume cap
    [1, 1024, st1BurstMBps(1024), 'st1 burst of 1 x 1024 GiB'], // 1 TiB of credit outlasts a 1 TB transfer
    [2, 8704, 2 * st1BurstMBps(8704), 'st1 burst of 2 x 8704 GiB'],
    [3, 16384, 1250, 'EBS bandwidth of m4.16xlarge (10000 Mbps)'],
  ])('m4.16xlarge with %p x %p GiB: %p MB/s', (count, sizeGiB, mbps, limitedBy) => {
    const estimate = estimateThroughput('m4.16xlarge', st1(sizeGiB, count));
    expect(estimate.readMBps).toBe(down2(mbps));
    expect(estimate.writeMBps).toBe(down2(mbps));
    expect(estimate.limitedBy).toBe(limitedBy);
  });

  test('a small volume runs out of burst credits during a 1 TB transfer and falls back to its baseline', () => {
    // GIVEN 512 GiB of st1 on m4.xlarge: bursts at 125 MiB/s, but the instance carries 93.75 MB/s.
    const rate = 93.75e6; // B/s
    const baseline = 20 * MIB; // 40 MiB/s per TiB x 0.5 TiB, which also refills the bucket
    const bucket = 512 * 2 ** 30; // 1 TiB of credit per TiB of size
    const burstSeconds = bucket / (rate - baseline);
    const burstBytes = rate * burstSeconds; // about 708 GB
    const seconds = burstSeconds + (1e12 - burstBytes) / baseline;
    // WHEN
    const estimate = estimateThroughput('m4.xlarge', st1(512));
    // THEN
    expect(estimate.readMBps).toBe(down2(1e12 / seconds / 1e6));
    expect(estimate.writeMBps).toBe(estimate.readMBps);
    expect(estimate.readMBps).toBeLessThan(50);
    expect(estimate.limitedBy).toBe(
      'st1 burst credits of 1 x 512 GiB (empty after 708 GB, then st1 baseline 20.97 MB/s)',
    );
  });

  test('properties: between the baseline floor and the smallest published limit; more GiB is never slower', () => {
    const m4 = fc.constantFrom(...(Object.keys(M4) as (keyof typeof M4)[]));
    const size = fc.integer({ min: 125, max: 16384 });
    fc.assert(
      fc.property(m4, fc.integer({ min: 1, max: 3 }), size, size, (instanceType, count, a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        const estimate = estimateThroughput(instanceType, st1(small, count));
        const ceiling = Math.min(M4[instanceType].ebs, M4[instanceType].network, count * st1BurstMBps(small));
        const floor = Math.min(ceiling, count * st1BaselineMBps(small));
        // 1e-9: binary rounding of the test's own product, 633.5999999999999 for 3 x 211.2.
        expect(estimate.readMBps).toBeLessThanOrEqual(ceiling + 1e-9);
        expect(estimate.readMBps).toBeGreaterThanOrEqual(down2(floor));
        expect(estimate.writeMBps).toBe(estimate.readMBps);
        expect(estimateThroughput(instanceType, st1(large, count)).readMBps).toBeGreaterThanOrEqual(
          estimate.readMBps,
        );
        // Sustained: every volume at its baseline, under the instance's limits; burst: the ceiling itself.
        expect(estimate.baselineReadMBps).toBe(down2(floor));
        expect(estimate.burstReadMBps).toBe(down2(ceiling));
        expect(estimate.baselineWriteMBps).toBe(estimate.baselineReadMBps);
        expect(estimate.burstWriteMBps).toBe(estimate.burstReadMBps);
        expect(estimate.baselineReadMBps).toBeLessThanOrEqual(estimate.readMBps);
        expect(estimate.readMBps).toBeLessThanOrEqual(estimate.burstReadMBps);
      }),
    );
  });

  test('sustained and burst: m4.16xlarge with 3 x 5 TiB sustains 3 st1 baselines and bursts to its EBS bandwidth', () => {
    const estimate = estimateThroughput('m4.16xlarge', st1(5120, 3));
    // Baseline: 40 MiB/s per TiB x 5 TiB = 200 MiB/s per volume, x 3 = 629.15 MB/s, under 1250 MB/s of EBS.
    expect(estimate.baselineReadMBps).toBe(down2((3 * 200 * MIB) / 1e6));
    expect(estimate.baselineWriteMBps).toBe(down2((3 * 200 * MIB) / 1e6));
    // Burst: 500 MiB/s per volume, the cap, x 3 = 1572.86 MB/s, held to the EBS bandwidth of 10000 Mbps.
    expect(estimate.burstReadMBps).toBe(1250);
    expect(estimate.burstWriteMBps).toBe(1250);
  });
});

describe('estimateThroughput: bad input names the field, the value and what is allowed', () => {
  test.each([
    ['t3.micro', undefined, /instanceType must be one of m4\.\{xlarge,.*\}, .*, d2\.\{xlarge,2xlarge,4xlarge,8xlarge\}, d3\.\{.*\}, d3en\.\{.*,12xlarge\}; got "t3\.micro"/],
    ['d3en.xlarge', st1(1024), /dataVolumes must be empty for d3en\.xlarge: its data lives on its 2 instance-store disks; got 1 volume/],
    ['m4.xlarge', undefined, /dataVolumes must hold at least one st1 or gp3 volume for m4\.xlarge.*got none/],
    ['m4.xlarge', [], /dataVolumes must hold at least one st1 or gp3 volume/],
    ['d2.xlarge', st1(1024), /dataVolumes must be empty for d2\.xlarge.*got 1 volume/],
    [
      'm4.xlarge',
      [{ volumeType: 'io2', sizeGiB: 1024 }],
      /dataVolumes\[0\]\.volumeType must be 'st1' or 'gp3'; got "io2"/,
    ],
    // EBS-ST1-SIZE
    ['m4.xlarge', st1(124), /dataVolumes\[0\]\.sizeGiB must be a whole number from 125 to 16384; got 124/],
    ['m4.xlarge', st1(16385), /sizeGiB must be a whole number from 125 to 16384; got 16385/],
    ['m4.xlarge', st1(500.5), /sizeGiB must be a whole number .*got 500\.5/],
    [
      'm4.16xlarge',
      [...st1(1024), ...st1(2048)],
      /dataVolumes must all have the same sizeGiB.*got 1024, 2048/,
    ],
  ])('%s with %p', (instanceType, volumes, message) => {
    expect(() => estimateThroughput(instanceType, volumes as DataVolumePlan[] | undefined)).toThrow(message);
  });
});
