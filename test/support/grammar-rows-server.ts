/**
 * The grammar rows (test/unit/input-grammar.test.ts) of the context keys around the storage: names, the network and
 * the clients, access, operation, snapshots, alarms and mounts. The storage's own keys: grammar-rows-storage.ts.
 */
import fc from 'fast-check';
import type { ContextKey } from '../../lib/context';
import {
  LOWER, TARGET, arn, badEc2Id, badEmail, badName, badPrintable, badStackName, badTagKey, badTopicArn, bool, cfnStackName,
  decimal, ec2Id, email, hostBitsCidr, leadingZero, name, notBool, notDecimal, printable, privateCidr, OTHER_REGIONS,
  privateHost, publicCidr, publicHost, publicUnicastCidr, specialCidr, specialHost, stringOf, subnetEdge, tagKey, topicName,
  wholeIn, type Context, type Row,
} from './grammars';
import { FSX } from './grammar-rows-storage';

const PUBLIC_OK = { allowPublicClientCidrs: 'true' } as const;
const list = (text: string) => text.split(',').map((c) => c.trim());
const distinctCidrs = (cidr: fc.Arbitrary<string>) => fc.uniqueArray(cidr, { minLength: 1, maxLength: 3 }).map((a) => a.join(','));

export const SERVER_ROWS = {
  clientMount: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['false'], fixedInvalid: ['no'] },
  clusterName: {
    // Any valid name with its own stack name (stack names: test/unit/stack-name.test.ts).
    base: { stackName: 'StorageServer-named' },
    valid: name('_.-'),
    invalid: badName('_.-'),
    fixedValid: ['hpc1', 'a', 'hpc_1.prod-a', 'x'.repeat(64)],
    fixedInvalid: ['..', '.', '-a', '_a', '.hidden', '../etc', 'bad name', 'x'.repeat(65)],
  },
  serverName: {
    base: { stackName: 'StorageServer-named' },
    valid: name('_-'),
    invalid: fc.oneof(badName('_-'), name('_-').map((n) => `${n.slice(0, 62)}.x`)),
    fixedValid: ['storage1', 'home_1', 'b-storage1'],
    // '.' once failed inside CDK's dashboard-name check, without naming the key.
    fixedInvalid: ['.', '..', 'nfs.1', 'nfs 1', '-x'],
  },
  stackName: {
    valid: cfnStackName,
    invalid: badStackName,
    fixedValid: ['StorageServer-a-b-storage1', 'S', 'x'.repeat(128)],
    fixedInvalid: ['1stack', '-stack', 'stack_1', 'stack.1', 'x'.repeat(129)],
  },
  vpcId: { valid: ec2Id('vpc'), invalid: badEc2Id('vpc'), fixedValid: ['vpc-01234567'], fixedInvalid: ['vpc-12345', 'vpc-0123456789ABCDEF0', 'subnet-01234567'] },
  vpcFrom: {
    // A CloudFormation stack name (AWS CloudFormation User Guide, "Stack name" constraints), not this stack's own.
    valid: cfnStackName.filter((n) => n !== 'StorageServer-cluster-storage1'),
    invalid: fc.oneof(badStackName, cfnStackName.map((n): [string, Context] => [n, { vpcId: 'vpc-0123456789abcdef0' }])),
    fixedValid: ['StorageServer-hpc1-home', 'S'],
    fixedInvalid: ['StorageServer-cluster-storage1', 'stack_1', ['StorageServer-hpc1-home', { vpcId: 'vpc-01234567' }]],
  },
  availabilityZone: {
    // AWS's zone names: the region's name and a zone letter (EC2 User Guide, "Regions and Zones"); in the target region.
    valid: fc.constantFrom(...LOWER.slice(0, 6)).map((z) => `${TARGET.region}${z}`),
    invalid: fc.oneof(
      fc.tuple(fc.constantFrom(...OTHER_REGIONS), fc.constantFrom(...LOWER)).map(([r, z]) => `${r}${z}`),
      fc.constantFrom(...LOWER).map((z): [string, Context] => [`${TARGET.region}${z}`, { vpcId: 'vpc-0123456789abcdef0' }]),
      printable.filter((t) => !/^us-east-1[a-z]$/.test(t.trim()) && t.trim() !== ''),
    ),
    fixedValid: ['us-east-1a', 'us-east-1f'],
    fixedInvalid: ['us-east-1', 'us-east-1A', 'use1-az1', 'xx-east-1a', 'eu-west-1a', 'us-east-1-bos-1a',
      ['us-east-1b', { vpcFrom: 'StorageServer-hpc1-home' }]],
  },
  subnetId: {
    base: { vpcId: 'vpc-0123456789abcdef0' },
    valid: ec2Id('subnet'),
    invalid: fc.oneof(badEc2Id('subnet'), ec2Id('subnet').map((s): [string, Context] => [s, { vpcId: undefined }])),
    fixedValid: ['subnet-0123456789abcdef0'],
    fixedInvalid: ['subnet-0123', ['subnet-0123456789abcdef0', { vpcId: undefined }]],
  },
  clientCidrs: {
    valid: fc.oneof(
      distinctCidrs(privateCidr),
      distinctCidrs(publicUnicastCidr).map((c): [string, Context] => [c, PUBLIC_OK]),
    ),
    invalid: fc.oneof(
      hostBitsCidr,
      publicCidr,
      // A looked-up VPC admits no public client CIDR without the opt-in, whatever its own CIDR.
      publicCidr.map((c): [string, Context] => [c, { vpcId: 'vpc-0123456789abcdef0' }]),
      specialCidr.map((c): [string, Context] => [c, PUBLIC_OK]),
      fc.tuple(privateCidr, fc.nat()).map(([c, i]) => leadingZero(c, i)),
      privateCidr.map((c) => c.replace(/\/(\d+)$/, '/0$1')),
      privateCidr.map((c) => `${c.split('/')[0]}/${33 + (c.length % 60)}`),
      privateCidr.map((c) => `${c.split('/')[0]}/0`),
      privateCidr.map((c) => `${c},${c}`),
      privateCidr.map((c) => `${c},`),
      privateCidr.map((c) => c.split('/')[0]),
    ),
    parsed: list,
    fixedValid: ['10.0.0.0/16', '172.31.0.0/16, 192.168.1.128/25', ['11.0.0.0/24', PUBLIC_OK]],
    // The review's multicast and loopback CIDRs with the public opt-in.
    fixedInvalid: [['224.0.0.0/4', PUBLIC_OK], ['127.0.0.0/8', PUBLIC_OK], ['169.254.0.0/16', PUBLIC_OK], ['240.0.0.0/4', PUBLIC_OK],
      ['0.0.0.0/1', PUBLIC_OK], ['255.255.255.255/32', PUBLIC_OK], '0.0.0.0/0', '10.0.0.1/16', '010.0.0.0/16', '8.8.8.0/24', '::/0'],
  },
  rootClientCidrs: {
    // Only the grammar here: each within the client CIDRs is the construct's check, at synth or on the server.
    valid: distinctCidrs(privateCidr),
    invalid: fc.oneof(hostBitsCidr, publicCidr, privateCidr.map((c) => `${c},${c}`), privateCidr.map((c) => c.split('/')[0]),
      privateCidr.map((c): [string, Context] => [c, FSX])),
    parsed: list,
    fixedValid: ['10.0.1.5/32', '10.0.1.5/32, 10.0.2.0/28'],
    fixedInvalid: ['10.0.1.5', '10.0.1.5/0', 'fd00::1/128', '10.0.1.5/32,10.0.1.5/32', ['10.0.1.5/32', FSX]],
  },
  clientSecurityGroupId: { valid: ec2Id('sg'), invalid: badEc2Id('sg'), fixedValid: ['sg-0123456789abcdef0'], fixedInvalid: ['sg-0123456789ABCDEF0'] },
  allowPublicClientCidrs: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['yes', '1'] },
  clientTagKey: {
    valid: tagKey,
    invalid: badTagKey,
    fixedValid: ['cluster', 'flight:cluster', 'Ä name/x'],
    fixedInvalid: ['aws:cluster', 'AWS:cluster', 'aWs:x', 'a#b', 'a+b', 'a\tb', 'k'.repeat(129)],
  },
  loginIp: {
    valid: fc.oneof(privateHost, publicHost.map((h): [string, Context] => [h, PUBLIC_OK])),
    invalid: fc.oneof(
      subnetEdge,
      specialHost.map((h): [string, Context] => [h, PUBLIC_OK]),
      publicHost,
      fc.tuple(privateHost, fc.nat()).map(([h, i]) => leadingZero(h, i)),
      privateHost.map((h) => `${h}/32`),
      privateHost.map((h) => h.split('.').slice(0, 3).join('.')),
    ),
    fixedValid: ['10.0.1.10', '10.0.1.0', '172.16.0.5', ['11.0.0.10', PUBLIC_OK]],
    // The review's network address, and the other edges of a subnet.
    fixedInvalid: ['10.0.0.0', '10.255.255.255', '192.168.0.0', '172.31.255.255', '100.64.0.0', ['224.0.0.1', PUBLIC_OK],
      ['127.0.0.1', PUBLIC_OK], '169.254.169.254', '0.0.0.0', '255.255.255.255', '8.8.8.8', 'login1'],
  },
  keyPair: { valid: printable, invalid: badPrintable, fixedValid: ['admin key'], fixedInvalid: ['k'.repeat(256), 'clé'] },
  placementGroup: { valid: printable, invalid: badPrintable, fixedValid: ['hpc-pg'], fixedInvalid: ['p'.repeat(256)] },
  snapshotRetain: {
    valid: wholeIn(0, 1000),
    invalid: fc.oneof(wholeIn(1001, 10 ** 9), notDecimal, wholeIn(1, 1000).map((n) => `${n}.0`)),
    parsed: Number,
    fixedValid: ['0', '7', '1000'],
    fixedInvalid: ['1001', '-1', '7.0', '1e2', 'NaN'],
  },
  // Quota limits by the contract of OpenZFSUserOrGroupQuota (ids 0-2147483647; GiB from 1, as 0 lifts a quota).
  quotaLimits: {
    valid: fc.array(fc.oneof(
      fc.tuple(fc.constantFrom('user', 'group'), fc.integer({ min: 0, max: 2147483647 }), fc.integer({ min: 1, max: 2147483647 }))
        .map(([t, id, g]) => `${t}:${id}:${g}`),
      fc.tuple(fc.integer({ min: 0, max: 2147483647 }), fc.integer({ min: 1, max: 2147483647 }), fc.stringMatching(/^[a-z0-9_-][a-z0-9._-]{0,8}$/))
        .map(([id, g, d]) => `project:${id}:${g}:/${d}`),
    ), { minLength: 1, maxLength: 4 }).map((l) => l.join(',')),
    invalid: fc.oneof(
      fc.constantFrom('owner', 'user', 'project'),
      fc.integer({ min: 1, max: 99 }).map((n) => `user:${n}`),
      fc.integer({ min: 2147483648, max: 2 ** 40 }).map((n) => `user:${n}:1`),
      fc.integer({ min: 2147483648, max: 2 ** 40 }).map((n) => `group:1:${n}`),
      fc.integer({ min: 0, max: 99 }).map((n) => `user:${n}:0`),
      fc.integer({ min: 0, max: 99 }).map((n) => `project:${n}:1`),
    ),
    parsed: (t) => t.split(',').map((e) => {
      const [type, id, g, ...dir] = e.split(':');
      return { type, id: Number(id), limitGiB: Number(g), ...(dir.length ? { path: dir.join(':') } : {}) };
    }),
    fixedValid: ['user:1001:100', 'user:0:1,group:2000:500', 'project:10:1000:/projects/a'],
    fixedInvalid: ['user:1001:100,', 'user:-1:1', 'user:01:1', 'user:1:1:/home', 'project:1:1:/../etc', 'project:1:1:/.hidden', 'USER:1:1', 'user:1:1, group:2:2'],
  },
  quotaDefaultUserGiB: {
    valid: fc.integer({ min: 1, max: 2147483647 }).map(String),
    invalid: fc.oneof(fc.constant('0'), fc.integer({ min: 2147483648, max: 2 ** 40 }).map(String), notDecimal),
    parsed: Number,
    fixedValid: ['1', '50', '2147483647'],
    fixedInvalid: ['0', '2147483648', '10G', '1.5'],
  },
  terminationProtection: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['TRUE'] },
  encryptInstanceStore: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['false'], fixedInvalid: ['off'] },
  alarmEmail: {
    valid: email,
    invalid: badEmail,
    fixedValid: ['ops@example.com', 'o.p+alarms@mail.example.co.uk', "a!#$%&'*+/=?^_`{|}~-@x-1.example"],
    // The review's a@.b.c, and one per rule.
    fixedInvalid: ['a@.b.c', 'a@b..c', 'a@-b.c', 'a@b-.c', 'a@b.123', '.a@b.c', 'a.@b.c', 'a..b@c.d', 'ops', 'ops@example',
      'ops@example.com, dev@example.com', 'ops @example.com', `${'a'.repeat(65)}@example.com`],
  },
  alarmTopicArn: {
    valid: topicName.map((t) => arn('aws', TARGET.region, TARGET.account, t)),
    invalid: badTopicArn,
    fixedValid: ['arn:aws:sns:us-east-1:123456789012:storage-alarms'],
    // The review's topic in another region.
    fixedInvalid: ['arn:aws:sns:eu-west-1:123456789012:t', 'arn:aws:sns:us-east-1:210987654321:t', 'arn:aws-cn:sns:us-east-1:123456789012:t',
      'arn:aws:sns:us-east-1:123456789012:t.fifo', 'arn:aws:sqs:us-east-1:123456789012:t', 'arn:aws:sns:us-east-1:1234:t'],
  },
  restoreSnapshotIds: {
    // The default plan has one data volume; backend=ebs capacityTiB=30 has two (test/unit/context.test.ts).
    valid: fc.oneof(ec2Id('snap'), fc.uniqueArray(ec2Id('snap'), { minLength: 2, maxLength: 2 }).map((ids): [string, Context] => [ids.join(','), { backend: 'ebs', capacityTiB: '30' }])),
    invalid: fc.oneof(badEc2Id('snap'), ec2Id('snap').map((id) => `${id},${id}`), fc.uniqueArray(ec2Id('snap'), { minLength: 2, maxLength: 4 }).map((ids) => ids.join(','))),
    parsed: list,
    fixedValid: ['snap-0123456789abcdef0'],
    fixedInvalid: ['snap-0123456G', 'vol-01234567', ['snap-01234567', { backend: 'instance-store', capacityTiB: '3' }]],
  },
  machineImageId: { valid: ec2Id('ami'), invalid: badEc2Id('ami'), fixedValid: ['ami-0123456789abcdef0'], fixedInvalid: ['ami-0123', 'latest'] },
  acceptDataLoss: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['1'] },
  deleteDataOnDestroy: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['yes'] },
  acceptFewerSnapshots: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['TRUE'] },
  legacyVolumeAttachments: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['y'] },
  nconnect: {
    // nfs(5) [NFSMAN]: "up to a limit of 16"; the kernel's parser takes 1..16 (docs/sources/nconnect.md, F1). FSx for
    // Lustre clients mount Lustre: the key is refused there.
    valid: wholeIn(1, 16),
    invalid: fc.oneof(wholeIn(17, 10 ** 6), fc.constant('0'), notDecimal, wholeIn(1, 16).map((n) => `${n}.0`),
      wholeIn(1, 16).map((n): [string, Context] => [String(n), FSX])),
    parsed: Number,
    fixedValid: ['1', '16', '8'],
    fixedInvalid: ['0', '17', '-1', '16.0', '1e1', 'NaN', '08', ['16', FSX]],
  },
  clientReadAheadKiB: {
    // KiB, 0 (the kernel's own) to 1 GiB, the project's bound (lib/validation.ts, MAX_READ_AHEAD_KIB).
    valid: wholeIn(0, 1024 * 1024),
    invalid: fc.oneof(wholeIn(1024 * 1024 + 1, 10 ** 9), notDecimal, wholeIn(0, 1000).map((n) => `${n}.0`)),
    parsed: Number,
    fixedValid: ['0', '15360', '1048576', ['15360', FSX]],
    fixedInvalid: ['1048577', '15728640', '-1', '15MiB', '015360', '1e4'],
  },
  dataVolumeCount: {
    // 1 to 21: the device names /dev/sdf to /dev/sdz (lib/sizing/catalog-ebs-attachments.ts).
    valid: wholeIn(1, 21),
    invalid: fc.oneof(wholeIn(22, 10 ** 6), fc.constant('0'), notDecimal, wholeIn(1, 21).map((n) => `${n}.0`), wholeIn(1, 21).map((n) => `0${n}`)),
    parsed: Number,
    fixedValid: ['1', '3', '4', '21'],
    fixedInvalid: ['0', '22', '-1', 'NaN', '01'],
  },
  throughputMBps: {
    valid: decimal(0, 100_000),
    // Beyond what an FSx for Lustre file system the app records sustains.
    invalid: fc.oneof(notDecimal, fc.constant('0'), wholeIn(10 ** 8, 10 ** 12)),
    parsed: Number,
    fixedValid: ['400', '0.5', '2000'],
    fixedInvalid: ['0', 'fast', '100000000'],
  },
  mountPoint: {
    // The mount-point rules (system directories, mount roots) are lib/validation.ts's directoryProblem; their own
    // tests (test/unit/client-mount-document.test.ts, bad-input-props.test.ts) cover them. Here: clearly good and clearly bad paths.
    valid: fc.tuple(fc.constantFrom('/data', '/scratch', '/fsx'), stringOf(LOWER, 0, 8)).map(([d, s]) => d + s),
    invalid: fc.oneof(
      fc.tuple(fc.constantFrom('/etc', '/usr', '/var', '/proc', '/boot'), stringOf(LOWER, 0, 8)).map(([d, s]) => (s ? `${d}/${s}` : d)),
      stringOf(LOWER, 1, 8),
      stringOf(LOWER, 1, 8).map((s) => `/data/../${s}`),
    ),
    fixedValid: ['/data', '/restore/home2'],
    fixedInvalid: ['/etc', '/home', 'data', '/', '/data/'],
  },
  allowHomeMountPoint: { valid: bool, invalid: notBool, parsed: (t) => t === 'true', fixedValid: ['true'], fixedInvalid: ['yes'] },
  mountRoots: {
    // A comma list of absolute directories outside the system directories (mountRootProblem, lib/validation.ts).
    valid: fc.array(fc.tuple(fc.constantFrom('/data', '/scratch', '/projects', '/work'), stringOf(LOWER, 0, 8)).map(([d, s]) => (s ? `${d}/${s}` : d)), { minLength: 1, maxLength: 3 })
      .map((roots) => roots.join(',')),
    invalid: fc.oneof(
      fc.tuple(fc.constantFrom('/etc', '/usr', '/proc', '/boot', '/'), stringOf(LOWER, 0, 8)).map(([d, s]) => (s && d !== '/' ? `${d}/${s}` : d)),
      stringOf(LOWER, 1, 8),
      stringOf(LOWER, 1, 8).map((s) => `/data,${s}`),
    ),
    parsed: (t) => t.split(','),
    fixedValid: ['/data', '/data,/restored'],
    fixedInvalid: ['/', '/etc', 'data', '/data,', '/usr/local'],
  },
} satisfies Partial<Record<ContextKey, Row>>;
