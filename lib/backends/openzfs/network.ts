import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { admitClients } from '../client-access';
import type { BackendInputs } from '../plugin';

// The FSx for OpenZFS file system's security group: NFS from the clients only.

/**
 * The port the clients need: TCP 2049, NFSv4.1 over TCP, which every mount this project makes uses (the mount options'
 * `nfsvers=4.1`; the EC2 server admits the same). AWS's guide lists more for a file system's security group, each on
 * TCP and UDP: 111 (rpcbind), 2049 and 20001-20003 (NFSv3's mount, status and lock daemons) (Amazon FSx for OpenZFS
 * User Guide, "File system access control with Amazon VPC",
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/limit-access-security-groups.html; its table is not in AWS's
 * markdown archive, https://github.com/awsdocs/amazon-fsx-openzfs-user-guide/blob/56a97b87/doc_source/limit-access-security-groups.md,
 * and is quoted port for port by gist.github.com/AstroTom/ffa18c61d14529c66fb49578166949e8). Those serve NFSv3 and
 * NFSv4.0 clients, which this project does not make: least privilege leaves them closed; a user who mounts NFSv3 by
 * hand opens them on the backend's `connections`.
 */
export const OPENZFS_NFS_PORTS: readonly ec2.Port[] = [ec2.Port.tcp(2049)];

/** Builds the security group `SecurityGroup`: NFS from the client CIDRs and the clients' security groups. */
export function openZfsSecurityGroup(scope: Construct, p: BackendInputs): ec2.SecurityGroup {
  const { server: props, clusterName, serverName } = p;
  const securityGroup = new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc: props.vpc,
    description: `FSx for OpenZFS file system ${serverName} of cluster ${clusterName}`,
    // AWS's guide: "For outbound rules, allow all traffic on all ports" (the same page): the file server's NFSv3
    // lock and NFSv4.0 callbacks call the clients back.
    allowAllOutbound: true,
  });
  admitClients(securityGroup, props, OPENZFS_NFS_PORTS, 'NFS from cluster clients');
  return securityGroup;
}
