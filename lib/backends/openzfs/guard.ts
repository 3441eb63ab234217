import { Aws, type CfnResource } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AWS_MANAGED_EBS_KEY } from '../../../lambda/update-guard/contract';
import type { FsxOpenZfsPlan } from '../../sizing';
import { UpdateGuard } from '../../update-guard';

// The day-2 guard of the FSx for OpenZFS file system's layout: what it records and watches.
// TO BE REPLACED (issue 30): the backend branch's local copy with the fixed signature of the common brief; the guard
// branch's version of this file (its layout fields and policy rows) replaces it at merge.

/** What the guard of an FSx for OpenZFS file system records (the common brief's interface 1). */
export interface OpenZfsGuardInput {
  /** The plan's file system. */
  readonly plan: FsxOpenZfsPlan;
  /** The key's ARN; undefined: the AWS managed key 'aws/fsx'. */
  readonly encryptionKeyArn?: string;
  /** `[preferred]` Single-AZ, `[preferred, standby]` MULTI_AZ_1. */
  readonly subnetIds: readonly string[];
  /** The preferred subnet's zone. */
  readonly availabilityZone: string;
  /** Let the guard pass a change that loses data. */
  readonly acceptDataLoss?: boolean;
  /** The cluster of the file system. */
  readonly clusterName: string;
  /** The server's name in the cluster. */
  readonly serverName: string;
}

/** Builds the guard `UpdateGuard` of the file system (`ready`), which waits for it. */
export function openZfsUpdateGuard(scope: Construct, input: OpenZfsGuardInput, ready: CfnResource): UpdateGuard {
  const { clusterName, serverName } = input;
  const guard = new UpdateGuard(scope, 'UpdateGuard', {
    layout: {
      backend: 'fsx-openzfs',
      instanceStoreType: '',
      dataVolumes: [],
      snapshotIds: [],
      // The foundation's guard names the managed key 'aws/ebs' off fsx-lustre (lambda/update-guard/validation.ts);
      // the guard branch records 'aws/fsx' (AWS_MANAGED_FSX_KEY) here, as interface 1 says.
      encryptionKey: input.encryptionKeyArn ?? AWS_MANAGED_EBS_KEY,
      availabilityZone: input.availabilityZone,
      imageId: '',
      keyPair: '',
      placementGroup: '',
      volumeAttachment: 'stack',
      // The foundation's guard takes no FSx fields on this backend (lambda/update-guard/validation.ts: '' off
      // fsx-lustre): the guard branch's layout records the type, throughput, capacity and subnets.
      fileSystemType: '',
      perUnitStorageThroughput: '',
      storageCapacityGiB: '',
      instanceStoreEncryption: '',
      subnetId: '',
    },
    acceptDataLoss: input.acceptDataLoss,
    // The file system, watched by CloudFormation's replacement rules (its subnets, key, deployment type, ...).
    watch: [{ role: 'FileSystem', resource: ready }],
    identity: { clusterName, serverName, serverId: `${Aws.STACK_NAME}/${serverName}` },
  });
  // The guard is updated first: a refused change fails the update before the file system is touched.
  ready.node.addDependency(guard.resource);
  return guard;
}
