import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import {
  BackendComparison, CURRENT_INSTANCE_STORE_TYPES, DataVolumePlan, Generation, StoragePlan, StorageRequest, bestPlanOf, compareBackends, estimateThroughput, formatBackendComparison,
  formatPlanTable, instanceStoreTiB, instanceTypeSpec, planStorage,
} from '../../lib/sizing';
import { Backend, backendOf } from '../../lib/backend-enum';
import { Arch } from '../../lib/sizing/enums';

const root = path.join(__dirname, '..', '..');

describe('formatPlanTable', () => {
  test('EBS plan: instance, volumes, capacity, throughput with its limit, cost', () => {
    expect(formatPlanTable(planStorage({ capacityTiB: 10 }))).toBe([
      'backend       ebs',
      'instance      m4.4xlarge',
      'volumes       1 x st1 (10240 GiB)',
      'raw capacity  10.00 TiB',
      'read          250 MB/s',
      'write         250 MB/s',
      'limited by    EBS bandwidth of m4.4xlarge (2000 Mbps) and network baseline of m4.4xlarge (2 Gbps)',
      'sustained     250 MB/s (every burst credit spent)',
      'burst         250 MB/s (full burst credits)',
      // 16 connections x 5 Gbps (EC2's single-flow limit) = 80 Gbps = 10,000 MB/s.
      "one client    up to 10000 MB/s (limited by nconnect=16: 16 TCP flows x 5 Gbps, outside a cluster placement group; a bound, not a measured figure; the client's own network not counted: give its type)",
      'clients       1 such client to move the sustained 250 MB/s',
      'cost          $1044.80/month (on demand, us-east-1, 730 h)',
      "why           auto: up to 16 TiB, one st1 volume on the original template's m4 tier",
    ].join('\n'));
  });

  test("one client beside the aggregate: the client's type bounds it, and the count of clients follows", () => {
    // m4.xlarge clients: 0.75 Gbps = 93.75 MB/s each; d2.8xlarge (40 TiB) sustains 1250 MB/s: ceil(13.3) = 14.
    const table = formatPlanTable(planStorage({ capacityTiB: 40, client: { instanceType: 'm4.xlarge' } }));
    expect(table).toMatch(/^one client +up to 94 MB\/s \(limited by the client's network baseline, m4\.xlarge: 0\.75 Gbps; a bound, not a measured figure\)\nclients +14 such clients to move the sustained 1250 MB\/s$/m);
    // FSx for Lustre without the client's type: no bound, said, and no count.
    const lustre = formatPlanTable(planStorage({ capacityTiB: 100, backend: Backend.FSX_LUSTRE }));
    expect(lustre).toMatch(/^one client +no bound counted: FSx for Lustre: nconnect does not apply/m);
    expect(lustre).not.toMatch(/^clients /m);
    // A plan made without the planner has no perClient: no rows.
    expect(formatPlanTable({ ...planStorage({ capacityTiB: 10 }), perClient: undefined })).not.toMatch(/^one client/m);
  });

  test('sustained and burst: a stripe of smaller st1 volumes bursts above what it sustains', () => {
    // 15 TiB as 3 x 5 TiB st1 on m4.16xlarge: 3 x 200 MiB/s baseline (40 per TiB); the burst, 3 x 500 MiB/s,
    // is held to the instance's EBS bandwidth (10000 Mbps).
    const table = formatPlanTable(planStorage({ capacityTiB: 15, backend: Backend.EBS, dataVolumeCount: 3 }));
    expect(table).toMatch(/^sustained +629 MB\/s \(every burst credit spent\)\nburst +1250 MB\/s \(full burst credits\)$/m);
    // Volumes of 12.5 TiB and more reach st1's 500 MiB/s cap at their baseline: nothing left to burst.
    const large = formatPlanTable(planStorage({ capacityTiB: 30, backend: Backend.EBS }));
    expect(large).toMatch(/^sustained +1049 MB\/s .*\nburst +1049 MB\/s/m);
  });

  test('striped EBS and instance-store plans say so', () => {
    expect(formatPlanTable(planStorage({ capacityTiB: 30, backend: Backend.EBS }))).toMatch(/volumes +2 x st1 \(15360 GiB, 15360 GiB\), striped/);
    expect(formatPlanTable(planStorage({ capacityTiB: 20 }))).toMatch(/disks +12 x 2 TB instance-store HDD, striped \(lost on stop\/terminate\)/);
    // d3en's disks are 13980 GB and d3's 1980 GB, per the EC2 User Guide's instance store table.
    expect(formatPlanTable(planStorage({ capacityTiB: 20, generation: Generation.CURRENT }))).toMatch(/disks +2 x 13\.98 TB instance-store HDD, striped/);
    expect(formatPlanTable(planStorage({ capacityTiB: 3, backend: Backend.INSTANCE_STORE, generation: Generation.CURRENT }))).toMatch(/disks +3 x 1\.98 TB instance-store HDD/);
  });
});

describe('the backend comparison', () => {
  test('`10 TiB at 1000 MB/s`: each backend\'s best plan, its plan text last', () => {
    const [table, sources] = formatBackendComparison({ capacityTiB: 10, throughputMBps: 1000 }).split('\n\n');
    expect(table.split('\n').map((l) => l.split(/ {2,}/))).toEqual([
      ['backend', 'raw TiB', 'sustained MB/s', 'burst MB/s', '$/month', 'plan'],
      // gp3 (3 x 318 MiB/s) costs less than growing st1 to 2 x 12208 GiB ($3434.72): see plan-gp3.test.ts.
      ['ebs', '10.00', '1000 MB/s', '1000 MB/s', '3178.52', 'm4.16xlarge, 3 x gp3 (3414 GiB, 318 MiB/s, 3000 IOPS each), striped'],
      ['instance-store', '43.66', '1250 MB/s', '1250 MB/s', '4029.60', 'd2.8xlarge'],
      ['fsx-lustre', '11.72', '1465 MB/s', '5859 MB/s', '1740.00', 'PERSISTENT_2/SSD/125, 12000 GiB'],
      // SINGLE_AZ_1 at 1024 MB/s (512 sustains 512): 10240 GiB x $0.09 + 1024 x $0.26 + (40000 - 3 x 10240) IOPS x $0.006.
      ['fsx-openzfs', '10.00', '1024 MB/s', '1024 MB/s', '1243.52', 'SINGLE_AZ_1/1024, 10240 GiB SSD, 40000 SSD IOPS provisioned'],
      // 1000 MB/s all month = 2,628,000 GB, half read at $0.03, half written at $0.06 = $118,260, + 10240 GiB x $0.30.
      ['efs-elastic', '10.00', '1074 MB/s', '1074 MB/s', '121332.00', expect.stringMatching(/^EFS \(not deployed here\), Regional Standard, elastic: .*priced as 1000 MB\/s moved all month, .*storage alone \$3072\.00; one client up to 1573 MB\/s \(EFS Elastic's per-client limit, 1572\.86 MB\/s\)$/)],
      // ceil(1000 / 1.048576) = 954 MiB/s x $6 + $3072.
      ['efs-provisioned', '10.00', '1000 MB/s', '1000 MB/s', '5796.00', expect.stringMatching(/^EFS \(not deployed here\), Regional Standard, provisioned: the 954 MiB\/s provisioned/)],
      // 10 TiB x 50 MiB/s = 524 MB/s baseline: Bursting cannot.
      ['efs-bursting', '-', '-', '-', '-', expect.stringMatching(/^cannot: Bursting's baseline for 10 TiB is 524\.28 MB\/s/)],
    ]);
    expect(sources).toMatch(/^Prices, USD a month:\n {2}ebs, instance-store: on-demand .*\n {2}fsx-lustre: .*\n {2}fsx-openzfs: AWS price list \(us-east-1\) as infracost quotes it.*\n {2}efs-elastic, efs-provisioned, efs-bursting: AWS's EFS price data/);
  });

  test('a backend that cannot serve the request says why in its last column, dashes in the others', () => {
    const rows = formatBackendComparison({ capacityTiB: 100 }).split('\n');
    expect(rows[1]).toMatch(/^ebs( +-){4} +cannot: capacityTiB must be a number greater than 0 and at most 48 for backend 'ebs'/);
    expect(rows[2]).toMatch(/^instance-store( +-){4} +cannot: capacityTiB must be .* at most 43\.65 for backend 'instance-store'/);
    expect(rows[3]).toMatch(/^fsx-lustre +105.47 +1266 MB\/s +8438 MB\/s read, 5273 MB\/s write +2700.00 +PERSISTENT_1\/HDD\/12, 108000 GiB$/);
  });

  test('dataVolumeCount and instanceType shape the ebs row; the others are weighed for the same capacity', () => {
    const rows = compareBackends({ capacityTiB: 15, dataVolumeCount: 3 }, { instanceType: 'm4.10xlarge' });
    expect(rows.map((r) => [r.backend, r.plan?.instanceType, r.plan?.dataVolumes.length, r.cannot])).toEqual([
      ['ebs', 'm4.10xlarge', 3, undefined],
      ['instance-store', (bestPlanOf(Backend.INSTANCE_STORE, { capacityTiB: 15 }) as StoragePlan).instanceType, 0, undefined],
      ['fsx-lustre', (bestPlanOf(Backend.FSX_LUSTRE, { capacityTiB: 15 }) as StoragePlan).instanceType, 0, undefined],
      ['fsx-openzfs', 'SINGLE_AZ_1/64', 0, undefined],
      ['efs-elastic', undefined, undefined, undefined],
      ['efs-bursting', undefined, undefined, undefined],
    ]);
  });

  test('an instanceType withInstanceType refuses makes the ebs row say why', () => {
    const [ebs] = compareBackends({ capacityTiB: 5 }, { instanceType: 'd2.xlarge' });
    expect(ebs).toEqual({
      backend: 'ebs', cannot: 'instanceType d2.xlarge has instance-store disks; an EBS plan needs an EBS type', priceSource: expect.stringMatching(/^on-demand/),
    });
  });
});

/**
 * Where each column of an aligned table starts on a line: offset 0 and every non-space after two spaces. The last
 * column of the comparison is free text, so starts past the header's last one are not compared.
 */
function cellStarts(line: string, upTo = Infinity): number[] {
  const starts = [...line].flatMap((ch, i) => (ch !== ' ' && (i === 0 || line.slice(i - 2, i) === '  ') ? [i] : []));
  return starts.filter((s) => s <= upTo);
}

/** Every line of `table` has its cells starting at the header's offsets; the header is the first line. */
function expectAligned(table: string): void {
  const [header, ...rows] = table.split('\n');
  const starts = cellStarts(header);
  for (const row of rows) expect({ row, starts: cellStarts(row, starts[starts.length - 1]) }).toEqual({ row, starts });
}

describe('aligned tables', () => {
  const request = fc.record({
    capacityTiB: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.double({ min: 0.01, max: 200, noNaN: true })),
    backend: fc.constantFrom<Backend | undefined>(undefined, Backend.EBS, Backend.INSTANCE_STORE, Backend.FSX_LUSTRE),
    throughputMBps: fc.option(fc.integer({ min: 1, max: 8000 }), { nil: undefined }),
    generation: fc.option(fc.constantFrom<Generation>(Generation.PREVIOUS, Generation.CURRENT), { nil: undefined }),
    dataVolumeCount: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  }, { requiredKeys: ['capacityTiB'] });
  const instanceType = fc.option(fc.constantFrom('m4.xlarge', 'm4.16xlarge', 'm6i.2xlarge', 'd2.xlarge'), { nil: undefined });

  test('the comparison: every row\'s cells start where the header\'s do, also when some backends cannot', () => {
    let mixed = 0;
    fc.assert(fc.property(request, instanceType, (req, type) => {
      const table = formatBackendComparison(req, { instanceType: type }).split('\n\n')[0];
      expectAligned(table);
      const cannot = table.split('\n').filter((l) => / cannot: /.test(l)).length;
      if (cannot > 0 && cannot < 3) mixed++;
    }), { numRuns: 400, examples: [[{ capacityTiB: 45 }, undefined], [{ capacityTiB: 45, throughputMBps: 1300 }, undefined]] });
    // The case that broke alignment before: rows that can and rows that cannot in one table.
    expect(mixed).toBeGreaterThan(20);
  });

  test('the plan table: every value starts at the same offset', () => {
    fc.assert(fc.property(request, (req) => {
      let plan: StoragePlan;
      try {
        plan = planStorage(req);
      } catch {
        return;
      }
      const lines = formatPlanTable(plan).split('\n');
      const at = cellStarts(lines[0])[1];
      for (const line of lines) expect({ line, starts: cellStarts(line, at) }).toEqual({ line, starts: [0, at] });
    }), { numRuns: 200 });
  });
});

describe("the README's sizing table", () => {
  // Each row's request column, as the planner takes it.
  const requestOf = (cell: string) => {
    const m = /^(\d+) TiB(?: \(default\))?(?:, (ebs|instance-store))?(?:, (\d+) volumes)?$/.exec(cell);
    if (!m) throw new Error(`unreadable request cell '${cell}'`);
    return { capacityTiB: Number(m[1]), backend: m[2] === undefined ? undefined : backendOf(m[2] as 'ebs' | 'instance-store'), dataVolumeCount: m[3] ? Number(m[3]) : undefined };
  };
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| request | backend | instance | data disks | raw TiB | read / write MB/s | sustained / burst MB/s | limited by | $/month |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

  test('has rows', () => expect(rows.length).toBeGreaterThanOrEqual(8));

  test.each(rows.map((r) => [r[0], r]))('%s: the figures are what the planner says', (_name, row) => {
    const plan = planStorage(requestOf(row[0]));
    const t = plan.throughput;
    const pair = (a: number, b: number) => `${Math.round(a)} / ${Math.round(b)}`;
    expect({
      backend: row[1], instance: row[2], raw: row[4], rw: row[5], sb: row[6], cost: row[8],
    }).toEqual({
      backend: plan.backend,
      instance: plan.instanceType,
      raw: plan.rawCapacityTiB.toFixed(1),
      rw: pair(t.readMBps, t.writeMBps),
      sb: pair(t.baselineReadMBps, t.burstReadMBps),
      cost: String(Math.round(plan.monthlyCostUsd)),
    });
  });
});

/** A README cell's volume, such as `st1 5120 GiB` or `gp3 3414 GiB 318 MiB/s`; IOPS follow from the throughput. */
const volume = (v: DataVolumePlan) => `${v.volumeType} ${v.sizeGiB} GiB${v.volumeType === 'gp3' ? ` ${v.throughputMiBps} MiB/s` : ''}`;

describe("the README's backend comparison", () => {
  // Each row is checked against the planner: the request, what auto chooses and the best plan of each backend.
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| request | auto chooses | ebs | instance-store | fsx-lustre |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const cell = (p: StoragePlan | string): string => {
    if (typeof p === 'string') return 'cannot';
    const what = p.backend === 'fsx-lustre'
      ? `${p.instanceType} ${p.fsxLustre?.storageCapacityGiB} GiB`
      : p.backend === 'ebs' ? `${p.instanceType} ${p.dataVolumes.length} x ${volume(p.dataVolumes[0])}` : p.instanceType;
    return `${what}: ${Math.round(Math.min(p.throughput.baselineReadMBps, p.throughput.baselineWriteMBps))} MB/s, $${Math.round(p.monthlyCostUsd)}`;
  };

  test('has the rows the issue asks for, 10 TiB at 400, 1000 and 5000 MB/s and 100 TiB among them', () => {
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['10 TiB at 400 MB/s', '10 TiB at 1000 MB/s', '10 TiB at 5000 MB/s', '100 TiB']));
  });

  test.each(rows.map((r) => [r[0], r] as [string, string[]]))('%s agrees with the planner', (_, [request, chosen, ebs, store, fsx]) => {
    const m = /^(\d+) TiB(?: at (\d+) MB\/s)?$/.exec(request);
    if (!m) throw new Error(`unreadable request cell '${request}'`);
    const req = { capacityTiB: Number(m[1]), throughputMBps: m[2] ? Number(m[2]) : undefined };
    expect([chosen, ebs, store, fsx]).toEqual([
      planStorage(req).backend,
      cell(bestPlanOf(Backend.EBS, req)),
      cell(bestPlanOf(Backend.INSTANCE_STORE, req)),
      cell(bestPlanOf(Backend.FSX_LUSTRE, req)),
    ]);
  });
});

describe("the README's managed options at the sizing table's sizes", () => {
  // Each row is checked against the planner: what auto chooses, each backend's best plan, and EFS's cheapest mode.
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| size, at what the default server sustains | auto chooses | ebs | instance-store | fsx-lustre | fsx-openzfs | efs |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const cell = (r: BackendComparison | undefined): string => {
    if (r?.efs) return `${r.efs.mode}: ${Math.round(r.efs.sustainedMBps)} MB/s, $${Math.round(r.efs.monthlyCostUsd)}`;
    if (!r?.plan) return 'cannot';
    const t = r.plan.throughput;
    return `${r.plan.instanceType}: ${Math.round(Math.min(t.baselineReadMBps, t.baselineWriteMBps))} MB/s, $${Math.round(r.plan.monthlyCostUsd)}`;
  };

  test('is in the section "Choosing a backend", one row per size of the sizing table, at what the default server sustains there', () => {
    expect(readme.indexOf(header)).toBeGreaterThan(readme.indexOf('### Choosing a backend'));
    expect(rows.map((r) => Number(/^(\d+) TiB/.exec(r[0])?.[1]))).toEqual([2, 5, 10, 16, 20, 40]);
    for (const [request] of rows) {
      const [, tib, mbps] = /^(\d+) TiB at (\d+) MB\/s$/.exec(request) ?? [];
      const t = planStorage({ capacityTiB: Number(tib) }).throughput;
      expect(Number(mbps)).toBe(Math.floor(Math.min(t.baselineReadMBps, t.baselineWriteMBps)));
    }
  });

  test.each(rows.map((r) => [r[0], r] as [string, string[]]))('%s agrees with the planner', (request, cells) => {
    const [, tib, mbps] = /^(\d+) TiB at (\d+) MB\/s$/.exec(request) ?? [];
    const req = { capacityTiB: Number(tib), throughputMBps: Number(mbps) };
    const compared = compareBackends(req);
    // The cheapest mode; of modes that cost the same, the one that sustains more, as Bursting over a Provisioned rate
    // its storage already includes.
    const efs = compared.filter((r) => r.efs !== undefined)
      .sort((a, b) => (a.efs?.monthlyCostUsd ?? 0) - (b.efs?.monthlyCostUsd ?? 0) || (b.efs?.sustainedMBps ?? 0) - (a.efs?.sustainedMBps ?? 0))[0];
    const of = (b: string) => cell(compared.find((r) => r.backend === b));
    expect(cells.slice(1)).toEqual([planStorage(req).backend, of('ebs'), of('instance-store'), of('fsx-lustre'), of('fsx-openzfs'), cell(efs)]);
  });
});

describe("the README's generation comparison", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| request | previous generation (sustained / burst MB/s, $/month) | current generation |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const cell = (p: StoragePlan): string => {
    const what = p.backend === 'fsx-lustre'
      ? `FSx ${p.instanceType} ${p.fsxLustre?.storageCapacityGiB} GiB`
      : p.backend === 'ebs' ? `${p.instanceType}, ${p.dataVolumes.length} x ${volume(p.dataVolumes[0])}` : `${p.instanceType}, ${p.instanceStoreDisks} HDD`;
    const t = p.throughput;
    // d3 and d3en: a lower bound, since per-disk throughput is unpublished, and the README says so.
    const atLeast = t.limitedBy.endsWith('lower bound: per-disk throughput unpublished') ? 'at least ' : '';
    return `${what}: ${atLeast}${Math.round(Math.min(t.baselineReadMBps, t.baselineWriteMBps))} / ${Math.round(Math.min(t.burstReadMBps, t.burstWriteMBps))} MB/s, $${Math.round(p.monthlyCostUsd)}`;
  };

  test('has the rows the issues ask for: 2, 5, 10, 16, 20 and 40 TiB, then instance store and gp3 at their sizes', () => {
    expect(rows.map((r) => r[0])).toEqual(['2 TiB', '5 TiB', '10 TiB', '16 TiB', '20 TiB', '40 TiB', '300 TiB, instance-store',
      '1 TiB at 250 MB/s, ebs', '10 TiB at 1000 MB/s, ebs', '10 TiB at 2700 MB/s, ebs']);
  });

  test.each(rows.map((r) => [r[0], r] as [string, string[]]))('%s agrees with the planner', (_, [request, previous, current]) => {
    const m = /^(\d+) TiB(?: at (\d+) MB\/s)?(?:, (ebs|instance-store))?$/.exec(request);
    if (!m) throw new Error(`unreadable request cell '${request}'`);
    const req = { capacityTiB: Number(m[1]), throughputMBps: m[2] ? Number(m[2]) : undefined, backend: m[3] === undefined ? undefined : backendOf(m[3] as 'ebs' | 'instance-store') };
    // "refused (...)": the planner refuses that request on that generation.
    const expected = (generation: Generation, shown: string) => {
      if (!shown.startsWith('refused')) return cell(planStorage({ ...req, generation }));
      expect(() => planStorage({ ...req, generation })).toThrow();
      return shown;
    };
    expect([previous, current]).toEqual([expected(Generation.PREVIOUS, previous), expected(Generation.CURRENT, current)]);
  });
});

describe("the README's largest single servers", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| server | sustained MB/s | $/month | bound by |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const sustained = (p: StoragePlan) => Math.round(Math.min(p.throughput.baselineReadMBps, p.throughput.baselineWriteMBps));
  // The request that plans each row's server.
  const requests: Record<string, StorageRequest[]> = {
    'c8gb.24xlarge, 9 x gp3 at up to 2,000 MiB/s (`--arch arm64`)': [{ capacityTiB: 10, backend: Backend.EBS, arch: Arch.ARM64, throughputMBps: 18750 }],
    'c6in.32xlarge, 6 x gp3 at up to 2,000 MiB/s (x86_64)': [{ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, throughputMBps: 12500 }],
    'c6in.24xlarge, 3 x gp3 at 2,000 MiB/s (x86_64)': [{ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, throughputMBps: 6291 }],
    'c8gb.12xlarge, 3 x gp3 at 2,000 MiB/s (`--arch arm64`)': [{ capacityTiB: 10, backend: Backend.EBS, arch: Arch.ARM64, throughputMBps: 6291 }],
    'd3en.12xlarge, 24 HDD': [{ capacityTiB: 300, backend: Backend.INSTANCE_STORE, generation: Generation.CURRENT }],
    'm6i.12xlarge, 3 x st1 16 TiB (the st1 limit)': [{ capacityTiB: 48, backend: Backend.EBS, generation: Generation.CURRENT }],
    'd2.8xlarge, m4.16xlarge (previous generation)': [{ capacityTiB: 40, backend: Backend.INSTANCE_STORE }, { capacityTiB: 48, backend: Backend.EBS }],
  };

  test('one row per server, and each agrees with the planner', () => {
    expect(rows.map((r) => r[0])).toEqual(Object.keys(requests));
    for (const [server, figure, cost] of rows) {
      const plans = requests[server].map((r) => planStorage(r));
      expect(plans.map((p) => p.instanceType).join(', ')).toBe(server.split(/, \d| \(/)[0].replace(/, 24 HDD$/, ''));
      const atLeast = plans[0].throughput.limitedBy.endsWith('lower bound: per-disk throughput unpublished') ? 'at least ' : '';
      expect([figure, cost]).toEqual([`${atLeast}${sustained(plans[0])}`, plans.map((p) => Math.round(p.monthlyCostUsd)).join(', ')]);
    }
  });

  test('no single EBS server sustains more than the first rows, on either architecture', () => {
    for (const [arch, most] of [[Arch.ARM64, 18750], [Arch.X86_64, 12500]] as const) {
      expect(() => planStorage({ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, arch, throughputMBps: most + 1 }))
        .toThrow(new RegExp(`at most ${most} MB/s`));
    }
  });

  test('each row gives the volumes it names', () => {
    for (const [server] of rows) {
      const count = /, (\d+) x gp3/.exec(server)?.[1];
      if (count !== undefined) expect(planStorage(requests[server][0]).dataVolumes).toHaveLength(Number(count));
    }
  });
});

describe("the README's d3 and d3en table (a lower bound)", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| instance | disks (GB each) | raw TiB (rounded down) | network baseline / burst Gbps | read / write MB/s, at least | $/month |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

  test('one row per d3 and d3en size', () => {
    expect(readme).toContain(header);
    expect(rows.map((r) => r[0])).toEqual(CURRENT_INSTANCE_STORE_TYPES.map((t) => t.name));
  });

  test.each(rows.map((r) => [r[0], r] as [string, string[]]))('%s agrees with the catalogue and the planner', (name, row) => {
    const spec = instanceTypeSpec(name);
    const e = estimateThroughput(name);
    const burst = spec.networkBurstGbps !== undefined && spec.networkBurstGbps > spec.networkBaselineGbps ? ` / ${spec.networkBurstGbps}` : '';
    expect(row).toEqual([
      name,
      `${spec.instanceStore?.disks} x ${(spec.instanceStore?.diskBytes ?? 0) / 1e9}`,
      String(Math.floor(instanceStoreTiB(spec) * 10) / 10),
      `${spec.networkBaselineGbps}${burst}`,
      // "(network)": the network baseline binds both read and write, so the disks' bound does not show.
      `${Math.round(e.readMBps)} / ${Math.round(e.writeMBps)}${/^network baseline/.test(e.limitedBy) ? ' (network)' : ''}`,
      String(Math.round(spec.onDemandUsdPerHour * 730)),
    ]);
    expect(e.limitedBy).toMatch(/lower bound: per-disk throughput unpublished$/);
  });
});
