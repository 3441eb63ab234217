/**
 * The I/O-size term: each figure is also bounded by IOPS x request size, from AWS's IOPS figures in io-size.ts. It is
 * checked against cases worked out by hand: gp3 provisioned for the size; storage without published IOPS never claimed;
 * and the properties that no figure exceeds an IOPS bound it is made of, and that at 1 MiB no IOPS limit would lower a
 * figure.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { formatPlanTable, planStorage, withInstanceType } from '../../lib/sizing';
import { gp3VolumeFor } from '../../lib/sizing/catalog-gp3';
import { ebsPlan } from '../../lib/sizing/plan-ebs';
import { instanceTypeSpec } from '../../lib/sizing/catalog-lookup';
import { efsEstimates } from '../../lib/sizing/plan-efs';
import { iopsMBps, validateIoSize } from '../../lib/sizing/io-size';
import { planIops, withIoSize } from '../../lib/sizing/plan-io-size';
import type { StoragePlan, StorageRequest } from '../../lib/sizing/plan-types';
import { Backend } from '../../lib/backend-enum';
import { DataVolumeType, Generation } from '../../lib/sizing/enums';

/** An EBS plan of `volumes` on `type`, as the planner builds one. */
function ebs(type: string, volumes: StoragePlan['dataVolumes']): StoragePlan {
  return { ...ebsPlan(instanceTypeSpec(type), volumes), reason: 'by hand' };
}

describe('IOPS x request size, worked by hand', () => {
  test("gp3 at 4,000 IOPS moves at most 500 MiB/s = 524.288 MB/s (524.28, rounded down) in 128 KiB requests, whatever its 1,000 MiB/s throughput", () => {
    // m6i.8xlarge: EBS 10,000 Mbps = 1,250 MB/s and 40,000 IOPS x 128 KiB = 5,242.88 MB/s: neither binds.
    const plan = ebs('m6i.8xlarge', [{ volumeType: DataVolumeType.GP3, sizeGiB: 1000, throughputMiBps: 1000, iops: 4000 }]);
    expect(plan.throughput.baselineReadMBps).toBe(1048.57); // 1,000 MiB/s = 1,048.576 MB/s, rounded down
    const at128 = withIoSize(plan, 128);
    expect(at128.throughput).toMatchObject({ readMBps: 524.28, writeMBps: 524.28, baselineReadMBps: 524.28, burstWriteMBps: 524.28, ioSizeKiB: 128 });
    expect(at128.throughput.limitedBy).toBe('gp3 provisioned IOPS of 1 x 4,000 (up to 256 KiB each) at 128 KiB');
    expect(at128.reason).toBe('by hand; random 128 KiB requests: gp3 provisioned IOPS of 1 x 4,000 (up to 256 KiB each) at 128 KiB binds');
    // gp3 counts a request of more than 256 KiB as several. At 512 KiB it is still 4,000 x 256 KiB = 1,048.576 MB/s,
    // the provisioned 1,000 MiB/s exactly: a tie, stated rounded down, with the throughput still named.
    expect(withIoSize(plan, 512).throughput).toMatchObject({ readMBps: 1048.57, limitedBy: plan.throughput.limitedBy });
  });

  test('st1 counts each random request up to 1 MiB: 500 IOPS x 128 KiB = 65.536 MB/s (65.53) for a 3 TiB server', () => {
    const plan = planStorage({ capacityTiB: 3, backend: Backend.EBS, ioSizeKiB: 128 });
    expect(plan.throughput.baselineReadMBps).toBe(65.53);
    expect(plan.throughput.limitedBy).toBe('st1 IOPS of 1 x 500 (up to 1024 KiB each) at 128 KiB');
    // Three volumes: 1,500 IOPS x 64 KiB = 98.3 MB/s.
    expect(planStorage({ capacityTiB: 40, backend: Backend.EBS, ioSizeKiB: 64 }).throughput.baselineWriteMBps).toBe(98.3);
  });

  test("the instance's EBS IOPS bind when the volumes' do not: m4.xlarge 6,000 x 4 KiB = 24.576 MB/s (24.57) under 3 gp3 of 16,000", () => {
    const volume = { volumeType: DataVolumeType.GP3, sizeGiB: 100, throughputMiBps: 125, iops: 16000 };
    const plan = withIoSize(ebs('m4.xlarge', [volume, volume, volume]), 4);
    expect(plan.throughput.baselineReadMBps).toBe(24.57);
    expect(plan.throughput.limitedBy).toBe('EBS baseline IOPS of m4.xlarge (6,000) at 4 KiB');
  });

  test("a Nitro type's burst figure takes its maximum IOPS: m6i.large 3,600 baseline, 40,000 maximum, at 16 KiB", () => {
    const volume = { volumeType: DataVolumeType.GP3, sizeGiB: 200, throughputMiBps: 1000, iops: 80000 };
    const plan = withIoSize(ebs('m6i.large', [volume]), 16);
    expect(plan.throughput.baselineReadMBps).toBe(58.98); // 3,600 x 16,384 / 10^6
    expect(plan.throughput.burstReadMBps).toBe(655.36); // 40,000 x 16,384 / 10^6
  });

  test('FSx for OpenZFS: the provisioned SSD IOPS and the tier\'s disk IOPS x size', () => {
    const plan = planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { provisionedIops: 3072 }, ioSizeKiB: 4 });
    // The 64 MB/s tier's 2,500 disk IOPS x 4 KiB = 10.24 MB/s, under the 3,072 SSD IOPS' 12.58; memory reads keep the network rate.
    expect(plan.fsxOpenZfs?.throughputCapacityMBps).toBe(64);
    expect(plan.throughput.baselineReadMBps).toBe(10.24);
    expect(plan.throughput.limitedBy).toBe('baseline disk IOPS of the 64 MB/s tier (2,500) at 4 KiB');
    expect(withIoSize(planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { provisionedIops: 3072 } }), 4).throughput.baselineReadMBps).toBe(10.24);
    expect(plan.throughput.cachedRead?.readMBps).toBe(planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { provisionedIops: 3072 } }).throughput.cachedRead?.readMBps);
  });

  test("EFS Bursting: 7,000 write IOPS x 64 KiB = 458.75 MB/s under a 10 TiB file system's 524.29 MB/s baseline", () => {
    const bursting = efsEstimates(10, 0, undefined, 64).find((r) => r.mode === 'bursting')!.estimate!;
    expect(bursting.sustainedMBps).toBe(458.75);
    expect(bursting.limitedBy).toMatch(/^Bursting's 7,000 write IOPS at 64 KiB \(Bursting baseline/);
    // A throughput the IOPS cannot move: the mode cannot, and says why.
    const provisioned = efsEstimates(1, 700, undefined, 16).find((r) => r.mode === 'provisioned')!;
    expect(provisioned.cannot).toBe("700 MB/s is more than Provisioned's 25,000 write IOPS at 16 KiB move (409.6 MB/s)");
  });
});

