import type { CfnResource } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct, IConstruct } from 'constructs';
import { AWS_MANAGED_EBS_KEY } from '../../../lambda/update-guard/backends/ec2';
import { UpdateGuard } from '../../update-guard';
import { dataVolumeLayout } from '../data-volumes';
import { retainText } from '../snapshot-options';
import type { Ec2NfsServerProps } from './props';
import type { Ec2ServerLayout } from './layout';

// The day-2 guard of the EC2 server's storage layout: what it records, what it watches, and what waits for it.

/** What the guard watches and orders before itself. */
export interface GuardedParts {
  /** The server's instance. */
  readonly instance: ec2.Instance;
  /** The stable interface. */
  readonly iface: ec2.CfnNetworkInterface;
  /** The EBS data volumes, in stripe order. */
  readonly dataVolumes: ec2.Volume[];
  /** The retained attachments of the upgrade, recorded as `volumeAttachment: 'retained'`. */
  readonly legacyAttachments: ec2.CfnVolumeAttachment[];
  /** The settings, which apply to the data. */
  readonly settings: IConstruct;
}

/**
 * Builds the guard `UpdateGuard`. Everything that holds data, or applies settings to it, depends on it. CloudFormation
 * updates the guard first, and a refused change fails before anything else changed.
 */
export function ec2UpdateGuard(scope: Construct, p: Ec2NfsServerProps, layout: Ec2ServerLayout, parts: GuardedParts): UpdateGuard {
  const { server: props, plan, clusterName, serverName, subnet } = p;
  const { iface, dataVolumes, legacyAttachments, settings } = parts;
  const cfnInstance = parts.instance.node.defaultChild as ec2.CfnInstance;
  const guard = new UpdateGuard(scope, 'UpdateGuard', {
    layout: {
      backend: plan.backend,
      instanceStoreType: layout.instanceStore ? layout.instanceType.toString() : '',
      dataVolumes: plan.dataVolumes.map((v, index) => dataVolumeLayout(index, v)),
      snapshotIds: props.dataVolumeSnapshotIds ?? [],
      encryptionKey: props.kmsKey?.keyArn ?? AWS_MANAGED_EBS_KEY,
      availabilityZone: subnet.availabilityZone,
      imageId: cfnInstance.imageId ?? '',
      keyPair: cfnInstance.keyName ?? '',
      placementGroup: cfnInstance.placementGroupName ?? '',
      volumeAttachment: legacyAttachments.length > 0 ? 'retained' : 'server',
      fileSystemType: '',
      perUnitStorageThroughput: '',
      storageCapacityGiB: '',
      subnetId: '',
      instanceStoreEncryption: layout.encryptInstanceStore ? 'luks2' : '',
      throughputCapacity: '',
      standbySubnetId: '',
      metadataIops: '',
      diskIops: '',
      // The DLM policy's snapshot sets, 0 for none; instance store has no snapshots.
      snapshotRetain: layout.instanceStore ? '' : retainText(props.snapshots?.retain ?? 7),
    },
    acceptDataLoss: props.acceptDataLoss,
    acceptFewerSnapshots: props.acceptFewerSnapshots,
    // What holds the data and the address, watched by CloudFormation's replacement rules: the stable interface, each
    // volume, and the instance. An instance-store server's disks are its instance; on EBS its replacement is allowed.
    watch: [
      { role: 'Instance', resource: cfnInstance },
      { role: 'Interface', resource: iface },
      ...dataVolumes.map((v, i) => ({ role: `DataVolume${i}`, resource: v.node.defaultChild as CfnResource })),
    ],
    identity: { clusterName, serverName, serverId: layout.identity },
  });
  // The CfnInstance, not the Instance construct: its launch template and instance profile hold no data. The guard
  // records the launch template version the instance references, so it depends on the launch template already; the
  // other way round would be a cycle.
  for (const dependent of [cfnInstance, ...dataVolumes, iface, ...legacyAttachments, settings]) {
    dependent.node.addDependency(guard.resource);
  }
  return guard;
}
