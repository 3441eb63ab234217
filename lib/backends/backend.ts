import type { CfnResource } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { FsType, FsxTarget } from '../../lambda/register/contract';
import type { ClusterwareRing } from '../clusterware';
import type { DataHolder } from '../deletion';
import type { IMonitoredStorage } from '../monitoring';
import type { SnapshotPolicy } from '../snapshot-policy';
import type { UpdateGuard } from '../update-guard';

/** The tag that names a server's resources, `<stack name>/<server name>`, shared with the update guard's handler. */
export { SERVER_ID_TAG } from '../../lambda/update-guard/contract';

/**
 * What the registration names: an EC2 instance with its stable interface, or an FSx file system for Lustre or OpenZFS.
 */
export type RegistrationTarget =
  | { readonly instance: ec2.Instance; readonly networkInterfaceId: string }
  | { readonly fileSystem: FsxTarget };

/**
 * The one small interface every backend construct gives the {@link StorageServer} facade (docs/design.md, section 5):
 * how clients reach and mount it, when it is mountable, what guards its data, what the registration names and what the
 * facade exposes. lib/backends/ec2-nfs-server.ts implements it for EBS and instance store, and so do
 * lib/backends/fsx-lustre.ts and lib/backends/fsx-openzfs.ts. lib/backends/registry.ts says which builds which backend.
 */
export interface StorageBackend extends ec2.IConnectable {
  /** `nfs4` or `lustre`. */
  readonly fsType: FsType;
  /** What clients mount: an NFS server's stable private IP, or a file system's DNS name. */
  readonly mountAddress: string;
  /** The exported path: the NFS export, `/<mount name>` of a Lustre file system, or `/fsx`, OpenZFS's root volume. */
  readonly exportPath: string;
  /** The managed file system's id, `fs-...`; undefined for an NFS server. */
  readonly fileSystemId?: string;
  /** Client mount options, nosuid and nodev included. */
  readonly mountOptions: string;
  /** Completes when the storage is mountable; the registration waits for it. */
  readonly ready: CfnResource;
  /** The day-2 guard of the backend's layout; every resource that holds data depends on it. */
  readonly updateGuard: UpdateGuard;
  /** What the registration records. */
  readonly registrationTarget: RegistrationTarget;
  /** What the dashboard and alarms of lib/monitoring.ts watch. */
  readonly monitored: IMonitoredStorage;
  /**
   * The resources that hold the data, and what each still uses: what `cdk destroy` keeps or deletes, by
   * lib/deletion.ts.
   */
  readonly dataHolders: readonly DataHolder[];
  /** What the facade exposes of the backend's resources, each documented on {@link StorageServer}. */
  readonly parts: ServerParts;
}

/** The resources a {@link StorageServer} exposes: each backend gives its own, the others stay undefined. */
export interface ServerParts {
  readonly instance?: ec2.Instance;
  readonly privateIp?: string;
  readonly networkInterfaceId?: string;
  readonly dataVolumes?: ec2.Volume[];
  readonly snapshotPolicy?: SnapshotPolicy;
  readonly clusterware?: ClusterwareRing;
  readonly fileSystem?: fsx.LustreFileSystem;
  readonly openZfsFileSystem?: fsx.CfnFileSystem;
  readonly quotaDocumentName?: string;
}
