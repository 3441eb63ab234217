import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { acknowledgeTokenCidrs, admittedCidrs } from '../client-access';
import type { FsxOpenZfsServerProps } from '../fsx-openzfs-props';

// The FSx for OpenZFS file system's security group: NFS from the clients only.

/**
 * The ports AWS asks a file system's security group to admit from its NFS clients, each on TCP and UDP: 111
 * (rpcbind), 2049 (NFS) and 20001-20003 (NFS mount, status monitor and lock daemon of NFSv3). Source: Amazon FSx
 * for OpenZFS User Guide, "File system access control with Amazon VPC", inbound rules
 * (https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/limit-access-security-groups.html; its table is not in AWS's
 * markdown archive, https://github.com/awsdocs/amazon-fsx-openzfs-user-guide/blob/56a97b87/doc_source/limit-access-security-groups.md,
 * and is quoted port for port by gist.github.com/AstroTom/ffa18c61d14529c66fb49578166949e8, "sets ports as per"
 * that page: TCP and UDP 111, 2049, 20001-20003). The project's clients mount NFSv4.1 (TCP 2049 only); the others
 * serve clients a user mounts by hand with NFSv3, as AWS documents it.
 */
export const OPENZFS_NFS_PORTS: readonly ec2.Port[] = [
  ec2.Port.tcp(111), ec2.Port.udp(111),
  ec2.Port.tcp(2049), ec2.Port.udp(2049),
  ec2.Port.tcpRange(20001, 20003), ec2.Port.udpRange(20001, 20003),
];

/** Builds the security group `SecurityGroup`: NFS from the client CIDRs and the clients' security groups. */
export function openZfsSecurityGroup(scope: Construct, p: FsxOpenZfsServerProps): ec2.SecurityGroup {
  const { server: props, clusterName, serverName } = p;
  const securityGroup = new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc: props.vpc,
    description: `FSx for OpenZFS file system ${serverName} of cluster ${clusterName}`,
    // AWS's guide: "For outbound rules, allow all traffic on all ports" (the same page): the file server's NFSv3
    // lock and NFSv4.0 callbacks call the clients back.
    allowAllOutbound: true,
  });
  const cidrs = admittedCidrs(props);
  const clients: ec2.IPeer[] = cidrs.map((cidr) => ec2.Peer.ipv4(cidr));
  acknowledgeTokenCidrs(securityGroup, cidrs);
  for (const peer of props.clientPeers ?? []) {
    for (const sg of peer.connections.securityGroups) clients.push(sg);
    if (peer.connections.securityGroups.length === 0) throw new Error(`clientPeers: ${peer.connections.toString()} has no security group to admit`);
  }
  for (const peer of clients) {
    for (const port of OPENZFS_NFS_PORTS) securityGroup.addIngressRule(peer, port, 'NFS from cluster clients');
  }
  return securityGroup;
}
