/**
 * The change matrix's rows of the server's own keys: its size, backend and names, the EC2 instance, snapshots, alarms,
 * quotas and the stack name. Assembled by test/unit/guard-matrix.cases.ts.
 */
import type { ContextKey } from '../../lib/context';
import { EC2, FEWER, FSX, IDENTITY, RESTORES_NOTHING, SHRINK, SNAP_A, SNAP_B, type Row } from './guard-matrix-shared.cases';

export const SERVER_ROWS = {
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
  loginIp: [{ name: 'join the clusterware ring', change: { loginIp: '10.0.1.10' }, backends: EC2 }],
  keyPair: [{ name: 'a key pair', change: { keyPair: 'ops' }, backends: EC2 }],
  placementGroup: [{ name: 'a placement group', change: { placementGroup: 'hpc' }, backends: EC2 }],
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
  quotaLimits: [{ name: 'quotas set', change: { quotaLimits: 'user:1:1,group:2:5' } }, { name: 'one changed, one lifted', base: { quotaLimits: 'user:1:1,group:2:5' }, change: { quotaLimits: 'user:1:2' } }],
  quotaDefaultUserGiB: [{ name: 'a default user quota', change: { quotaDefaultUserGiB: '10' }, backends: ['ebs', 'instance-store'] }],
  // The same stack under the name it already has, given explicitly: nothing in the template changes.
  stackName: [{ name: 'the derived stack name given as stackName', change: { stackName: 'StorageServer-cluster-storage1' } }],
} satisfies { readonly [K in ContextKey]?: readonly Row[] };
