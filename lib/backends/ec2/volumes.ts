import { RemovalPolicy, Size, Tags } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { SERVER_ID_TAG } from '../backend';
import { dataVolumeType } from '../data-volumes';
import type { Ec2NfsServerProps } from './props';
import { type Ec2ServerLayout, ebsDeviceName } from './layout';

// The EC2 server's EBS data volumes: one per planned volume, in stripe order, tagged with the server's identity and
// attached by the server itself; and the retained attachments of the upgrade from stack-attached volumes.

/** Builds the planned data volumes `DataVolume<i>`, none for instance store; the instance waits for each. */
export function dataVolumes(scope: Construct, p: Ec2NfsServerProps, layout: Ec2ServerLayout, instance: ec2.Instance): ec2.Volume[] {
  const { server: props, plan, subnet } = p;
  return plan.dataVolumes.map((v, i) => {
    const volume = new ec2.Volume(scope, `DataVolume${i}`, {
      availabilityZone: subnet.availabilityZone,
      size: Size.gibibytes(v.sizeGiB),
      ...dataVolumeType(v, i),
      encrypted: true,
      encryptionKey: props.kmsKey,
      snapshotId: props.dataVolumeSnapshotIds?.[i],
      removalPolicy: layout.removalPolicy,
    });
    // Copied onto every snapshot: which stripe member a snapshot restores.
    Tags.of(volume).add('storage-server:data-volume', String(i));
    // No AWS::EC2::VolumeAttachment: the server attaches its volumes itself in storage-attach, so that a replacement
    // instance can take them from the one it replaces instead of colliding with it.
    Tags.of(volume).add(SERVER_ID_TAG, layout.identity);
    instance.instance.node.addDependency(volume);
    return volume;
  });
}

/**
 * The first step of the upgrade from stack-attached volumes, `legacyVolumeAttachments`: the attachments as they were,
 * `DataVolume<i>Attachment`, retained. None otherwise.
 */
export function legacyAttachments(
  scope: Construct, p: Ec2NfsServerProps, layout: Ec2ServerLayout, instance: ec2.Instance, volumes: ec2.Volume[],
): ec2.CfnVolumeAttachment[] {
  if (!p.server.legacyVolumeAttachments || layout.instanceStore) return [];
  return volumes.map((volume, i) => {
    const attachment = new ec2.CfnVolumeAttachment(scope, `DataVolume${i}Attachment`, {
      instanceId: instance.instanceId,
      volumeId: volume.volumeId,
      device: ebsDeviceName(i),
    });
    attachment.applyRemovalPolicy(RemovalPolicy.RETAIN);
    return attachment;
  });
}
