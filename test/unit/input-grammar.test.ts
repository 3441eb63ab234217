/**
 * Inputs by grammar (issue 26, item 8): for every context key, values generated from the key's grammar, built here
 * from the rule's own definition (the RFC or the AWS guide cited on each generator, never the production regex),
 * valid ones and invalid ones. Every valid value reaches the parsed context unchanged (the parser is what the
 * app's stack is built from; test/unit/context.test.ts and the snapshot show the context reaching the template), and
 * every invalid one stops parsing with a message that names the key. The review's values are fixed cases beside
 * the generated ones. A context key without a row fails the first test: the rows are checked against
 * CONTEXT_DEFAULTS, lib/context.ts's key table.
 */
import fc from 'fast-check';
import { CONTEXT_DEFAULTS, ContextKey, parseContext } from '../../lib/context';
import {
  LOWER, TARGET, arn, badEc2Id, badEmail, badName, badPrintable, badS3Path, badStackName, badTagKey, badTopicArn, bool,
  cfnStackName, decimal, ec2Id, email, hostBitsCidr, leadingZero, name, notBool, notDecimal, notOneOf, printable, privateCidr,
  OTHER_REGIONS, privateHost, publicCidr, publicHost, publicUnicastCidr, s3Path, specialCidr, specialHost, stringOf, subnetEdge, tagKey,
  topicName, wholeIn,
} from '../support/grammars';
import { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES } from '../../lib/sizing';

type Context = Partial<Record<ContextKey, string>>;

interface Row {
  /** Other keys a value of this key needs (e.g. backend=fsx-lustre for the FSx keys). */
  readonly base?: Context;
  /** Generated values the key must accept, with the context they need beyond `base`. */
  readonly valid: fc.Arbitrary<string | [string, Context]>;
  /** Generated values the key must refuse, with the context beyond `base`. */
  readonly invalid: fc.Arbitrary<string | [string, Context]>;
  /** What the parsed context holds for a valid text: the text itself unless said. */
  readonly parsed?: (text: string) => unknown;
  /** Fixed cases: the review's values, edges of each rule. */
  readonly fixedValid: (string | [string, Context])[];
  readonly fixedInvalid: (string | [string, Context])[];
}

let generated = 0;
const started = Date.now();
// ---- one row per context key --------------------------------------------------------------------------------

const FSX = { backend: 'fsx-lustre' } as const;
const ZFS = { backend: 'fsx-openzfs' } as const;
const ZFS_TYPES = ['SINGLE_AZ_1', 'SINGLE_AZ_2', 'SINGLE_AZ_HA_1', 'SINGLE_AZ_HA_2', 'MULTI_AZ_1'];
const PUBLIC_OK = { allowPublicClientCidrs: 'true' } as const;
const list = (text: string) => text.split(',').map((c) => c.trim());
const distinctCidrs = (cidr: fc.Arbitrary<string>) => fc.uniqueArray(cidr, { minLength: 1, maxLength: 3 }).map((a) => a.join(','));

/**
 * The catalogued types, spelt out from the EC2 instance types guide's "Available sizes" (general purpose, storage
 * optimized) for the families and sizes the catalogue keeps: EBS types (m4, m6i, m7i, c6in, m6in, r6in; Graviton m7g,
 * m6g, c8gb, m8gb, r8gb) and d2.
 */
