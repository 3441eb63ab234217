/**
 * The planner's model terms, each against figures typed by hand from AWS's pages in docs/sources/lustre-performance.md
 * and [PERF] of lib/sizing/efs.ts. Reads from the FSx file servers' memory come at the network rate, beside the
 * disk-bound figure; one EFS client reaches what its limits allow; and no estimate exceeds a published limit it is made
 * of.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { planStorage } from '../../lib/sizing';
import { efsEstimates } from '../../lib/sizing/plan-efs';
import { FSX_LUSTRE_PERFORMANCE } from '../../lib/backends/fsx/sizing/lustre';
import { formatPlanTable } from '../../lib/sizing/plan-table';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { Backend } from '../../lib/backend-enum';

describe('FSx for Lustre: reads from the file servers\' memory', () => {
  test('PERSISTENT_2 125 at 14,400 GiB: disk 125 x 14.0625 = 1757.81 MB/s; memory 3.4 x 14.0625 = 47.81 GiB read at 320 x 14.0625 = 4500 MB/s', () => {
    const plan = planStorage({ capacityTiB: 12, backend: Backend.FSX_LUSTRE });
    expect(plan.throughput.baselineReadMBps).toBe(1757.81);
    expect(plan.throughput.cachedRead).toEqual({
      readMBps: 4500, burstReadMBps: 18281.25, cacheGiB: 47.81, limitedBy: expect.stringMatching(/^network of FSx for Lustre PERSISTENT_2\/SSD\/125 \(320 MB\/s per TiB baseline, 1300 burst\)/),
    });
    // Both are printed, each labelled.
    expect(formatPlanTable(plan)).toMatch(/\nsustained +1758 MB\/s \(every burst credit spent\)\n/);
    expect(formatPlanTable(plan)).toMatch(/\ncached read +4500 MB\/s sustained, 18281 MB\/s burst, for a working set within the servers' 47\.8 GiB of memory/);
  });

  test('PERSISTENT_2 1000 at 2,400 GiB: memory 27.3 x 2.34375 = 63.98 GiB at 2600 x 2.34375 = 6093.75 MB/s (network burst as baseline: AWS lists none)', () => {
    const plan = planStorage({ capacityTiB: 2, backend: Backend.FSX_LUSTRE, fsxLustre: { perUnitStorageThroughput: 1000 } });
    expect(plan.fsxLustre?.storageCapacityGiB).toBe(2400);
    expect(plan.throughput.cachedRead).toMatchObject({ readMBps: 6093.75, burstReadMBps: 6093.75, cacheGiB: 63.98 });
  });

  test('HDD 12 at 6,000 GiB: disk 12 x 5.859375 = 70.31 MB/s; memory 0.4 GiB per TiB = 2.34 GiB at 40 x 5.859375 = 234.37 MB/s (down to the cent)', () => {
    const plan = planStorage({ capacityTiB: 5, backend: Backend.FSX_LUSTRE, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD, perUnitStorageThroughput: 12 } });
    expect(plan.throughput.baselineReadMBps).toBe(70.31);
    expect(plan.throughput.cachedRead).toMatchObject({ readMBps: 234.37, cacheGiB: 2.34 });
  });

  test('property: the cached read is the network figure, faster than the disk-bound read, and within every published limit it is made of', () => {
    const keys = Object.keys(FSX_LUSTRE_PERFORMANCE);
    fc.assert(fc.property(fc.constantFrom(...keys), fc.integer({ min: 1, max: 200 }), (key, tib) => {
      const [deploymentType, storageType, perUnit] = key.split('/');
      const plan = planStorage({
        capacityTiB: tib, backend: Backend.FSX_LUSTRE,
        fsxLustre: { deploymentType: deploymentType as never, storageType: storageType as never, ...(deploymentType === 'SCRATCH_2' ? {} : { perUnitStorageThroughput: Number(perUnit) }) },
      });
      const perf = FSX_LUSTRE_PERFORMANCE[key];
      const storedTiB = (plan.fsxLustre?.storageCapacityGiB as number) / 1024;
      const c = plan.throughput.cachedRead;
      // Said only where the network is faster than the disk; SCRATCH_2, at 200 and 200 per TiB, has none.
      expect(c !== undefined).toBe(perf.networkBaselineMBpsPerTiB > perf.diskReadMBpsPerTiB);
      if (c === undefined) return;
      expect(c!.readMBps).toBeGreaterThan(plan.throughput.baselineReadMBps);
      expect(c!.readMBps).toBeLessThanOrEqual(perf.networkBaselineMBpsPerTiB * storedTiB);
      expect(c!.burstReadMBps).toBeLessThanOrEqual(perf.networkBurstMBpsPerTiB * storedTiB);
      expect(c!.cacheGiB).toBeLessThanOrEqual(perf.memoryGiBPerTiB * storedTiB);
      // The disk-bound figures stay what they were: the cache is beside them.
      expect(plan.throughput.baselineReadMBps).toBeLessThanOrEqual(Math.min(perf.diskReadMBpsPerTiB, perf.networkBaselineMBpsPerTiB) * storedTiB);
    }), { numRuns: 200 });
  });
});

describe('FSx for OpenZFS: reads from the file server\'s memory', () => {
  test('SINGLE_AZ_1 at 64 MB/s: disk 64, network 200 MB/s baseline and 3200 burst, 2 GB = 1.86 GiB of memory', () => {
    const plan = planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS });
    expect(plan.throughput.baselineReadMBps).toBe(64);
    expect(plan.throughput.cachedRead).toMatchObject({ readMBps: 200, burstReadMBps: 3200, cacheGiB: 1.86 });
  });
});

describe('EFS: what one client can reach', () => {
  test('Elastic 1,500 MiB/s = 1572.86 MB/s per client binds over 16 flows of 625 MB/s; Bursting 500 MiB/s = 524.28 MB/s', () => {
    const [elastic, provisioned, bursting] = efsEstimates(10, 500);
    expect(elastic.estimate?.perClient).toMatchObject({ maxMBps: 1572.86, limitedBy: "EFS Elastic's per-client limit, 1572.86 MB/s" });
    expect(provisioned.estimate?.perClient.maxMBps).toBe(524.28);
    expect(bursting.estimate?.perClient.maxMBps).toBe(524.28);
  });

  test('a client whose own network is less: m4.xlarge, 0.75 Gbps = 93.75 MB/s, binds', () => {
    const [elastic] = efsEstimates(10, 0, { instanceType: 'm4.xlarge' });
    expect(elastic.estimate?.perClient).toMatchObject({ maxMBps: 93.75, limitedBy: expect.stringMatching(/^the client's network baseline, m4\.xlarge: 0\.75 Gbps$/) });
  });

  test('one flow (nconnect=1, 625 MB/s) binds over Elastic\'s 1572.86', () => {
    const [elastic] = efsEstimates(10, 0, { nconnect: 1 });
    expect(elastic.estimate?.perClient.maxMBps).toBe(625);
  });

  test('property: one client never exceeds the mode\'s published per-client limit nor its own network', () => {
    fc.assert(fc.property(fc.double({ min: 0.1, max: 400, noNaN: true }), fc.integer({ min: 1, max: 16 }), (gbps, nconnect) => {
      for (const row of efsEstimates(5, 0, { networkGbps: gbps, nconnect })) {
        const c = row.estimate!.perClient;
        expect(c.maxMBps!).toBeLessThanOrEqual((row.mode === 'elastic' ? 1500 : 500) * 1.048576);
        expect(c.maxMBps!).toBeLessThanOrEqual(gbps * 125 + 1e-9);
      }
    }), { numRuns: 200 });
  });
});

describe('the README says what the planner says', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');

  test('the cached-read example: 12 TiB on PERSISTENT_2 SSD 125', () => {
    const plan = planStorage({ capacityTiB: 12, backend: Backend.FSX_LUSTRE });
    const c = plan.throughput.cachedRead!;
    expect(readme).toContain(`12 TiB on PERSISTENT_2 SSD 125 (${plan.fsxLustre?.storageCapacityGiB.toLocaleString('en-US')} GiB) sustains ` +
      `${plan.throughput.baselineReadMBps.toFixed(0)} MB/s from disk, and ${c.readMBps.toFixed(0)} MB/s for a working set within its ` +
      `${c.cacheGiB.toFixed(1)} GiB of memory`);
  });

  test('the EFS per-client figures', () => {
    const [elastic, , bursting] = efsEstimates(10, 500);
    expect(readme).toContain(`1,500 MiB/s on Elastic, ${elastic.estimate!.perClient.maxMBps!.toFixed(0)} MB/s; 500 MiB/s on Provisioned and ` +
      `Bursting, ${bursting.estimate!.perClient.maxMBps!.toFixed(0)} MB/s`);
  });
});


describe('FSx for Lustre: one file under the default layout', () => {
  test('PERSISTENT_2 125 at 14,400 GiB: an OST at most max(2, 2400/1024) = 2.34 TiB x 125 = 292.96 MB/s; 1 stripe under 1 GiB, 5 from 1 GiB', () => {
    const plan = planStorage({ capacityTiB: 12, backend: Backend.FSX_LUSTRE });
    expect(plan.perClient?.oneFile).toMatchObject({ ostMBps: 292.96, smallFileMBps: 292.96, largeFileMBps: 1464.84 });
    expect(plan.perClient?.oneFile?.limitedBy).toMatch(/^the default layout \(lfs setstripe -E 1G -c 1 -E -1 -c 5\)/);
    expect(plan.perClient?.oneFile?.limitedBy).toMatch(/lfs setstripe -c <count> \(-1: every OST\)/);
    expect(formatPlanTable(plan)).toMatch(/\none file +up to 1465 MB\/s from 1 GiB, 293 MB\/s under 1 GiB \(the default layout/);
  });

  test('HDD 12 at 6,000 GiB: an OST at most 5.86 TiB x 12 = 70.31 MB/s; five stripes 351.56, under the file system\'s 70.31 x 1', () => {
    const plan = planStorage({ capacityTiB: 5, backend: Backend.FSX_LUSTRE, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD, perUnitStorageThroughput: 12 } });
    expect(plan.fsxLustre?.storageCapacityGiB).toBe(6000);
    // The file system's sustained 12 x 5.86 = 70.31 MB/s binds every file: one OST's worth.
    expect(plan.perClient?.oneFile).toMatchObject({ ostMBps: 70.31, smallFileMBps: 70.31, largeFileMBps: 70.31 });
  });

  test('a file never moves more than the file system sustains, nor more than its stripes\' OSTs (property)', () => {
    fc.assert(fc.property(fc.double({ min: 1, max: 500, noNaN: true }), fc.constantFrom(125, 250, 500, 1000), (tib, perUnit) => {
      const plan = planStorage({ capacityTiB: tib, backend: Backend.FSX_LUSTRE, fsxLustre: { perUnitStorageThroughput: perUnit } });
      const f = plan.perClient!.oneFile!;
      const sustained = Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps);
      // One OST of PERSISTENT_2 SSD: at most max(2 TiB, its 2,400 GiB step) x MB/s per TiB.
      const ost = Math.max(2, 2400 / 1024) * perUnit;
      expect(f.largeFileMBps).toBeLessThanOrEqual(Math.min(sustained, 5 * ost));
      expect(f.smallFileMBps).toBeLessThanOrEqual(Math.min(sustained, ost));
      expect(f.ostMBps).toBeLessThanOrEqual(ost);
    }), { numRuns: 200 });
  });

  test('NFS plans carry no one-file figure: one server serves every file', () => {
    expect(planStorage({ capacityTiB: 5 }).perClient?.oneFile).toBeUndefined();
  });
});
