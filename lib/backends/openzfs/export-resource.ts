import { type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { acknowledgeCompliance } from '../../compliance';
import { ignoreRoleDependsOnLint } from '../../handler-function';
import { rootSquashFunctionParts } from '../fsx/root-squash';
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
  const { role, logGroup } = rootSquashFunctionParts(scope,
    'AwsCustomResource function that sets FSx file system settings CloudFormation cannot change in place, in this stack');
  const volumeId = fileSystem.attrRootVolumeId;
  const call: cr.AwsSdkCall = {
    service: 'FSx',
    action: 'UpdateVolume',
    parameters: { VolumeId: volumeId, OpenZFSConfiguration: { NfsExports: [nfsExport] } },
    physicalResourceId: cr.PhysicalResourceId.of(volumeId),
    // The response describes the whole volume; only its id is kept (a custom resource's response is small).
    outputPaths: ['Volume.VolumeId'],
  };
  const resource = new cr.AwsCustomResource(scope, 'RootVolumeExport', {
    resourceType: 'Custom::FsxOpenZfsRootVolumeExport',
    onCreate: call,
    onUpdate: call,
    policy: cr.AwsCustomResourcePolicy.fromStatements([
      new iam.PolicyStatement({
        actions: ['fsx:UpdateVolume'],
        resources: [Stack.of(scope).formatArn({ service: 'fsx', resource: 'volume', resourceName: `${fileSystem.ref}/${volumeId}` })],
      }),
    ]),
    role,
    logGroup,
    // The runtime's own SDK has UpdateVolume's NfsExports; no download at deploy time.
    installLatestAwsSdk: false,
    timeout: Duration.minutes(2),
  });
  acknowledgeProviderFunction(scope, resource);
  return resource;
}

/** The custom resource's own CloudFormation resource: what waits, and what is waited for. */
export function cfnResourceOf(resource: cr.AwsCustomResource): CfnResource {
  return resource.node.findChild('Resource').node.defaultChild as CfnResource;
}

/** Why the AwsCustomResource function and policy stand as aws-cdk-lib writes them. */
function acknowledgeProviderFunction(scope: Construct, resource: cr.AwsCustomResource): void {
  const fn = Stack.of(scope).node.findChild(`AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
  acknowledgeCompliance(fn, 'LambdaInsideVPC',
    'The AwsCustomResource function calls only the FSx API (UpdateVolume); nothing it needs is in a VPC, and placing ' +
    'it in one would add network interfaces and an FSx endpoint or NAT path, and protect nothing.');
  acknowledgeCompliance(fn, 'LambdaDLQ',
    'Invoked by CloudFormation for one stack operation; a failed call fails the operation, which rolls back with the ' +
    'error in the stack events and the function\'s log group. A queued event could not be replayed: its response URL ' +
    'belongs to that operation.');
  acknowledgeCompliance(fn, 'LambdaConcurrency',
    'Invoked only by CloudFormation, once per file system when it is created or its export changes, so there is no ' +
    'load to cap; reserving concurrency would take it from the account\'s unreserved pool.');
  ignoreRoleDependsOnLint(fn);
  acknowledgeCompliance(resource.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy',
    "Written by aws-cdk-lib's AwsCustomResource: fsx:UpdateVolume on this one root volume, for its NFS exports. It " +
    'belongs to the custom resource alone and lives and dies with it.');
}
