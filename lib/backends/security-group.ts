import { Annotations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';

// A backend's security group: the `securityGroup` prop when given, else one of its own. A given group is the user's:
// the backend adds its rules to it, but acknowledges no cdk-nag finding on it, since the user's own rules share it, and
// a destroy does not keep it (lib/backends/kept-network.ts).

/** The prop that gives a backend its security group. */
export interface GivenSecurityGroup {
  /** The user's group, instead of one the backend makes. */
  readonly securityGroup?: ec2.ISecurityGroup;
}

/** The backend's group: `securityGroup` when given, else the one `make` builds. */
export function backendSecurityGroup(props: GivenSecurityGroup, make: () => ec2.SecurityGroup): ec2.ISecurityGroup {
  return props.securityGroup ?? make();
}

/** Whether `group` is the one the user gave. */
export function isGiven(group: ec2.ISecurityGroup, props: GivenSecurityGroup): boolean {
  return props.securityGroup !== undefined && group === props.securityGroup;
}

/** A rule a backend needs, in words, and whether it is outbound, which a group that allows all outbound has already. */
export interface NeededRule {
  /** The rule in words. */
  readonly rule: string;
  /** Outbound. */
  readonly out?: boolean;
}

/**
 * Warns when the given group took none of the rules the backend added, as a group imported with `mutable: false` does,
 * since CDK then adds nothing. The server still works when the group already allows `needed`, as a group managed
 * elsewhere may, so this warns instead of refusing.
 */
export function warnIfRulesDropped(scope: Construct, props: GivenSecurityGroup, rules: readonly NeededRule[]): void {
  const group = props.securityGroup;
  const needed = rules.filter((r) => !(r.out === true && group?.allowAllOutbound === true)).map((r) => r.rule);
  if (group === undefined || group instanceof ec2.SecurityGroup || needed.length === 0) return;
  const took = group.node.findAll().some((c) => c instanceof ec2.CfnSecurityGroupIngress || c instanceof ec2.CfnSecurityGroupEgress);
  if (took) return;
  Annotations.of(scope).addWarningV2('storage-server:securityGroupTakesNoRules',
    `securityGroup ${group.node.path} takes no rules (imported with mutable: false), so it must already allow: ` +
    `${needed.join('; ')}. Import it with mutable: true to have them added.`);
}

/** The clients, in words, for {@link warnIfRulesDropped}. */
export const FROM_CLIENTS = 'from the clients (clientCidrs, else the VPC\'s CIDR, and clientPeers)';
