import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { FsxOpenZfsOptions } from './openzfs/sizing/options';

// The backend's public option group, the facade's `fsxOpenZfs`; BackendInputs in ./plugin.ts is what it is built from.

/** FSx for OpenZFS settings, for backend `fsx-openzfs`. */
export interface FsxOpenZfsServerOptions extends FsxOpenZfsOptions {
  /**
   * Root squash on the root volume's NFS export: root on a client works on the file system as the anonymous user,
   * nobody, so it cannot read or change other users' files. `false` exports with `no_root_squash`, leaving root as root
   * on every client.
   * @default true
   */
  readonly rootSquash?: boolean;
  /**
   * The second subnet of a MULTI_AZ_1 file system, in another Availability Zone than the server's subnet, which is the
   * preferred one, where the active file server runs. Only with deploymentType MULTI_AZ_1.
   * @default - the first subnet of `vpcSubnets`, or of the VPC's private subnets with egress, in another zone
   */
  readonly standbySubnet?: ec2.ISubnet;
}
