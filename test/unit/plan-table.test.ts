import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { StoragePlan, bestPlanOf, formatBackendComparison, formatPlanTable, planStorage } from '../../lib/sizing';

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
      'cost          $1044.80/month (on demand, us-east-1, 730 h)',
      "why           auto: up to 16 TiB, one st1 volume on the original template's m4 tier",
    ].join('\n'));
  });

  test('sustained and burst: a stripe of smaller st1 volumes bursts above what it sustains', () => {
    // 15 TiB as 3 x 5 TiB st1 on m4.16xlarge: 3 x 200 MiB/s baseline (40 per TiB); the burst, 3 x 500 MiB/s,
    // is held to the instance's EBS bandwidth (10000 Mbps).
    const table = formatPlanTable(planStorage({ capacityTiB: 15, backend: 'ebs', dataVolumeCount: 3 }));
    expect(table).toMatch(/^sustained +629 MB\/s \(every burst credit spent\)\nburst +1250 MB\/s \(full burst credits\)$/m);
    // Volumes of 12.5 TiB and more reach st1's 500 MiB/s cap at their baseline: nothing left to burst.
    const large = formatPlanTable(planStorage({ capacityTiB: 30, backend: 'ebs' }));
    expect(large).toMatch(/^sustained +1049 MB\/s .*\nburst +1049 MB\/s/m);
  });

  test('striped EBS and instance-store plans say so', () => {
    expect(formatPlanTable(planStorage({ capacityTiB: 30, backend: 'ebs' }))).toMatch(/volumes +2 x st1 \(15360 GiB, 15360 GiB\), striped/);
    expect(formatPlanTable(planStorage({ capacityTiB: 20 }))).toMatch(/disks +12 x 2 TB instance-store HDD, striped \(lost on stop\/terminate\)/);
  });
});

describe('npm run plan', () => {
  const plan = (...args: string[]) =>
    spawnSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', ...args], { cwd: root, encoding: 'utf8' });

  const SIDE_BY_SIDE = '\n\nThe best plan of each backend for the same request:\n';

  test('`plan 10` prints the table, then the best plan of each backend', () => {
    const out = execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', '10'], { cwd: root, encoding: 'utf8' });
    expect(out.trim()).toBe(formatPlanTable(planStorage({ capacityTiB: 10 })) + SIDE_BY_SIDE + formatBackendComparison({ capacityTiB: 10, backend: 'auto' }));
  });

  test('`plan 10 --throughput 1000` plans for the sustained throughput, says why, and shows each backend beside it', () => {
    const out = execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', '10', '--throughput', '1000'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^deployment +PERSISTENT_2\/SSD\/125$/m);
    expect(out).toMatch(/^why +the cheapest plan that holds 10 TiB and sustains 1000 MB\/s/m);
    const side = out.slice(out.indexOf(SIDE_BY_SIDE) + SIDE_BY_SIDE.length).trim().split('\n');
    expect(side[0].split(/ {2,}/)).toEqual(['backend', 'plan', 'raw TiB', 'sustained MB/s', 'burst MB/s', '$/month']);
    expect(side.slice(1).map((l) => l.split(/ {2,}/))).toEqual([
      ['ebs', 'm4.16xlarge, 2 x st1 (12208 GiB, 12208 GiB), striped', '23.84', '1000 MB/s', '1049 MB/s', '3434.72'],
      ['instance-store', 'd2.8xlarge', '43.66', '1250 MB/s', '1250 MB/s', '4029.60'],
      ['fsx-lustre', 'PERSISTENT_2/SSD/125, 12000 GiB', '11.72', '1465 MB/s', '5859 MB/s', '1740.00'],
    ]);
  });

  test('a backend that cannot serve the request says why in its row', () => {
    const rows = formatBackendComparison({ capacityTiB: 100 }).split('\n');
    expect(rows[1]).toMatch(/^ebs +cannot: capacityTiB must be a number greater than 0 and at most 48 for backend 'ebs'/);
    expect(rows[2]).toMatch(/^instance-store +cannot: capacityTiB must be .* at most 43\.65 for backend 'instance-store'/);
    expect(rows[3]).toMatch(/^fsx-lustre +PERSISTENT_1\/HDD\/12, 108000 GiB +105.47 +1266 MB\/s +8438 MB\/s read, 5273 MB\/s write +2700.00$/);
  });

  test('`plan 40 --generation current` plans on the current generation', () => {
    const out = execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', '40', '--generation', 'current'], { cwd: root, encoding: 'utf8' });
    expect(out.startsWith(formatPlanTable(planStorage({ capacityTiB: 40, generation: 'current' })))).toBe(true);
  });

  test.each([
    [['5', '--generation', 'newest'], /generation must be 'previous' \(d2, m4\) or 'current' \(Nitro: m6i\); got "newest"/],
    [['10', '--throughput', 'fast'], /throughputMBps must be a positive number of MB\/s; got 'fast'/],
    [['10', '--throughput'], /throughputMBps must be a positive number of MB\/s; got ''/],
    [['abc'], /capacityTiB must be a positive number of TiB; got 'abc'/],
    [['100', 'ebs'], /capacityTiB .* got 100.*FSx for Lustre/],
    [['5', 'nfs'], /backend must be one of 'auto', 'ebs', 'instance-store', 'fsx-lustre'; got .*nfs/],
  ])('bad input %j exits non-zero with a clear message', (args, message) => {
    const run = plan(...args);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  });
});

