/**
 * The grammar rows (test/unit/input-grammar.test.ts) of the storage's context keys: capacity, backend, generation,
 * instance type, FSx for Lustre and FSx for OpenZFS. The other keys' rows: grammar-rows-server.ts.
 */
import fc from 'fast-check';
import type { ContextKey } from '../../lib/context';
import {
  badEc2Id, badS3Path, bool, decimal, ec2Id, notBool, notDecimal, notOneOf, s3Path, wholeIn, type Context, type Row,
} from './grammars';

/** The context an FSx for Lustre key needs. */
export const FSX = { backend: 'fsx-lustre' } as const;
const ZFS = { backend: 'fsx-openzfs' } as const;
const ZFS_TYPES = ['SINGLE_AZ_1', 'SINGLE_AZ_2', 'SINGLE_AZ_HA_1', 'SINGLE_AZ_HA_2', 'MULTI_AZ_1'];

/**
 * The catalogued types, spelt out from the EC2 instance types guide's "Available sizes" (general purpose, storage
 * optimized) for the families and sizes the catalogue keeps: EBS types (m4, m6i, m7i, c6in, m6in, r6in; Graviton m7g,
 * m6g, c8gb, m8gb, r8gb) and d2.
 */
const sizes = (family: string, list: string[]) => list.map((size) => `${family}.${size}`);
export const EBS_TYPES = [
  ...sizes('m4', ['xlarge', '2xlarge', '4xlarge', '10xlarge', '16xlarge']),
  ...sizes('m6i', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge']),
  ...['m7g', 'm6g'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge'])),
  ...sizes('m7i', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge']),
  // The network-optimized families (compute, general purpose and memory optimized guides), without their metal sizes.
  ...['c6in', 'm6in', 'r6in'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'])),
  ...['c8gb', 'm8gb', 'r8gb'].flatMap((f) => sizes(f, ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'])),
];
export const D2_TYPES = sizes('d2', ['xlarge', '2xlarge', '4xlarge', '8xlarge']);
/** d3 and d3en (EC2 User Guide, storage optimized instances): instance store, whichever generation planned. */
export const D3_TYPES = [...sizes('d3', ['xlarge', '2xlarge', '4xlarge', '8xlarge']), ...sizes('d3en', ['xlarge', '2xlarge', '4xlarge', '6xlarge', '8xlarge', '12xlarge'])];
const STORE_3TIB = { backend: 'instance-store', capacityTiB: '3' } as const;

export const STORAGE_ROWS = {
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
} satisfies Partial<Record<ContextKey, Row>>;
