/**
 * The update guard's change matrix, as data; the engine is test/support/guard-matrix.ts, and the tests
 * test/unit/guard-matrix-*.test.ts. Each row is one change, or a pair, to a baseline of one backend. The expected
 * verdict is derived, not written. The guard must refuse exactly when CloudFormation's rules replace or delete a
 * resource that holds data or the clients' address; an EBS server's instance may be replaced. Those rules are the diff
 * engine of `cdk diff` and the specification's nested replacing properties, both corrected where AWS's reference says
 * otherwise in lambda/update-guard/spec-overrides.ts. `stricter` marks a row where the guard refuses a change the rules
 * let through, with the reason; nothing else may differ.
 */
import { Aspects, CfnResource, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { RESOURCE_TYPE } from '../../lambda/update-guard/contract';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { ContextKey } from '../../lib/context';
import type { StorageServer, StorageServerProps } from '../../lib/storage-server';
import type { Backend } from '../../lambda/register/contract';
import { type Context, LOOKED_UP_VPC } from '../support/guard-matrix';
import { openZfsRows } from './guard-matrix-openzfs.cases';
import { EC2_KEY_ROWS } from './guard-matrix-ec2.cases';
import { NfsExportMode, NfsVersion } from '../../lib/backends/ec2-nfs-server-props';
import { Generation } from '../../lib/sizing/enums';

export interface Row {
  readonly name: string;
  /** Applied to the baseline for the second template. */
  readonly change: Context;
  /** Applied to both templates: a baseline variant the change needs. */
  readonly base?: Context;
  /** The backends the row applies to; all when absent. */
  readonly backends?: readonly Backend[];
  /** The guard refuses although nothing the specification replaces is lost: why. */
  readonly stricter?: string;
}

export const BASELINES: { readonly [B in Backend]: Context } = {
  ebs: { backend: 'ebs', capacityTiB: '5' },
  'instance-store': { backend: 'instance-store', capacityTiB: '3' },
  'fsx-lustre': { backend: 'fsx-lustre', capacityTiB: '12' },
  'fsx-openzfs': { backend: 'fsx-openzfs', capacityTiB: '4' },
};

const [SUBNET_A1, SUBNET_A2, SUBNET_B1] = LOOKED_UP_VPC.subnets.map((s) => s.subnetId);
const VPC = { vpcId: LOOKED_UP_VPC.vpcId };
const EC2: readonly Backend[] = ['ebs', 'instance-store'];
const IDENTITY = 'identity: a cluster or server rename moves the stack\'s server to another name (issue 26, item 3)';
const SHRINK = 'EBS cannot shrink a volume and FSx cannot shrink a file system: CloudFormation would fail the update';
const RESTORES_NOTHING = 'a volume\'s SnapshotId is read only when the volume is created: the volume would keep its data and ' +
  'nothing would be restored, while the deploy looks like a restore';
const [SNAP_A, SNAP_B] = ['snap-0123456789abcdef0', 'snap-0fedcba9876543210'];
const FEWER = 'a lower retention deletes what the higher one kept (EBS: the oldest snapshot sets, at DLM\'s next run; FSx: the ' +
  'older automatic backups): no resource is replaced, the snapshots or backups go (issue 38, item 3)';
const FSX: readonly Backend[] = ['fsx-lustre', 'fsx-openzfs'];

/** Rows per context key: a key without a row fails the test. */
export const CONTEXT_ROWS: { readonly [K in ContextKey]: readonly Row[] } = {
  capacityTiB: [
    { name: 'capacity up', change: { capacityTiB: '8' }, backends: ['ebs'] },
    { name: 'capacity up', change: { capacityTiB: '6' }, backends: ['instance-store'] },
    { name: 'capacity up', change: { capacityTiB: '24' }, backends: ['fsx-lustre'] },
    { name: 'capacity up fourfold', change: { capacityTiB: '48' }, backends: ['fsx-lustre'] },
    { name: 'capacity down', change: { capacityTiB: '3' }, backends: ['ebs'], stricter: SHRINK },
    { name: 'capacity down', change: { capacityTiB: '2' }, backends: ['instance-store'] },
    { name: 'capacity down', change: { capacityTiB: '6' }, backends: ['fsx-lustre'], stricter: SHRINK },
    // FSx for OpenZFS grows its SSD storage in place, since StorageCapacity updates, and never shrinks it.
    { name: 'capacity up', change: { capacityTiB: '8' }, backends: ['fsx-openzfs'] },
    { name: 'capacity down', change: { capacityTiB: '2' }, backends: ['fsx-openzfs'], stricter: SHRINK },
  ],
  backend: [
    { name: 'backend to instance-store', change: { backend: 'instance-store', capacityTiB: '3' }, backends: ['ebs'] },
    { name: 'backend to ebs', change: { backend: 'ebs' }, backends: ['instance-store', 'fsx-lustre', 'fsx-openzfs'] },
    { name: 'backend to fsx-lustre', change: { backend: 'fsx-lustre', capacityTiB: '12' }, backends: ['fsx-openzfs'] },
    { name: 'backend to fsx-openzfs', change: { backend: 'fsx-openzfs', capacityTiB: '4' }, backends: ['fsx-lustre'] },
  ],
  clusterName: [
    { name: 'cluster rename', change: { clusterName: 'other' }, stricter: IDENTITY },
    // The app refuses both names without stackName, since their derived name is also clusterName=a
    // serverName=b-storage1's. The same stack can get another pair only when the stack is named.
    {
      name: 'stack name collision a_b -> a-b', base: { clusterName: 'a_b', stackName: 'StorageServer-a-b-storage1' },
      change: { clusterName: 'a-b' }, stricter: IDENTITY,
    },
  ],
  serverName: [
    { name: 'server rename', change: { serverName: 'storage2' }, stricter: IDENTITY },
    {
      name: 'stack name collision (a, b-storage1) -> (a-b, storage1)', base: { clusterName: 'a', serverName: 'b-storage1' },
      change: { clusterName: 'a-b', serverName: 'storage1', stackName: 'StorageServer-a-b-storage1' }, stricter: IDENTITY,
    },
  ],
  vpcId: [
    { name: 'a new VPC -> a looked-up VPC', change: { ...VPC } },
  ],
  vpcFrom: [
    { name: 'a new VPC -> another stack\'s VPC', change: { vpcFrom: 'StorageServer-hpc1-home' } },
  ],
  availabilityZone: [
    { name: 'a new VPC -> a new VPC in a chosen zone', change: { availabilityZone: 'us-east-1b' } },
  ],
  subnetId: [
    { name: 'another subnet in the same zone', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_A2 } },
    { name: 'a subnet in another zone', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_B1 } },
    { name: 'the first private subnet named explicitly', base: { ...VPC }, change: { subnetId: SUBNET_A1 } },
  ],
  clientCidrs: [{ name: 'client CIDRs', change: { clientCidrs: '10.0.0.0/17,10.0.128.0/17' } }],
  clientSecurityGroupId: [{ name: 'a client security group', change: { clientSecurityGroupId: 'sg-0123456789abcdef0' } }],
  allowPublicClientCidrs: [
    { name: 'public client CIDRs with the opt-in', change: { allowPublicClientCidrs: 'true', clientCidrs: '11.0.1.0/24' } },
  ],
  clientTagKey: [{ name: 'client tag key', change: { clientTagKey: 'nodes' } }],
  loginIp: [{ name: 'join the clusterware ring', change: { loginIp: '10.0.1.10' }, backends: EC2 }],
  keyPair: [{ name: 'a key pair', change: { keyPair: 'ops' }, backends: EC2 }], placementGroup: [{ name: 'a placement group', change: { placementGroup: 'hpc' }, backends: EC2 }],
  ...EC2_KEY_ROWS,
  snapshotRetain: [
    { name: 'keep more snapshots', change: { snapshotRetain: '14' } },
    // EBS: no policy, and DLM deletes nothing of what a deleted policy made.
    { name: 'snapshots off', change: { snapshotRetain: '0' }, backends: EC2 },
    { name: 'backups off', change: { snapshotRetain: '0' }, backends: FSX, stricter: FEWER },
    { name: 'keep fewer snapshots', change: { snapshotRetain: '3' }, backends: ['ebs', ...FSX], stricter: FEWER },
    { name: 'keep fewer snapshots', change: { snapshotRetain: '3' }, backends: ['instance-store'] },
  ],
  terminationProtection: [{ name: 'termination protection toggled', change: { terminationProtection: 'true' }, backends: ['ebs'] }],
  encryptInstanceStore: [{ name: 'instance-store encryption off', change: { encryptInstanceStore: 'false' }, backends: ['instance-store'],
    stricter: 'the array keeps the layout it was made with: the running array would not follow the setting' }],
  alarmEmail: [{ name: 'an alarm e-mail', change: { alarmEmail: 'ops@example.com' } }],
  alarmTopicArn: [{ name: 'an alarm topic of its own', change: { alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:ops' } }],
  // A volume's SnapshotId is read only when EBS creates the volume; CloudFormation updates it without replacement.
  restoreSnapshotIds: [
    { name: 'restore from a snapshot onto the deployed server', change: { restoreSnapshotIds: SNAP_A }, backends: ['ebs'], stricter: RESTORES_NOTHING },
    { name: 'another snapshot after a restore', base: { restoreSnapshotIds: SNAP_A }, change: { restoreSnapshotIds: SNAP_B }, backends: ['ebs'], stricter: RESTORES_NOTHING },
    // The ids need not be carried on: the volumes stay as they are, and the bootstrap owns the array it adopted.
    { name: 'the restore ids dropped after the restore', base: { restoreSnapshotIds: SNAP_A }, change: { restoreSnapshotIds: undefined }, backends: ['ebs'] },
  ],
  machineImageId: [{ name: 'a pinned image', change: { machineImageId: 'ami-0123456789abcdef0' }, backends: EC2 }],
  acceptDataLoss: [{ name: 'acceptDataLoss alone', change: { acceptDataLoss: 'true' } }],
  acceptFewerSnapshots: [
    { name: 'acceptFewerSnapshots alone', change: { acceptFewerSnapshots: 'true' } },
    { name: 'keep fewer snapshots, accepted by acceptFewerSnapshots', change: { snapshotRetain: '3', acceptFewerSnapshots: 'true' } },
  ],
  // What a later destroy does, by DeletionPolicy and the instance's DisableApiTermination, updated in place: no loss.
  deleteDataOnDestroy: [{ name: 'data deleted by a later destroy', change: { deleteDataOnDestroy: 'true' } }],
  legacyVolumeAttachments: [{
    name: 'legacy volume attachments back on', change: { legacyVolumeAttachments: 'true' }, backends: ['ebs'],
    stricter: 'the server attaches its own volumes: a stack attachment of an attached volume fails',
  }],
  dataVolumeCount: [{
    name: 'two volumes instead of one', change: { dataVolumeCount: '2' }, backends: ['ebs'],
    stricter: 'LVM cannot restripe an existing striped volume over more disks',
  }],
  throughputMBps: [
    { name: 'a throughput the plan already meets', change: { throughputMBps: '100' }, backends: ['ebs'] },
    // 1 TiB of st1 on m4.xlarge -> two gp3 volumes on m4.4xlarge: the stripe gains a volume, which LVM cannot take.
    {
      name: 'a throughput that makes the planner choose a gp3 stripe', base: { backend: 'ebs', capacityTiB: '1' }, change: { throughputMBps: '250' },
      backends: ['ebs'], stricter: 'LVM cannot restripe an existing striped volume over more disks, and EBS cannot shrink the first',
    },
    // The same gp3 stripe on a larger instance, m4.4xlarge -> m4.10xlarge: a stop and start, the volumes unchanged.
    { name: 'a throughput that moves a gp3 stripe to a larger instance', base: { backend: 'ebs', capacityTiB: '1', throughputMBps: '250' }, change: { throughputMBps: '260' }, backends: ['ebs'] },
    // FSx for OpenZFS: a higher throughput capacity tier of the same deployment type, changed in place. 64 -> 512 MB/s
    // also provisions the tier's 20,000 IOPS, AUTOMATIC before: two updates FSx takes one at a time.
    {
      name: 'a throughput that needs a higher throughput capacity', change: { throughputMBps: '500' }, backends: ['fsx-openzfs'],
      stricter: 'OPENZFS-IOPS-WITH-THROUGHPUT: no throughput update during an IOPS update',
    },
  ],
  mountPoint: [{ name: 'another mount point', change: { mountPoint: '/scratch' } }],
  mountRoots: [{ name: 'another set of mount roots', change: { mountRoots: '/data,/projects', mountPoint: '/projects/shared' } }],
  allowHomeMountPoint: [{ name: 'mount under /home', change: { allowHomeMountPoint: 'true', mountPoint: '/home/shared' } }],
  // The mount record's options change, so registration rewrites the parameter; nothing that holds data is touched.
  nconnect: [
    { name: 'one connection per client mount (no nconnect)', change: { nconnect: '1' }, backends: EC2 },
    { name: 'eight connections per client mount', change: { nconnect: '8' }, backends: EC2 },
  ],
  // The client-mount document's default parameter and the association's value: nothing of the server changes.
  clientReadAheadKiB: [
    { name: 'client read-ahead left to the kernel', change: { clientReadAheadKiB: '0' } },
    { name: 'client read-ahead of 4 MiB', change: { clientReadAheadKiB: '4096' } },
  ],
  generation: [
    { name: 'current generation (m6i)', change: { generation: 'current' }, backends: ['ebs'] },
    // d2.xlarge -> d3.xlarge, three disks each: the instance that holds the data changes type, which CloudFormation's
    // specification marks as a possible replacement. The array's encryption changes too, from LUKS2 to the platform's.
    { name: 'current generation (d3: the data-holding instance changes type)', change: { generation: 'current' }, backends: ['instance-store'] },
  ],
  // No row for fsx-lustre, since the key is refused there: see test/unit/instance-type.test.ts.
  instanceType: [
    { name: 'instance type pinned one size up', change: { instanceType: 'm4.4xlarge' }, backends: ['ebs'] },
    { name: 'instance type pinned to Graviton (the arm64 image: a new instance)', change: { instanceType: 'm7g.2xlarge' }, backends: ['ebs'] },
    { name: 'the planner\'s own type pinned', change: { instanceType: 'm4.2xlarge' }, backends: ['ebs'] },
    { name: 'instance type pinned one size up', change: { instanceType: 'd2.2xlarge' }, backends: ['instance-store'] },
  ],
  fsxDeploymentType: [
    { name: 'SCRATCH_2 instead of PERSISTENT_2', change: { fsxDeploymentType: 'SCRATCH_2' }, backends: ['fsx-lustre'] },
    { name: 'PERSISTENT_1 instead of PERSISTENT_2', change: { fsxDeploymentType: 'PERSISTENT_1', fsxPerUnitStorageThroughput: '50' }, backends: ['fsx-lustre'] },
  ],
  // Accepted, nothing lost: the specification calls it a replacement, and AWS's reference an update without
  // interruption. See lambda/update-guard/spec-overrides.ts; test/unit/update-guard-lustre-throughput.test.ts states it
  // outright.
  fsxPerUnitStorageThroughput: [{ name: 'throughput per TiB 125 -> 250', change: { fsxPerUnitStorageThroughput: '250' }, backends: ['fsx-lustre'] }],
  fsxStorageType: [{
    name: 'HDD instead of SSD', base: { fsxDeploymentType: 'PERSISTENT_1', fsxPerUnitStorageThroughput: '50' },
    change: { fsxStorageType: 'HDD', fsxPerUnitStorageThroughput: '40' }, backends: ['fsx-lustre'],
  }],
  fsxDataRepositoryPath: [
    { name: 'an S3 data repository', change: { fsxDataRepositoryPath: 's3://hpc-inputs/run1' }, backends: ['fsx-lustre'] },
    { name: 'another S3 data repository', base: { fsxDataRepositoryPath: 's3://hpc-inputs/run1' }, change: { fsxDataRepositoryPath: 's3://hpc-inputs/run2' }, backends: ['fsx-lustre'] },
  ],
  fsxRootSquash: [{ name: 'root squash off', change: { fsxRootSquash: 'false' }, backends: ['fsx-lustre'] }],
  // LUSTRE-VERSION: another version replaces the file system, per the resource specification, so it is refused.
  fsxFileSystemTypeVersion: [
    { name: 'Lustre 2.15 named on a file system of the default version', change: { fsxFileSystemTypeVersion: '2.15' }, backends: ['fsx-lustre'] },
    { name: 'the same Lustre version named explicitly', base: { fsxFileSystemTypeVersion: '2.15' }, change: { fsxFileSystemTypeVersion: '2.15', fsxRootSquash: 'true' }, backends: ['fsx-lustre'] },
  ],
  // LUSTRE-COMPRESSION: in place, per the resource specification, nothing replaced. LUSTRE-METADATA: raised in place,
  // per the specification; a lower one is refused before FSx refuses it, with nothing lost.
  fsxMetadataIops: [
    {
      name: 'Metadata IOPS on a PERSISTENT_2 created without them', change: { fsxMetadataIops: '12000' }, backends: ['fsx-lustre'],
      stricter: 'LUSTRE-METADATA: only on a file system created with a metadata configuration',
    },
    { name: 'Metadata IOPS raised (12000 -> 24000)', base: { fsxMetadataIops: '12000' }, change: { fsxMetadataIops: '24000' }, backends: ['fsx-lustre'] },
    {
      name: 'Metadata IOPS lowered (24000 -> 12000)', base: { fsxMetadataIops: '24000' }, change: { fsxMetadataIops: '12000' }, backends: ['fsx-lustre'],
      stricter: 'LUSTRE-METADATA: FSx never lowers Metadata IOPS',
    },
  ],
  fsxDataCompressionType: [
    { name: 'LZ4 data compression on', change: { fsxDataCompressionType: 'LZ4' }, backends: ['fsx-lustre'] },
    { name: 'LZ4 data compression off again', base: { fsxDataCompressionType: 'LZ4' }, change: { fsxDataCompressionType: 'NONE' }, backends: ['fsx-lustre'] },
  ],
  // The FSx for OpenZFS keys, on the backend branch: rows so that every key has one. The guard branch owns the
  // verdicts.
  openZfsDeploymentType: [{ name: 'SINGLE_AZ_2 instead of SINGLE_AZ_1', change: { openZfsDeploymentType: 'SINGLE_AZ_2' }, backends: ['fsx-openzfs'] }],
  openZfsThroughputCapacityMBps: [{ name: 'throughput capacity 64 -> 128', change: { openZfsThroughputCapacityMBps: '128' }, backends: ['fsx-openzfs'] }],
  openZfsProvisionedIops: [{ name: 'SSD IOPS provisioned (AUTOMATIC -> 20000)', change: { openZfsProvisionedIops: '20000' }, backends: ['fsx-openzfs'] }],
  openZfsRootSquash: [{ name: 'root squash off', change: { openZfsRootSquash: 'false' }, backends: ['fsx-openzfs'] }],
  quotaLimits: [{ name: 'quotas set', change: { quotaLimits: 'user:1:1,group:2:5' } }, { name: 'one changed, one lifted', base: { quotaLimits: 'user:1:1,group:2:5' }, change: { quotaLimits: 'user:1:2' } }],
  quotaDefaultUserGiB: [{ name: 'a default user quota', change: { quotaDefaultUserGiB: '10' }, backends: ['ebs', 'instance-store'] }],
  openZfsStandbySubnetId: [{ name: 'the default standby subnet named explicitly', base: { ...VPC, openZfsDeploymentType: 'MULTI_AZ_1' },
    change: { openZfsStandbySubnetId: SUBNET_B1 }, backends: ['fsx-openzfs'] }],
  clientMount: [{ name: 'no client-mount association', change: { clientMount: 'false' } }],
  existingStorage: [], // another stack, of no server and no guard: nothing of a server's stack changes by it
  storageSecurityGroupId: [], // read beside existingStorage alone, refused beside a server's keys
  // The same stack under the name it already has, given explicitly: nothing in the template changes.
  stackName: [{ name: 'the derived stack name given as stackName', change: { stackName: 'StorageServer-cluster-storage1' } }],
};

/** Pairs of changes. */
export const PAIRS: readonly Row[] = [
  { name: 'pair: capacity up + alarm e-mail', change: { capacityTiB: '8', alarmEmail: 'ops@example.com' }, backends: ['ebs'] },
  { name: 'pair: pinned image + key pair', change: { machineImageId: 'ami-0123456789abcdef0', keyPair: 'ops' }, backends: EC2 },
  { name: 'pair: client CIDRs + mount point', change: { clientCidrs: '10.0.0.0/16', mountPoint: '/scratch' } },
  { name: 'pair: subnet + acceptDataLoss', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_A2, acceptDataLoss: 'true' }, backends: ['instance-store'] },
  { name: 'pair: cluster rename + capacity up', change: { clusterName: 'other', capacityTiB: '24' }, backends: ['fsx-lustre'], stricter: IDENTITY },
  { name: 'pair: snapshots off + throughput', change: { snapshotRetain: '0', fsxPerUnitStorageThroughput: '250' }, backends: ['fsx-lustre'] },
  { name: 'pair: alarm e-mail + client tag key', change: { alarmEmail: 'ops@example.com', clientTagKey: 'nodes' } },
  { name: 'pair: server rename + acceptDataLoss', change: { serverName: 'storage2', acceptDataLoss: 'true' } },
  { name: 'pair: capacity up + keep more snapshots', change: { capacityTiB: '24', snapshotRetain: '14' }, backends: ['fsx-lustre'] },
  { name: 'pair: capacity down + acceptDataLoss', change: { capacityTiB: '2', acceptDataLoss: 'true' }, backends: ['instance-store'] },
  {
    name: 'pair: instance type pinned one size up on a server with legacy volume attachments', base: { legacyVolumeAttachments: 'true' },
    change: { instanceType: 'm4.4xlarge' }, backends: ['ebs'],
    stricter: 'with legacy attachments the guard holds every watched instance property: CloudFormation owns the attachments',
  },
  { name: 'pair: two volumes + capacity up', change: { dataVolumeCount: '2', capacityTiB: '8' }, backends: ['ebs'], stricter: 'LVM cannot restripe an existing striped volume over more disks' },
  {
    name: 'pair: capacity up + a higher throughput capacity', change: { capacityTiB: '8', throughputMBps: '500' }, backends: ['fsx-openzfs'],
    stricter: 'OPENZFS-ONE-UPDATE: FSx takes no throughput update while a storage update runs (docs/sources/fsx-rules.md)',
  },
  { name: 'pair: capacity down + acceptDataLoss', change: { capacityTiB: '2', acceptDataLoss: 'true' }, backends: ['fsx-openzfs'] },
  { name: 'pair: cluster rename + capacity up', change: { clusterName: 'other', capacityTiB: '8' }, backends: ['fsx-openzfs'], stricter: IDENTITY },
];

const LOST_STATE = 'the guard\'s record of the last accepted layout went with its old logical id: a replacing change could not be seen';

/** An escape hatch that gives the server's update guard another logical id: its Create runs, its old state is gone. */
function overrideGuardId(server: StorageServer): void {
  const guard = server.node.findAll().find((c): c is CfnResource => CfnResource.isCfnResource(c) && c.cfnResourceType === RESOURCE_TYPE);
  if (!guard) throw new Error('no update guard under the server');
  guard.overrideLogicalId('StorageGuardMoved');
}

/** A change made in code, to a StorageServer in a consumer's stack: its id, its place, its props, an escape hatch. */
export interface ConstructRow {
  readonly name: string;
  /**
   * The construct path from the stack down to the server after the change, `basePath` by default; `nested:<Id>` is a
   * NestedStack.
   */
  readonly path?: readonly string[];
  /** The construct path before the change, `Storage` by default. */
  readonly basePath?: readonly string[];
  /** The stack after the change is in this Stage, under the same stack name. */
  readonly stage?: string;
  readonly props?: Partial<StorageServerProps> | ((stack: Stack, vpc: ec2.IVpc) => Partial<StorageServerProps>);
  readonly mutate?: (server: StorageServer) => void;
  readonly backends?: readonly Backend[];
  readonly stricter?: string;
}

/** Construct-level rows, against the baseline `new StorageServer(stack, 'Storage', { backend, capacityTiB })`. */
export const CONSTRUCT_ROWS: readonly ConstructRow[] = [
  { name: 'construct id renamed', path: ['StorageRenamed'] },
  { name: 'construct moved in the tree', path: ['Group', 'Storage'] },
  // Identity from CloudFormation's record: whatever the names, what the stack holds and the deploy drops is refused.
  { name: 'construct id and serverName renamed together', path: ['Home'], props: { serverName: 'home' } },
  { name: 'construct id and clusterName renamed together', path: ['Home'], props: { clusterName: 'other' } },
  { name: 'construct id, clusterName and serverName renamed together', path: ['Home'], props: { clusterName: 'other', serverName: 'home' } },
  { name: 'moved into a nested stack', path: ['nested:Data', 'Storage'] },
  { name: 'moved into a nested stack with serverName renamed', path: ['nested:Data', 'Storage'], props: { serverName: 'home' } },
  { name: 'moved out of a nested stack', basePath: ['nested:Data', 'Storage'], path: ['Storage'] },
  { name: 'moved out of a nested stack with serverName renamed', basePath: ['nested:Data', 'Storage'], path: ['Storage'], props: { serverName: 'home' } },
  { name: 'nested stack renamed', basePath: ['nested:Data', 'Storage'], path: ['nested:Files', 'Storage'] },
  { name: 'in a nested stack, nothing changed', basePath: ['nested:Data', 'Storage'] },
  { name: 'in a nested stack, capacity up', basePath: ['nested:Data', 'Storage'], props: { capacityTiB: 8 }, backends: ['ebs', 'fsx-openzfs'] },
  { name: 'guard state lost (its logical id overridden)', mutate: overrideGuardId, stricter: LOST_STATE },
  { name: 'guard state lost with serverName renamed', mutate: overrideGuardId, props: { serverName: 'home' }, stricter: LOST_STATE },
  {
    name: 'guard state lost with construct id and serverName renamed', path: ['Home'], mutate: overrideGuardId, props: { serverName: 'home' },
  },
  { name: 'the stack in a Stage under the same stack name', stage: 'Prod' },
  {
    name: 'launch template changed (an escape hatch or a new aws-cdk-lib)', backends: EC2,
    // The IMDSv2 launch template is made by an aspect at synth: the override goes in by an aspect too.
    mutate: (server) => Aspects.of(server).add({
      visit: (node) => {
        if (node instanceof ec2.CfnLaunchTemplate) node.addPropertyOverride('LaunchTemplateData.MetadataOptions.HttpPutResponseHopLimit', 2);
      },
    }),
  },
  { name: 'nfs threads', props: { nfs: { threads: 32 } }, backends: EC2 },
  { name: 'nfs export mode async', props: { nfs: { exportMode: NfsExportMode.ASYNC } }, backends: EC2 },
  { name: 'nfs version 4.2 only', props: { nfs: { version: NfsVersion.V4_2 } }, backends: EC2 },
  { name: 'export path', props: { exportPath: '/export/other' }, backends: EC2 },
  {
    name: 'an encryption key of its own', props: (stack) => ({ kmsKey: new kms.Key(stack, 'Key', { enableKeyRotation: true }) }),
    backends: ['ebs'], stricter: 'EBS cannot re-encrypt a volume in place: the old volumes would stay under the old key',
  },
  {
    name: 'an encryption key of its own', props: (stack) => ({ kmsKey: new kms.Key(stack, 'Key', { enableKeyRotation: true }) }),
    backends: ['instance-store', 'fsx-lustre', 'fsx-openzfs'],
  },
  { name: 'instance type pinned one size up', props: { instanceType: new ec2.InstanceType('m4.4xlarge') }, backends: ['ebs'] },
  { name: 'instance type pinned one size up', props: { instanceType: new ec2.InstanceType('d2.2xlarge') }, backends: ['instance-store'] },
  { name: 'data volumes destroyed with the stack', props: { removalPolicy: RemovalPolicy.DESTROY, deleteDataOnDestroy: true } },
  { name: 'restore snapshot ids onto the deployed server', props: { dataVolumeSnapshotIds: [SNAP_A] }, backends: ['ebs'], stricter: RESTORES_NOTHING },
  { name: 'snapshots every 12 hours', props: { snapshots: { intervalHours: 12 } }, backends: ['ebs'] },
  { name: 'snapshot start time', props: { snapshots: { startTimeUtc: '04:30' } } },
  { name: 'application-consistent snapshots', props: { snapshots: { applicationConsistent: true } }, backends: ['ebs'] },
  { name: 'snapshots copied to another region', props: { snapshots: { crossRegionCopy: { targetRegion: 'eu-west-1' } } }, backends: ['ebs'] },
  { name: 'keep 30 snapshots or backups', props: { snapshots: { retain: 30 } } },
  { name: 'termination protection toggled', props: { terminationProtection: true }, backends: ['ebs'] },
  { name: 'termination protection toggled', props: { terminationProtection: false }, backends: ['instance-store'] },
  {
    name: 'instance-store encryption off', props: { encryptInstanceStore: false }, backends: ['instance-store'],
    stricter: 'the array keeps the layout it was made with',
  },
  { name: 'no dashboard', props: { monitoring: { dashboard: false } } },
  { name: 'alarm thresholds', props: { monitoring: { fileSystemUsedWarningPercent: 80, fileSystemUsedCriticalPercent: 90, exportDownMinutes: 10 } } },
  { name: 'an imported alarm topic', props: (stack) => ({ alarmTopic: sns.Topic.fromTopicArn(stack, 'Topic', 'arn:aws:sns:us-east-1:123456789012:ops') }) },
  { name: 'an alarm e-mail', props: { alarmEmail: 'ops@example.com' } },
  { name: 'a pinned image', props: { machineImageId: 'ami-0123456789abcdef0' }, backends: EC2 },
  { name: 'a key pair', props: (stack) => ({ keyPair: ec2.KeyPair.fromKeyPairName(stack, 'Kp', 'ops') }), backends: EC2 },
  { name: 'a placement group', props: (stack) => ({ placementGroup: ec2.PlacementGroup.fromPlacementGroupName(stack, 'Pg', 'hpc') }), backends: EC2 },
  { name: 'a throughput the plan meets', props: { throughputMBps: 100 }, backends: ['ebs'] },
  { name: 'acceptDataLoss alone', props: { acceptDataLoss: true } },
  { name: 'legacy volume attachments', props: { legacyVolumeAttachments: true }, backends: ['ebs'], stricter: 'the server attaches its own volumes' },
  { name: 'two data volumes', props: { dataVolumeCount: 2 }, backends: ['ebs'], stricter: 'LVM cannot restripe an existing striped volume' },
  { name: 'join the clusterware ring', props: { clusterware: { loginIp: '10.0.1.10' } }, backends: EC2 },
  { name: 'another parameter prefix', props: { parameterPrefix: '/hpc-storage' } },
  { name: 'another mount point', props: { mountPoint: '/scratch/shared' } },
  { name: 'mount roots and a mount point below one', props: { mountRoots: ['/data', '/projects'], mountPoint: '/projects/a' } },
  { name: 'mount under /home', props: { allowHomeMountPoint: true, mountPoint: '/home/shared' } },
  { name: 'one NFS connection per client mount', props: { nfs: { nconnect: 1 } }, backends: EC2 },
  { name: 'eight NFS connections per client mount', props: { nfs: { nconnect: 8 } }, backends: EC2 },
  { name: 'client CIDRs', props: { clientCidrs: ['10.0.0.0/17'] } },
  { name: 'public client CIDRs with the opt-in', props: { clientCidrs: ['11.0.1.0/24'], allowPublicClientCidrs: true } },
  { name: 'a client security group as peer', props: (stack, vpc) => ({ clientPeers: [new ec2.SecurityGroup(stack, 'Clients', { vpc })] }) },
  { name: 'a security group of its own, imported', props: (stack) => ({ securityGroup: ec2.SecurityGroup.fromSecurityGroupId(stack, 'Sg', 'sg-0123456789abcdef0') }) },
  { name: 'the server in a public subnet', props: { vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC } } },
  { name: 'cluster rename', props: { clusterName: 'other' }, stricter: IDENTITY },
  { name: 'server rename', props: { serverName: 'storage2' }, stricter: IDENTITY },
  { name: 'current generation', props: { generation: Generation.CURRENT }, backends: EC2 },
  { name: 'SCRATCH_2', props: { fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 } }, backends: ['fsx-lustre'] },
  { name: 'throughput per TiB 250', props: { fsxLustre: { perUnitStorageThroughput: 250 } }, backends: ['fsx-lustre'] }, // accepted: spec-overrides.ts
  { name: 'an S3 data repository', props: { fsxLustre: { dataRepositoryPath: 's3://hpc-inputs/run1' } }, backends: ['fsx-lustre'] },
  { name: 'root squash off', props: { fsxLustre: { rootSquash: false } }, backends: ['fsx-lustre'] },
  { name: 'root squash exemptions', props: { fsxLustre: { noSquashNids: ['10.0.1.10@tcp'] } }, backends: ['fsx-lustre'] },
  { name: 'PERSISTENT_1 HDD', props: { fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD, perUnitStorageThroughput: 12 } }, backends: ['fsx-lustre'] },
  { name: 'no backups', props: { snapshots: { retain: 0 } }, backends: ['fsx-lustre', 'fsx-openzfs'], stricter: FEWER },
  { name: 'fewer snapshots or backups', props: { snapshots: { retain: 2 } }, backends: ['ebs', 'fsx-lustre', 'fsx-openzfs'], stricter: FEWER },
  { name: 'fewer snapshots or backups, accepted', props: { snapshots: { retain: 2 }, acceptFewerSnapshots: true } },
];

/** The rows of one backend. */
export function rowsOf(backend: Backend): Row[] {
  const openZfs = backend === 'fsx-openzfs' ? openZfsRows() : [];
  return [...Object.values(CONTEXT_ROWS).flat(), ...PAIRS, ...openZfs].filter((r) => !r.backends || r.backends.includes(backend));
}
