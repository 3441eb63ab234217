/**
 * The FSx for OpenZFS catalogue: the figures as AWS's guide and price list give them, typed here from the sources
 * lib/backends/openzfs/sizing/catalog.ts cites; the tiers of each deployment type as the API reference lists them; and
 * every tier of every type a deployable plan.
 */
import { FSX_OPENZFS_DEPLOYMENT_TYPES, FSX_OPENZFS_THROUGHPUT_CAPACITIES, FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';
import { FSX_OPENZFS_TIERS } from '../../lib/backends/openzfs/sizing/catalog';
import { planStorage } from '../../lib/sizing';
import {
  FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB, FSX_OPENZFS_MAX_IOPS_PER_GIB, FSX_OPENZFS_PRICED, FSX_OPENZFS_SINGLE_AZ_1_PRICES,
} from '../../lib/backends/openzfs/sizing/catalog';
import { Backend } from '../../lib/backend-enum';

// API reference, CreateFileSystemOpenZFSConfiguration.ThroughputCapacity and DeploymentType: OPENZFS-TIERS.
const GEN1 = [64, 128, 256, 512, 1024, 2048, 3072, 4096];
// OPENZFS-HA1-TIERS: the OpenZFS guide's "Modifying throughput capacity" lists "Single-AZ 1 (HA) – 128, 256, 512, 1024,
// 2048, 3072, 4096".
const HA1 = [128, 256, 512, 1024, 2048, 3072, 4096];
const GEN2 = [160, 320, 640, 1280, 2560, 3840, 5120, 7680, 10240];

describe('the tiers of each deployment type', () => {
  test.each([
    ['SINGLE_AZ_1', GEN1], ['SINGLE_AZ_HA_1', HA1], ['SINGLE_AZ_2', GEN2], ['SINGLE_AZ_HA_2', GEN2], ['MULTI_AZ_1', GEN2],
  ] as const)('%s: the API reference\'s throughput capacities, the catalogue\'s and the options\' alike', (type, tiers) => {
    expect(FSX_OPENZFS_TIERS[type].map((t) => t.throughputCapacityMBps)).toEqual(tiers);
    expect(FSX_OPENZFS_THROUGHPUT_CAPACITIES[type]).toEqual(tiers);
  });
});

describe('the figures, as the FSx for OpenZFS guide gives them (performance-ssd.html)', () => {
  // [tier, memory GB, L2ARC GB, network baseline, network burst, disk baseline, disk burst, IOPS baseline, IOPS burst].
  // A table's "–", no burst, is the baseline.
  test.each([
    ['SINGLE_AZ_1', [64, 2, undefined, 200, 3200, 64, 1024, 2500, 40000]],
    ['SINGLE_AZ_1', [512, 16, undefined, 1600, 3200, 512, 1024, 20000, 40000]],
    ['SINGLE_AZ_1', [1024, 32, undefined, 3200, 3200, 1024, 1024, 40000, 40000]],
    ['SINGLE_AZ_1', [4096, 128, undefined, 12800, 12800, 4096, 4096, 160000, 160000]],
    ['SINGLE_AZ_HA_1', [256, 8, undefined, 800, 3200, 256, 1024, 10000, 40000]],
    ['SINGLE_AZ_2', [160, 8, 40, 375, 3125, 160, 3125, 6250, 100000]],
    ['SINGLE_AZ_2', [1280, 64, 320, 3125, 6250, 1280, 3125, 50000, 100000]],
    ['SINGLE_AZ_2', [10240, 512, 2560, 21000, 21000, 10240, 10240, 400000, 400000]],
    ['SINGLE_AZ_HA_2', [3840, 192, 960, 9375, 9375, 3840, 3840, 150000, 150000]],
    ['MULTI_AZ_1', [320, 16, undefined, 775, 3750, 320, 3125, 12500, 100000]],
    ['MULTI_AZ_1', [7680, 384, undefined, 18750, 18750, 7680, 7680, 300000, 300000]],
  ] as const)('%s %p', (type, [tier, mem, l2arc, net, netBurst, disk, diskBurst, iops, iopsBurst]) => {
    const t = FSX_OPENZFS_TIERS[type].find((x) => x.throughputCapacityMBps === tier);
    expect(t).toEqual({
      throughputCapacityMBps: tier, memoryGB: mem, ...(l2arc === undefined ? {} : { l2arcGB: l2arc }), networkBaselineMBps: net,
      networkBurstMBps: netBurst, diskBaselineMBps: disk, diskBurstMBps: diskBurst, diskIops: iops, diskBurstIops: iopsBurst,
    });
  });

  test('Multi-AZ at 10,240 MB/s: writes held to 7,500 MB/s (the page\'s note), and no other tier of any type is', () => {
    const capped = FSX_OPENZFS_DEPLOYMENT_TYPES.flatMap((d) => FSX_OPENZFS_TIERS[d].filter((t) => t.diskWriteMBps !== undefined).map((t) => [d, t.throughputCapacityMBps, t.diskWriteMBps]));
    expect(capped).toEqual([['MULTI_AZ_1', 10240, 7500]]);
  });

  test('disk baseline = the throughput capacity, on every tier ("equivalent to the baseline throughput capacity")', () => {
    for (const d of FSX_OPENZFS_DEPLOYMENT_TYPES) for (const t of FSX_OPENZFS_TIERS[d]) expect(t.diskBaselineMBps).toBe(t.throughputCapacityMBps);
  });

  test('OPENZFS-IOPS: 3 per GB automatic, at most 50 per GiB provisioned (1,000 in us-east-1; 50 the least any Region allows)', () => {
    expect([FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB, FSX_OPENZFS_MAX_IOPS_PER_GIB]).toEqual([3, 50]);
  });

  test('prices: SINGLE_AZ_1 in us-east-1 as infracost quotes the price list ($266.24 for 1,024 MBps, $27.00 for 300 GB, $0.60 for 100 IOPS)', () => {
    const p = FSX_OPENZFS_SINGLE_AZ_1_PRICES;
    expect([p.throughputUsdPerMBpsMonth * 1024, p.ssdUsdPerGbMonth * 300, p.iopsUsdPerIopsMonth * 100, p.backupUsdPerGbMonth].map((x) => Math.round(x * 100) / 100))
      .toEqual([266.24, 27, 0.6, 0.05]);
    expect(FSX_OPENZFS_PRICED).toEqual(['SINGLE_AZ_1']);
  });
});

describe('every tier of every type is deployable', () => {
  const cases = FSX_OPENZFS_DEPLOYMENT_TYPES.flatMap((d) => FSX_OPENZFS_TIERS[d].map((t) => [d, t.throughputCapacityMBps] as const));
  test.each(cases)('%s at %p MB/s: a plan of that type and tier, storage 64-524,288 GiB', (deploymentType, tier) => {
    for (const capacityTiB of [0.01, 1, 512]) {
      const plan = planStorage({ capacityTiB, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { deploymentType, throughputCapacityMBps: tier } });
      expect(plan.fsxOpenZfs).toMatchObject({ deploymentType, throughputCapacityMBps: tier });
      const gib = plan.fsxOpenZfs?.storageCapacityGiB as number;
      expect(gib).toBeGreaterThanOrEqual(64);
      expect(gib).toBeLessThanOrEqual(524288);
      expect(gib).toBeGreaterThanOrEqual(capacityTiB * 1024);
      const iops = plan.fsxOpenZfs?.userProvisionedIops;
      if (iops !== undefined) expect(iops).toBeLessThanOrEqual(1000 * gib);
    }
  });

  test.each([
    // OPENZFS-STORAGE-RANGE
    [{ capacityTiB: 512.01, backend: Backend.FSX_OPENZFS }, /^capacityTiB 512\.01 \(number\) is more than an FSx for OpenZFS file system holds: storage 64-524288 GiB/],
    [{ capacityTiB: 1, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { deploymentType: 'SINGLE_AZ_3' as never } },
      /^fsxOpenZfs\.deploymentType must be one of SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2, MULTI_AZ_1; got "SINGLE_AZ_3"/],
    [{ capacityTiB: 1, backend: Backend.FSX_OPENZFS, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2, throughputCapacityMBps: 128 } },
      /^fsxOpenZfs\.throughputCapacityMBps must be one of 160, 320, 640, 1280, 2560, 3840, 5120, 7680, 10240 for SINGLE_AZ_2; got 128/],
  ])('refused, naming the field and the allowed values: %p', (request, message) => {
    expect(() => planStorage(request)).toThrow(message);
  });
});
