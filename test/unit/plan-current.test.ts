import * as fc from 'fast-check';
import {
  CURRENT_EBS_INSTANCE_TYPES,
  InstanceTypeSpec,
  NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES,
  bestPlanOf,
  estimateThroughput,
  instanceTypeSpec,
  planStorage,
} from '../../lib/sizing';
import { main } from '../../bin/plan';
import { Backend } from '../../lib/backend-enum';
import { Arch, Generation } from '../../lib/sizing/enums';

// m7i beside m6i, the network-optimized EBS families, and Graviton in the planner when asked. Figures are typed here
// from docs/sources/netopt.md's tables, not read from lib/sizing: AWS's instance type guides, and the price list as
// Karpenter's copy quotes it.

const family = (name: string) => NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES.filter((t) => t.name.startsWith(`${name}.`));
const limits = (t: InstanceTypeSpec) => [t.name.split('.')[1], t.vcpus, t.networkBaselineGbps, t.ebsBandwidthMbps, t.ebsBurstMbps];

describe('the catalogue of current-generation EBS types', () => {
  test('m7i has the limits of m6i at every size both have, costs 5% more, and adds 48xlarge (40,000 Mbps EBS, 50 Gbps)', () => {
    const m6i = CURRENT_EBS_INSTANCE_TYPES.filter((t) => t.name.startsWith('m6i.'));
    const m7i = CURRENT_EBS_INSTANCE_TYPES.filter((t) => t.name.startsWith('m7i.'));
    expect(m7i.slice(0, m6i.length).map(limits)).toEqual(m6i.map(limits));
    for (const [i, t] of m6i.entries()) expect(m7i[i].onDemandUsdPerHour / t.onDemandUsdPerHour).toBeCloseTo(1.05, 3);
    expect(m7i.slice(m6i.length).map((t) => [t.name, t.ebsBandwidthMbps, t.networkBaselineGbps, t.onDemandUsdPerHour]))
      .toEqual([['m7i.48xlarge', 40000, 50, 9.6768]]);
  });

  test('c6in, m6in and r6in share one EBS and network table; 32xlarge: 100,000 Mbps EBS, 200 Gbps; memory 2, 4, 8 GiB per vCPU', () => {
    expect(family('m6in').map(limits)).toEqual(family('c6in').map(limits));
    expect(family('r6in').map(limits)).toEqual(family('c6in').map(limits));
    expect(family('c6in').at(-1)).toMatchObject({ name: 'c6in.32xlarge', ebsBandwidthMbps: 100000, networkBaselineGbps: 200, onDemandUsdPerHour: 7.2576 });
    for (const [name, perVcpu] of [['c6in', 2], ['m6in', 4], ['r6in', 8]] as const) {
      expect(family(name).every((t) => t.memoryGiB === t.vcpus * perVcpu)).toBe(true);
    }
  });

  test('c8gb, m8gb and r8gb (Graviton4): 48xlarge has 300,000 Mbps EBS and 400 Gbps; c8gb.48xlarge costs 11.376 USD/h', () => {
    for (const name of ['c8gb', 'm8gb', 'r8gb']) {
      expect(family(name).at(-1)).toMatchObject({ name: `${name}.48xlarge`, ebsBandwidthMbps: 300000, networkBaselineGbps: 400, arch: 'arm64' });
    }
    expect(instanceTypeSpec('c8gb.48xlarge').onDemandUsdPerHour).toBe(11.376);
    // r8gb's "up to" network bursts were not read: none is claimed beyond its baseline.
    expect(family('r8gb').every((t) => (t.networkBurstGbps ?? t.networkBaselineGbps) === t.networkBaselineGbps)).toBe(true);
  });

  test('the "up to" EBS figure is never below the baseline, and sizes grow within each family', () => {
    for (const t of [...CURRENT_EBS_INSTANCE_TYPES, ...NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES]) {
      expect(t.ebsBurstMbps ?? 0).toBeGreaterThanOrEqual(t.ebsBandwidthMbps ?? Infinity);
      expect(t.networkBurstGbps ?? t.networkBaselineGbps).toBeGreaterThanOrEqual(t.networkBaselineGbps);
    }
    for (const name of ['c6in', 'm6in', 'r6in', 'c8gb', 'm8gb', 'r8gb']) {
      const ebs = family(name).map((t) => t.ebsBandwidthMbps ?? 0);
      expect(ebs).toEqual([...ebs].sort((a, b) => a - b));
    }
  });
});

