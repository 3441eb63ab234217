/**
 * What the storage server's bootstrap is told: the settings it builds and exports from, as the construct hands them to
 * the renderers of lib/bootstrap.ts. They are the data disks, the export, NFS, the array's stripe, and the server's
 * identity, encryption and metrics. Types only, and the values they may take; lib/bootstrap/validation.ts checks a
 * configuration against them.
 */
/** An EBS data volume as the bootstrap finds it: by volume id, the Nitro NVMe serial, or by attachment name on Xen. */
export interface EbsVolumeRef {
  /** The volume id, e.g. `vol-0123456789abcdef0`; may be a CDK token string. */
  readonly volumeId: string;
  /** The attachment device name, e.g. `/dev/sdf`, which shows up as `/dev/xvdf` on Xen instances. */
  readonly device: string;
  /**
   * The volume's size in GiB as the stack sets it. The bootstrap waits a bounded time until the disk shows at least
   * this size, so that a grown volume is grown on the server in the same apply.
   */
  readonly sizeGiB: number;
}

/** What the bootstrap builds and exports. */
export interface BootstrapConfig {
  /** Where the data lives: EBS volumes, or the instance's local disks. */
  readonly backend: 'ebs' | 'instance-store';
  /** EBS data volumes in stripe order; empty for instance store. */
  readonly ebsVolumes: EbsVolumeRef[];
  /** Block-device-mapping names of the instance-store disks, `/dev/sdb` and on; empty for EBS. */
  readonly instanceStoreDevices: string[];
  /** Where the logical volume is mounted and exported, e.g. `/export/data`. */
  readonly exportPath: string;
  /** The only clients the export admits; never `*`. */
  readonly clientCidrs: string[];
  /**
   * Clients whose root stays root on the export (`no_root_squash`), each within one of `clientCidrs`; every other client
   * is root squashed.
   * @default - none
   */
  readonly rootClientCidrs?: string[];
  /**
   * nfsd threads.
   * @default - on the host at boot: min(256, max(8, 4 x vCPUs))
   */
  readonly nfsThreads?: number;
  /** `sync` never acknowledges a write before it is on disk; `async` is faster and loses acknowledged writes on a crash. */
  readonly exportMode: 'sync' | 'async';
  /** NFS versions the server enables, from `3`, `4.0`, `4.1`, `4.2`. */
  readonly nfsVersions: string[];
  /** LVM stripe size in KiB, a power of two from 4 to 4096. */
  readonly stripeSizeKiB: number;
  /** How long to wait for EBS volumes and instance-store disks to appear before failing. */
  readonly volumeWaitSeconds: number;
  /**
   * This server's identity, tagged on the volume group it makes as `storage-server-id:<identity>`. The bootstrap adopts
   * only an array of this identity, or, when `restored`, the one array the restored disks hold. Characters
   * `[A-Za-z0-9_.:/=-]`, at most 200; it may be a CDK token string, e.g. the stack name.
   */
  readonly identity: string;
  /** The data volumes were created from snapshots of a server: adopt its one array, whole, as ours. */
  readonly restored: boolean;
  /**
   * The server's stable network interface, `eni-...`, which may be a CDK token string. On EC2 the bootstrap attaches
   * it, and the EBS data volumes, to the instance it runs on, taking them over from a previous instance of the same
   * server: see lib/scripts/storage-attach.sh.
   * @default - no stable interface
   */
  readonly networkInterfaceId?: string;
  /**
   * Encryption of the striped volume by the server itself, for instance store that the platform does not encrypt, d2's
   * HDDs. `luks2` puts LUKS2 between the LV and the XFS: dm-crypt, aes-xts-plain64, with a 512-bit key kept on the
   * server's root volume. It applies when an array is made; an existing array keeps its layout. Only for
   * `instance-store`, since EBS encrypts EBS volumes.
   * @default 'none'
   */
  readonly encryption?: BootstrapEncryption;
  /**
   * The server's own metrics of lib/server-metrics.ts. The bootstrap runs storage-metrics every minute, sending
   * heartbeat, file system and nfsd counters to the agent's StatsD listener, and installs and configures the CloudWatch
   * agent.
   * @default - no metrics
   */
  readonly metrics?: BootstrapMetrics;
  /**
   * XFS quotas on the data file system: a default hard limit per user and limits by user, group or project id, set by
   * the apply with xfs_quota. The file system is mounted with user, group and project quotas whether or not any is set.
   * @default - no limits
   */
  readonly quotas?: BootstrapQuotas;
}

/** The server's XFS quota limits: see {@link BootstrapConfig.quotas}. */
export interface BootstrapQuotas {
  /** The hard limit of every user without one of their own, GiB. */
  readonly defaultUserGiB?: number;
  /** Hard limits by id; a project's `path` is its directory relative to the export path. */
  readonly limits: readonly BootstrapQuotaLimit[];
}

/** One hard limit: a user, group or project id (not 0) and its GiB; a project's directory relative to the export. */
export interface BootstrapQuotaLimit {
  readonly type: 'user' | 'group' | 'project';
  readonly id: number;
  readonly limitGiB: number;
  readonly path?: string;
}

/** What the server's metrics are named by, and the CloudWatch agent's configuration. */
export interface BootstrapMetrics {
  /** The ClusterName dimension: a name of `[A-Za-z0-9_.-]`, at most 64. */
  readonly clusterName: string;
  /** The ServerName dimension. */
  readonly serverName: string;
  /**
   * The CloudWatch agent's JSON configuration from renderAgentConfig, written to
   * /etc/storage-server/cloudwatch-agent.json.
   */
  readonly agentConfig: string;
}

/** How the bootstrap encrypts the striped volume: see {@link BootstrapConfig.encryption}. */
export type BootstrapEncryption = 'none' | 'luks2';

/** The NFS versions the bootstrap can enable: the values of {@link BootstrapConfig.nfsVersions}. */
export const SUPPORTED_NFS_VERSIONS = ['3', '4.0', '4.1', '4.2'];
