import { execFileSync, spawnSync } from 'child_process';
import * as path from 'path';
import { formatPlanTable, planStorage } from '../../lib/sizing';

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
      'cost          $1044.80/month (on demand, us-east-1, 730 h)',
    ].join('\n'));
  });

  test('striped EBS and instance-store plans say so', () => {
    expect(formatPlanTable(planStorage({ capacityTiB: 30, backend: 'ebs' }))).toMatch(/volumes +2 x st1 \(15360 GiB, 15360 GiB\), striped/);
    expect(formatPlanTable(planStorage({ capacityTiB: 20 }))).toMatch(/disks +12 x 2 TB instance-store HDD, striped \(lost on stop\/terminate\)/);
  });
});

describe('npm run plan', () => {
  const plan = (...args: string[]) =>
    spawnSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', ...args], { cwd: root, encoding: 'utf8' });

  test('`plan 10` prints the table', () => {
    const out = execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'bin/plan.ts', '10'], { cwd: root, encoding: 'utf8' });
    expect(out.trim()).toBe(formatPlanTable(planStorage({ capacityTiB: 10 })));
  });

  test.each([
    [['abc'], /capacityTiB must be a positive number of TiB; got 'abc'/],
    [['100'], /capacityTiB .* got 100.*FSx for Lustre/],
    [['5', 'nfs'], /backend must be one of 'auto', 'ebs', 'instance-store'; got .*nfs/],
  ])('bad input %j exits non-zero with a clear message', (args, message) => {
    const run = plan(...args);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  });
});
