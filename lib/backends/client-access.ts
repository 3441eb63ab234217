import { CfnResource, Token, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { type GivenSecurityGroup, isGiven } from './security-group';

// Who may reach a backend by address, the same rule on every backend: `clientCidrs`, or the VPC's CIDR when no
// `clientPeers` are given either. The facade validates the CIDRs and peers in lib/storage-server/validation.ts.

/** The props that name a backend's clients, and the group they are admitted to when the user gives one. */
export interface ClientAccess extends GivenSecurityGroup {
  /** The VPC, whose CIDR is the default. */
  readonly vpc: ec2.IVpc;
  /** CIDRs allowed to mount. */
  readonly clientCidrs?: string[];
  /** Connectables allowed to mount. */
  readonly clientPeers?: ec2.IConnectable[];
}

/** The CIDRs an NFS export lists: `clientCidrs`, or the VPC's CIDR, since security groups carry no addresses. */
export function exportCidrs(clients: ClientAccess): string[] {
  return clients.clientCidrs ?? [clients.vpc.vpcCidrBlock];
}

/** The CIDRs a security group admits: {@link exportCidrs}, or none when only `clientPeers` are given. */
export function admittedCidrs(clients: ClientAccess): string[] {
  return clients.clientCidrs !== undefined || clients.clientPeers === undefined ? exportCidrs(clients) : [];
}

/** Whether any client is admitted by address or by group, so that a backend asks rules for them. */
export function anyClients(clients: ClientAccess): boolean {
  return admittedCidrs(clients).length > 0 || (clients.clientPeers ?? []).length > 0;
}

/**
 * cdk-nag cannot evaluate a CIDR that is a token, such as the new VPC's own CIDR, and reports the rule as failed. The
 * acknowledgement is made on the backend's own group only: on a given group it would cover the user's rules too.
 */
export function acknowledgeTokenCidrs(securityGroup: ec2.ISecurityGroup, cidrs: string[], clients: GivenSecurityGroup): void {
  if (!cidrs.some((c) => Token.isUnresolved(c)) || isGiven(securityGroup, clients)) return;
  Validations.of(securityGroup).acknowledge({
    id: 'AwsSolutions-EC23',
    reason: 'The only token CIDR is the VPC\'s own CIDR block (Fn::GetAtt of the VPC); every literal client CIDR is validated at synth and /0 is refused.',
  });
}

/** The clients as security group peers: each CIDR of {@link admittedCidrs}, then each `clientPeers` group. */
function clientPeersOf(securityGroup: ec2.ISecurityGroup, clients: ClientAccess): ec2.IPeer[] {
  const cidrs = admittedCidrs(clients);
  const peers: ec2.IPeer[] = cidrs.map((cidr) => ec2.Peer.ipv4(cidr));
  acknowledgeTokenCidrs(securityGroup, cidrs, clients);
  for (const peer of clients.clientPeers ?? []) {
    for (const sg of peer.connections.securityGroups) peers.push(sg);
    if (peer.connections.securityGroups.length === 0) throw new Error(`clientPeers: ${peer.connections.toString()} has no security group to admit`);
  }
  return peers;
}

/**
 * Admits the clients to a file system's security group on `ports`, alike for FSx for Lustre and FSx for OpenZFS: each
 * CIDR of {@link admittedCidrs}, then each security group of `clientPeers`, every port for each. Refuses a peer with no
 * security group to admit.
 */
export function admitClients(securityGroup: ec2.ISecurityGroup, clients: ClientAccess, ports: readonly ec2.Port[], description: string): void {
  for (const peer of clientPeersOf(securityGroup, clients)) {
    for (const port of ports) securityGroup.addIngressRule(peer, port, description);
  }
}

/**
 * Lets a file system's servers call its clients on `ports`, to the same peers {@link admitClients} admits, for a group
 * that does not allow all outbound traffic. FSx for Lustre's servers call their clients back.
 */
export function reachClients(securityGroup: ec2.ISecurityGroup, clients: ClientAccess, ports: readonly ec2.Port[], description: string): void {
  for (const peer of clientPeersOf(securityGroup, clients)) {
    for (const port of ports) securityGroup.addEgressRule(peer, port, description);
  }
}

/**
 * The VPC's CIDR. For a new VPC of the app, whose `vpcCidrBlock` is a token, `Fn::GetAtt` of its own `AWS::EC2::VPC`,
 * it is the literal CIDR that resource is given. Otherwise it is `vpcCidrBlock` as it is.
 */
export function ownVpcCidr(vpc: ec2.IVpc): string {
  const cfn = vpc.node.defaultChild;
  const own = CfnResource.isCfnResource(cfn) && cfn.cfnResourceType === 'AWS::EC2::VPC' ? (cfn as ec2.CfnVPC).cidrBlock : undefined;
  return Token.isUnresolved(vpc.vpcCidrBlock) && typeof own === 'string' && !Token.isUnresolved(own) ? own : vpc.vpcCidrBlock;
}
