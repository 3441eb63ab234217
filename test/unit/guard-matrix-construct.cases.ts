/**
 * The change matrix's rows made in code: a StorageServer moved, renamed or given other props in a consumer's stack.
 * Run by test/support/guard-matrix-suite.ts beside the context rows of test/unit/guard-matrix.cases.ts.
 */
import { Aspects, CfnResource, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { RESOURCE_TYPE } from '../../lambda/update-guard/contract';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { StorageServer, StorageServerProps } from '../../lib/storage-server';
import type { Backend } from '../../lambda/register/contract';
import { NfsExportMode, NfsVersion } from '../../lib/backends/ec2-nfs-server-props';
import { Generation } from '../../lib/sizing/enums';
import { EC2, FEWER, IDENTITY, RESTORES_NOTHING, SNAP_A } from './guard-matrix-shared.cases';

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
