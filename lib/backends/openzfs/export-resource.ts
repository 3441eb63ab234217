import { CustomResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { PROP, RESOURCE_TYPE, type UserOrGroupQuota } from '../../../lambda/openzfs-export/contract';
import { addHandlerProvider, type HandlerProvider, stackSingleton } from '../../handler-provider';
import type { OpenZfsClientConfiguration } from './nfs-export';

// The root volume's real NFS export, requested and kept live through the FSx API's UpdateVolume. So a change of the
// clients or of root squash updates the export in place instead of replacing the file system. It is awaited by
// DescribeVolumes, so that the deploy completes only when it is in effect: OPENZFS-EXPORT-LIVE.

/** The stack's one export handler and Provider, shared by its FSx for OpenZFS servers. */
class OpenZfsExportProvider extends Construct {
  static readonly ID = 'StorageServerOpenZfsExportProvider';

  static of(scope: Construct): OpenZfsExportProvider {
    return stackSingleton(scope, OpenZfsExportProvider.ID, (found: IConstruct): found is OpenZfsExportProvider => found instanceof OpenZfsExportProvider,
      (stack, id) => new OpenZfsExportProvider(stack, id));
  }

  public readonly provider: HandlerProvider;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    this.provider = addHandlerProvider(this, {
      handler: 'openzfs-export',
      roleDescription: "Sets and awaits the NFS export of this stack's FSx for OpenZFS root volumes (UpdateVolume, DescribeVolumes)",
      functionDescription: 'StorageServer FSx for OpenZFS export: UpdateVolume, then DescribeVolumes until it is in effect',
      frameworkDescription: 'Provider framework of the StorageServer FSx for OpenZFS export custom resource',
      // AWS publishes no duration for a volume update. 14 minutes is a bound, since the Provider framework's onEvent
      // function may run 15; the handler stops 20 s before it with FSx's last state.
      timeout: Duration.minutes(14),
      memorySize: 256,
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
      policyReason:
        "UpdateVolume on this stack's root volumes only and DescribeVolumes, in a policy that belongs to this role alone and " +
        "lives and dies with it, the IAM guide's case for an inline policy.",
      apis: 'FSx UpdateVolume and DescribeVolumes',
      statements: [
        // DescribeVolumes has no resource type to scope it, per the Service Authorization Reference for Amazon FSx: "*"
        // is the only resource it takes. It reads, and only volume descriptions.
        new iam.PolicyStatement({ actions: ['fsx:DescribeVolumes'], resources: ['*'] }),
      ],
    });
    Validations.of(this.provider.policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'fsx:DescribeVolumes supports no resource-level permissions (Service Authorization Reference, Amazon FSx); ' +
        'the function only reads whether the export it asked for is in effect.',
    });
  }
}

/**
 * The custom resource that sets the root volume's NFS exports to `nfsExport`, and its user and group quotas to `quotas`,
 * on create and on every change; without quotas the property is left out and the handler leaves the volume's alone. It
 * completes when DescribeVolumes shows them in effect; a failed volume update fails the deploy with FSx's message. The
 * call may update this one volume only: fsx:UpdateVolume on
 * arn:${Partition}:fsx:${Region}:${Account}:volume/${FileSystemId}/${VolumeId}, the resource type volume of the Service
 * Authorization Reference for Amazon FSx. The template's own export, templateExport in nfs-export.ts, stays constant,
 * because CloudFormation replaces the file system on any change of RootVolumeConfiguration.
 */
export function rootVolumeExportResource(
  scope: Construct, fileSystem: fsx.CfnFileSystem, nfsExport: { ClientConfigurations: OpenZfsClientConfiguration[] },
  quotas: readonly UserOrGroupQuota[] = [],
): CustomResource {
  const { provider } = OpenZfsExportProvider.of(scope);
  const volumeId = fileSystem.attrRootVolumeId;
  provider.policy.addStatements(new iam.PolicyStatement({
    actions: ['fsx:UpdateVolume'],
    resources: [Stack.of(scope).formatArn({ service: 'fsx', resource: 'volume', resourceName: `${fileSystem.ref}/${volumeId}` })],
  }));
  return new CustomResource(scope, 'RootVolumeExportLive', {
    serviceToken: provider.serviceToken,
    resourceType: RESOURCE_TYPE,
    properties: {
      [PROP.VOLUME_ID]: volumeId, [PROP.CLIENT_CONFIGURATIONS]: nfsExport.ClientConfigurations,
      ...(quotas.length > 0 ? { [PROP.QUOTAS]: quotas } : {}),
    },
  });
}

