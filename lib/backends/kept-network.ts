import { CfnResource } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { IConstruct } from 'constructs';

// What an FSx file system's network interfaces still use when a destroy keeps the file system. Deleting its security
// group fails while the interfaces use it, with "resource sg-... has a dependent object": see aws/aws-cdk#31521.
// Deleting its subnet or VPC fails while the interfaces are in them. So they stay with it, as ParallelCluster keeps a
// retained file system's security group and the rule that lets its members talk: see aws/aws-parallelcluster#4402.
// Rules that admit other groups go, so that no other group's deletion fails on them.

/**
 * The security group's resource and its rules among its own members, through which a Lustre file system's servers talk.
 */
export function securityGroupCompanions(securityGroup: ec2.SecurityGroup): CfnResource[] {
  const own = securityGroup.securityGroupId;
  const rules = securityGroup.node.findAll().filter((c): c is CfnResource =>
    (c instanceof ec2.CfnSecurityGroupIngress && c.sourceSecurityGroupId === own) ||
    (c instanceof ec2.CfnSecurityGroupEgress && c.destinationSecurityGroupId === own));
  return [...made(securityGroup.node.defaultChild), ...rules];
}

/**
 * The subnets, the VPC and the route tables of `routed`, where FSx routes a Multi-AZ endpoint, where this app makes
 * them. None for a looked-up or imported VPC, which no stack of this app deletes.
 */
export function subnetCompanions(vpc: ec2.IVpc, subnets: readonly ec2.ISubnet[], routed: readonly ec2.ISubnet[] = []): CfnResource[] {
  return [...new Set([
    ...subnets.flatMap((s) => made(s.node.defaultChild)),
    ...routed.flatMap((s) => made(s.node.tryFindChild('RouteTable'))),
    ...made(vpc.node.defaultChild),
  ])];
}

function made(c: IConstruct | undefined): CfnResource[] {
  return c !== undefined && CfnResource.isCfnResource(c) ? [c] : [];
}
