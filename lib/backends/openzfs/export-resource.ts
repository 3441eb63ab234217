import { type CfnResource, Stack } from 'aws-cdk-lib';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { fsxApiResource } from '../fsx/api-call';
import type { OpenZfsClientConfiguration } from './nfs-export';

// The root volume's real NFS export, requested and kept live through the FSx API (UpdateVolume), so that a change of
// the clients or of root squash updates the export in place instead of replacing the file system.

/**
 * The custom resource that sets the root volume's NFS exports to `nfsExport`: aws-cdk-lib's AwsCustomResource calls
 * FSx UpdateVolume (OpenZFSConfiguration.NfsExports, FSx API reference, UpdateOpenZFSVolumeConfiguration,
 * https://docs.aws.amazon.com/fsx/latest/APIReference/API_UpdateOpenZFSVolumeConfiguration.html) on create and on
 * every change of the export; on delete nothing (the volume goes with its file system, or is retained with it).
 * UpdateVolume starts an administrative action and returns: the resource completes when FSx has accepted the change,
 * not when it is in effect, and a failed action is not seen here (a gap: a Provider with isComplete polling
 * DescribeVolumes would close it; the security group, which CloudFormation changes itself, is what admits clients).
 *
 * The template's own export (lib/backends/openzfs/nfs-export.ts, templateExport) stays constant because
 * CloudFormation replaces the file system on any change of RootVolumeConfiguration; UpdateVolume changes the export
 * of a live volume. The call may update this one volume only: fsx:UpdateVolume on
 * arn:${Partition}:fsx:${Region}:${Account}:volume/${FileSystemId}/${VolumeId} (Service Authorization Reference,
 * Amazon FSx, resource type volume, https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonfsx.html).
 */
export function rootVolumeExportResource(
  scope: Construct, fileSystem: fsx.CfnFileSystem, nfsExport: { ClientConfigurations: OpenZfsClientConfiguration[] },
): cr.AwsCustomResource {
  const volumeId = fileSystem.attrRootVolumeId;
  return fsxApiResource(scope, 'RootVolumeExport', {
    resourceType: 'Custom::FsxOpenZfsRootVolumeExport',
    action: 'UpdateVolume',
    parameters: { VolumeId: volumeId, OpenZFSConfiguration: { NfsExports: [nfsExport] } },
    physicalResourceId: volumeId,
    // The response describes the whole volume; only its id is kept.
    outputPath: 'Volume.VolumeId',
    resourceArn: Stack.of(scope).formatArn({ service: 'fsx', resource: 'volume', resourceName: `${fileSystem.ref}/${volumeId}` }),
    target: 'root volume',
    setting: 'its NFS exports',
    changing: 'its export',
    roleDescription: 'AwsCustomResource function that sets FSx file system settings CloudFormation cannot change in place, in this stack',
  });
}

/** The custom resource's own CloudFormation resource: what waits, and what is waited for. */
export function cfnResourceOf(resource: cr.AwsCustomResource): CfnResource {
  return resource.node.findChild('Resource').node.defaultChild as CfnResource;
}