describe('storage whose IOPS AWS does not publish', () => {
  test('instance store and FSx for Lustre keep their 1 MiB figures, marked an upper bound', () => {
    for (const request of [{ capacityTiB: 30, ioSizeKiB: 128 }, { capacityTiB: 10, backend: 'fsx-lustre', ioSizeKiB: 64 }] as StorageRequest[]) {
      const plan = planStorage(request);
      const at1MiB = planStorage({ ...request, ioSizeKiB: undefined });
      expect(plan.throughput).toMatchObject({ baselineReadMBps: at1MiB.throughput.baselineReadMBps, upperBoundAtIoSize: true });
      expect(plan.throughput.limitedBy).toMatch(/an upper bound for smaller random requests$/);
    }
  });

  test('the search never counts them as sustaining a throughput at a smaller size, and a forced one is refused', () => {
    // At 1 MiB the capacity rule's d2.8xlarge sustains 400 MB/s; in 64 KiB requests nothing published says it does.
    expect(planStorage({ capacityTiB: 30, throughputMBps: 400 }).instanceType).toBe('d2.8xlarge');
    const plan = planStorage({ capacityTiB: 30, throughputMBps: 400, ioSizeKiB: 64 });
    expect(['ebs', 'fsx-openzfs']).toContain(plan.backend);
    expect(plan.throughput.baselineReadMBps).toBeGreaterThanOrEqual(400);
    expect(() => planStorage({ capacityTiB: 10, backend: Backend.INSTANCE_STORE, throughputMBps: 400, generation: Generation.CURRENT, ioSizeKiB: 64 }))
      .toThrow(/^throughputMBps 400 in random 64 KiB requests \(ioSizeKiB\): AWS publishes no IOPS number for instance-store HDDs or FSx for Lustre, so no instance-store figure at that size can be claimed/);
  });
});

