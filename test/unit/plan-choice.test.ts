/**
 * The choice under the side-by-side comparison: the cheapest row shown that holds the capacity and sustains the
 * throughput, EFS included. A property test enumerates FSx for OpenZFS and EFS options here, independently of the
 * planner, from figures typed from the guides and price data lib/sizing cites. The servers' and FSx for Lustre's rows
 * stand beside them.
 */
import * as fc from 'fast-check';
import { cheapestShown, compareBackends, formatChoice, planStorage } from '../../lib/sizing';
import { Backend } from '../../lib/backend-enum';

const MB_PER_MIB = 1.048576;
/** EFS's least published write per file system, 1 GiBps, in MB/s, alike for Elastic, Provisioned and Bursting. */
const EFS_WRITE_BOUND = 1024 * MB_PER_MIB;

/** [tier MB/s, network baseline MB/s, baseline disk IOPS] of SINGLE_AZ_1, the priced type, from the OpenZFS guide. */
const ZFS: [number, number, number][] = [
  [64, 200, 2500], [128, 400, 5000], [256, 800, 10000], [512, 1600, 20000],
  [1024, 3200, 40000], [2048, 6400, 80000], [3072, 9600, 120000], [4096, 12800, 160000],
];

/** Every FSx for OpenZFS SINGLE_AZ_1 tier and EFS mode for a request: [sustained MB/s, $/month, deployable]. */
function enumerated(capacityTiB: number, mbps: number): [number, number, boolean][] {
  const out: [number, number, boolean][] = [];
  const zfsGiB = Math.max(64, Math.ceil(capacityTiB * 1024));
  if (zfsGiB <= 524288) {
    for (const [tier, net, iops] of ZFS) {
      const extra = Math.max(0, Math.min(iops, 50 * zfsGiB) - 3 * zfsGiB);
      out.push([Math.min(tier, net), Math.round((zfsGiB * 0.09 + tier * 0.26 + extra * 0.006) * 100) / 100, true]);
    }
  }
  const efsGiB = Math.ceil(capacityTiB * 1024);
  const storage = efsGiB * 0.3;
  // Elastic: the rate moved all month, 730 h, half read at $0.03/GB and half written at $0.06/GB.
  out.push([EFS_WRITE_BOUND, Math.round((storage + ((mbps * 3600 * 730) / 1000) * 0.045) * 100) / 100, false]);
  if (mbps > 0) {
    const mib = Math.ceil(mbps / MB_PER_MIB);
    // Provisioned: billed above what Standard storage allows, 50 MiB/s per TiB stored.
    out.push([Math.min(mib * MB_PER_MIB, EFS_WRITE_BOUND), Math.round((storage + Math.max(0, mib - (50 * efsGiB) / 1024) * 6) * 100) / 100, false]);
  }
  out.push([Math.min((efsGiB / 1024) * 50 * MB_PER_MIB, EFS_WRITE_BOUND), Math.round(storage * 100) / 100, false]);
  return out;
}

describe('the choice over everything shown', () => {
  test('property: the choice is the cheapest that holds and sustains the request, of the enumerated OpenZFS and EFS options and the other rows', () => {
    const request = fc.record({
      capacityTiB: fc.double({ min: 0.01, max: 200, noNaN: true }),
      throughputMBps: fc.option(fc.integer({ min: 1, max: 6000 }), { nil: undefined }),
    });
    fc.assert(fc.property(request, (req) => {
      const rows = compareBackends(req);
      const mbps = req.throughputMBps ?? 0;
      // The servers' and FSx for Lustre's rows as the planner gives them; plan.test.ts checks their search.
      const others = rows.filter((r) => r.plan !== undefined && r.backend !== 'fsx-openzfs')
        .map((r) => [Math.min(r.plan?.throughput.baselineReadMBps ?? 0, r.plan?.throughput.baselineWriteMBps ?? 0), r.plan?.monthlyCostUsd ?? 0, true] as [number, number, boolean]);
      const meeting = [...enumerated(req.capacityTiB, mbps), ...others].filter(([s]) => s >= mbps - 0.005);
      const cost = (r: ReturnType<typeof cheapestShown>) => (r?.efs?.monthlyCostUsd ?? r?.plan?.monthlyCostUsd);
      const cheapest = meeting.length === 0 ? undefined : Math.min(...meeting.map(([, usd]) => usd));
      expect(cost(cheapestShown(req, rows))).toBeCloseTo(cheapest ?? NaN, 1);
      const deployable = meeting.filter(([, , d]) => d);
      const chosen = cheapestShown(req, rows, true);
      if (deployable.length > 0) expect(cost(chosen)).toBeCloseTo(Math.min(...deployable.map(([, usd]) => usd)), 1);
      expect(chosen?.efs).toBeUndefined();
    }), { numRuns: 300, examples: [[{ capacityTiB: 0.01, throughputMBps: undefined }], [{ capacityTiB: 2, throughputMBps: 500 }]] });
  });

  test('EFS cheapest (0.01 TiB, nothing asked: 11 GiB x $0.30 = $3.30): one answer, what cdk deploy builds; one line says why the cheaper plans are not it', () => {
    const request = { capacityTiB: 0.01 };
    const text = formatChoice(request, compareBackends(request), planStorage(request));
    expect(text).toBe([
      'Choice: ebs m4.xlarge at $151.63/month, what `cdk deploy` with backend auto builds; it holds 0.01 TiB.',
      // 64 GiB x $0.09 + 64 MB/s x $0.26 + (2500 - 3 x 64) IOPS x $0.006 = 5.76 + 16.64 + 13.848.
      'fsx-openzfs SINGLE_AZ_1/64 is cheaper at $36.25/month; auto keeps EC2 up to 43.65 TiB, so a deployed stack keeps its backend: ' +
        'pass backend fsx-openzfs (-c backend=fsx-openzfs) to build it. This project deploys no EFS: efs-elastic at $3.30/month is ' +
        "cheaper still (deploy it with aws-cdk-lib's aws_efs.FileSystem).",
    ].join('\n'));
  });

  test('a deployable choice that auto builds: one line', () => {
    const request = { capacityTiB: 2, throughputMBps: 500 };
    expect(formatChoice(request, compareBackends(request), planStorage(request))).toBe(
      'Choice: fsx-openzfs SINGLE_AZ_1/512 at $400.58/month, the cheapest plan shown that holds 2 TiB and sustains 500 MB/s; ' +
        '`cdk deploy` with backend auto builds it.',
    );
  });

  test('a backend asked for by name: the cheaper plan is not it because it was asked for', () => {
    const request = { capacityTiB: 10, backend: Backend.EBS };
    expect(formatChoice(request, compareBackends(request), planStorage(request)).split('\n')[1]).toBe(
      'fsx-lustre PERSISTENT_1/HDD/12 is cheaper at $300.00/month; you asked for backend ebs: pass backend fsx-lustre ' +
        '(-c backend=fsx-lustre) to build it.',
    );
  });

  test('only EFS cheaper: it says this project deploys no EFS and how to get one', () => {
    const request = { capacityTiB: 0.01, backend: Backend.FSX_OPENZFS };
    expect(formatChoice(request, compareBackends(request), planStorage(request))).toBe(
      'Choice: fsx-openzfs SINGLE_AZ_1/64 at $36.25/month, what `cdk deploy` with backend fsx-openzfs builds; it holds 0.01 TiB.\n' +
        "efs-elastic is cheaper at $3.30/month, but this project deploys no EFS: deploy it with aws-cdk-lib's aws_efs.FileSystem.",
    );
  });
});
