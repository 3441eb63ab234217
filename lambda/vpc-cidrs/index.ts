/**
 * onEvent handler of the VPC CIDRs custom resource, built by lib/client-mount/vpc-cidrs.ts. On Create and Update it
 * reads the VPC's associated IPv4 CIDR blocks with EC2 DescribeVpcs and returns them comma-joined as the `Cidrs`
 * attribute. Delete reads nothing. Errors are thrown, never returned: the Provider framework reports FAILED only for a
 * thrown error.
 */
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from 'aws-lambda';
import { ATTR_CIDRS, associatedCidrs, parseVpcCidrsProperties, type VpcView } from './contract';

/** What the handler calls. Tests give their own. */
export interface VpcCidrsDeps {
  readonly describeVpc: (vpcId: string) => Promise<VpcView | undefined>;
}

// Endpoint, region and credentials come from the environment; the SDK retries throttling and 5xx itself.
const ec2 = new EC2Client({ maxAttempts: 6 });
const AWS_DEPS: VpcCidrsDeps = {
  describeVpc: async (vpcId) => (await ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs?.[0],
};

/** The handler over `deps`. */
export function vpcCidrsHandler(deps: VpcCidrsDeps) {
  return async (event: CdkCustomResourceEvent): Promise<CdkCustomResourceResponse> => {
    const requestType = event?.RequestType;
    if (requestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
    if (requestType !== 'Create' && requestType !== 'Update') {
      throw new Error(`RequestType must be Create, Update or Delete, got ${JSON.stringify(requestType)}`);
    }
    const vpcId = parseVpcCidrsProperties(event.ResourceProperties);
    const cidrs = associatedCidrs(vpcId, await deps.describeVpc(vpcId));
    process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'vpc cidrs', vpcId, cidrs })}\n`);
    return { PhysicalResourceId: vpcId, Data: { [ATTR_CIDRS]: cidrs.join(',') } };
  };
}

export const handler = vpcCidrsHandler(AWS_DEPS);
