/**
 * The VPC CIDRs custom resource: the IPv4 CIDR blocks that EC2 records as associated with a VPC, primary and secondary,
 * read at deploy from DescribeVpcs' CidrBlockAssociationSet.
 *
 * A looked-up VPC gives the primary block only, yet a server's address may be in any block. An instance may sit in a
 * subnet of a secondary block, and FSx takes a Multi-AZ OpenZFS endpoint "from one of the VPC's CIDR ranges":
 * OPENZFS-ENDPOINT-CIDR in docs/sources/fsx-rules.md. So the client-mount document admits every block as an allowed
 * server.
 *
 * It imports only the shared CIDR grammar, since it is bundled into the Lambda and also imported by the construct.
 */
import { cidrProblem, VPC_PREFIX_RANGE } from '../value-check/network';

/** The CloudFormation type. */
export const RESOURCE_TYPE = 'Custom::StorageServerVpcCidrs';
/** ResourceProperties names. */
export const PROP = { VPC_ID: 'VpcId' } as const;
/** The attribute with the CIDRs, comma-joined as the client-mount document's allowedServers takes them. */
export const ATTR_CIDRS = 'Cidrs';

/** A VPC id as EC2 writes one: `vpc-` and 8 or 17 hex digits. */
const VPC_ID = /^vpc-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

/** The parts of a DescribeVpcs Vpc the handler reads, named as in the EC2 API reference. */
export interface VpcView {
  readonly VpcId?: string;
  readonly CidrBlock?: string;
  readonly CidrBlockAssociationSet?: readonly { readonly CidrBlock?: string; readonly CidrBlockState?: { readonly State?: string } }[];
}

/** The VPC id of the ResourceProperties; throws naming the property. */
export function parseVpcCidrsProperties(props: Record<string, unknown> | undefined): string {
  const vpcId = props?.[PROP.VPC_ID];
  if (typeof vpcId !== 'string' || !VPC_ID.test(vpcId)) {
    throw new Error(`ResourceProperties.${PROP.VPC_ID} must be a VPC id such as 'vpc-0123456789abcdef0', got ${JSON.stringify(vpcId)}`);
  }
  return vpcId;
}

/**
 * The VPC's IPv4 CIDRs in the order EC2 lists them, of the blocks whose association is `associated`: a block still
 * `associating` holds no subnet yet, and one `disassociating` soon holds none. Each becomes a trust anchor of every
 * node, so each is first checked to be what EC2 gives as a VPC block, a canonical CIDR of /16 to /28. Throws naming the
 * bad one.
 */
export function associatedCidrs(vpcId: string, vpc: VpcView | undefined): string[] {
  if (vpc === undefined || vpc.VpcId !== vpcId) throw new Error(`EC2 DescribeVpcs did not return ${vpcId}`);
  const cidrs = (vpc.CidrBlockAssociationSet ?? []).filter((a) => a.CidrBlockState?.State === 'associated').map((a) => String(a.CidrBlock));
  for (const cidr of cidrs) {
    const prefix = Number(cidr.split('/')[1]);
    const problem = cidrProblem(cidr) ??
      (prefix < VPC_PREFIX_RANGE.largest || prefix > VPC_PREFIX_RANGE.smallest ? `not /${VPC_PREFIX_RANGE.largest} to /${VPC_PREFIX_RANGE.smallest}, as EC2 gives a VPC` : undefined);
    if (problem !== undefined) throw new Error(`EC2 lists ${JSON.stringify(cidr)} as a CIDR block of ${vpcId}: ${problem}`);
  }
  if (cidrs.length === 0) throw new Error(`EC2 lists no associated IPv4 CIDR block of ${vpcId}`);
  return [...new Set(cidrs)];
}
