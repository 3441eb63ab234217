import { Annotations, AspectPriority, Aspects, CfnResource, Stack } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct, IConstruct } from 'constructs';

/**
 * VPC-SG-RULES: the default quota of inbound rules per security group, counted apart for IPv4 and IPv6. The Amazon VPC
 * User Guide's Amazon VPC quotas give "Inbound or outbound rules per security group" as 60, adjustable. The per-family
 * count is as Cisco Defense Orchestrator's "AWS VPC Security Groups Rules" quotes it. A deploy past it fails with
 * RulesPerSecurityGroupLimitExceeded.
 */
export const DEFAULT_INBOUND_RULES_PER_GROUP = 60;

/**
 * Warns, once every aspect has run, when one of the server's security groups holds more inbound rules of one family
 * than the default quota. Each client CIDR, peer and mounted client is a rule per port. It runs at read-only priority,
 * since a resolved Lazy is cached. The quota is adjustable, so this warns instead of refusing.
 */
export function warnInboundRuleQuota(scope: Construct, groups: readonly ec2.ISecurityGroup[]): void {
  Aspects.of(scope).add({
    visit(node: IConstruct): void {
      if (node !== scope) return;
      const stack = Stack.of(scope);
      for (const group of groups) {
        const cfn = group.node.defaultChild;
        if (!CfnResource.isCfnResource(cfn) || cfn.cfnResourceType !== 'AWS::EC2::SecurityGroup') continue;
        const inline = stack.resolve((cfn as ec2.CfnSecurityGroup).securityGroupIngress) as Record<string, unknown>[] | undefined;
        const rules = Array.isArray(inline) ? inline : [];
        const v6 = rules.filter((r) => r.cidrIpv6 !== undefined).length;
        const v4 = rules.length - v6;
        for (const [family, count] of [['IPv4', v4], ['IPv6', v6]] as const) {
          if (count <= DEFAULT_INBOUND_RULES_PER_GROUP) continue;
          Annotations.of(scope).addWarningV2('storage-server:inboundRuleQuota',
            `${group.node.path} holds ${count} inbound ${family} rules, past the default quota of ${DEFAULT_INBOUND_RULES_PER_GROUP} per ` +
            'security group (Amazon VPC quotas, "Inbound or outbound rules per security group"; adjustable): the deploy fails ' +
            'unless the quota was raised. Use fewer, wider clientCidrs, or clientPeers by security group.');
        }
      }
    },
  }, { priority: AspectPriority.READONLY });
}