describe('the planner provisions for the size', () => {
  test('gp3 gets MiB/s x 1,024 / size IOPS (each request counted up to 256 KiB), at most 80,000', () => {
    expect(gp3VolumeFor(100, 500, 16)).toEqual({ volumeType: 'gp3', sizeGiB: 100, throughputMiBps: 477, iops: 30528 });
    expect(gp3VolumeFor(100, 500, 1024)).toEqual({ volumeType: 'gp3', sizeGiB: 100, throughputMiBps: 477, iops: 3000 });
    expect(gp3VolumeFor(100, 500, 4).iops).toBe(80000);
  });

  test('a gp3 plan searched for 16 KiB requests sustains the throughput asked at that size', () => {
    const plan = planStorage({ capacityTiB: 10, backend: Backend.EBS, throughputMBps: 400, generation: Generation.CURRENT, ioSizeKiB: 16 });
    expect(plan.dataVolumes[0].volumeType).toBe('gp3');
    expect(plan.throughput.baselineReadMBps).toBeGreaterThanOrEqual(400);
  });

  test('ioSizeKiB is checked: a whole number of KiB from 4 to 1,024', () => {
    for (const bad of [0, 3, 1025, 12.5, NaN, '128' as unknown as number]) {
      expect(() => planStorage({ capacityTiB: 1, ioSizeKiB: bad })).toThrow(/^ioSizeKiB must be a whole number of KiB from 4 to 1024/);
    }
    expect(validateIoSize(4)).toBe(4);
  });
});

describe('properties', () => {
  const requests = fc.record({
    capacityTiB: fc.double({ min: 0.5, max: 40, noNaN: true }),
    backend: fc.constantFrom<StorageRequest['backend']>(undefined, Backend.EBS, Backend.FSX_OPENZFS),
    generation: fc.constantFrom<StorageRequest['generation']>(Generation.PREVIOUS, Generation.CURRENT),
    throughputMBps: fc.option(fc.integer({ min: 50, max: 1500 }), { nil: undefined }),
  });
  const plan = (r: StorageRequest): StoragePlan | undefined => {
    try { return planStorage(r); } catch { return undefined; }
  };

  test('no figure exceeds any IOPS x size bound it is made of, nor its own 1 MiB figure', () => {
    fc.assert(fc.property(requests, fc.integer({ min: 4, max: 1023 }), (r, io) => {
      const p = plan({ ...r, ioSizeKiB: io });
      const full = plan(r);
      if (p === undefined || full === undefined || p.throughput.upperBoundAtIoSize) return;
      const limits = planIops(p);
      const t = p.throughput;
      for (const l of limits.baseline) {
        for (const f of [t.readMBps, t.writeMBps, t.baselineReadMBps, t.baselineWriteMBps]) expect(f).toBeLessThanOrEqual(iopsMBps(l, io));
      }
      for (const l of limits.burst) {
        for (const f of [t.burstReadMBps, t.burstWriteMBps]) expect(f).toBeLessThanOrEqual(iopsMBps(l, io));
      }
      if (p.instanceType === full.instanceType && p.dataVolumes.length === full.dataVolumes.length) {
        expect(p.throughput.readMBps).toBeLessThanOrEqual(full.throughput.readMBps);
      }
    }), { numRuns: 300 });
  });

  test('at 1 MiB no IOPS limit is below a figure: the plan is returned as the throughput model gives it', () => {
    fc.assert(fc.property(requests, (r) => {
      const p = plan(r);
      if (p === undefined) return;
      const limits = planIops(p);
      const t = p.throughput;
      for (const l of limits.baseline) expect(iopsMBps(l, 1024)).toBeGreaterThanOrEqual(Math.max(t.readMBps, t.writeMBps, t.baselineReadMBps, t.baselineWriteMBps));
      for (const l of limits.burst) expect(iopsMBps(l, 1024)).toBeGreaterThanOrEqual(Math.max(t.burstReadMBps, t.burstWriteMBps));
    }), { numRuns: 300 });
  });

  test('a figure that ties with an IOPS bound is not stated above it (found by an outside probe)', () => {
    // 3 gp3 volumes of 1,272 MiB/s and 5,088 IOPS: both give 4,001.366 MB/s at 1 MiB, IOPS counted up to 256 KiB;
    // 4,001.36 stated.
    const p = planStorage({ capacityTiB: 0.5, backend: Backend.EBS, throughputMBps: 4000, generation: Generation.CURRENT });
    expect(p.dataVolumes.map((v) => [v.throughputMiBps, v.iops])).toEqual([[1272, 5088], [1272, 5088], [1272, 5088]]);
    expect(p.throughput.baselineReadMBps).toBe(4001.36);
    expect(iopsMBps(planIops(p).baseline[0], 1024)).toBeGreaterThanOrEqual(p.throughput.readMBps);
  });

  test('withInstanceType keeps the request size\'s bound', () => {
    const p = planStorage({ capacityTiB: 3, backend: Backend.EBS, ioSizeKiB: 128 });
    expect(withInstanceType(p, 'm6i.2xlarge').throughput.baselineReadMBps).toBeLessThanOrEqual(65.53);
  });

  test('withInstanceType says the request size and the throughput asked once, for the type asked, not the planner\'s', () => {
    // 8 TiB at 100 MB/s in 255 KiB requests: st1's 500 IOPS bind on m4.4xlarge, at 127.5 MB/s sustained. On m4.xlarge
    // the 750 Mbps EBS link, 93.75 MB/s, binds first and no IOPS limit does.
    const p = planStorage({ capacityTiB: 8, throughputMBps: 100, ioSizeKiB: 255 });
    expect(p.reason).toMatch(/; random 255 KiB requests: st1 IOPS .* binds; it sustains the 100 MB\/s asked for$/);
    const reason = withInstanceType(p, 'm4.xlarge', 100).reason;
    expect(reason.match(/random \d+ KiB requests/g)).toHaveLength(1);
    expect(reason).toMatch(/; instanceType m4\.xlarge as asked \(the planner chose m4\.4xlarge\); random 255 KiB requests: no IOPS limit binds at 255 KiB; m4\.xlarge sustains 93\.75 MB\/s, less than the 100 MB\/s asked for$/);
    expect(reason).not.toMatch(/it sustains the 100/);
    expect(withInstanceType(p, 'm4.2xlarge', 100).reason).toMatch(/m4\.2xlarge sustains the 100 MB\/s asked for$/);
  });
});

