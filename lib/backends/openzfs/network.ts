import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { admitClients, anyClients } from '../client-access';
import { FROM_CLIENTS, backendSecurityGroup, warnIfRulesDropped } from '../security-group';
import type { BackendInputs } from '../plugin';

// The FSx for OpenZFS file system's security group, `securityGroup` or its own: NFS from the clients only.

/**
 * The port the clients need: TCP 2049, NFSv4.1 over TCP, which every mount this project makes uses, by the mount
 * options' `nfsvers=4.1`. The EC2 server admits the same. AWS's guide lists more ports for a file system's security
 * group, each on TCP and UDP: 111 for rpcbind, 2049, and 20001-20003 for NFSv3's mount, status and lock daemons. The
 * source is the Amazon FSx for OpenZFS User Guide, "File system access control with Amazon VPC",
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/limit-access-security-groups.html. Its table is not in AWS's
 * markdown archive,
 * https://github.com/awsdocs/amazon-fsx-openzfs-user-guide/blob/56a97b87/doc_source/limit-access-security-groups.md,
 * and gist.github.com/AstroTom/ffa18c61d14529c66fb49578166949e8 quotes it port for port. Those ports serve NFSv3 and
 * NFSv4.0 clients, which this project does not make, so least privilege leaves them closed. A user who mounts NFSv3 by
 * hand opens them on the backend's `connections`.
 */
export const OPENZFS_NFS_PORTS: readonly ec2.Port[] = [ec2.Port.tcp(2049)];

/**
 * Builds the security group `SecurityGroup`, unless `securityGroup` is given: NFS from the client CIDRs and the
 * clients' security groups, on whichever group it is.
 */
export function openZfsSecurityGroup(scope: Construct, p: BackendInputs): ec2.ISecurityGroup {
  const { server: props, clusterName, serverName } = p;
  const securityGroup = backendSecurityGroup(props, () => new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc: props.vpc,
    description: `FSx for OpenZFS file system ${serverName} of cluster ${clusterName}`,
    // AWS's guide says on the same page: "For outbound rules, allow all traffic on all ports". The file server's NFSv3
    // lock and NFSv4.0 callbacks call the clients back.
    allowAllOutbound: true,
  }));
  admitClients(securityGroup, props, OPENZFS_NFS_PORTS, 'NFS from cluster clients');
  warnIfRulesDropped(scope, props, anyClients(props) ? [{ rule: `NFS (TCP 2049) in ${FROM_CLIENTS}` }] : []);
  return securityGroup;
}
