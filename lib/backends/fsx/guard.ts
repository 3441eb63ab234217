import { Aws, type CfnResource } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AWS_MANAGED_FSX_KEY } from '../../../lambda/update-guard/backends/fsx';
import type { FsxLustrePlan } from '../../sizing';
import { UpdateGuard } from '../../update-guard';
import type { BackendInputs } from '../plugin';
import { retainText } from '../snapshot-options';

// The day-2 guard of the FSx for Lustre file system's layout: what it records and watches.

/**
 * Builds the guard `UpdateGuard` of the file system `ready`, with backups kept `retainDays`; the guard waits for it.
 */
export function fsxUpdateGuard(
  scope: Construct, p: BackendInputs, options: FsxLustrePlan, ready: CfnResource, retainDays: number,
): UpdateGuard {
  const { server: props, clusterName, serverName, subnet } = p;
  const persistent = options.deploymentType !== 'SCRATCH_2';
  const guard = new UpdateGuard(scope, 'UpdateGuard', {
    layout: {
      backend: 'fsx-lustre',
      instanceStoreType: '',
      dataVolumes: [],
      snapshotIds: [],
      encryptionKey: persistent && props.kmsKey ? props.kmsKey.keyArn : AWS_MANAGED_FSX_KEY,
      availabilityZone: subnet.availabilityZone,
      imageId: '',
      keyPair: '',
      placementGroup: '',
      volumeAttachment: 'stack',
      fileSystemType: `${options.deploymentType}/${options.storageType}`,
      perUnitStorageThroughput: persistent ? String(options.perUnitStorageThroughput) : '',
      storageCapacityGiB: String(options.storageCapacityGiB),
      instanceStoreEncryption: '',
      subnetId: subnet.subnetId,
      throughputCapacity: '',
      standbySubnetId: '',
      diskIops: '',
      metadataIops: metadataIopsText(props.fsxLustre?.metadataIops),
      snapshotRetain: retainText(retainDays),
    },
    acceptDataLoss: props.acceptDataLoss,
    acceptFewerSnapshots: props.acceptFewerSnapshots,
    // The file system, watched by CloudFormation's replacement rules: its subnet, key, security group and the rest.
    watch: [{ role: 'FileSystem', resource: ready }],
    identity: { clusterName, serverName, serverId: `${Aws.STACK_NAME}/${serverName}` },
  });
  // The guard is updated first: a refused change fails the update before the file system is touched.
  ready.node.addDependency(guard.resource);
  return guard;
}

/** The guard's record of the Metadata IOPS: '' without a metadata configuration, AUTOMATIC for 0, or the number. */
function metadataIopsText(iops: number | undefined): string {
  return iops === undefined ? '' : iops === 0 ? 'AUTOMATIC' : String(iops);
}
