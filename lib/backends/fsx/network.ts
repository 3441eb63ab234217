import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { admitClients, anyClients, reachClients } from '../client-access';
import { FROM_CLIENTS, backendSecurityGroup, warnIfRulesDropped } from '../security-group';
import type { BackendInputs } from '../plugin';

// The FSx for Lustre file system's security group, `securityGroup` or its own: Lustre among the file servers, and from
// the clients only.

/**
 * Lustre's ports, LNET on TCP 988 and 1018-1023, per the FSx for Lustre guide, "File system access control with Amazon
 * VPC": LUSTRE-INGRESS.
 */
export const LUSTRE_PORTS: readonly ec2.Port[] = [ec2.Port.tcp(988), ec2.Port.tcpRange(1018, 1023)];

/**
 * Builds the security group `SecurityGroup`, unless `securityGroup` is given: Lustre from the client CIDRs and the
 * clients' security groups, on whichever group it is.
 */
export function lustreSecurityGroup(scope: Construct, p: BackendInputs): ec2.ISecurityGroup {
  const { server: props, clusterName, serverName } = p;
  const securityGroup = backendSecurityGroup(props, () => new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc: props.vpc,
    description: `FSx for Lustre file system ${serverName} of cluster ${clusterName}`,
    // Outbound on Lustre's ports only: among the file servers, and to the clients. AWS's guide asks for that when a
    // group does not allow all outbound traffic: "add the following outbound rules ... between FSx for Lustre file
    // servers and Lustre clients". See LUSTRE-EGRESS in docs/sources/fsx-rules.md.
    allowAllOutbound: false,
  }));
  for (const port of LUSTRE_PORTS) securityGroup.addEgressRule(securityGroup, port, 'Lustre between the file servers');
  admitClients(securityGroup, props, LUSTRE_PORTS, 'Lustre from cluster clients');
  reachClients(securityGroup, props, LUSTRE_PORTS, 'Lustre to cluster clients');
  return securityGroup;
}

/**
 * Warns when a given group took none of Lustre's rules. It runs once the file system is built, since aws-fsx adds the
 * ingress among the group's members.
 */
export function warnIfLustreRulesDropped(scope: Construct, props: BackendInputs['server']): void {
  const lustre = 'Lustre (TCP 988 and 1018-1023)';
  warnIfRulesDropped(scope, props, [
    { rule: `${lustre} in among the group's own members` }, { rule: `${lustre} out among them`, out: true },
    ...(anyClients(props) ? [{ rule: `${lustre} in ${FROM_CLIENTS}` }, { rule: `${lustre} out to the same clients`, out: true }] : []),
  ]);
}
