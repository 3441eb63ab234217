import { CustomResource, Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { ATTR_CIDRS, PROP, RESOURCE_TYPE } from '../../lambda/vpc-cidrs/contract';
import { addHandlerProvider, stackSingleton } from '../handler-provider';

// A VPC's IPv4 CIDR blocks as EC2 records them at deploy, read by lambda/vpc-cidrs. A looked-up VPC's lookup names the
// primary only, and a server's address may be in a secondary block: OPENZFS-ENDPOINT-CIDR.

/** The stack's one VPC CIDRs handler and Provider. */
class VpcCidrsProvider extends Construct {
  static readonly ID = 'StorageServerVpcCidrsProvider';

  static of(scope: Construct): VpcCidrsProvider {
    return stackSingleton(scope, VpcCidrsProvider.ID, (found: IConstruct): found is VpcCidrsProvider => found instanceof VpcCidrsProvider,
      (stack, id) => new VpcCidrsProvider(stack, id));
  }

  public readonly serviceToken: string;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    const provider = addHandlerProvider(this, {
      handler: 'vpc-cidrs',
      roleDescription: "Reads the IPv4 CIDR blocks of the stack's VPC (EC2 DescribeVpcs) for the client-mount document",
      functionDescription: "StorageServer VPC CIDRs: the VPC's associated IPv4 CIDR blocks, for the nodes' allowed servers",
      frameworkDescription: 'Provider framework of the StorageServer VPC CIDRs custom resource',
      timeout: Duration.seconds(30),
      memorySize: 128,
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
      policyReason:
        "DescribeVpcs only, in a policy that belongs to this role alone and lives and dies with it, the IAM guide's case " +
        'for an inline policy.',
      apis: 'EC2 DescribeVpcs',
      statements: [
        // DescribeVpcs has no resource type to scope it, per the Service Authorization Reference for Amazon EC2: "*" is
        // the only resource it takes. It reads VPC descriptions only.
        new iam.PolicyStatement({ actions: ['ec2:DescribeVpcs'], resources: ['*'] }),
      ],
    });
    Validations.of(provider.policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ec2:DescribeVpcs supports no resource-level permissions (Service Authorization Reference, Amazon EC2); ' +
        "the function only reads the VPC's CIDR blocks.",
    });
    this.serviceToken = provider.serviceToken;
  }
}

/**
 * The associated IPv4 CIDR blocks of VPC `vpcId`, primary and secondary, comma-joined, as a token for the client-mount
 * document's allowedServers. A custom resource under `scope` with id `id` reads them at deploy. The handler checks each
 * block's form before it is returned.
 */
export function vpcIpv4Cidrs(scope: Construct, id: string, vpcId: string): string {
  return new CustomResource(scope, id, {
    serviceToken: VpcCidrsProvider.of(scope).serviceToken,
    resourceType: RESOURCE_TYPE,
    properties: { [PROP.VPC_ID]: vpcId },
  }).getAttString(ATTR_CIDRS);
}
