import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { ClusterwareRing } from '../../clusterware';
import type { Ec2NfsServerProps } from './props';

// The EC2 server as a member of a clusterware ring: the ring, the commands that join it at boot, and the gossip
// the server sends to the master.

/** The ring `Clusterware` the server joins, and the commands its settings run to join it. */
export interface ClusterwareMembership {
  /** The ring membership. */
  readonly ring: ClusterwareRing;
  /** The commands that write the member's config at boot. */
  readonly commands: string[];
}

/** Joins the ring of `clusterware`, when there is one, and opens serf's port to the master. */
export function joinClusterware(
  scope: Construct, p: Ec2NfsServerProps, instance: ec2.Instance, securityGroup: ec2.ISecurityGroup,
): ClusterwareMembership | undefined {
  const options = p.server.clusterware;
  if (!options) return undefined;
  const ring = new ClusterwareRing(scope, 'Clusterware', { clusterName: p.clusterName, ...options });
  const commands = ring.joinCommands(instance);
  // serf gossips both ways: the server must also reach the master.
  const master = ec2.Peer.ipv4(`${options.loginIp}/32`);
  securityGroup.addEgressRule(master, ec2.Port.tcp(7946), 'clusterware gossip (serf) to the master');
  securityGroup.addEgressRule(master, ec2.Port.udp(7946), 'clusterware gossip (serf) to the master');
  return { ring, commands };
}