describe('FSx for OpenZFS sized for the request size', () => {
  test('its cached read is marked an upper bound at a smaller size (no IOPS figure for reads from memory), not at 1 MiB', () => {
    const at1m = planStorage({ capacityTiB: 2, backend: Backend.FSX_OPENZFS });
    expect(at1m.throughput.cachedRead).toMatchObject({ readMBps: 200, burstReadMBps: 3200 });
    expect(at1m.throughput.cachedRead?.upperBoundAtIoSize).toBeUndefined();
    expect(formatPlanTable(at1m)).toMatch(/^cached read +200 MB\/s sustained, 3200 MB\/s burst/m);
    const at16 = planStorage({ capacityTiB: 2, backend: Backend.FSX_OPENZFS, ioSizeKiB: 16 });
    expect(at16.throughput.cachedRead).toMatchObject({ readMBps: 200, upperBoundAtIoSize: true });
    expect(at16.throughput.cachedRead?.limitedBy).toMatch(/; IOPS of reads from the servers' memory unpublished: an upper bound for smaller random requests$/);
    expect(formatPlanTable(at16)).toMatch(/^cached read +up to 200 MB\/s sustained, up to 3200 MB\/s burst/m);
    // FSx for Lustre's cached read too, beside its figures' own mark.
    expect(planStorage({ capacityTiB: 2.4, backend: Backend.FSX_LUSTRE, ioSizeKiB: 16 }).throughput.cachedRead?.upperBoundAtIoSize).toBe(true);
  });

  test('2 TiB at 400 MB/s: the 512 MB/s tier at 1 MiB; in 16 KiB requests its 20,000 disk IOPS move 327.68, so the 1024 tier', () => {
    expect(planStorage({ capacityTiB: 2, backend: Backend.FSX_OPENZFS, throughputMBps: 400 }).instanceType).toBe('SINGLE_AZ_1/512');
    const plan = planStorage({ capacityTiB: 2, backend: Backend.FSX_OPENZFS, throughputMBps: 400, ioSizeKiB: 16 });
    // 1024 tier: 40,000 disk IOPS, and 40,000 SSD IOPS provisioned, within 50 per GiB of 2,048: 40,000 x 16,384 =
    // 655.36 MB/s.
    expect(plan.instanceType).toBe('SINGLE_AZ_1/1024');
    expect(plan.fsxOpenZfs?.userProvisionedIops).toBe(40000);
    expect(plan.throughput.baselineReadMBps).toBe(655.36);
  });

  test('none sustains it at the size: the message names the size, the storage and the best (3,200 SSD IOPS, 50 per GiB of 64, x 4 KiB = 13.1072, 13.1)', () => {
    expect(() => planStorage({ capacityTiB: 0.0625, backend: Backend.FSX_OPENZFS, throughputMBps: 400, ioSizeKiB: 4 }))
      .toThrow(/^throughputMBps 400 is more than FSx for OpenZFS SINGLE_AZ_1 sustains in random 4 KiB requests on 64 GiB: its largest throughput capacity, 4096 MB\/s, sustains 13\.1 MB\/s/);
  });
});

describe("the README's table of small and random requests", () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Small and random requests'), readme.indexOf('## Deploying'));
  const rows = section.split('\n').filter((l) => /^\| `/.test(l)).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

  /** The request a row's command makes: `<capacity> [backend] [--generation g] [--throughput n]`. */
  function requestOf(command: string): StorageRequest {
    const words = command.replace(/`/g, '').split(/\s+/);
    const option = (name: string) => (words.includes(name) ? words[words.indexOf(name) + 1] : undefined);
    return {
      capacityTiB: Number(words[0]),
      backend: words[1]?.startsWith('--') ? undefined : words[1] as StorageRequest['backend'],
      generation: option('--generation') as StorageRequest['generation'],
      throughputMBps: option('--throughput') === undefined ? undefined : Number(option('--throughput')),
    };
  }

  test('each cell is what the planner gives at that size', () => {
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [command, ...cells] of rows) {
      cells.forEach((cell, i) => {
        const plan = planStorage({ ...requestOf(command), ioSizeKiB: [1024, 128, 16][i] });
        const sustained = Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps);
        const where = `${command} at ${[1024, 128, 16][i]} KiB: ${cell}`;
        expect({ where, mbps: cell.split(' ')[0] }).toEqual({ where, mbps: sustained.toFixed(0) });
        const gp3 = /gp3 at (\d+) IOPS/.exec(cell);
        if (gp3) expect({ where, iops: plan.dataVolumes.map((v) => v.iops) }).toEqual({ where, iops: plan.dataVolumes.map(() => Number(gp3[1])) });
        const tier = /SINGLE_AZ_1\/\d+/.exec(cell);
        if (tier) expect({ where, type: plan.instanceType }).toEqual({ where, type: tier[0] });
        const st1 = /(one|three) st1 volume/.exec(cell);
        if (st1) expect({ where, st1: plan.dataVolumes.filter((v) => v.volumeType === 'st1').length }).toEqual({ where, st1: st1[1] === 'one' ? 1 : 3 });
        if (cell.includes('(st1 IOPS)')) expect({ where, by: plan.throughput.limitedBy.startsWith('st1 IOPS') }).toEqual({ where, by: true });
      });
    }
  });
});

