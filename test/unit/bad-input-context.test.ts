/**
 * Bad context values given as `-c key=value`, tried as an attacker and as a careless user. Every value below must stop
 * synth with a message that names the key, the rule and the value, and no stack trace. Good values next to them must
 * pass, so that the rules are no wider than they claim. bad-input-props.test.ts tries the construct's props, and the
 * slow app-cli.test.ts the CLI rows.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'aws-cdk-lib';
import { CONTEXT_DEFAULTS, ContextKey, checkContextKeys, parseContext } from '../../lib/context';
import { EC2_ONLY_KEYS } from '../../lib/sizing/ec2-context';
import { StorageServerStack } from '../../lib/storage-server-stack';
import { appStack, lookedUpAppStack, readContext } from '../support/stacks';
import { expectNoStackTrace, thrown } from '../support/thrown';

const ROOT = path.join(__dirname, '..', '..');

describe('context values (parseContext)', () => {
  const PUBLIC = /public address space outside private space \(10\.0\.0\.0\/8, 172\.16\.0\.0\/12, 192\.168\.0\.0\/16, 100\.64\.0\.0\/10\); set allowPublicClientCidrs/;
  test.each<[string, Partial<Record<ContextKey, unknown>>, RegExp]>([
    // Addresses and snapshot ids a reviewer tries first
    ['half of IPv4 twice', { clientCidrs: '0.0.0.0/1,128.0.0.0/1' }, /clientCidrs="0.0.0.0\/1,128.0.0.0\/1".*bad: '0.0.0.0\/1': it holds addresses of 0.0.0.0\/8, "This network" in the IANA IPv4 Special-Purpose Address Registry/],
    ['all of IPv4', { clientCidrs: '0.0.0.0/0' }, /clientCidrs="0.0.0.0\/0".*a \/0 \(every IPv4 address\) is refused/],
    ['a leading zero (octal to inet_aton)', { clientCidrs: '010.0.0.0/16' }, /clientCidrs="010.0.0.0\/16".*leading zero.*write 10.0.0.0/],
    ['host bits set', { clientCidrs: '10.0.0.1/16' }, /clientCidrs="10.0.0.1\/16".*host bits are set; the network is 10.0.0.0\/16/],
    ['loginIp with leading zeros', { loginIp: '010.000.000.010' }, /loginIp="010.000.000.010".*leading zero.*write 10.0.0.10/],
    ['loginIp 0.0.0.0', { loginIp: '0.0.0.0' }, /loginIp="0.0.0.0".*an address of 0.0.0.0\/32, "This host on this network"/],
    ['duplicate restore ids', { backend: 'ebs', capacityTiB: '30', restoreSnapshotIds: 'snap-01234567,snap-01234567' }, /restoreSnapshotIds="snap-01234567,snap-01234567".*distinct snapshot ids.*repeated: snap-01234567/],
    ['restore ids fewer than the volumes', { backend: 'ebs', capacityTiB: '30', restoreSnapshotIds: 'snap-01234567' }, /restoreSnapshotIds="snap-01234567".*the plan has 2 data volume\(s\), so give exactly 2 snapshot id\(s\) in stripe order, got 1/],
    ['restore ids more than the volumes', { restoreSnapshotIds: 'snap-01234567,snap-89abcdef' }, /restoreSnapshotIds="snap-01234567,snap-89abcdef".*the plan has 1 data volume\(s\)/],
    ['restore ids on instance store', { backend: 'instance-store', capacityTiB: '3', restoreSnapshotIds: 'snap-01234567' }, /restoreSnapshotIds="snap-01234567".*only the EBS backend has data volumes, but the plan is instance-store/],
    // CIDRs
    ['a prefix over 32', { clientCidrs: '10.0.0.0/33' }, /clientCidrs="10.0.0.0\/33".*the prefix length must be 1-32/],
    ['a prefix with a leading zero', { clientCidrs: '10.0.0.0/08' }, /clientCidrs="10.0.0.0\/08".*prefix length has a leading zero; write \/8/],
    ['a public /24', { clientCidrs: '8.8.8.0/24' }, PUBLIC],
    ['a /7 that spills out of 10/8', { clientCidrs: '10.0.0.0/7' }, /clientCidrs="10.0.0.0\/7".*public address space/],
    ['a /15 that spills out of 192.168/16', { clientCidrs: '192.168.0.0/15' }, /clientCidrs="192.168.0.0\/15".*public address space/],
    ['172.16/12 written with host bits', { clientCidrs: '172.16.0.0/11' }, /host bits are set; the network is 172.0.0.0\/11/],
    ['100.64/10 widened with host bits', { clientCidrs: '100.64.0.0/9' }, /host bits are set; the network is 100.0.0.0\/9/],
    ['loopback as clients', { clientCidrs: '127.0.0.0/8' }, /clientCidrs="127.0.0.0\/8".*it holds addresses of 127.0.0.0\/8, "Loopback".*never clients, even with allowPublicClientCidrs/],
    ['link-local as clients', { clientCidrs: '169.254.0.0/16' }, /clientCidrs="169.254.0.0\/16".*it holds addresses of 169.254.0.0\/16, "Link Local"/],
    ['one private CIDR and one public', { clientCidrs: '10.0.0.0/16,52.0.0.0/8' }, /bad: '52.0.0.0\/8': public address space/],
    ['the same CIDR twice', { clientCidrs: '10.0.0.0/16, 10.0.0.0/16' }, /clientCidrs=.*each once \(repeated: 10.0.0.0\/16\)/],
    ['an address without a prefix', { clientCidrs: '10.0.0.0' }, /clientCidrs="10.0.0.0".*not an IPv4 CIDR such as 10.0.0.0\/16/],
    ['semicolons', { clientCidrs: '10.0.0.0/16;10.1.0.0/16' }, /clientCidrs=.*not an IPv4 CIDR/],
    ['IPv6', { clientCidrs: '::/0' }, /clientCidrs="::\/0".*not an IPv4 CIDR/],
    ['an octet over 255', { clientCidrs: '10.0.0.256/32' }, /clientCidrs=.*each of the four numbers must be 0-255/],
    ['a trailing comma', { clientCidrs: '10.0.0.0/16,' }, /clientCidrs=.*bad: ''/],
    ['a JSON list from cdk.json', { clientCidrs: ['10.0.0.0/16'] }, /clientCidrs=.*a string, number or boolean/],
    // loginIp
    ['loginIp broadcast', { loginIp: '255.255.255.255' }, /loginIp="255.255.255.255".*"Limited Broadcast"/],
    ['loginIp loopback', { loginIp: '127.0.0.1' }, /loginIp="127.0.0.1".*an address of 127.0.0.0\/8, "Loopback"/],
    ['loginIp the metadata service', { loginIp: '169.254.169.254' }, /loginIp="169.254.169.254".*"Link Local"/],
    ['loginIp multicast', { loginIp: '224.0.0.1' }, /loginIp="224.0.0.1".*multicast/],
    ['loginIp public', { loginIp: '8.8.8.8' }, /loginIp="8.8.8.8".*public address space.*allowPublicClientCidrs/],
    ['loginIp as a CIDR', { loginIp: '10.0.0.1/32' }, /loginIp="10.0.0.1\/32".*IPv4 address of one host, such as 10.0.1.10.*bad: not an IPv4 address/],
    ['loginIp as a host name', { loginIp: 'login1' }, /loginIp="login1".*IPv4 address/],
    // opt-in
    ['allowPublicClientCidrs=yes', { allowPublicClientCidrs: 'yes' }, /allowPublicClientCidrs="yes".*'true' or 'false'/],
    ['allowPublicClientCidrs=1', { allowPublicClientCidrs: '1' }, /allowPublicClientCidrs="1".*'true' or 'false'/],
    // numbers
    ['capacityTiB=NaN', { capacityTiB: 'NaN' }, /capacityTiB="NaN".*positive number of TiB/],
    ['capacityTiB=1e3', { capacityTiB: '1e3' }, /capacityTiB="1e3".*positive number of TiB/],
    ['capacityTiB=5TiB', { capacityTiB: '5TiB' }, /capacityTiB="5TiB".*positive number of TiB/],
    ['capacityTiB=-0', { capacityTiB: '-0' }, /capacityTiB="-0"/],
    ['snapshotRetain=NaN', { snapshotRetain: 'NaN' }, /snapshotRetain="NaN".*0 \(snapshots off\) to 1000/],
    ['snapshotRetain=-1', { snapshotRetain: '-1' }, /snapshotRetain="-1".*0 \(snapshots off\) to 1000/],
    ['snapshotRetain=1e2', { snapshotRetain: '1e2' }, /snapshotRetain="1e2"/],
    ['snapshotRetain=7.0', { snapshotRetain: '7.0' }, /snapshotRetain="7.0"/],
    ['snapshotRetain=Infinity (JSON)', { snapshotRetain: Infinity }, /snapshotRetain="Infinity"/],
    ['dataVolumeCount=-1', { dataVolumeCount: '-1' }, /dataVolumeCount="-1".*from 1 to 21/],
    ['dataVolumeCount=NaN', { dataVolumeCount: 'NaN' }, /dataVolumeCount="NaN".*from 1 to 21/],
    ['dataVolumeCount=22', { dataVolumeCount: '22' }, /dataVolumeCount="22".*from 1 to 21/],
    ['dataVolumeCount=0', { dataVolumeCount: '0' }, /dataVolumeCount="0".*from 1 to 21/],
    // words
    ['terminationProtection=TRUE', { terminationProtection: 'TRUE' }, /terminationProtection="TRUE".*'true' or 'false'/],
    ['acceptDataLoss=1', { acceptDataLoss: '1' }, /acceptDataLoss="1".*'true' or 'false'/],
    ['backend=EBS', { backend: 'EBS' }, /backend="EBS".*'auto', 'ebs', 'instance-store'/],
    ['backend=lustre', { backend: 'lustre' }, /backend="lustre".*one of 'auto', 'ebs', 'instance-store', 'fsx-lustre'/],
    ['fsxDeploymentType without backend=fsx-lustre', { fsxDeploymentType: 'PERSISTENT_2' }, /fsxDeploymentType="PERSISTENT_2": allowed is only together with backend=fsx-lustre \(backend is 'auto'\)/],
    ['fsxDeploymentType=SCRATCH_1', { backend: 'fsx-lustre', fsxDeploymentType: 'SCRATCH_1' }, /fsxDeploymentType="SCRATCH_1": allowed is one of 'PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2'/],
    ['fsxPerUnitStorageThroughput=300', { backend: 'fsx-lustre', fsxPerUnitStorageThroughput: '300' }, /^Invalid context value fsxPerUnitStorageThroughput="300": must be one of 125, 250, 500, 1000 \(MB\/s per TiB\) for PERSISTENT_2 SSD/],
    ['fsxPerUnitStorageThroughput=fast', { backend: 'fsx-lustre', fsxPerUnitStorageThroughput: 'fast' }, /fsxPerUnitStorageThroughput="fast": allowed is a whole number of MB\/s per TiB/],
    ['fsxStorageType=HDD on PERSISTENT_2', { backend: 'fsx-lustre', fsxStorageType: 'HDD' }, /^Invalid context value fsxStorageType="HDD": 'HDD' is offered only with fsxDeploymentType 'PERSISTENT_1'; got fsxDeploymentType 'PERSISTENT_2'\.$/],
    // The storage type is at fault, not the throughput given beside it.
    ['fsxStorageType=HDD with fsxPerUnitStorageThroughput=125', { backend: 'fsx-lustre', fsxStorageType: 'HDD', fsxPerUnitStorageThroughput: '125' }, /^Invalid context value fsxStorageType="HDD": 'HDD' is offered only with fsxDeploymentType 'PERSISTENT_1'; got fsxDeploymentType 'PERSISTENT_2'\.$/],
    ['fsxPerUnitStorageThroughput=125 on SCRATCH_2', { backend: 'fsx-lustre', fsxDeploymentType: 'SCRATCH_2', fsxPerUnitStorageThroughput: '125' }, /^Invalid context value fsxPerUnitStorageThroughput="125": is fixed for SCRATCH_2/],
    ['fsxStorageType=NVME', { backend: 'fsx-lustre', fsxStorageType: 'NVME' }, /fsxStorageType="NVME": allowed is 'SSD' or 'HDD'/],
    ['fsxDataRepositoryPath not s3', { backend: 'fsx-lustre', fsxDataRepositoryPath: 'https://bucket' }, /fsxDataRepositoryPath="https:\/\/bucket": allowed is an S3 path/],
    ['clientMount=no', { clientMount: 'no' }, /clientMount="no": allowed is 'true' or 'false'/],
    ['generation=latest', { generation: 'latest' }, /generation="latest": allowed is 'previous' \(d2, m4\) or 'current' \(Nitro: m6i with st1, d3 and d3en\)/],
    ['a short VPC id', { vpcId: 'vpc-12345' }, /vpcId="vpc-12345".*vpc-0123456789abcdef0/],
    ['subnetId without vpcId', { subnetId: 'subnet-0123456789abcdef0' }, /subnetId=.*only together with vpcId/],
    ['an upper-case security group id', { clientSecurityGroupId: 'sg-0123456789ABCDEF0' }, /clientSecurityGroupId=.*sg-0123456789abcdef0/],
    ['a path as cluster name', { clusterName: '../etc' }, /clusterName="..\/etc".*A-Z a-z 0-9 _ \. -/],
    ['a space in the server name', { serverName: 'nfs 1' }, /serverName="nfs 1"/],
    ['a short image id', { machineImageId: 'ami-0123' }, /machineImageId="ami-0123"/],
    ['an AWS tag key in upper case', { clientTagKey: 'AWS:cluster' }, /clientTagKey="AWS:cluster".*not starting with 'aws:'/],
    ['a key pair name of 256 characters', { keyPair: 'k'.repeat(256) }, /keyPair=.*1-255 printable ASCII/],
    ['a malformed restore id', { restoreSnapshotIds: 'snap-0123456G' }, /restoreSnapshotIds="snap-0123456G".*bad: 'snap-0123456G'/],
  ])('%s is refused', (_, context, message) => {
    const text = thrown(() => parseContext(readContext(context)));
    expect(text).toMatch(message);
    expect(text).toMatch(/^Invalid context value \w+=/);
    expectNoStackTrace(text);
  });

  // Said once and never contradicted: a loopback loginIp is refused "even with allowPublicClientCidrs", so the
  // message may not also offer that key as the way out.
  test.each(['127.0.0.1', '8.8.8.8', '169.254.169.254', '010.0.0.1'])('loginIp=%s: one "allowed is", no contradiction', (ip) => {
    const text = thrown(() => parseContext(readContext({ loginIp: ip })));
    expect(text.match(/allowed is/g)).toHaveLength(1);
    expect(text).not.toMatch(/unless allowPublicClientCidrs=true/);
  });

  test.each<[string, Partial<Record<ContextKey, unknown>>]>([
    ['172.31.0.0/16 (the default VPC)', { clientCidrs: '172.31.0.0/16' }],
    ['100.64.0.0/10 (shared address space)', { clientCidrs: '100.64.0.0/10' }],
    ['all of 10/8', { clientCidrs: '10.0.0.0/8' }],
    ['one host and a /25', { clientCidrs: '10.1.2.3/32,192.168.1.128/25' }],
    ['a public CIDR, deliberately', { clientCidrs: '11.0.0.0/24', allowPublicClientCidrs: 'true' }],
    ['loginIp in 172.16/12', { loginIp: '172.16.0.5' }],
    ['loginIp in 100.64/10', { loginIp: '100.64.1.1' }],
    ['a public loginIp, deliberately', { loginIp: '11.0.0.10', allowPublicClientCidrs: true }],
    ['one restore id for the default plan', { restoreSnapshotIds: 'snap-0123456789abcdef0' }],
    ['restore ids with a capacity the planner refuses (the construct reports the planner)', { capacityTiB: '1000', backend: 'ebs', restoreSnapshotIds: 'snap-01234567' }],
    ['snapshotRetain=0 (snapshots off, deliberately)', { snapshotRetain: '0' }],
  ])('%s is accepted', (_, context) => {
    expect(() => parseContext(readContext(context))).not.toThrow();
  });
});

describe('messages: the key as typed, the value as written (issue 39, item 7)', () => {
  test.each(['capacityTiB', 'throughputMBps'])('%s of 400 digits is refused as written, never as Infinity', (key) => {
    const digits = '9'.repeat(400);
    const text = thrown(() => parseContext(readContext({ [key]: digits })));
    expect(text).toContain(`Invalid context value ${key}="${digits}": allowed is a positive number`);
    expect(text).not.toMatch(/Infinity/);
  });

  test('a capacity FSx rounds past the largest recorded file system is not told a limit it meets', () => {
    const text = thrown(() => parseContext(readContext({ capacityTiB: '9765' })));
    expect(text).toMatch(/capacityTiB="9765": allowed is a positive number of TiB whose FSx for Lustre plan fits in 9999999 GiB/);
    expect(text).toMatch(/capacityTiB=9765 is planned as \d+ GiB after FSx's capacity steps/);
    expect(text).not.toMatch(/at most 9765\b/);
  });

  test.each([
    ['a zero-width space', 'ab\u200bc', 'ab\\u{200b}c'],
    ['a right-to-left override', 'ab\u202ec', 'ab\\u{202e}c'],
    ['a Cyrillic letter like a Latin p', 'h\u0440c1', 'h\\u{440}c1'],
  ])('%s in a refused value is written as an escape, not rendered', (_what, value, shown) => {
    for (const key of ['serverName', 'clusterName'] as const) {
      const text = thrown(() => parseContext(readContext({ [key]: value })));
      expect(text).toContain(`Invalid context value ${key}="${shown}"`);
      expect(text).not.toMatch(/[^\x20-\x7e\n]/u);
    }
  });

  // A valid value for each EC2-only key: a key added to EC2_ONLY_KEYS without one fails the completeness test.
  const EC2_ONLY_SAMPLES: Record<string, string> = {
    loginIp: '10.0.0.5', nconnect: '4', keyPair: 'my-key', placementGroup: 'pg1', terminationProtection: 'true',
    encryptInstanceStore: 'true', machineImageId: 'ami-0123456789abcdef0', legacyVolumeAttachments: 'true', rootClientCidrs: '10.0.1.5/32',
  };
  test('every EC2-only key has a sample here', () => {
    expect(Object.keys(EC2_ONLY_SAMPLES).sort()).toEqual(Object.keys(EC2_ONLY_KEYS).sort());
  });
  test.each(Object.entries(EC2_ONLY_SAMPLES).flatMap(([k, v]) => ['fsx-lustre', 'fsx-openzfs'].map((b) => [k, v, b])))(
    '%s=%s with backend %s is refused naming the key, not the prop', (key, value, backend) => {
      const text = thrown(() => parseContext(readContext({ backend, capacityTiB: 2.4, [key]: value })));
      expect(text).toMatch(new RegExp(`^Invalid context value ${key}="${value}": allowed is `));
      expect(text).not.toMatch(/^(clusterware|nfs):/);
      expect(() => parseContext(readContext({ backend: 'ebs', capacityTiB: 2.4, [key]: value }))).not.toThrow();
    });

  test.each(Object.keys(EC2_ONLY_SAMPLES).flatMap((k) => ['fsx-lustre', 'fsx-openzfs'].map((b) => [k, b])))(
    '%s=false with backend %s: left out for a true/false switch, refused naming the key for any other', (key, backend) => {
      const asked = () => parseContext(readContext({ backend, capacityTiB: 2.4, [key]: 'false' }));
      // A switch is a key whose own parser takes only true or false.
      let isSwitch = false;
      try {
        parseContext(readContext({ backend: 'ebs', capacityTiB: 2.4, [key]: 'maybe' }));
      } catch (e) {
        isSwitch = /'true' or 'false'/.test((e as Error).message);
      }
      if (isSwitch) expect(asked).not.toThrow();
      else expect(thrown(asked)).toMatch(new RegExp(`^Invalid context value ${key}="false": `));
    });

  test('keyPair=false is a key pair named false: refused with backend fsx-openzfs as any other name is', () => {
    expect(thrown(() => parseContext(readContext({ backend: 'fsx-openzfs', capacityTiB: 1, keyPair: 'false' })))).toMatch(
      /^Invalid context value keyPair="false": allowed is nothing with backend fsx-openzfs: keyPair applies to the EC2 NFS server backends/,
    );
  });

  test('instanceType with backend fsx-openzfs says the file system has no instance', () => {
    expect(thrown(() => parseContext(readContext({ backend: 'fsx-openzfs', capacityTiB: 1, instanceType: 'm5.xlarge' })))).toMatch(
      /instanceType="m5.xlarge": allowed is no instanceType with backend fsx-openzfs: an FSx for OpenZFS file system has no instance/,
    );
  });
});

describe('unknown context keys', () => {
  const CDK_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

  test.each<[string, RegExp]>([
    ['capacityTB', /Unknown context key "capacityTB" \(did you mean capacityTiB\?\)/],
    ['capacitytib', /"capacitytib" \(did you mean capacityTiB\?\)/],
    ['CapacityTiB', /"CapacityTiB" \(did you mean capacityTiB\?\)/],
    ['clustername', /did you mean clusterName\?/],
    ['backnd', /did you mean backend\?/],
    ['snapshotsRetain', /did you mean snapshotRetain\?/],
    ['allowPublicClientCidr', /did you mean allowPublicClientCidrs\?/],
    ['restoreSnapshotId', /did you mean restoreSnapshotIds\?/],
  ])('-c %s=... stops synth and names the near miss', (key, message) => {
    const text = thrown(() => checkContextKeys([key]));
    expect(text).toMatch(message);
    expectNoStackTrace(text);
  });

  test('an unknown key with no near miss lists every known key', () => {
    const text = thrown(() => checkContextKeys(['capacityTiB', 'size']));
    expect(text).toMatch(/^Unknown context key "size": the app reads only capacityTiB, backend, clusterName, /);
    expect(text).not.toMatch(/did you mean/);
    for (const key of Object.keys(CONTEXT_DEFAULTS)) expect(text).toContain(key);
  });

  test('several unknown keys are reported together', () => {
    expect(thrown(() => checkContextKeys(['capacityTB', 'vpcid']))).toMatch(
      /^Unknown context keys "capacityTB" \(did you mean capacityTiB\?\), "vpcid" \(did you mean vpcId\?\):/,
    );
  });

  test("the app's own keys, cdk.json's, the CLI's and cached lookups pass", () => {
    expect(() => checkContextKeys([
      ...Object.keys(CONTEXT_DEFAULTS),
      ...Object.keys(CDK_JSON.context),
      // Printed from app.node.getAllContext() under `cdk synth`, with and without --no-version-reporting and the like.
      'aws:cdk:enable-path-metadata', 'aws:cdk:enable-asset-metadata', 'aws:cdk:version-reporting',
      'aws:cdk:disable-version-reporting', 'aws:cdk:bundling-stacks',
      // What cdk.context.json holds after lookups, and `cdk acknowledge`.
      'vpc-provider:account=123456789012:filter.vpc-id=vpc-0123456789abcdef0:region=us-east-1:returnAsymmetricSubnets=true',
      'availability-zones:account=123456789012:region=us-east-1',
      'acknowledged-issue-numbers',
    ])).not.toThrow();
  });
});

describe('the app\'s stack', () => {
  test('vpcId without an account and region names vpcId and the credentials it needs', () => {
    const text = thrown(() => appStack({ vpcId: 'vpc-0123456789abcdef0' }));
    expect(text).toMatch(/vpcId="vpc-0123456789abcdef0" needs AWS credentials with an account and a region/);
    expect(text).toMatch(/CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION/);
    expectNoStackTrace(text);
  });

  test('vpcId with an account and region synthesizes, first with the lookup placeholder, then with the VPC', () => {
    const context = parseContext(readContext({ vpcId: 'vpc-0123456789abcdef0', clientCidrs: '10.0.0.0/25' }));
    const env = { account: '123456789012', region: 'us-east-1' };
    // First pass: CDK's placeholder VPC; the real CIDR is unknown, so the address space waits for the lookup.
    const first = new App();
    new StorageServerStack(first, 'StorageServer', { context, env });
    const [missing] = first.synth().manifest.missing ?? [];
    expect(missing?.provider).toBe('vpc-provider');
    // Second pass, with the looked-up VPC: its CIDR is held to the clientCidrs rules.
    const second = (cidr: string) =>
      lookedUpAppStack({ vpcId: 'vpc-0123456789abcdef0', clientCidrs: '10.0.0.0/25' }, cidr, [
        { subnetId: 'subnet-0123456789abcdef0', cidr, availabilityZone: 'us-east-1a' },
      ]);
    expect(() => second('10.0.0.0/24')).not.toThrow();
    expect(thrown(() => second('11.0.0.0/24'))).toMatch(/vpc: .*got '11.0.0.0\/24': public address space/);
  });
});
