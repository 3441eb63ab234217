import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { FsxOpenZfsOptions, StoragePlan } from '../sizing';
import type { SnapshotOptions } from './snapshot-options';

// The FSx for OpenZFS backend's props: its public options (the facade's `fsxOpenZfs`), the part of the facade's
// props it reads, and what the facade settles before it builds the file system.

/** FSx for OpenZFS settings (backend `fsx-openzfs`). */
export interface FsxOpenZfsServerOptions extends FsxOpenZfsOptions {
  /**
   * Root squash on the root volume's NFS export: root on a client works on the file system as the anonymous user
   * (nobody), so it cannot read or change other users' files; `false` exports with `no_root_squash`, leaving root
   * as root on every client.
   * @default true
   */
  readonly rootSquash?: boolean;
  /**
   * The second subnet of a MULTI_AZ_1 file system, in another Availability Zone than the server's subnet (the
   * preferred one, where the active file server runs); only with deploymentType MULTI_AZ_1.
   * @default - the first subnet of `vpcSubnets` (or of the VPC's private subnets with egress) in another zone
   */
  readonly standbySubnet?: ec2.ISubnet;
}

/**
 * What the FSx for OpenZFS backend reads of the server's props (the facade's `StorageServerProps` has these members,
 * and passes itself).
 */
export interface FsxOpenZfsServerRequest {
  /** The VPC of the file system. */
  readonly vpc: ec2.IVpc;
  /** CIDRs admitted to NFS and listed in the export. */
  readonly clientCidrs?: string[];
  /** Connectables whose security groups are admitted to NFS. */
  readonly clientPeers?: ec2.IConnectable[];
  /** The file system's removal policy. */
  readonly dataVolumeRemovalPolicy?: RemovalPolicy;
  /** The file system's key. */
  readonly encryptionKey?: kms.IKey;
  /** The FSx for OpenZFS options. */
  readonly fsxOpenZfs?: FsxOpenZfsServerOptions;
  /** Backup retention (days) and start time. */
  readonly snapshots?: SnapshotOptions;
  /** Let the update guard pass a change that loses data. */
  readonly acceptDataLoss?: boolean;
  /** Let the update guard pass a lower snapshot retention. */
  readonly acceptFewerSnapshots?: boolean;
  /** Let cdk destroy delete the data. */
  readonly deleteDataOnDestroy?: boolean;
}

/** What the facade ({@link StorageServer}) has settled before it builds the file system. */
export interface FsxOpenZfsServerProps {
  /** The facade's props, validated: the part this backend reads. */
  readonly server: FsxOpenZfsServerRequest;
  /** The plan: backend `fsx-openzfs`, with its `fsxOpenZfs` file system. */
  readonly plan: StoragePlan;
  /** The cluster the file system belongs to. */
  readonly clusterName: string;
  /** The server's name in the cluster (its identity is `<stack>/<serverName>`). */
  readonly serverName: string;
  /** The server's subnet: the file system's (preferred) subnet. */
  readonly subnet: ec2.ISubnet;
  /** The subnets the facade selected from (`vpcSubnets`), where a MULTI_AZ_1 standby subnet is found by default. */
  readonly selectedSubnets: readonly ec2.ISubnet[];
}