describe("the README's sizing table", () => {
  // Each row's request column, as the planner takes it.
  const requestOf = (cell: string) => {
    const m = /^(\d+) TiB(?: \(default\))?(?:, (ebs|instance-store))?(?:, (\d+) volumes)?$/.exec(cell);
    if (!m) throw new Error(`unreadable request cell '${cell}'`);
    return { capacityTiB: Number(m[1]), backend: (m[2] ?? 'auto') as 'auto', dataVolumeCount: m[3] ? Number(m[3]) : undefined };
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

describe("the README's backend comparison", () => {
  // Each row is checked against the planner: the request, what auto chooses and the best plan of each backend.
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| request | auto chooses | ebs | instance-store | fsx-lustre |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const cell = (p: StoragePlan | string): string => {
    if (typeof p === 'string') return 'cannot';
    const what = p.backend === 'fsx-lustre'
      ? `${p.instanceType} ${p.fsxLustre?.storageCapacityGiB} GiB`
      : p.backend === 'ebs' ? `${p.instanceType} ${p.dataVolumes.length} x st1 ${p.dataVolumes[0].sizeGiB} GiB` : p.instanceType;
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
      cell(bestPlanOf('ebs', req)),
      cell(bestPlanOf('instance-store', req)),
      cell(bestPlanOf('fsx-lustre', req)),
    ]);
  });
});

describe("the README's generation comparison", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const header = '| request | previous generation (sustained / burst MB/s, $/month) | current generation |';
  const rows = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const cell = (p: StoragePlan): string => {
    const what = p.backend === 'fsx-lustre'
      ? `FSx ${p.instanceType} ${p.fsxLustre?.storageCapacityGiB} GiB`
      : p.backend === 'ebs' ? `${p.instanceType}, ${p.dataVolumes.length} x st1 ${p.dataVolumes[0].sizeGiB} GiB` : `${p.instanceType}, ${p.instanceStoreDisks} HDD`;
    const t = p.throughput;
    return `${what}: ${Math.round(Math.min(t.baselineReadMBps, t.baselineWriteMBps))} / ${Math.round(Math.min(t.burstReadMBps, t.burstWriteMBps))} MB/s, $${Math.round(p.monthlyCostUsd)}`;
  };

  test('has the rows the issue asks for: 2, 5, 10, 16, 20 and 40 TiB', () => {
    expect(rows.map((r) => r[0])).toEqual(['2 TiB', '5 TiB', '10 TiB', '16 TiB', '20 TiB', '40 TiB']);
  });

  test.each(rows.map((r) => [r[0], r] as [string, string[]]))('%s agrees with the planner', (_, [request, previous, current]) => {
    const capacityTiB = Number(/^(\d+) TiB$/.exec(request)?.[1]);
    expect([previous, current]).toEqual([cell(planStorage({ capacityTiB })), cell(planStorage({ capacityTiB, generation: 'current' }))]);
  });

  test('the largest single server: three 16 TiB st1 volumes on m6i.12xlarge sustain 1572.86 MB/s', () => {
    const plan = planStorage({ capacityTiB: 48, backend: 'ebs', generation: 'current' });
    expect([plan.instanceType, plan.throughput.baselineReadMBps]).toEqual(['m6i.12xlarge', 1572.86]);
    expect(readme).toContain('sustains about 1.57 GB/s (three 16 TiB st1 volumes on\nm6i.12xlarge');
  });
});
