import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { SERVER_ID_TAG } from '../backend';
import { acknowledgeTokenCidrs, admittedCidrs, anyClients, exportCidrs } from '../client-access';
import { FROM_CLIENTS, backendSecurityGroup, warnIfRulesDropped } from '../security-group';
import type { Ec2NfsServerProps } from './props';

// The EC2 server's network: its security group, `securityGroup` or its own, with NFS from the clients and HTTPS out,
// and its stable network interface, the address clients mount, which outlives any one instance.

/** The server's security group and NFS connections, TCP 2049 from the clients. */
export interface ServerNetwork {
  /** The one group of both of the server's interfaces. */
  readonly securityGroup: ec2.ISecurityGroup;
  /** NFS from the clients. */
  readonly connections: ec2.Connections;
}

/**
 * Builds the security group `SecurityGroup`, unless `securityGroup` is given: HTTPS out, NFS in from the client CIDRs
 * and peers, on whichever group it is.
 */
export function serverNetwork(scope: Construct, p: Ec2NfsServerProps): ServerNetwork {
  const { server: props, clusterName, serverName } = p;
  const securityGroup = backendSecurityGroup(props, () => new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc: props.vpc,
    description: `NFS storage server ${serverName} of cluster ${clusterName}`,
    // NFSv4.1 needs no connection from the server to its clients, since callbacks share the client's connection. The
    // server only calls AWS endpoints and package repositories, all over HTTPS.
    allowAllOutbound: false,
  }));
  securityGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS to AWS APIs (SSM, EC2, CloudFormation) and package repositories');
  // One group on both of the server's interfaces: the stable one clients mount, and the instance's own. So clients that
  // mounted the instance's address, before the server had a stable one, keep working.
  const connections = new ec2.Connections({ securityGroups: [securityGroup], defaultPort: ec2.Port.tcp(2049) });
  for (const cidr of admittedCidrs(props)) connections.allowDefaultPortFrom(ec2.Peer.ipv4(cidr), 'NFSv4 from cluster clients');
  for (const peer of props.clientPeers ?? []) connections.allowDefaultPortFrom(peer, 'NFSv4 from cluster clients');
  acknowledgeTokenCidrs(securityGroup, exportCidrs(props), props);
  warnIfRulesDropped(scope, props, [
    ...(anyClients(props) ? [{ rule: `NFS (TCP 2049) in ${FROM_CLIENTS}` }] : []), { rule: 'HTTPS (TCP 443) out to anywhere', out: true },
    ...(props.clusterware ? [{ rule: 'clusterware gossip (TCP and UDP 7946) out to clusterware.loginIp', out: true }] : []),
  ]);
  return { securityGroup, connections };
}

/** Builds the stable interface `Interface`, in the server's subnet and group, tagged with its identity. */
export function stableInterface(scope: Construct, p: Ec2NfsServerProps, securityGroup: ec2.ISecurityGroup, identity: string): ec2.CfnNetworkInterface {
  return new ec2.CfnNetworkInterface(scope, 'Interface', {
    subnetId: p.subnet.subnetId,
    groupSet: [securityGroup.securityGroupId],
    description: `Stable address of NFS storage server ${p.serverName} of cluster ${p.clusterName}`,
    tags: [{ key: SERVER_ID_TAG, value: identity }],
  });
}
