/**
 * The FSx for OpenZFS plan: the tier chosen, the sustained figure and what binds it, the burst, the SSD IOPS
 * provisioned and the monthly cost, each checked against figures typed by hand from the guide and the price list.
 */
import { planStorage } from '../../lib/sizing';
import { cheapestMeeting } from '../../lib/sizing/cheapest-plan';
import { FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';
import { Backend } from '../../lib/backend-enum';

describe('backend fsx-openzfs', () => {
  test('1 TiB, nothing asked: SINGLE_AZ_1 at 64 MB/s, automatic IOPS, 1024 x $0.09 + 64 x $0.26 = $108.80', () => {
    const plan = planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS });
    expect(plan.instanceType).toBe('SINGLE_AZ_1/64');
    // 3 IOPS per GiB x 1024 = 3072, above the 64 MB/s tier's 2,500: nothing provisioned.
    expect(plan.fsxOpenZfs).toEqual({ deploymentType: 'SINGLE_AZ_1', throughputCapacityMBps: 64, storageCapacityGiB: 1024 });
    expect(plan.monthlyCostUsd).toBe(108.8);
    // Disk 64 baseline / 1024 burst, network 200 / 3200: the disk binds both.
    expect(plan.throughput).toMatchObject({ baselineReadMBps: 64, baselineWriteMBps: 64, burstReadMBps: 1024, burstWriteMBps: 1024, readMBps: 64 });
    expect(plan.throughput.limitedBy).toMatch(/^disk throughput baseline of FSx for OpenZFS SINGLE_AZ_1 at 64 MB\/s throughput capacity \(64 MB\/s\)/);
    expect(plan.reason).toMatch(/^backend fsx-openzfs, SINGLE_AZ_1 at 64 MB\/s \(the smallest\); AWS price list \(us-east-1\) as infracost quotes it/);
  });

  test('4 TiB at 1000 MB/s: the 1024 tier, its 40,000 IOPS provisioned: 4096 x 0.09 + 1024 x 0.26 + (40000 - 12288) x 0.006 = $801.15', () => {
    const plan = planStorage({ capacityTiB: 4, backend: Backend.FSX_OPENZFS, throughputMBps: 1000 });
    expect(plan.fsxOpenZfs).toEqual({ deploymentType: 'SINGLE_AZ_1', throughputCapacityMBps: 1024, storageCapacityGiB: 4096, userProvisionedIops: 40000 });
    expect(plan.monthlyCostUsd).toBe(801.15);
    // 1,024 has no burst in the guide: burst = baseline.
    expect([plan.throughput.baselineReadMBps, plan.throughput.burstReadMBps]).toEqual([1024, 1024]);
    expect(plan.reason).toMatch(/SINGLE_AZ_1 at 1024 MB\/s \(the smallest that sustains 1000 MB\/s\)/);
  });

  test('under 64 GiB: the 64 GiB minimum', () => {
    expect(planStorage({ capacityTiB: 0.05, backend: Backend.FSX_OPENZFS }).fsxOpenZfs?.storageCapacityGiB).toBe(64);
  });

  test('SINGLE_AZ_2 at 3000 MB/s: the 3840 tier, shown at SINGLE_AZ_1\'s rates and labelled unpriced', () => {
    const plan = planStorage({ capacityTiB: 2, backend: Backend.FSX_OPENZFS, throughputMBps: 3000, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2 } });
    expect(plan.instanceType).toBe('SINGLE_AZ_2/3840');
    // IOPS min(150000, 50 x 2048 = 102400); 2048 x 0.09 + 3840 x 0.26 + (102400 - 6144) x 0.006 = 184.32 + 998.40 + 577.536.
    expect(plan.monthlyCostUsd).toBe(1760.26);
    expect(plan.reason).toMatch(/unpriced: SINGLE_AZ_2's us-east-1 rates were in no source read; shown at SINGLE_AZ_1's rates, not a price/);
  });

  test('MULTI_AZ_1: writes at 10,240 MB/s held to 7,500, so 8,000 MB/s is refused naming the largest tier; 7,000 takes 7,680', () => {
    const multi = { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1 };
    expect(planStorage({ capacityTiB: 10, backend: Backend.FSX_OPENZFS, throughputMBps: 7000, fsxOpenZfs: multi }).instanceType).toBe('MULTI_AZ_1/7680');
    const top = planStorage({ capacityTiB: 10, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { ...multi, throughputCapacityMBps: 10240 } });
    expect([top.throughput.baselineReadMBps, top.throughput.baselineWriteMBps]).toEqual([10240, 7500]);
    expect(top.throughput.limitedBy).toMatch(/writes held to 7500 MB\/s \(AWS's Multi-AZ note\)/);
    expect(() => planStorage({ capacityTiB: 10, backend: Backend.FSX_OPENZFS, throughputMBps: 8000, fsxOpenZfs: multi }))
      .toThrow(/^throughputMBps 8000 is more than FSx for OpenZFS MULTI_AZ_1 sustains: its largest throughput capacity, 10240 MB\/s, sustains 7500 MB\/s/);
  });

  test('a throughput above the default type\'s largest tier: an error naming it (4096 MB/s)', () => {
    expect(() => planStorage({ capacityTiB: 10, backend: Backend.FSX_OPENZFS, throughputMBps: 5000 }))
      .toThrow(/^throughputMBps 5000 is more than FSx for OpenZFS SINGLE_AZ_1 sustains: its largest throughput capacity, 4096 MB\/s/);
  });

  test('a tier asked for below the throughput asked: refused, naming fsxOpenZfs.throughputCapacityMBps and the tiers', () => {
    expect(() => planStorage({ capacityTiB: 1, backend: Backend.FSX_OPENZFS, throughputMBps: 300, fsxOpenZfs: { throughputCapacityMBps: 256 } }))
      .toThrow(/^fsxOpenZfs\.throughputCapacityMBps 256 sustains 256 MB\/s, less than the throughputMBps 300 asked; SINGLE_AZ_1 offers 64, 128, 256, 512, 1024, 2048, 3072, 4096$/);
  });

  test('SSD IOPS held to 50 per GiB, the least any Region allows: 64 GiB at SINGLE_AZ_2 10,240 gets 3,200 of the tier\'s 400,000, and says so', () => {
    const plan = planStorage({ capacityTiB: 0.0625, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2, throughputCapacityMBps: 10240 } });
    expect(plan.fsxOpenZfs?.userProvisionedIops).toBe(3200);
    expect(plan.throughput.limitedBy).toMatch(/SSD IOPS held to 50 per GiB, the least any Region allows \(3200 of the tier's 400000\)/);
  });
});

// OPENZFS-IOPS-WITH-THROUGHPUT: IOPS pinned so that a throughput change need not change them in the same deploy.
describe('fsxOpenZfs.provisionedIops', () => {
  const at = (provisionedIops: number, capacityTiB = 4) =>
    planStorage({ capacityTiB, backend: Backend.FSX_OPENZFS, throughputMBps: 1000, fsxOpenZfs: { provisionedIops } });

  test('pinned below the tier\'s: provisioned as asked, costed, and the figure says so', () => {
    const plan = at(20000);
    expect(plan.fsxOpenZfs).toEqual({ deploymentType: 'SINGLE_AZ_1', throughputCapacityMBps: 1024, storageCapacityGiB: 4096, userProvisionedIops: 20000 });
    // 4096 x 0.09 + 1024 x 0.26 + (20000 - 12288) x 0.006 = 368.64 + 266.24 + 46.272
    expect(plan.monthlyCostUsd).toBe(681.15);
    expect(plan.throughput.limitedBy).toMatch(/SSD IOPS 20000 as asked, of the tier's 40000/);
  });

  test('0 is AUTOMATIC, even where the tier\'s IOPS would be provisioned', () => {
    expect(at(0).fsxOpenZfs).toEqual({ deploymentType: 'SINGLE_AZ_1', throughputCapacityMBps: 1024, storageCapacityGiB: 4096 });
  });

  test('OPENZFS-IOPS, the edges: 3 per GiB and 50 per GiB held to the type\'s largest tier', () => {
    expect(at(12288).fsxOpenZfs?.userProvisionedIops).toBe(12288);
    expect(at(160000, 4).fsxOpenZfs?.userProvisionedIops).toBe(160000);
    expect(at(3200, 0.0625).fsxOpenZfs?.userProvisionedIops).toBe(3200);
  });

  test.each([
    [12287, 4, /must be 0 \(AUTOMATIC\) or from 12288 \(3 per GiB of 4096 GiB\) to 160000 \(50 per GiB, at most 160000 on SINGLE_AZ_1\); got 12287/],
    [160001, 4, /to 160000 .*got 160001/],
    [3201, 0.0625, /from 192 \(3 per GiB of 64 GiB\) to 3200 .*got 3201/],
    [1.5, 4, /fsxOpenZfs\.provisionedIops must be a whole number of SSD IOPS, or 0 for AUTOMATIC; got 1\.5/],
    [-1, 4, /fsxOpenZfs\.provisionedIops must be a whole number/],
  ])('%d IOPS on %d TiB: refused, naming the prop, the key and the range', (iops, tib, message) => {
    expect(() => at(iops, tib)).toThrow(message);
  });
});

describe('auto and FSx for OpenZFS', () => {
  test('without a throughput the capacity rule stays: never FSx for OpenZFS, at any size', () => {
    for (const capacityTiB of [0.01, 0.5, 1, 2, 5, 10, 16, 20, 40, 50, 100, 200, 500]) expect(planStorage({ capacityTiB }).backend).not.toBe('fsx-openzfs');
  });

  test('the search weighs FSx for OpenZFS only for a throughput: beyond the capacity rule without one, it has no candidate', () => {
    expect(() => cheapestMeeting(100, ['fsx-openzfs'], 0, 'why')).toThrow(/^throughputMBps 0 is more than any single fsx-openzfs server sustains/);
    expect(cheapestMeeting(100, ['fsx-openzfs'], 100, 'why').instanceType).toBe('SINGLE_AZ_1/128');
  });

  test('with a throughput the search weighs it: 2 TiB at 500 MB/s is SINGLE_AZ_1 at 512 MB/s ($400.58)', () => {
    // 2048 x 0.09 + 512 x 0.26 + (20000 - 6144) x 0.006 = 184.32 + 133.12 + 83.136.
    const plan = planStorage({ capacityTiB: 2, throughputMBps: 500 });
    expect([plan.backend, plan.instanceType, plan.monthlyCostUsd]).toEqual(['fsx-openzfs', 'SINGLE_AZ_1/512', 400.58]);
    expect(plan.reason).toMatch(/^the cheapest plan that holds 2 TiB and sustains 500 MB\/s/);
  });
});
