import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { ClusterwareOptions } from '../clusterware';
import type { StoragePlan } from '../sizing';
import type { SnapshotOptions } from './snapshot-options';

// The EC2 NFS server backend's props: its public NFS options (the facade's `nfs`), the part of the facade's props
// it reads, and what the facade settles before it builds the server.

/** NFS server settings. */
export interface NfsOptions {
  /**
   * nfsd threads.
   * @default - min(256, max(8, 4 x vCPU)), computed on the server (the ParallelCluster rule)
   */
  readonly threads?: number;
  /**
   * `sync` never acknowledges a write before it is on disk; `async` is faster for writes but loses
   * acknowledged writes if the server crashes. Choose `async` only for scratch data.
   * @default 'sync'
   */
  readonly exportMode?: 'sync' | 'async';
  /**
   * NFS version clients mount with. Only NFSv4 is offered: it needs TCP 2049 alone (no rpcbind/mountd).
   * @default '4.1'
   */
  readonly version?: '4.1' | '4.2';
  /**
   * TCP connections each client opens to this server per mount (the mount option `nconnect`, Linux 5.3 and later,
   * backported e.g. to RHEL 8.3): a whole number from 1 to 16 (`NFS_MAX_NCONNECT`, the Linux limit [NFSMAN]). EC2
   * limits one TCP flow to 5 Gbps (10 Gbps in a cluster placement group) [EC2-BW], which holds one connection near
   * 600 MB/s; each connection is a flow of its own. `1` writes no `nconnect` option (one connection, the kernel's
   * default). The client script drops the option on a node whose kernel refuses it, saying so, and mounts without it
   * (docs/design.md, section 9). Sources: docs/sources/nconnect.md.
   * @default DEFAULT_NCONNECT: 16 (AWS's example for FSx for OpenZFS [FSXZFS-PERF])
   */
  readonly nconnect?: number;
}

/**
 * What the EC2 NFS server backend reads of the server's props (the facade's `StorageServerProps` has these members,
 * and passes itself). Documented there.
 */
export interface Ec2NfsServerRequest {
  /** The VPC of the server. */
  readonly vpc: ec2.IVpc;
  /** CIDRs admitted to NFS and listed in the export. */
  readonly clientCidrs?: string[];
  /** Connectables admitted to NFS. */
  readonly clientPeers?: ec2.IConnectable[];
  /** An instance type instead of the planner's. */
  readonly instanceType?: ec2.InstanceType;
  /** A key pair for SSH. */
  readonly keyPair?: ec2.IKeyPair;
  /** A cluster placement group. */
  readonly placementGroup?: ec2.IPlacementGroupRef;
  /** The data volumes' removal policy. */
  readonly dataVolumeRemovalPolicy?: RemovalPolicy;
  /** Snapshots to create the data volumes from. */
  readonly dataVolumeSnapshotIds?: string[];
  /** NFS server settings. */
  readonly nfs?: NfsOptions;
  /** The key of the root and data volumes. */
  readonly encryptionKey?: kms.IKey;
  /** Scheduled snapshots of the data volumes. */
  readonly snapshots?: SnapshotOptions;
  /** Refuse EC2 API termination. */
  readonly terminationProtection?: boolean;
  /** Encrypt the instance-store array (LUKS2). */
  readonly encryptInstanceStore?: boolean;
  /** An image id. */
  readonly machineImageId?: string;
  /** An image. */
  readonly machineImage?: ec2.IMachineImage;
  /** Let the update guard pass a change that loses data. */
  readonly acceptDataLoss?: boolean;
  /** Let the update guard pass a lower snapshot retention. */
  readonly acceptFewerSnapshots?: boolean;
  /** Let cdk destroy delete the data. */
  readonly deleteDataOnDestroy?: boolean;
  /** Keep the retained volume attachments of a server deployed before the stable address. */
  readonly legacyVolumeAttachments?: boolean;
  /** Clusterware ring membership. */
  readonly clusterware?: ClusterwareOptions;
  /** SSM Parameter Store prefix (the role may read parameters under the server's own path only). */
  readonly parameterPrefix?: string;
}

/** What the facade ({@link StorageServer}) has settled before it builds the EC2 NFS server. */
export interface Ec2NfsServerProps {
  /** The facade's props, validated: the part this backend reads. */
  readonly server: Ec2NfsServerRequest;
  /** The plan: an EBS or instance-store backend. */
  readonly plan: StoragePlan;
  /** The capacity asked for, TiB (an instance-type override must still hold it). */
  readonly capacityTiB: number;
  /** The cluster the server belongs to. */
  readonly clusterName: string;
  /** The server's name in the cluster (part of its identity, `<stack>/<serverName>`). */
  readonly serverName: string;
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The client mount options the server publishes. */
  readonly mountOptions: string;
  /** The one subnet the server, its volumes and its interface live in. */
  readonly subnet: ec2.ISubnet;
}
