/**
 * The day-2 guard of an FSx for OpenZFS file system: the layout it records, and the file system it watches by
 * CloudFormation's replacement rules. The layout is the deployment type, storage, throughput capacity, subnets and key.
 * The rules themselves are the guard's descriptor of the backend, lambda/update-guard/backends/fsx-openzfs.ts; this
 * file only says what the backend built.
 */
import { Aws, type CfnResource } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AWS_MANAGED_FSX_KEY } from '../../../lambda/update-guard/backends/fsx';
import { OPENZFS_STORAGE_TYPE } from '../../../lambda/update-guard/backends/fsx-openzfs';
import type { FsxOpenZfsPlan } from './sizing/options';
import { UpdateGuard } from '../../update-guard';
import { retainText } from '../snapshot-options';

/** What the FSx for OpenZFS backend tells its guard. */
export interface OpenZfsGuardInput {
  /** The file system's deployment type, throughput capacity and storage. */
  readonly plan: FsxOpenZfsPlan;
  /** ARN of the key that encrypts the file system; undefined: the AWS managed key 'aws/fsx'. */
  readonly encryptionKeyArn?: string;
  /** The file system's subnets: [preferred] on Single-AZ, [preferred, standby] on MULTI_AZ_1. */
  readonly subnetIds: readonly string[];
  /** The Availability Zone of the preferred subnet. */
  readonly availabilityZone: string;
  /** Days the automatic backups are kept; 0 is off. */
  readonly backupRetentionDays: number;
  /**
   * Let refused changes pass, for scratch data only.
   * @default false
   */
  readonly acceptDataLoss?: boolean;
  /** Let a lower backup retention pass. @default false */
  readonly acceptFewerSnapshots?: boolean;
  readonly clusterName: string;
  readonly serverName: string;
}

/**
 * Builds the `UpdateGuard` of the file system `ready`, an AWS::FSx::FileSystem, watching it as `FileSystem`, and makes
 * `ready` wait for it. CloudFormation updates the guard first, so a refusal fails the update before the file system is
 * touched. Throws naming `subnetIds` when it holds neither one nor two subnets. The layout's own checks run in the
 * guard: one subnet on Single-AZ, two different ones on MULTI_AZ_1.
 */
export function openZfsUpdateGuard(scope: Construct, input: OpenZfsGuardInput, ready: CfnResource): UpdateGuard {
  const { plan, subnetIds, clusterName, serverName } = input;
  if (subnetIds.length < 1 || subnetIds.length > 2) {
    throw new Error(`subnetIds must hold one subnet (Single-AZ) or two (MULTI_AZ_1: preferred, standby); got ${subnetIds.length}`);
  }
  const [preferred, standby = ''] = subnetIds;
  const guard = new UpdateGuard(scope, 'UpdateGuard', {
    layout: {
      backend: 'fsx-openzfs',
      instanceStoreType: '',
      dataVolumes: [],
      snapshotIds: [],
      encryptionKey: input.encryptionKeyArn ?? AWS_MANAGED_FSX_KEY,
      availabilityZone: input.availabilityZone,
      imageId: '',
      keyPair: '',
      placementGroup: '',
      volumeAttachment: 'stack',
      fileSystemType: `${plan.deploymentType}/${OPENZFS_STORAGE_TYPE}`,
      perUnitStorageThroughput: '',
      storageCapacityGiB: String(plan.storageCapacityGiB),
      subnetId: preferred,
      instanceStoreEncryption: '',
      throughputCapacity: String(plan.throughputCapacityMBps),
      standbySubnetId: standby,
      metadataIops: '',
      diskIops: plan.userProvisionedIops === undefined ? 'AUTOMATIC' : String(plan.userProvisionedIops),
      snapshotRetain: retainText(input.backupRetentionDays),
    },
    acceptDataLoss: input.acceptDataLoss,
    acceptFewerSnapshots: input.acceptFewerSnapshots,
    // The file system, watched by CloudFormation's replacement rules: its subnets, key, security groups, deployment
    // type and the root volume's create-only settings, which are its NFS exports, record size, compression and quotas.
    watch: [{ role: 'FileSystem', resource: ready }],
    identity: { clusterName, serverName, serverId: `${Aws.STACK_NAME}/${serverName}` },
  });
  // The guard is updated first: a refused change fails the update before the file system is touched.
  ready.node.addDependency(guard.resource);
  return guard;
}