const sizes = (family: string, list: string[]) => list.map((size) => `${family}.${size}`);
const EBS_TYPES = [
  ...sizes('m4', ['xlarge', '2xlarge', '4xlarge', '10xlarge', '16xlarge']),
  ...sizes('m6i', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge']),
  ...['m7g', 'm6g'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge'])),
  ...sizes('m7i', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge']),
  // The network-optimized families (compute, general purpose and memory optimized guides), without their metal sizes.
  ...['c6in', 'm6in', 'r6in'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'])),
  ...['c8gb', 'm8gb', 'r8gb'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'])),
];
const D2_TYPES = sizes('d2', ['xlarge', '2xlarge', '4xlarge', '8xlarge']);
/** d3 and d3en (EC2 User Guide, storage optimized instances): instance store, whichever generation planned. */
const D3_TYPES = [...sizes('d3', ['xlarge', '2xlarge', '4xlarge', '8xlarge']), ...sizes('d3en', ['xlarge', '2xlarge', '4xlarge', '6xlarge', '8xlarge', '12xlarge'])];
const STORE_3TIB = { backend: 'instance-store', capacityTiB: '3' } as const;

const ROWS: Record<ContextKey, Row> = {
  capacityTiB: {
    // The largest FSx for Lustre file system the app records is 9,999,999 GiB (9,765 TiB, less the FSx step).
    valid: decimal(0, 9000),
    invalid: fc.oneof(notDecimal, fc.constantFrom('0', '0.0', '00'), wholeIn(9766, 10 ** 9)),
    parsed: Number,
    fixedValid: ['5', '21.5', '0.5', '9000'],
    fixedInvalid: ['1000000', '0', '-1', '1e3', 'NaN', '5TiB'],
  },
  backend: {
    valid: fc.constantFrom('auto', 'ebs', 'instance-store', 'fsx-lustre'),
    invalid: notOneOf(['auto', 'ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs']),
    fixedValid: ['auto', 'fsx-lustre'],
    fixedInvalid: ['EBS', 'lustre', 'fsx'],
  },
  generation: {
    valid: fc.constantFrom('previous', 'current'),
    invalid: notOneOf(['previous', 'current']),
    fixedValid: ['current'],
    fixedInvalid: ['latest', 'Current'],
  },
  instanceType: {
    // The default plan is EBS (5 TiB); instance store at 3 TiB takes every d2 (d2.xlarge holds 6 TB, 5.46 TiB) and every
    // d3 and d3en (d3.xlarge holds 5940 GB, 5.4 TiB).
    valid: fc.oneof(fc.constantFrom(...EBS_TYPES), fc.constantFrom(...D2_TYPES, ...D3_TYPES).map((t): [string, Context] => [t, STORE_3TIB])),
    invalid: fc.oneof(
      notOneOf([...EBS_TYPES, ...D2_TYPES, ...D3_TYPES]),
      fc.constantFrom('m7g.medium', 'm6g.metal', 'm6i.32xlarge', 'm5.2xlarge', 'm7i.metal-24xl', 'c8gb.medium', 'm6idn.large', 'c7g.2xlarge', 'd3.xlarge', 'd3en.24xlarge', 'i3en.xlarge'),
      fc.constantFrom(...D2_TYPES, ...D3_TYPES),
      // d3.xlarge holds 5.4 TiB, d3.2xlarge 10.8 TiB.
      fc.constantFrom('d3.xlarge', 'd3.2xlarge').map((t): [string, Context] => [t, { backend: 'instance-store', capacityTiB: '20' }]),
      fc.constantFrom(...EBS_TYPES).map((t): [string, Context] => [t, STORE_3TIB]),
      fc.constantFrom(...EBS_TYPES, ...D2_TYPES).map((t): [string, Context] => [t, FSX]),
      // d2.2xlarge holds 12 TB (10.9 TiB), d2.4xlarge 24 TB (21.8 TiB).
      fc.constantFrom('d2.xlarge', 'd2.2xlarge', 'd2.4xlarge').map((t): [string, Context] => [t, { backend: 'instance-store', capacityTiB: '30' }]),
    ),
    fixedValid: ['m7g.2xlarge', 'm4.xlarge', ['m6g.16xlarge', { backend: 'ebs', capacityTiB: '30' }], ['d2.8xlarge', { capacityTiB: '40' }],
      ['d3en.xlarge', { generation: 'current', capacityTiB: '20' }], ['d3en.12xlarge', { backend: 'instance-store', generation: 'current', capacityTiB: '300' }]],
    fixedInvalid: ['M7G.2XLARGE', 'm7g.medium', 'm5.2xlarge', 'd2.xlarge', ['m7g.2xlarge', FSX], ['m7g.2xlarge', { capacityTiB: '20' }],
      ['d2.4xlarge', { backend: 'instance-store', capacityTiB: '30' }], ['m4.xlarge', { capacityTiB: '100' }]],
  },
  fsxDeploymentType: {
    base: FSX,
    valid: fc.constantFrom('PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2'),
    invalid: notOneOf(['PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2']),
    fixedValid: ['SCRATCH_2'],
    fixedInvalid: ['SCRATCH_1', 'persistent_2', ['PERSISTENT_2', { backend: 'ebs' }]],
  },
  fsxPerUnitStorageThroughput: {
    // FSx for Lustre User Guide, "Amazon FSx for Lustre performance": per-unit throughput by deployment and storage type.
    base: FSX,
    valid: fc.oneof(
      fc.constantFrom('125', '250', '500', '1000'),
      fc.constantFrom('50', '100', '200').map((v): [string, Context] => [v, { fsxDeploymentType: 'PERSISTENT_1' }]),
      fc.constantFrom('12', '40').map((v): [string, Context] => [v, { fsxDeploymentType: 'PERSISTENT_1', fsxStorageType: 'HDD' }]),
    ),
    invalid: fc.oneof(wholeIn(1, 2000).filter((v) => !['125', '250', '500', '1000'].includes(v)), notDecimal),
    parsed: Number,
    fixedValid: ['125', ['40', { fsxDeploymentType: 'PERSISTENT_1', fsxStorageType: 'HDD' }]],
    fixedInvalid: ['300', 'fast', ['125', { fsxDeploymentType: 'SCRATCH_2' }]],
  },
  fsxStorageType: {
    base: FSX,
    valid: fc.oneof(fc.constant('SSD'), fc.constant<[string, Context]>(['HDD', { fsxDeploymentType: 'PERSISTENT_1' }])),
    invalid: fc.oneof(notOneOf(['SSD', 'HDD']), fc.constant('HDD')),
    fixedValid: ['SSD'],
    fixedInvalid: ['NVME', 'HDD', 'ssd'],
  },
  fsxDataRepositoryPath: {
    base: FSX,
    valid: s3Path,
    invalid: badS3Path,
    fixedValid: ['s3://hpc1-inputs', 's3://hpc-data/inputs/', 's3://my.bucket-1/year=2026/run(1)'],
    // The review's malformed S3 paths.
    fixedInvalid: ['s3://a..b', 's3://192.168.1.1/x', 's3://bucket//x', 's3://Bucket', 's3://ab', 's3://xn--bucket', 's3://bucket-s3alias',
      's3://bucket/./x', 's3://bucket/a b', 's3://bucket/a#b', 'https://bucket', 's3://-bucket', ['s3://hpc1-inputs', { backend: 'ebs' }]],
  },
  fsxRootSquash: {
    base: FSX,
    valid: bool,
    invalid: fc.oneof(notBool, bool.map((b): [string, Context] => [b, { backend: 'ebs' }])),
    parsed: (t) => t === 'true',
    fixedValid: ['false'],
    fixedInvalid: ['on', ['true', { backend: 'auto' }]],
  },
  // FSx API reference, CreateFileSystemLustreConfiguration.DataCompressionType: NONE or LZ4 (LUSTRE-COMPRESSION).
  fsxDataCompressionType: {
    base: FSX,
    valid: fc.constantFrom('LZ4', 'NONE'),
    invalid: fc.oneof(notOneOf(['LZ4', 'NONE']), fc.constant<[string, Context]>(['LZ4', { backend: 'ebs' }])),
    fixedValid: ['LZ4'],
    fixedInvalid: ['lz4', 'ZSTD', ['LZ4', { backend: 'auto' }]],
  },
  // FSx API reference, CreateFileSystem.FileSystemTypeVersion: 2.10, 2.12, 2.15 (LUSTRE-VERSION).
  fsxFileSystemTypeVersion: {
    base: FSX,
    valid: fc.constantFrom('2.12', '2.15'),
    invalid: fc.oneof(notOneOf(['2.10', '2.12', '2.15']), fc.constant<[string, Context]>(['2.15', { backend: 'ebs' }])),
    fixedValid: ['2.15', ['2.10', { fsxDeploymentType: 'PERSISTENT_1' }]],
    // 2.10 with PERSISTENT_2 is the construct's to refuse: without fsxDeploymentType the planner chooses the type.
    fixedInvalid: ['2.16', '2.1', 'V_2_15'],
  },
  // FSx API reference, FileSystemLustreMetadataConfiguration.Iops: "1500, 3000, 6000, 12000, and multiples of 12000 up to a
  // maximum of 192000"; 0 is AUTOMATIC (LUSTRE-METADATA). PERSISTENT_2 SSD only.
  fsxMetadataIops: {
    base: FSX,
    valid: fc.oneof(fc.constantFrom('0', '1500', '3000', '6000'), fc.integer({ min: 1, max: 16 }).map((k) => String(k * 12000))),
    invalid: fc.oneof(
      fc.integer({ min: 1, max: 400_000 }).filter((v) => ![1500, 3000, 6000].includes(v) && !(v % 12000 === 0 && v <= 192000)).map(String),
      notDecimal,
      fc.constant<[string, Context]>(['12000', { fsxDeploymentType: 'PERSISTENT_1' }]),
      fc.constant<[string, Context]>(['12000', { backend: 'ebs' }]),
    ),
    parsed: Number,
    fixedValid: ['0', '1500', '192000', ['24000', { fsxDeploymentType: 'PERSISTENT_2' }]],
    fixedInvalid: ['204000', '1000', '12001', '012000', 'AUTOMATIC', ['3000', { fsxDeploymentType: 'SCRATCH_2' }], ['3000', { fsxStorageType: 'HDD', fsxDeploymentType: 'PERSISTENT_1' }]],
  },
  // The FSx for OpenZFS keys: only with backend=fsx-openzfs (API reference, CreateFileSystemOpenZFSConfiguration).
  openZfsDeploymentType: {
    base: ZFS,
    valid: fc.constantFrom(...ZFS_TYPES),
    invalid: fc.oneof(notOneOf(ZFS_TYPES), fc.constant<[string, Context]>(['SINGLE_AZ_2', { backend: 'ebs' }])),
    fixedValid: ['SINGLE_AZ_2', 'MULTI_AZ_1'],
    fixedInvalid: ['single_az_1', ['MULTI_AZ_1', { availabilityZone: 'us-east-1b' }], ['SINGLE_AZ_1', { backend: 'fsx-lustre' }]],
  },
  openZfsThroughputCapacityMBps: {
    base: ZFS,
    valid: fc.oneof(
      fc.constantFrom('64', '128', '256', '512', '1024', '2048', '3072', '4096'),
      fc.constantFrom('160', '320', '640', '1280', '2560', '3840', '5120', '7680', '10240').map((v): [string, Context] => [v, { openZfsDeploymentType: 'SINGLE_AZ_2' }]),
    ),
    invalid: fc.oneof(wholeIn(1, 20000).filter((v) => ![64, 128, 256, 512, 1024, 2048, 3072, 4096].includes(Number(v))), notDecimal),
    parsed: Number,
    fixedValid: ['64', ['10240', { openZfsDeploymentType: 'MULTI_AZ_1' }]],
    fixedInvalid: ['160', '1000', '064', ['64', { openZfsDeploymentType: 'SINGLE_AZ_2' }]],
  },
  openZfsProvisionedIops: {
    base: ZFS,
    // AWS: 3 to 50 per GiB (the range the planner checks against the storage), at most 400,000 (the second generation's
    // largest tier, the performance page's table); 0: AUTOMATIC.
    valid: wholeIn(0, 400_000),
    invalid: fc.oneof(wholeIn(400_001, 99_999_999), notDecimal, wholeIn(0, 400_000).map((v): [string, Context] => [v, { backend: 'fsx-lustre' }])),
    parsed: Number,
    fixedValid: ['0', '12288', '400000'],
    fixedInvalid: ['400001', '-1', '1e5', '012288', 'AUTOMATIC', ['3000', { backend: 'ebs' }]],
  },
  openZfsRootSquash: {
    base: ZFS,
    valid: bool,
    invalid: fc.oneof(notBool, bool.map((b): [string, Context] => [b, { backend: 'ebs' }])),
    parsed: (t) => t === 'true',
    fixedValid: ['false'],
    fixedInvalid: ['off', ['true', { backend: 'fsx-lustre' }]],
  },
  openZfsStandbySubnetId: {
    base: { ...ZFS, openZfsDeploymentType: 'MULTI_AZ_1', vpcId: 'vpc-0123456789abcdef0' },
    valid: ec2Id('subnet'),
    invalid: fc.oneof(badEc2Id('subnet'), ec2Id('subnet').map((s): [string, Context] => [s, { vpcId: undefined }]),
      ec2Id('subnet').map((s): [string, Context] => [s, { openZfsDeploymentType: 'SINGLE_AZ_2' }])),
    fixedValid: ['subnet-0123456789abcdef0'],
    fixedInvalid: ['subnet-0123', ['subnet-0123456789abcdef0', { vpcId: undefined }], ['subnet-0123456789abcdef0', { openZfsDeploymentType: undefined }]],
  },
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
    valid: wholeIn(1, 3),
    invalid: fc.oneof(wholeIn(4, 10 ** 6), fc.constant('0'), notDecimal, wholeIn(1, 3).map((n) => `${n}.0`)),
    parsed: Number,
    fixedValid: ['1', '3'],
    fixedInvalid: ['0', '4', '-1', 'NaN'],
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
};

// ---- the properties ---------------------------------------------------------------------------------------------

const RUNS = { valid: 100, invalid: 100 };

function contextFor(key: ContextKey, row: Row, value: string | [string, Context]): { text: string; context: Context } {
  const [text, extra] = typeof value === 'string' ? [value, {}] : value;
  return { text, context: { ...row.base, ...extra, [key]: text } };
}

function accepts(key: ContextKey, row: Row, value: string | [string, Context]): void {
  const { text, context } = contextFor(key, row, value);
  const parsed = parseContext((k) => context[k], TARGET);
  expect(parsed[key]).toEqual((row.parsed ?? ((t: string) => t))(text));
}

function refuses(key: ContextKey, row: Row, value: string | [string, Context]): void {
  const { context } = contextFor(key, row, value);
  expect(() => parseContext((k) => context[k], TARGET)).toThrow(new RegExp(`^Invalid context value ${key}=`));
}

/**
 * The outside review's values (issue 26): each wrongly accepted, or refused by a message that did not name the key.
 * Each must now stop parsing naming the key and saying what is wrong.
 */
const REVIEW: [string, Context, RegExp][] = [
  ['a multicast CIDR with the public opt-in', { clientCidrs: '224.0.0.0/4', allowPublicClientCidrs: 'true' }, /^Invalid context value clientCidrs="224.0.0.0\/4": .*it holds addresses of 224.0.0.0\/4, "Multicast" in the IANA IPv4 Address Space Registry .*which are never clients/],
  ['a loopback CIDR with the public opt-in', { clientCidrs: '127.0.0.0/8', allowPublicClientCidrs: 'true' }, /^Invalid context value clientCidrs="127.0.0.0\/8": .*it holds addresses of 127.0.0.0\/8, "Loopback"/],
  ['a network address as the login node', { loginIp: '10.0.0.0' }, /^Invalid context value loginIp="10.0.0.0": .*a network address/],
  ['.. as a cluster name', { clusterName: '..' }, /^Invalid context value clusterName="..": allowed is 1-64 characters .*the first a letter or a digit/],
  ['. as a server name (failed inside CDK\'s dashboard-name check)', { serverName: '.' }, /^Invalid context value serverName=".": allowed is .*no '.'/],
  ['an empty domain label', { alarmEmail: 'a@.b.c' }, /^Invalid context value alarmEmail="a@.b.c": allowed is one e-mail address .*no empty label/],
  ['a topic in another region', { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms' }, /^Invalid context value alarmTopicArn=.*the topic is in eu-west-1, but the stack deploys to us-east-1/],
  ['a bucket name with two adjacent dots', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://a..b' }, /^Invalid context value fsxDataRepositoryPath=.*two adjacent dots/],
  ['a bucket name formatted as an IP address', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://192.168.1.1/x' }, /^Invalid context value fsxDataRepositoryPath=.*formatted as an IP address/],
  ['an empty prefix segment', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://bucket//x' }, /^Invalid context value fsxDataRepositoryPath=.*bad segment ''/],
  ['a capacity beyond the largest file system (was "must be a whole number of GiB")', { capacityTiB: '1000000' }, /^Invalid context value capacityTiB="1000000": allowed is a positive number of TiB whose FSx for Lustre plan fits in 9999999 GiB/],
  ['clusterName=a_b (stack name of clusterName=a serverName=b-storage1)', { clusterName: 'a_b' }, /^Invalid context value clusterName="a_b": .*StorageServer-a-b-storage1/],
  ['clusterName=a-b (the same stack name)', { clusterName: 'a-b' }, /^Invalid context value clusterName="a-b": .*StorageServer-a-b-storage1/],
];

test.each(REVIEW)('the review\'s value: %s', (_, context, message) => {
  expect(() => parseContext((k) => context[k], TARGET)).toThrow(message);
});

test("the instanceType row's types, spelt out from the EC2 guides, are exactly the catalogue's: a family catalogued later must be added here", () => {
  expect([...EBS_TYPES].sort()).toEqual(OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name).sort());
  expect([...D2_TYPES, ...D3_TYPES].sort()).toEqual(OVERRIDE_INSTANCE_STORE_TYPES.map((t) => t.name).sort());
});

test('every context key of lib/context.ts has a row, and every row is a key', () => {
  expect(Object.keys(ROWS).sort()).toEqual(Object.keys(CONTEXT_DEFAULTS).sort());
});

describe.each(Object.keys(CONTEXT_DEFAULTS) as ContextKey[])('%s', (key) => {
  const row = ROWS[key];

  test('fixed cases: valid ones are parsed unchanged, invalid ones refused naming the key', () => {
    for (const value of row.fixedValid) accepts(key, row, value);
    for (const value of row.fixedInvalid) refuses(key, row, value);
  });

  test('generated valid values reach the parsed context unchanged', () => {
    fc.assert(fc.property(row.valid, (value) => {
      generated++;
      accepts(key, row, value);
    }), { numRuns: RUNS.valid });
  });

  test('generated invalid values are refused, naming the key', () => {
    fc.assert(fc.property(row.invalid, (value) => {
      generated++;
      refuses(key, row, value);
    }), { numRuns: RUNS.invalid });
  });
});

test('at least 1,000 generated values in all', () => {
  const seconds = (Date.now() - started) / 1000;
  // The time is printed, not asserted: a loaded machine would fail a timed test that passes on an idle one.
  console.log(`input-grammar: ${generated} generated context values in ${seconds.toFixed(1)} s`);
  expect(generated).toBeGreaterThanOrEqual(1000);
});