describe('a throughput asked at a size with the options fixed (found by an outside probe)', () => {
  test('a fixed OpenZFS tier that does not sustain it in the requests asked is refused, naming the tier and the size', () => {
    // 5,120 GiB SINGLE_AZ_1/1024 provisions 40,000 SSD IOPS: x 4 KiB = 163.84 MB/s, under the 1,000 asked.
    expect(() => planStorage({ capacityTiB: 5, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { throughputCapacityMBps: 1024 }, throughputMBps: 1000, ioSizeKiB: 4 }))
      .toThrow(/^fsxOpenZfs.throughputCapacityMBps 1024 with 40000 SSD IOPS sustains 163.84 MB\/s in random 4 KiB requests \(ioSizeKiB\), less than the throughputMBps 1000 asked/);
    // The same tier at 1 MiB sustains it.
    expect(planStorage({ capacityTiB: 5, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { throughputCapacityMBps: 1024 }, throughputMBps: 1000 }).instanceType).toBe('SINGLE_AZ_1/1024');
  });

  test('FSx for Lustre with its options given claims no throughput in smaller random requests', () => {
    const fsxLustre = { deploymentType: fsx.LustreDeploymentType.PERSISTENT_2, perUnitStorageThroughput: 250, storageType: fsx.StorageType.SSD };
    expect(() => planStorage({ capacityTiB: 10, backend: Backend.FSX_LUSTRE, fsxLustre, throughputMBps: 1000, ioSizeKiB: 64 }))
      .toThrow(/^throughputMBps 1000 in random 64 KiB requests \(ioSizeKiB\): AWS publishes no IOPS number for instance-store HDDs or FSx for Lustre, so no fsx-lustre figure/);
    expect(planStorage({ capacityTiB: 10, backend: Backend.FSX_LUSTRE, fsxLustre, ioSizeKiB: 64 }).throughput.upperBoundAtIoSize).toBe(true);
  });

  test('the reason names an IOPS limit that lowers only the burst figures', () => {
    // 512 GiB of st1 on m4.xlarge: baseline 20 MiB/s, burst 93.75 MB/s; 500 IOPS x 128 KiB = 65.53 MB/s lowers the burst alone.
    const plan = planStorage({ capacityTiB: 0.5, ioSizeKiB: 128 });
    expect(plan.throughput.burstReadMBps).toBe(65.53);
    expect(plan.reason).toMatch(/; random 128 KiB requests: st1 IOPS of 1 x 500 \(up to 1024 KiB each\) at 128 KiB binds$/);
  });
});
