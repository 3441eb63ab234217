import { spawnSync } from 'child_process';
import * as fc from 'fast-check';
import * as path from 'path';
import { main } from '../../bin/plan';
import { planScript } from '../support/plan-script';
import { ContextKey, parseContext } from '../../lib/context';
import { cheapestShown, compareBackends, formatBackendComparison, formatChoice, formatPlanTable, planStorage, withInstanceType } from '../../lib/sizing';
import { FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';
import { Backend } from '../../lib/backend-enum';
import { Generation } from '../../lib/sizing/enums';
import { UNWRAPPED } from '../../lib/sizing/wrap';

const root = path.join(__dirname, '..', '..');

/** `npm run plan -- ...args` in this process: exit status, stdout and stderr. */
function plan(...args: string[]): { status: number; stdout: string; stderr: string } {
  const out: string[] = [];
  const err: string[] = [];
  const status = main(args, { out: (t) => out.push(t), err: (t) => err.push(t), width: UNWRAPPED });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The real command, as `npm run plan` starts it. */
function spawnPlan(...args: string[]) {
  const { file, args: argv } = planScript(args);
  return spawnSync(file, argv, { cwd: root, encoding: 'utf8' });
}

const SIDE_BY_SIDE = '\n\nThe best plan of each backend for the same request:\n';

/** A message wrapped at 80 columns as one line again: each continuation line starts with two spaces. */
const unwrap = (text: string) => text.replace(/\n {2}(?=\S)/g, ' ');

describe('npm run plan: the process', () => {
  test('`plan 10` prints the table, then the best plan of each backend; exit 0', () => {
    const run = spawnPlan('10');
    expect([run.status, run.stderr]).toEqual([0, '']);
    const request = { capacityTiB: 10 };
    // Not a terminal: every part at 80 columns.
    const choice = formatChoice(request, compareBackends(request), planStorage(request), 80);
    expect(run.stdout).toBe(`${formatPlanTable(planStorage({ capacityTiB: 10 }), 80)}${SIDE_BY_SIDE}${formatBackendComparison({ capacityTiB: 10 }, {}, 80)}\n\n${choice}\n`);
  });

  test('an unknown option: exit 2, the message and the usage on stderr, nothing on stdout, no stack trace', () => {
    const run = spawnPlan('--thruput', '400');
    expect([run.status, run.stdout]).toEqual([2, '']);
    expect(unwrap(run.stderr)).toBe(
      'Error: unknown option --thruput (did you mean --throughput?); the options are --backend, --throughput, --io-size, --generation, ' +
        '--arch, --volumes, --openzfs-deployment-type, --instance-type, --client-instance-type, --client-network-gbps, --nconnect, --placement-group, --json, --help\n' +
        'usage: npm run plan -- <capacityTiB> [auto|ebs|instance-store|fsx-lustre|fsx-openzfs] [options] (--help lists the options)\n',
    );
  });

  test('a request the planner refuses: exit 1, its message on stderr, no stack trace', () => {
    const run = spawnPlan('100', 'ebs');
    expect([run.status, run.stdout]).toEqual([1, '']);
    expect(unwrap(run.stderr)).toMatch(/^Error: capacityTiB must be [^\n]* at most 48 for backend 'ebs'[^\n]*FSx for Lustre[^\n]*\n\(on this command line capacityTiB is the first argument\)\n$/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  test('--json: only JSON on stdout, the plan and the comparison', () => {
    const run = spawnPlan('15', '--backend', 'ebs', '--volumes', '3', '--json');
    expect([run.status, run.stderr]).toEqual([0, '']);
    const request = { capacityTiB: 15, backend: Backend.EBS, dataVolumeCount: 3 };
    const comparison = compareBackends(request);
    expect(JSON.parse(run.stdout)).toEqual({ request, plan: planStorage(request), comparison, choice: cheapestShown(request, comparison)?.backend });
  });
});

describe('npm run plan: options', () => {
  test('--help lists every option, one line each, on stdout; exit 0', () => {
    const run = plan('--help');
    expect([run.status, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.split('\n').filter((l) => /^ {2}-/.test(l));
    expect(lines.map((l) => l.trim().split(/ {2,}/)[0])).toEqual([
      '--backend <auto|ebs|instance-store|fsx-lustre|fsx-openzfs>', '--throughput <MB/s>', '--io-size <KiB>', '--generation <previous|current>', '--arch <x86_64|arm64>', '--volumes <1-21>',
      '--openzfs-deployment-type <SINGLE_AZ_1|SINGLE_AZ_2|SINGLE_AZ_HA_1|SINGLE_AZ_HA_2|MULTI_AZ_1>', '--instance-type <type>', '--client-instance-type <type>', '--client-network-gbps <Gbps>', '--nconnect <1-16>',
      '--placement-group', '--json', '-h, --help',
    ]);
    expect(plan('-h').stdout).toBe(run.stdout);
    expect(plan('10', '--json', '--help').stdout).toBe(run.stdout);
  });

  test('"15 TiB, ebs, 3 volumes" (the README\'s sizing row): --volumes 3 stripes three 5120 GiB st1 on m4.16xlarge', () => {
    const run = plan('15', '--backend', 'ebs', '--volumes', '3');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^instance +m4\.16xlarge\nvolumes +3 x st1 \(5120 GiB, 5120 GiB, 5120 GiB\), striped$/m);
    expect(run.stdout).toContain('(--volumes shapes the ebs row only):\n');
    // The positional backend, the --backend=value form and auto, which --volumes makes EBS, agree.
    expect(plan('15', 'ebs', '--volumes=3').stdout).toBe(run.stdout);
    expect(plan('15', '--volumes', '3').stdout).toMatch(/^backend +ebs\ninstance +m4\.16xlarge\nvolumes +3 x st1/);
  });

  test('--instance-type plans the EBS plan on that type, in the table and the comparison\'s ebs row', () => {
    const run = plan('15', 'ebs', '--volumes', '3', '--instance-type', 'm4.10xlarge');
    expect(run.status).toBe(0);
    const expected = withInstanceType(planStorage({ capacityTiB: 15, backend: Backend.EBS, dataVolumeCount: 3 }), 'm4.10xlarge');
    expect(run.stdout.startsWith(`${formatPlanTable(expected)}\n\n`)).toBe(true);
    expect(run.stdout).toMatch(/^ebs +15\.00 +500 MB\/s +500 MB\/s +2151\.20 +m4\.10xlarge, 3 x st1/m);
    expect(run.stdout).toContain('(--volumes and --instance-type shape the ebs row only):\n');
  });

  test('--instance-type on a request whose plan is not EBS: exit 1, says to ask for --backend ebs', () => {
    const run = plan('20', '--instance-type', 'm4.16xlarge');
    expect([run.status, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toBe("Error: --instance-type applies to EBS plans only, and the plan for 20 TiB is backend 'instance-store' " +
      "(d2.4xlarge): add --backend ebs to plan EBS on m4.16xlarge");
    expect(plan('20', 'ebs', '--instance-type', 'm4.16xlarge').stdout).toMatch(/^instance +m4\.16xlarge$/m);
  });

  test('--client-instance-type, --nconnect and --placement-group reach the per-client rows, in the table and in --json', () => {
    // 40 TiB: d2.8xlarge, 1250 MB/s sustained; m4.xlarge clients, at 0.75 Gbps or 93.75 MB/s each, take 14 to move it.
    const run = plan('40', '--client-instance-type', 'm4.xlarge');
    expect(run.status).toBe(0);
    expect(run.stdout.startsWith(`${formatPlanTable(planStorage({ capacityTiB: 40, client: { instanceType: 'm4.xlarge' } }))}\n\n`)).toBe(true);
    expect(run.stdout).toMatch(/^one client +up to 94 MB\/s \(limited by the client's network baseline, m4\.xlarge: 0\.75 Gbps; a bound/m);
    expect(run.stdout).toMatch(/^clients +14 such clients to move the sustained 1250 MB\/s$/m);
    // 2 connections in a placement group: 2 x 10 Gbps = 2500 MB/s; without: 2 x 5 Gbps = 1250 MB/s.
    expect(plan('40', '--nconnect', '2', '--placement-group').stdout).toMatch(/^one client +up to 2500 MB\/s \(limited by nconnect=2: 2 TCP flows x 10 Gbps, inside/m);
    expect(plan('40', '--nconnect=2').stdout).toMatch(/^one client +up to 1250 MB\/s /m);
    expect(plan('40', '--client-network-gbps', '4', '--nconnect', '16').stdout).toMatch(/^one client +up to 500 MB\/s \(limited by the client's network baseline: 4 Gbps as given/m);
    const json = JSON.parse(plan('40', '--nconnect', '2', '--placement-group', '--json').stdout);
    const request = { capacityTiB: 40, client: { nconnect: 2, placementGroup: true } };
    const comparison = compareBackends(request);
    // The JSON echoes the request as the command line gave it: backend auto when none was named.
    expect(json).toEqual({ request: { ...request, backend: 'auto' }, plan: planStorage(request), comparison, choice: cheapestShown(request, comparison)?.backend });
    expect(json.plan.perClient).toMatchObject({ maxMBps: 2500, clientsToSustain: 1, nconnect: 2, perFlowGbps: 10 });
  });

  test('--client-instance-type takes every type the catalogue knows, as the library does: a network-optimized type and a d3en too', () => {
    // c6in.8xlarge: a 50 Gbps baseline, under 16 x 5 Gbps; d3en.xlarge: 6 Gbps, 750 MB/s.
    expect(plan('10', '--client-instance-type', 'c6in.8xlarge').stdout).toMatch(/^one client +up to 6250 MB\/s \(limited by the client's network baseline, c6in\.8xlarge: 50 Gbps/m);
    const run = plan('10', '--client-instance-type', 'd3en.xlarge');
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^one client +up to 750 MB\/s \(limited by the client's network baseline, d3en\.xlarge: 6 Gbps/m);
  });

  test('--nconnect on a plan auto makes FSx for Lustre: not refused, the plan says it does not apply', () => {
    const run = plan('100', '--nconnect', '4', '--client-instance-type', 'm4.16xlarge');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^backend +fsx-lustre$/m);
    expect(run.stdout).toMatch(/^one client +up to 3125 MB\/s \(limited by the client's network baseline, m4\.16xlarge: 25 Gbps; FSx for Lustre: nconnect does not apply \(nconnect 4 ignored\)/m);
  });

  test('--throughput and --generation reach the planner', () => {
    expect(plan('10', '--throughput', '1000').stdout).toMatch(/^why +the cheapest plan that holds 10 TiB and sustains 1000 MB\/s/m);
    expect(plan('40', '--generation', 'current').stdout.startsWith(formatPlanTable(planStorage({ capacityTiB: 40, generation: Generation.CURRENT })))).toBe(true);
  });

  test('--io-size reaches the planner in KiB (128, 128k and 128KiB alike; 1m is 1,024) and every row, EFS included', () => {
    const table = formatPlanTable(planStorage({ capacityTiB: 3, backend: Backend.EBS, ioSizeKiB: 128 }));
    for (const size of ['128', '128k', '128KiB']) expect(plan('3', 'ebs', '--io-size', size).stdout.startsWith(table)).toBe(true);
    expect(plan('3', 'ebs', '--io-size', '128').stdout).toMatch(/^limited by +st1 IOPS of 1 x 500 \(up to 1024 KiB each\) at 128 KiB$/m);
    expect(plan('3', 'ebs', '--io-size', '1m').stdout).toBe(plan('3', 'ebs').stdout);
    expect(plan('10', '--io-size', '64k').stdout).toMatch(/^efs-bursting .* Bursting's 7,000 write IOPS at 64 KiB/m);
  });

  test.each([
    [['--thruput', '400'], /^Error: unknown option --thruput \(did you mean --throughput\?\); the options are --backend, .*, --help\n/],
    [['10', '--volume', '2'], /unknown option --volume \(did you mean --volumes\?\)/],
    [['10', '--instance', 'm4.xlarge'], /unknown option --instance \(did you mean --instance-type\?\)/],
    [['10', '--Json'], /unknown option --Json \(did you mean --json\?\)/],
    [['10', '--colour'], /unknown option --colour; the options are --backend, --throughput, --io-size, --generation, --arch, --volumes, --openzfs-deployment-type, --instance-type, --client-instance-type, --client-network-gbps, --nconnect, --placement-group, --json, --help/],
    [['10', '--nconect', '4'], /unknown option --nconect \(did you mean --nconnect\?\)/],
    [['10', '--placement'], /unknown option --placement \(did you mean --placement-group\?\)/],
    [['10', '--nconnect', '0'], /^Error: --nconnect must be a whole number from 1 to 16 \(the Linux NFS client's limit\); got '0'\n/],
    [['10', '--nconnect', '17'], /--nconnect must be a whole number from 1 to 16 .*; got '17'/],
    [['10', '--nconnect', '04'], /--nconnect must be a whole number from 1 to 16 .*; got '04'/],
    [['10', '--nconnect', '2.5'], /--nconnect must be a whole number from 1 to 16 .*; got '2.5'/],
    [['10', '--nconnect'], /option --nconnect needs a value \(--nconnect <1-16>\)/],
    [['10', '--placement-group=yes'], /option --placement-group takes no value; got '--placement-group=yes'/],
    [['10', '--client-instance-type', 'c5n.18xlarge'], /^Error: --client-instance-type must be one of m4\.\{xlarge,.*\}, .*, d2\.\{xlarge,2xlarge,4xlarge,8xlarge\}, d3\.\{xlarge,2xlarge,4xlarge,8xlarge\}, d3en\.\{.*,12xlarge\}; got 'c5n\.18xlarge'.*; for another type give its network baseline with --client-network-gbps\n/],
    [['10', '--client-instance-type', 'm6i.lrage'], /got 'm6i.lrage' \(did you mean m6i.large\?\)/],
    [['10', '--client-network-gbps', 'fast'], /--client-network-gbps must be a positive number of Gbps, e.g. 12.5; got 'fast'/],
    [['10', '--client-network-gbps', '0'], /--client-network-gbps must be a positive number of Gbps, e.g. 12.5; got '0'/],
    [['10', '--client-instance-type', 'm4.xlarge', '--client-network-gbps', '10'], /--client-instance-type and --client-network-gbps both give the client's network: give one/],
    [['10', 'fsx-lustre', '--nconnect', '4'], /--nconnect applies to NFS backends \(ebs, instance-store, fsx-openzfs\) only; got backend 'fsx-lustre'/],
    [['10', '--backend', 'fsx-lustre', '--placement-group'], /--placement-group applies to NFS backends \(ebs, instance-store, fsx-openzfs\) only; got backend 'fsx-lustre'/],
    [['10', '-x'], /unknown option -x; the options are/],
    [[], /^Error: <capacityTiB> is missing\nusage: npm run plan -- <capacityTiB>/],
    [['abc'], /<capacityTiB> must be a positive number of TiB, e.g. 10 or 21.5; got 'abc'/],
    [['-5'], /<capacityTiB> must be a positive number of TiB, e.g. 10 or 21.5; got '-5'/],
    [['0'], /<capacityTiB> must be a positive number of TiB, e.g. 10 or 21.5; got '0'/],
    [['1e1'], /<capacityTiB> must be a positive number of TiB, e.g. 10 or 21.5; got '1e1'/],
    [['5', 'nfs'], /^Error: backend must be one of auto, ebs, instance-store, fsx-lustre, fsx-openzfs; got 'nfs'\n/],
    [['5', 'eb'], /backend must be one of auto, ebs, instance-store, fsx-lustre, fsx-openzfs; got 'eb' \(did you mean ebs\?\)/],
    [['5', 'ebs', 'extra'], /too many arguments: 'extra' \(at most <capacityTiB> and a backend\)/],
    [['5', '--backend', 'fsx-lustr'], /--backend must be one of auto, ebs, instance-store, fsx-lustre, fsx-openzfs; got 'fsx-lustr' \(did you mean fsx-lustre\?\)/],
    [['5', 'ebs', '--backend', 'fsx-lustre'], /the backend is given twice, as 'ebs' and --backend fsx-lustre: give one/],
    [['5', '--generation', 'newest'], /--generation must be one of previous, current; got 'newest'/],
    [['5', '--generation', 'curent'], /--generation must be one of previous, current; got 'curent' \(did you mean current\?\)/],
    [['10', '--throughput', 'fast'], /--throughput must be a positive number of MB\/s, e.g. 400; got 'fast'/],
    [['10', '--throughput'], /option --throughput needs a value \(--throughput <MB\/s>\)/],
    [['10', '--throughput', '--json'], /option --throughput needs a value/],
    [['10', '--throughput', '1', '--throughput', '2'], /option --throughput is given twice/],
    [['10', '--json=yes'], /option --json takes no value; got '--json=yes'/],
    [['5', '--volumes', '22'], /--volumes must be a whole number of EBS data volumes from 1 to 21 \(at most 16 TiB each, 48 TiB in all\); got '22'/],
    [['5', '--volumes', '0'], /--volumes must be a whole number of EBS data volumes from 1 to 21/],
    [['5', 'fsx-lustre', '--volumes', '2'], /--volumes applies to the EBS backend only; got backend 'fsx-lustre'/],
    [['5', 'instance-store', '--instance-type', 'm4.xlarge'], /--instance-type applies to the EBS backend only; got backend 'instance-store'/],
    [['5', '--instance-type', 'd2.xlarge'], /--instance-type must be one of m4\.\{xlarge,.*\}, m6i\.\{.*\}, .*, r8gb\.\{.*,48xlarge\}; got 'd2.xlarge'/],
    [['5', '--instance-type', 'm4.xlrage'], /got 'm4.xlrage' \(did you mean m4.xlarge\?\)/],
    [['5', '--io-size', '128 KB'], /--io-size must be a whole number of KiB from 4 to 1024, optionally with k or m \(e.g. 128, 128k, 1m\); got '128 KB'/],
    [['5', '--io-size', '1.5m'], /--io-size must be a whole number of KiB from 4 to 1024, optionally with k or m/],
    // Out of range is a usage error too, named as typed rather than as the KiB it converts to.
    [['5', '--io-size', '2m'], /--io-size must be a whole number of KiB from 4 to 1024, .*; got '2m'/],
    [['5', '--io-size', '0'], /--io-size must be .*; got '0'/],
    [['5', '--io-size', '1025'], /--io-size must be .*; got '1025'/],
    [['5', '--io-size', '3k'], /--io-size must be .*; got '3k'/],
  ])('malformed %j: exit 2, the message and the usage on stderr, nothing on stdout', (args, message) => {
    const run = plan(...args);
    expect([run.status, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/\nusage: npm run plan -- .*\(--help lists the options\)$/);
  });

  test.each([
    [['100', 'ebs'], /capacityTiB must be .* at most 48 for backend 'ebs'/],
    [['40', '--volumes', '2'], /capacityTiB 40 does not fit in dataVolumeCount 2 st1 volume\(s\)/],
    [['10', 'ebs', '--throughput', '5000'], /throughputMBps 5000 is more than any single ebs server sustains for 10 TiB/],
    [['306', 'instance-store', '--generation', 'current'], /capacityTiB must be .* at most 305\.15 for backend 'instance-store' \(the largest instance store, d3en\.12xlarge, holds 305\.15 TiB\)/],
  ])('refused by the planner %j: exit 1, its message, no usage line', (args, message) => {
    const run = plan(...args);
    expect([run.status, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/usage:/);
  });

  test("the planner's messages name its fields: the options that set them follow", () => {
    expect(plan('40', '--volumes', '2').stderr).toMatch(/\n\(on this command line capacityTiB is the first argument, dataVolumeCount is --volumes\)$/);
    expect(plan('10', 'ebs', '--throughput', '5000').stderr).toMatch(/\n\(on this command line throughputMBps is --throughput\)$/);
    expect(plan('5', 'instance-store', '--generation', 'current').stderr).not.toMatch(/on this command line/);
  });

  test('--json with a refused request: nothing on stdout, the message on stderr', () => {
    expect(plan('100', 'ebs', '--json')).toEqual({ status: 1, stdout: '', stderr: expect.stringMatching(/^Error: capacityTiB must be/) });
  });

  test("--volumes accepts (no exit 2) exactly the values the app's dataVolumeCount context key takes", () => {
    const read = (value: string) => (key: ContextKey) => (key === 'dataVolumeCount' ? value : undefined);
    const accepts = (value: string) => {
      try {
        parseContext(read(value));
        return true;
      } catch {
        return false;
      }
    };
    // The context trims its values and reads '' as absent; a shell argument is taken as it is.
    const value = fc.oneof(fc.string(), fc.constantFrom('0', '1', '2', '3', '4', '01', '1.0', '+1', '-1', '3 ', '1e0', '0x1'))
      .filter((v) => v !== '' && v.trim() === v);
    fc.assert(fc.property(value, (v) => {
      const run = plan('5', `--volumes=${v}`);
      expect({ v, cli: run.status !== 2 }).toEqual({ v, cli: accepts(v) });
    }), { numRuns: 300, examples: [['1'], ['2'], ['3'], ['4'], ['01']] });
  });
});

describe('npm run plan: FSx for OpenZFS and EFS beside the servers (issue 30)', () => {
  test('`plan 2 --throughput 500`: every row with its price, the price sources, and the choice that follows the cheapest', () => {
    const run = plan('2', '--throughput', '500');
    expect([run.status, run.stderr]).toEqual([0, '']);
    for (const row of ['ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs', 'efs-elastic', 'efs-provisioned']) {
      expect(run.stdout).toMatch(new RegExp(`^${row} +[0-9.]+ +[0-9]+ MB/s .* [0-9]+\\.[0-9]{2} +`, 'm'));
    }
    expect(run.stdout).toMatch(/^efs-bursting +- +- +- +- +cannot: Bursting's baseline/m);
    expect(run.stdout).toMatch(/^Prices, USD a month:\n {2}ebs, instance-store: .*\n {2}fsx-lustre: .*\n {2}fsx-openzfs: AWS price list .*\n {2}efs-elastic, efs-provisioned, efs-bursting: AWS's EFS price data/m);
    expect(run.stdout).toMatch(/\n\nChoice: fsx-openzfs SINGLE_AZ_1\/512 at \$400\.58\/month, the cheapest plan shown that holds 2 TiB and sustains 500 MB\/s; `cdk deploy` with backend auto builds it\.$/);
    expect(JSON.parse(plan('2', '--throughput', '500', '--json').stdout).choice).toBe('fsx-openzfs');
  });

  test('`plan 0.01`: one answer, what auto builds; the cheapest deployable plan and EFS, said not deployed here, on one line after it', () => {
    const run = plan('0.01');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\n\nChoice: ebs m4\.xlarge at \$151\.63\/month, what `cdk deploy` with backend auto builds; it holds 0\.01 TiB\.\n/);
    expect(run.stdout).toMatch(/\nfsx-openzfs SINGLE_AZ_1\/64 is cheaper at \$36\.25\/month; auto keeps EC2 .*: pass backend fsx-openzfs .*This project deploys no EFS: efs-elastic at \$3\.30\/month is cheaper still \(deploy it with aws-cdk-lib's aws_efs\.FileSystem\)\.$/);
  });

  test('backend fsx-openzfs on the command line: the plan, its deployment and storage rows, its cost note', () => {
    const run = plan('4', 'fsx-openzfs', '--throughput', '1000');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^deployment +SINGLE_AZ_1\/1024\nstorage +FSx for OpenZFS SINGLE_AZ_1, 1024 MB\/s throughput capacity, 4096 GiB SSD, 40000 SSD IOPS provisioned$/m);
    expect(run.stdout).toMatch(/^cost +\$801\.15\/month \(SSD storage, throughput capacity and SSD IOPS above the included, us-east-1; backups extra\)$/m);
  });

  test('--openzfs-deployment-type SINGLE_AZ_HA_1 plans 128 MB/s, the least tier both AWS texts allow (OPENZFS-HA1-TIERS)', () => {
    const run = plan('10', 'fsx-openzfs', '--openzfs-deployment-type', 'SINGLE_AZ_HA_1');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^deployment +SINGLE_AZ_HA_1\/128$/m);
    // The library alike, with no throughput asked and with one the first tier would sustain.
    for (const throughputMBps of [undefined, 10]) {
      expect(planStorage({ capacityTiB: 10, backend: Backend.FSX_OPENZFS, throughputMBps, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_HA_1 } }).fsxOpenZfs)
        .toMatchObject({ deploymentType: 'SINGLE_AZ_HA_1', throughputCapacityMBps: 128 });
    }
  });

  test('--openzfs-deployment-type: another backend, or a type FSx does not have, exit 2 naming the option and the types', () => {
    expect(plan('10', 'ebs', '--openzfs-deployment-type', 'MULTI_AZ_1')).toMatchObject({ status: 2, stderr: expect.stringMatching(/^Error: --openzfs-deployment-type applies to the fsx-openzfs backend only; got backend 'ebs'/) });
    expect(plan('10', '--openzfs-deployment-type', 'SINGLE_AZ_3')).toMatchObject({
      status: 2, stderr: expect.stringContaining('--openzfs-deployment-type must be one of SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2, MULTI_AZ_1'),
    });
  });
});
