/**
 * Bad construct props, tried as an attacker and as a careless user: every value below must stop synth with a message
 * that names the prop, the rule and the value, and no stack trace. Good values next to them must pass, so that the
 * rules are no wider than they claim. The context values: bad-input-context.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Stack, Token } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { checkContextKeys, parseContext } from '../../lib/context';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { SYSTEM_DIRECTORIES, addressSpaceProblem, cidrProblem, directoryProblem, ipv4Problem } from '../../lib/validation';
import { readContext, serverStack } from '../support/stacks';
import { expectNoStackTrace, thrown } from '../support/thrown';
import { Backend } from '../../lib/backend-enum';

const ROOT = path.join(__dirname, '..', '..');

describe('construct props (new StorageServer in a bare stack)', () => {
  const PUBLIC = /public address space outside private space .*; set allowPublicClientCidrs/;
  test.each<[string, Partial<StorageServerProps>, RegExp]>([
    // The review's list
    ['half of IPv4 twice', { clientCidrs: ['0.0.0.0/1', '128.0.0.0/1'] }, /clientCidrs: .*got '0.0.0.0\/1': it holds addresses of 0.0.0.0\/8, "This network"/],
    ['host bits set', { clientCidrs: ['10.0.0.1/16'] }, /clientCidrs: .*got '10.0.0.1\/16': host bits are set; the network is 10.0.0.0\/16/],
    ['a leading zero', { clientCidrs: ['010.0.0.0/16'] }, /clientCidrs: .*got '010.0.0.0\/16': .*leading zero/],
    ['snapshots.retain -1 (once turned snapshots off)', { snapshots: { retain: -1 } }, /snapshots.retain must be a whole number from 0 \(snapshots off\) to 1000, got -1\./],
    ['snapshots.retain NaN (once turned snapshots off)', { snapshots: { retain: NaN } }, /snapshots.retain must be .*, got NaN\./],
    ['exportPath /etc (over the server\'s /etc)', { exportPath: '/etc' }, /exportPath must be .*, got '\/etc': a system directory \(\/etc\)/],
    ['mountPoint /etc (over the clients\' /etc)', { mountPoint: '/etc' }, /mountPoint must be .*, got '\/etc': a system directory \(\/etc\)/],
    ['duplicate snapshot ids', { backend: Backend.EBS, capacityTiB: 30, dataVolumeSnapshotIds: ['snap-01234567', 'snap-01234567'] }, /dataVolumeSnapshotIds: each data volume needs its own snapshot, but snap-01234567 appears more than once/],
    // CIDRs and the clusterware master
    ['a /0 on a private address', { clientCidrs: ['10.0.0.0/0'] }, /clientCidrs: .*a \/0 \(every IPv4 address\) is refused/],
    ['a public host', { clientCidrs: ['8.8.8.8/32'] }, PUBLIC],
    ['the same CIDR twice', { clientCidrs: ['10.0.0.0/16', '10.0.0.0/16'] }, /clientCidrs: each entry must appear once, got '10.0.0.0\/16' twice/],
    ['loginIp 0.0.0.0', { clusterware: { loginIp: '0.0.0.0' } }, /clusterware.loginIp must be .*, got '0.0.0.0': an address of 0.0.0.0\/32, "This host on this network"/],
    ['loginIp the metadata service', { clusterware: { loginIp: '169.254.169.254' } }, /clusterware.loginIp .*got '169.254.169.254': an address of 169.254.0.0\/16, "Link Local"/],
    ['loginIp with a leading zero', { clusterware: { loginIp: '010.0.0.10' } }, /clusterware.loginIp .*got '010.0.0.10': .*write 10.0.0.10/],
    ['loginIp public', { clusterware: { loginIp: '8.8.4.4' } }, /clusterware.loginIp .*got '8.8.4.4': public address space/],
    // numbers
    ['snapshots.retain Infinity', { snapshots: { retain: Infinity } }, /snapshots.retain .*got Infinity\./],
    ['snapshots.retain 2.5', { snapshots: { retain: 2.5 } }, /snapshots.retain .*got 2.5\./],
    ['snapshots.retain 1001', { snapshots: { retain: 1001 } }, /snapshots.retain .*to 1000, got 1001\./],
    ['snapshots.intervalHours 5', { snapshots: { intervalHours: 5 } }, /snapshots.intervalHours must be one of 1, 2, 3, 4, 6, 8, 12, 24 \(DLM\), got 5\./],
    ['snapshots.intervalHours NaN', { snapshots: { intervalHours: NaN } }, /snapshots.intervalHours .*got NaN\./],
    ['snapshots.intervalHours 0 with snapshots off', { snapshots: { retain: 0, intervalHours: 0 } }, /snapshots.intervalHours .*got 0\./],
    ['crossRegionCopy.retainDays -1', { snapshots: { crossRegionCopy: { targetRegion: 'eu-west-1', retainDays: -1 } } }, /snapshots.crossRegionCopy.retainDays must be a whole number from 1 to 36500, got -1\./],
    ['snapshots on instance store still checked', { backend: Backend.INSTANCE_STORE, capacityTiB: 3, snapshots: { retain: -1 } }, /snapshots.retain .*got -1\./],
    ['nfs.threads NaN', { nfs: { threads: NaN } }, /nfs.threads must be a whole number from 1 to 1024, got NaN\./],
    ['nfs.threads Infinity', { nfs: { threads: Infinity } }, /nfs.threads .*got Infinity\./],
    ['nfs.threads -8', { nfs: { threads: -8 } }, /nfs.threads .*got -8\./],
    ['nfs.threads 2.5', { nfs: { threads: 2.5 } }, /nfs.threads .*got 2.5\./],
    ['capacityTiB NaN', { capacityTiB: NaN }, /capacityTiB must be a number greater than 0.*got NaN/],
    ['capacityTiB -5', { capacityTiB: -5 }, /capacityTiB must be .*got -5/],
    ['capacityTiB Infinity', { capacityTiB: Infinity }, /capacityTiB must be .*got Infinity/],
    ['dataVolumeCount 1.5', { backend: Backend.EBS, capacityTiB: 5, dataVolumeCount: 1.5 }, /dataVolumeCount must be a whole number from 1 to 21; got 1.5/],
    ['dataVolumeCount NaN', { backend: Backend.EBS, capacityTiB: 5, dataVolumeCount: NaN }, /dataVolumeCount .*got NaN/],
    // paths
    ['exportPath under /etc', { exportPath: '/etc/x' }, /exportPath .*got '\/etc\/x': under a system directory \(\/etc\)/],
    ['exportPath over the NFS state', { exportPath: '/var/lib/nfs' }, /exportPath .*got '\/var\/lib\/nfs': under a system directory \(\/var\)/],
    ['exportPath under /home, even with allowHomeMountPoint', { exportPath: '/home/x', allowHomeMountPoint: true }, /exportPath .*got '\/home\/x': under a system directory \(\/home\)/],
    ['exportPath /', { exportPath: '/' }, /exportPath .*got '\/': not an absolute directory path/],
    ['exportPath //etc', { exportPath: '//etc' }, /exportPath .*got '\/\/etc': not an absolute directory path/],
    ['exportPath /./etc', { exportPath: '/./etc' }, /exportPath .*got '\/.\/etc': not an absolute directory path/],
    ['exportPath /export/../etc', { exportPath: '/export/../etc' }, /exportPath .*got '\/export\/..\/etc'/],
    ['mountPoint /usr/local/data', { mountPoint: '/usr/local/data' }, /mountPoint .*under a system directory \(\/usr\)/],
    ['mountPoint /home/x without the opt-in', { mountPoint: '/home/x' }, /mountPoint .*got '\/home\/x': under a system directory \(\/home\).*set allowHomeMountPoint/],
    ['mountPoint /tmp', { mountPoint: '/tmp' }, /mountPoint .*got '\/tmp': a system directory/],
    ['mountPoint /proc/x', { mountPoint: '/proc/x' }, /mountPoint .*\(\/proc\)/],
    ['mountPoint /root', { mountPoint: '/root' }, /mountPoint .*\(\/root\)/],
    ['mountPoint with a trailing /', { mountPoint: '/data/' }, /mountPoint .*got '\/data\/': not an absolute directory path/],
    ['mountPoint relative', { mountPoint: 'data' }, /mountPoint .*got 'data': not an absolute directory path/],
    ['a token for a boolean (a string, so truthy to JavaScript)', { allowPublicClientCidrs: Token.asString({ Ref: 'Open' }) as unknown as boolean },
      /^allowPublicClientCidrs must be one of true, false, got a token: the value decides what synth makes, so give it literally\./],
    ['a token for nfs.threads (written into the server\'s settings)', { nfs: { threads: Token.asNumber({ Ref: 'Threads' }) } }, /^nfs\.threads must be a whole number given at synth/],
    ['/opt as a user-listed mount root', { mountRoots: ['/data', '/opt'], mountPoint: '/opt/aws' },
      /mountRoots must be absolute directories outside the system directories, got '\/opt': a directory the FHS names for other files \(\/opt\)/],
    ['/efi as a user-listed mount root', { mountRoots: ['/efi'], mountPoint: '/efi' }, /got '\/efi': a system directory \(\/efi\)/],
    ['exportPath /srv', { exportPath: '/srv' }, /exportPath .*'\/srv': a directory the FHS names for other files \(\/srv\)/],
    ['mountPoint of 256 characters (the client script refuses it)', { mountPoint: `/${'d'.repeat(255)}` }, /mountPoint .*: longer than 255 characters \(256\)/],
    // restore
    ['snapshot ids fewer than the volumes', { backend: Backend.EBS, capacityTiB: 30, dataVolumeSnapshotIds: ['snap-01234567'] }, /dataVolumeSnapshotIds: the plan has 2 data volume\(s\)/],
  ])('%s is refused', (_, props, message) => {
    const text = thrown(() => serverStack(props));
    expect(text).toMatch(message);
    expectNoStackTrace(text);
  });

  test.each<[string, Partial<StorageServerProps>]>([
    ['clientCidrs 172.31.0.0/16', { clientCidrs: ['172.31.0.0/16'] }],
    ['clientCidrs 100.64.0.0/10', { clientCidrs: ['100.64.0.0/10'] }],
    ['mountPoint /home/x with allowHomeMountPoint', { mountPoint: '/home/x', allowHomeMountPoint: true }],
    ['mountPoint /home with allowHomeMountPoint', { mountPoint: '/home', allowHomeMountPoint: true }],
    ['mountPoint /shared', { mountPoint: '/shared' }],
    ['exportPath and mountPoint /scratch', { exportPath: '/scratch', mountPoint: '/scratch' }],
    ['paths that only start like system directories', { exportPath: '/variant/data', mountPoint: '/homes', mountRoots: ['/homes'] }],
    ['a site directory below /opt as a mount root (OpenHPC\'s /opt/ohpc/pub)', { mountPoint: '/opt/ohpc/pub', mountRoots: ['/opt/ohpc/pub'] }],
    ['exportPath below /srv', { exportPath: '/srv/nfs' }],
    ['snapshots.retain 0 (off, deliberately)', { snapshots: { retain: 0 } }],
    ['snapshots.retain 1000, every 6 hours', { snapshots: { retain: 1000, intervalHours: 6 } }],
    ['loginIp in 192.168/16', { clusterware: { loginIp: '192.168.10.5' } }],
  ])('%s is accepted', (_, props) => {
    expect(() => serverStack(props)).not.toThrow();
  });

  test('snapshots.retain 0 still means no snapshot policy; a bad value never does', () => {
    expect(serverStack({ snapshots: { retain: 0 } }).server.snapshotPolicy).toBeUndefined();
    expect(serverStack({ snapshots: { retain: 1 } }).server.snapshotPolicy).toBeDefined();
  });

  test('public client CIDRs pass only with allowPublicClientCidrs, and synth warns about them', () => {
    // GIVEN / WHEN
    const { stack } = serverStack({ clientCidrs: ['11.0.0.0/24'], allowPublicClientCidrs: true });
    // THEN
    Annotations.fromStack(stack).hasWarning('/Test/Storage', Match.stringLikeRegexp('11.0.0.0/24 is public address space'));
    expect(Annotations.fromStack(serverStack({ clientCidrs: ['10.1.0.0/16'] }).stack)
      .findWarning('*', Match.stringLikeRegexp('public address space'))).toHaveLength(0);
  });
});

describe('an imported VPC with a concrete CIDR', () => {
  function importedVpcServer(vpcCidrBlock: string, props: Partial<StorageServerProps>): Template {
    const stack = new Stack(new App(), 'Imported', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
      vpcId: 'vpc-0123456789abcdef0',
      vpcCidrBlock,
      availabilityZones: ['us-east-1a'],
      privateSubnetIds: ['subnet-0123456789abcdef0'],
    });
    new StorageServer(stack, 'Storage', { vpc, ...props });
    return Template.fromStack(stack);
  }

  test('its CIDR is held to the clientCidrs rules: a world-open one is refused, not exported to', () => {
    expect(thrown(() => importedVpcServer('0.0.0.0/0', {}))).toMatch(
      /vpc: its CIDR \(vpcCidrBlock\) is held to the clientCidrs rules.*got '0.0.0.0\/0': a \/0 \(every IPv4 address\) is refused/,
    );
    expect(thrown(() => importedVpcServer('0.0.0.0/0', { backend: Backend.FSX_OPENZFS, capacityTiB: 1 }))).toMatch(/got '0.0.0.0\/0'/);
  });

  test('a CIDR of a size EC2 never gives a VPC is refused, naming the sizes', () => {
    expect(thrown(() => importedVpcServer('10.0.0.0/8', {}))).toMatch(
      /got '10.0.0.0\/8': a VPC's CIDR is \/16 to \/28 \(EC2 CreateVpc\), not \/8/,
    );
  });

  test('a public CIDR needs allowPublicClientCidrs, with or without clientCidrs, and then warns', () => {
    for (const props of [{}, { clientCidrs: ['11.0.0.128/25'] }]) {
      expect(thrown(() => importedVpcServer('11.0.0.0/24', props))).toMatch(
        /vpc: .*got '11.0.0.0\/24': public address space outside private space .*; set allowPublicClientCidrs/,
      );
    }
    const template = importedVpcServer('11.0.0.0/24', { clientCidrs: ['11.0.0.128/25'], allowPublicClientCidrs: true });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: Match.arrayWith([Match.objectLike({ CidrIp: '11.0.0.128/25', FromPort: 2049 })]),
    });
    const stack = new Stack(new App(), 'Warned', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
      vpcId: 'vpc-0123456789abcdef0', vpcCidrBlock: '11.0.0.0/24', availabilityZones: ['us-east-1a'],
      privateSubnetIds: ['subnet-0123456789abcdef0'],
    });
    new StorageServer(stack, 'Storage', { vpc, allowPublicClientCidrs: true });
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp("11.0.0.0/24 \\(the VPC's CIDR\\) is public address space"));
  });

  test('a public client CIDR in a private VPC is refused', () => {
    expect(thrown(() => importedVpcServer('10.0.0.0/16', { clientCidrs: ['11.0.1.0/24'] }))).toMatch(
      /clientCidrs: .*got '11.0.1.0\/24': public address space outside private space/,
    );
  });
});

describe("limits AWS enforces at deploy, refused at synth (issue 39, item 8)", () => {
  test('two servers of one stack with one serverName in two clusters: their dashboards would share a name', () => {
    const stack = new Stack(new App(), 'Two', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 });
    new StorageServer(stack, 'A', { vpc, clusterName: 'hpc1', serverName: 'home' });
    expect(thrown(() => new StorageServer(stack, 'B', { vpc, clusterName: 'hpc2', serverName: 'home' }))).toMatch(
      /^monitoring.dashboard: the dashboard name 'StorageServer-Two-home' is taken in this stack by Two\/A\/Monitoring\/Dashboard\/Resource \(CloudWatch dashboard names are unique per account, across all Regions\): .*set monitoring: \{ dashboard: false \}/,
    );
    expect(() => new StorageServer(stack, 'C', { vpc, clusterName: 'hpc3', serverName: 'home', monitoring: { dashboard: false } })).not.toThrow();
  });

  // VPC-SG-RULES
  test('more inbound rules in the server\'s security group than the default quota of 60: a warning naming the quota', () => {
    const cidrs = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i}.0/24`);
    const warnings = (props: Partial<StorageServerProps>) =>
      Annotations.fromStack(serverStack(props).stack).findWarning('*', Match.stringLikeRegexp('inbound IPv4 rules, past the default quota'));
    expect(warnings({ clientCidrs: cidrs(60) })).toEqual([]);
    const [warning] = warnings({ clientCidrs: cidrs(61) });
    expect(String(warning?.entry.data)).toMatch(/holds 61 inbound IPv4 rules, past the default quota of 60 per security group \(Amazon VPC quotas/);
    // FSx for Lustre admits each CIDR on two port ranges, 988 and 1018-1023, so 31 CIDRs are 62 rules.
    expect(warnings({ backend: Backend.FSX_LUSTRE, capacityTiB: 1.2, clientCidrs: cidrs(30) })).toEqual([]);
    expect(warnings({ backend: Backend.FSX_LUSTRE, capacityTiB: 1.2, clientCidrs: cidrs(31) })).toHaveLength(1);
  });

  test("a loginIp EC2 reserves in one of the VPC's subnets (its first four addresses and its last) is refused", () => {
    const withLogin = (loginIp: string) => () => {
      const stack = new Stack(new App(), 'Login', { env: { account: '123456789012', region: 'us-east-1' } });
      const vpc = ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
        vpcId: 'vpc-0123456789abcdef0', vpcCidrBlock: '10.20.0.0/16', availabilityZones: ['us-east-1a'],
        privateSubnetIds: ['subnet-0123456789abcdef0'], privateSubnetIpv4CidrBlocks: ['10.20.1.0/24'],
      });
      new StorageServer(stack, 'Storage', { vpc, clusterware: { loginIp } });
    };
    for (const [ip, role] of [['10.20.1.1', 'its address 1 of the first four'], ['10.20.1.2', 'its address 2 of the first four'],
      ['10.20.1.3', 'its address 3 of the first four'], ['10.20.1.255', 'its last address']]) {
      expect(thrown(withLogin(ip))).toContain(`clusterware.loginIp must be an address an instance can have, got '${ip}': EC2 reserves ` +
        `the first four addresses and the last of every subnet, and ${ip} is ${role} in subnet 10.20.1.0/24`);
    }
    for (const ip of ['10.20.1.4', '10.20.1.254', '10.20.2.1']) expect(withLogin(ip)).not.toThrow();
  });
});

describe('the shared validators', () => {
  test('SYSTEM_DIRECTORIES equals the list lib/scripts/client-mount.sh holds', () => {
    const script = fs.readFileSync(path.join(ROOT, 'lib', 'scripts', 'client-mount.sh'), 'utf8');
    const line = /^readonly SYSTEM_DIRECTORIES='([^']*)'$/m.exec(script);
    expect(line).not.toBeNull();
    expect(line![1].split(' ')).toEqual([...SYSTEM_DIRECTORIES]);
  });

  test("docs/context-keys.md's example messages are the ones synth prints, each a line of its own", () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'context-keys.md'), 'utf8');
    expect(page).toContain(`\nError: ${thrown(() => parseContext(readContext({ clientCidrs: '10.0.0.1/16' })))}\n`);
    expect(page).toContain(`\nError: ${thrown(() => checkContextKeys(['capacityTB'])).split(' capacityTiB, backend,')[0]} capacityTiB, backend, ...\n`);
  });

  test('each validator returns undefined for a good value', () => {
    expect(cidrProblem('10.0.0.0/16')).toBeUndefined();
    expect(cidrProblem('10.1.2.3/32')).toBeUndefined();
    expect(ipv4Problem('10.0.1.10')).toBeUndefined();
    expect(addressSpaceProblem('172.31.255.0/24')).toBeUndefined();
    expect(addressSpaceProblem('11.0.0.0/24', { allowPublic: true })).toBeUndefined();
    expect(directoryProblem('/export/data')).toBeUndefined();
    expect(directoryProblem('/home/users', { allowHome: true })).toBeUndefined();
  });

  test('the edges of private space', () => {
    expect(addressSpaceProblem('172.16.0.0/12')).toBeUndefined();
    expect(addressSpaceProblem('172.32.0.0/16')).toMatch(/public/);
    expect(addressSpaceProblem('100.127.255.255')).toBeUndefined();
    expect(addressSpaceProblem('100.128.0.0')).toMatch(/public/);
    expect(addressSpaceProblem('11.0.0.0/8')).toMatch(/public/);
    expect(addressSpaceProblem('192.169.0.0/16')).toMatch(/public/);
  });
});