describe('the planner on the current generation', () => {
  test('the capacity rule is unchanged: the smallest m6i that carries the st1 baseline (m7i never wins on price)', () => {
    expect(planStorage({ capacityTiB: 10, generation: Generation.CURRENT }).instanceType).toBe('m6i.4xlarge');
    expect(planStorage({ capacityTiB: 40, backend: Backend.EBS, generation: Generation.CURRENT }).instanceType).toMatch(/^m6i\./);
  });

  test('with a throughput the search weighs the network-optimized types: 10 TiB at 500 MB/s on EBS is c6in.2xlarge, cheaper than any m6i', () => {
    const plan = planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 500, backend: Backend.EBS });
    expect(plan.instanceType).toBe('c6in.2xlarge');
    // The same st1 volume on the smallest m6i whose baselines carry 500 MB/s sustains it too, at 0.768 USD/h against
    // c6in.2xlarge's 0.4536. That is m6i.4xlarge, with 625 MB/s EBS and 781 network; m6i.2xlarge's 312.5 do not carry
    // it.
    const sustainedOn = (type: string) => {
      const t = estimateThroughput(type, plan.dataVolumes);
      return Math.min(t.baselineReadMBps, t.baselineWriteMBps);
    };
    expect([sustainedOn('m6i.2xlarge') < 500, sustainedOn('m6i.4xlarge') >= 500]).toEqual([true, true]);
    expect(instanceTypeSpec('c6in.2xlarge').onDemandUsdPerHour).toBeLessThan(instanceTypeSpec('m6i.4xlarge').onDemandUsdPerHour);
    expect(bestPlanOf(Backend.EBS, { capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 500 })).toMatchObject({ instanceType: 'c6in.2xlarge' });
    // auto weighs d3 too: its lower bound, 6 disks at d2's figure under its 6 Gbps network, sustains 500 for less.
    expect(planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 500 }).instanceType).toBe('d3.2xlarge');
  });

  test("three gp3 volumes at up to 2,000 MiB/s on c6in: 6,291 MB/s, over twice Dell's 2.7 GB/s", () => {
    const plan = planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 6250, backend: Backend.EBS });
    expect(plan.instanceType).toBe('c6in.16xlarge');
    expect(plan.dataVolumes.map((v) => v.volumeType)).toEqual(['gp3', 'gp3', 'gp3']);
    expect(Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)).toBe(6250); // 50,000 Mbps / 8
    expect(plan.throughput.limitedBy).toBe('EBS bandwidth of c6in.16xlarge (50000 Mbps)');
    // Three volumes stop at 3 x 2,000 MiB/s = 6,291.456 MB/s, on c6in.24xlarge with 75,000 Mbps EBS.
    const three = planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 6291, backend: Backend.EBS });
    expect(three).toMatchObject({ instanceType: 'c6in.24xlarge' });
    expect(three.dataVolumes).toHaveLength(3);
    // Past them, a fourth volume on the same type: the wider stripe of plan-wide-stripe.test.ts.
    const four = planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps: 6300, backend: Backend.EBS });
    expect([four.instanceType, four.dataVolumes.length]).toEqual(['c6in.24xlarge', 4]);
    // m6i alone stopped at m6i.24xlarge's 3,750 MB/s.
    expect(6250 / 2700).toBeGreaterThan(2);
  });
});

