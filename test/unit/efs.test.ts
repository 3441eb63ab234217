/**
 * The EFS catalogue, for the planner only: its figures as the EFS guide and AWS's price data give them, the estimates
 * for a request checked by hand, and that `planStorage` never plans EFS.
 */
import { EFS_MODE_LIMITS, EFS_STORAGE_USD_PER_GB_MONTH, planStorage } from '../../lib/sizing';
import {
  EFS_BURSTING_BASELINE_MIBPS_PER_TIB, EFS_BURSTING_MIN_BURST_MIBPS, EFS_ELASTIC_READ_USD_PER_GB, EFS_ELASTIC_WRITE_USD_PER_GB,
  EFS_MAX_PROVISIONED_MIBPS, EFS_PROVISIONED_USD_PER_MBPS_MONTH,
} from '../../lib/sizing/efs';
import { efsEstimates } from '../../lib/sizing/plan-efs';

describe('the EFS catalogue, as cited', () => {
  test('storage classes, us-east-1, per GB-month (AWS price data, aws-price-watcher processed/efs.json)', () => {
    expect(EFS_STORAGE_USD_PER_GB_MONTH).toEqual({ STANDARD: 0.3, INFREQUENT_ACCESS: 0.025, ARCHIVE: 0.008, ONE_ZONE: 0.16, ONE_ZONE_IA: 0.0133 });
  });

  test('throughput prices: Elastic $0.03 per GB read, $0.06 per GB written; Provisioned $6.00 per MB/s-month', () => {
    expect([EFS_ELASTIC_READ_USD_PER_GB, EFS_ELASTIC_WRITE_USD_PER_GB, EFS_PROVISIONED_USD_PER_MBPS_MONTH]).toEqual([0.03, 0.06, 6]);
  });

  test('limits per file system and per client (EFS guide, performance table), Bursting\'s per-TiB figures, the provisioning range', () => {
    expect(EFS_MODE_LIMITS).toEqual({
      elastic: { readGiBps: [20, 60], writeGiBps: [1, 5], perClientMiBps: 1500 },
      provisioned: { readGiBps: [3, 10], writeGiBps: [1, 3.33], perClientMiBps: 500 },
      bursting: { readGiBps: [3, 5], writeGiBps: [1, 3], perClientMiBps: 500 },
    });
    expect([EFS_BURSTING_BASELINE_MIBPS_PER_TIB, EFS_BURSTING_MIN_BURST_MIBPS, EFS_MAX_PROVISIONED_MIBPS]).toEqual([50, 100, 3414]);
  });
});

describe('the EFS estimates for a request', () => {
  test('2 TiB at 500 MB/s: Elastic priced as 500 MB/s all month, Provisioned 477 MiB/s, Bursting cannot', () => {
    const [elastic, provisioned, bursting] = efsEstimates(2, 500);
    // Storage: 2048 GiB x $0.30 = $614.40. Elastic: 500 MB/s x 3600 s x 730 h = 1,314,000 GB, half read at $0.03 and
    // half written at $0.06: $59,130.
    expect(elastic.estimate).toMatchObject({ mode: 'elastic', storageGiB: 2048, storageUsd: 614.4, monthlyCostUsd: 59744.4, sustainedMBps: 1073.74 });
    expect(elastic.estimate?.limitedBy).toMatch(/a bound; priced as 500 MB\/s moved all month, half read \(\$0\.03\/GB\), half write \(\$0\.06\/GB\); storage alone \$614\.40$/);
    // ceil(500 / 1.048576) = 477 MiB/s, billed above the 100 MiB/s 2 TiB of Standard storage allows: 377 x $6 = $2262,
    // + $614.40.
    expect(provisioned.estimate).toMatchObject({ mode: 'provisioned', provisionedMiBps: 477, monthlyCostUsd: 2876.4, sustainedMBps: 500.17 });
    // 2 TiB x 50 MiB/s = 104.8576 MB/s, stated 104.85, rounded down; 500 MB/s needs 500 / 52.4288 = 9.54 TiB.
    expect(bursting).toEqual({ mode: 'bursting', cannot: "Bursting's baseline for 2 TiB is 104.85 MB/s (50 MiB/s per TiB stored); 500 MB/s needs 9.54 TiB stored" });
  });

  test('no throughput asked: Elastic is storage only, with its transfer rates said; no Provisioned row; Bursting with its baseline', () => {
    const rows = efsEstimates(10);
    expect(rows.map((r) => r.mode)).toEqual(['elastic', 'bursting']);
    expect(rows[0].estimate).toMatchObject({ monthlyCostUsd: 3072, storageUsd: 3072 });
    expect(rows[0].estimate?.limitedBy).toMatch(/storage only: transfers extra, \$0\.03\/GB read, \$0\.06\/GB written$/);
    // 10 TiB x 50 MiB/s = 524.288 MB/s sustained, bursting to 10 x 100 MiB/s = 1048.576 MB/s, each rounded down.
    expect(rows[1].estimate).toMatchObject({ sustainedMBps: 524.28, burstMBps: 1048.57, monthlyCostUsd: 3072 });
  });

  test('beyond the least published write per file system (1 GiBps): Elastic and Provisioned cannot, and say the bound', () => {
    const rows = efsEstimates(10, 1100);
    expect(rows.map((r) => r.cannot)).toEqual([
      '1100 MB/s is more than EFS Elastic is published to sustain in every Region (1073.74 MB/s write per file system)',
      '1100 MB/s is more than EFS Provisioned is published to sustain in every Region (1073.74 MB/s write per file system)',
      expect.stringMatching(/^Bursting's baseline for 10 TiB is 524\.28 MB\/s/),
    ]);
  });

  test('planStorage never plans EFS: there is no efs backend', () => {
    expect(() => planStorage({ capacityTiB: 1, backend: 'efs' as never })).toThrow(/^backend must be one of 'auto', 'ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'; got "efs"/);
  });
});
