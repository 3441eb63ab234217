import { CfnResource, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { IConstruct } from 'constructs';

// What an FSx file system's network interfaces still use when a destroy keeps the file system. Deleting its security
// group fails while the interfaces use it, with "resource sg-... has a dependent object": see aws/aws-cdk#31521.
// Deleting its subnet or VPC fails while the interfaces are in them. So they stay with it, as ParallelCluster keeps a
// retained file system's security group and the rule that lets its members talk: see aws/aws-parallelcluster#4402.
// Rules that admit other groups go, so that no other group's deletion fails on them. A group the user gave as
// `securityGroup` is theirs to keep: the check of lib/deletion.ts still refuses a destroy that would delete it from
// under a kept file system.

/** What a kept file system still uses of its security group: what it keeps, and what only the user can keep. */
export interface GroupCompanions {
  /** The group's rules among its own members, through which a Lustre file system's servers talk; its own group too. */
  readonly kept: CfnResource[];
  /** The resource of a given group in the file system's stack: the user's to keep, which the destroy check reads. */
  readonly theirs: CfnResource[];
}

/**
 * The security group's resource and its rules among its own members, those in the stack of `holder`, the file system.
 * A rule on a group of another stack lives in that stack, which a destroy of this one leaves alone.
 */
export function securityGroupCompanions(securityGroup: ec2.ISecurityGroup, holder: IConstruct, given: boolean): GroupCompanions {
  const own = securityGroup.securityGroupId;
  const stack = Stack.of(holder);
  const rules = securityGroup.node.findAll().filter((c): c is CfnResource => Stack.of(c) === stack && (
    (c instanceof ec2.CfnSecurityGroupIngress && c.sourceSecurityGroupId === own) ||
    (c instanceof ec2.CfnSecurityGroupEgress && c.destinationSecurityGroupId === own)));
  const group = made(securityGroup.node.defaultChild).filter((c) => Stack.of(c) === stack);
  return given ? { kept: rules, theirs: group } : { kept: [...group, ...rules], theirs: [] };
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