describe('Graviton in the planner: arch arm64', () => {
  test('the capacity rule on the cheapest Graviton type that carries the st1 baseline; generation current implied', () => {
    const plan = planStorage({ capacityTiB: 10, arch: Arch.ARM64 });
    expect(plan.instanceType).toBe('m6g.4xlarge'); // 4,750 Mbps EBS and 5 Gbps carry 419 MB/s; m7g.4xlarge costs more
    expect(plan.reason).toMatch(/on the cheapest Graviton type \(m7g, m6g\) whose EBS and network baselines carry/);
    expect(planStorage({ capacityTiB: 10, arch: Arch.ARM64, generation: Generation.CURRENT })).toEqual(plan);
  });

  test('with a throughput: c8gb, the cheapest per EBS Gbps; 6,000 MB/s on c8gb.8xlarge (50,000 Mbps EBS)', () => {
    const plan = planStorage({ capacityTiB: 10, arch: Arch.ARM64, throughputMBps: 6000 });
    expect(plan.instanceType).toBe('c8gb.8xlarge');
  });

  test('without arch the planner never chooses Graviton, whatever the throughput', () => {
    for (const throughputMBps of [undefined, 100, 1000, 6000]) {
      const plan = planStorage({ capacityTiB: 10, generation: Generation.CURRENT, throughputMBps });
      if (plan.backend === 'ebs') expect(instanceTypeSpec(plan.instanceType).arch).toBe('x86_64');
    }
  });

  test.each([
    [{ capacityTiB: 10, arch: 'arm64', generation: 'previous' }, /^arch 'arm64' \(AWS Graviton\) is current generation only; got generation 'previous'/],
    [{ capacityTiB: 10, arch: 'arm64', backend: 'instance-store' }, /^backend 'instance-store' with arch 'arm64': AWS sells no Graviton type with instance-store HDDs/],
    [{ capacityTiB: 10, arch: 'aarch64' }, /^arch must be 'x86_64' or 'arm64' \(AWS Graviton\); got "aarch64"/],
  ])('refused: %j', (request, message) => {
    expect(() => planStorage(request as never)).toThrow(message);
  });

  test('`npm run plan -- 10 --arch arm64 --throughput 6000` plans c8gb.8xlarge; --arch x86 is refused with the allowed values', () => {
    const out: string[] = [];
    const err: string[] = [];
    expect(main(['10', '--arch', 'arm64', '--throughput', '6000'], { out: (t) => out.push(t), err: (t) => err.push(t) })).toBe(0);
    expect(out.join('\n')).toMatch(/c8gb\.8xlarge/);
    expect(main(['10', '--arch', 'x86'], { out: (t) => out.push(t), err: (t) => err.push(t) })).toBe(2);
    expect(err.join('\n')).toMatch(/--arch must be one of x86_64, arm64; got 'x86'/);
  });
});

describe('property: current-generation EBS plans of either architecture', () => {
  const request = fc.record({
    capacityTiB: fc.oneof(fc.double({ min: 0.01, max: 48, noNaN: true }), fc.integer({ min: 1, max: 48 * 1024 }).map((gib) => gib / 1024)),
    arch: fc.constantFrom(Arch.X86_64, Arch.ARM64),
    throughputMBps: fc.option(fc.integer({ min: 1, max: 20000 }), { nil: undefined }),
  });

  test('the plan holds the capacity, sustains the throughput, is on a type of the architecture asked, and its figures are its estimate', () => {
    const general = { x86_64: /^m[67]i\./, arm64: /^m[67]g\./ };
    const fast = { x86_64: /^[cmr]6in\./, arm64: /^[cmr]8gb\./ };
    fc.assert(fc.property(request, (req) => {
      let plan;
      try {
        plan = planStorage({ ...req, backend: Backend.EBS, generation: Generation.CURRENT });
      } catch (err) {
        // Refused only beyond the largest single server: c6in.32xlarge's 12,500 MB/s, one c8gb card's 18,750 MB/s.
        expect((err as Error).message).toMatch(/^throughputMBps \d+ is more than any single ebs server sustains/);
        expect(req.throughputMBps).toBeGreaterThan(req.arch === Arch.ARM64 ? 18750 : 12500);
        return;
      }
      expect(plan.rawCapacityTiB).toBeGreaterThanOrEqual(req.capacityTiB);
      expect(instanceTypeSpec(plan.instanceType).arch).toBe(req.arch);
      // Without a throughput the capacity rule's general-purpose types; with one, the network-optimized ones too.
      expect(plan.instanceType).toMatch(req.throughputMBps === undefined ? general[req.arch] : new RegExp(`${general[req.arch].source}|${fast[req.arch].source}`));
      expect(plan.throughput).toEqual(estimateThroughput(plan.instanceType, plan.dataVolumes));
      if (req.throughputMBps !== undefined) {
        expect(Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)).toBeGreaterThanOrEqual(req.throughputMBps);
      }
    }), { numRuns: 200 });
  });
});
