/**
 * The typed, validated context of the deployable app (docs/design.md#4-the-context-contract): one member per context
 * key, documented with the values it takes and its default. lib/context/keys.ts lists the keys and their defaults;
 * the parsers beside it fill this type. A backend's own keys are its slice, documented in its folder and read here
 * through the registry's types.
 */
import type { Backend, Generation } from '../sizing';
import type { BACKEND_SIZING } from '../sizing/registry';
import type { ContextSlices } from './backend-context';

/** Every backend's own members together: each descriptor's slice (`BackendSizing<S>`), as the registry holds them. */
export type BackendContextSlices = ContextSlices<typeof BACKEND_SIZING>;

/** Typed, validated context of the app. Optional members are absent when the key was not given. */
export interface StorageServerContext extends BackendContextSlices {
  /** Usable capacity wanted, in TiB (a positive number); `5` when the key is not given. */
  readonly capacityTiB: number;
  /**
   * `auto` (the planner chooses: EBS st1 up to 16 TiB, d2 instance store up to 43.6 TiB, beyond that or for more
   * throughput the cheapest of all backends), `ebs`, `instance-store`, `fsx-lustre` or `fsx-openzfs` (Amazon FSx for
   * OpenZFS, AWS's managed NFS); `auto` when not given.
   */
  readonly backend: Backend | 'auto';
  /**
   * The instance generation: `previous` (d2, m4) or `current` (Nitro: m6i with st1, d3 and d3en for instance store);
   * `previous` when not given.
   */
  readonly generation: Generation;
  /**
   * The instance type, instead of the planner's choice: for backend ebs a catalogued type with EBS data volumes (m4,
   * m6i, or Graviton m7g and m6g, which get the arm64 image), for instance-store a d2, d3 or d3en whose disks hold the capacity;
   * refused for fsx-lustre. Pinning it keeps the instance when the capacity grows across the planner's tiers.
   * @default - the planner's choice (a change of it stops and starts the instance; synth warns where growth would)
   */
  readonly instanceType?: string;
  /**
   * `false` leaves out the cluster's client-mount association (document, association, read policy): for a second
   * server of a cluster whose first stack already has it (one association mounts every server of the cluster).
   * `true` when not given.
   */
  readonly clientMount: boolean;
  /**
   * Cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, the first a letter or a digit; part of the SSM
   * parameter paths, the stack name and the value of the client tag; `cluster` when the key is not given.
   */
  readonly clusterName: string;
  /**
   * This server's name in the cluster ring, same characters as `clusterName` but no `.` (it names the server's
   * CloudWatch dashboard); `storage1` when not given.
   */
  readonly serverName: string;
  /**
   * The stack's name: the `stackName` key, or `StorageServer-<clusterName>-<serverName>` when no other pair of names
   * gives the same (see {@link appStackName}).
   */
  readonly stackName: string;
  /**
   * Existing VPC to place the server in (`vpc-` id). It is looked up at synth, which needs AWS credentials
   * with a concrete account and region.
   * @default - a new VPC (2 AZs, 1 NAT gateway, flow logs), so synth works offline
   */
  readonly vpcId?: string;
  /**
   * Subnet of `vpcId` for the server (`subnet-` id); only valid together with `vpcId`.
   * @default - the VPC's first private subnet with egress
   */
  readonly subnetId?: string;
  /**
   * Another stack of this app whose new VPC this server joins (its stack name, e.g. `StorageServer-hpc1-home`),
   * placed in the same subnet as that stack's server: the VPC, its CIDR and the subnet are imported from the
   * exports every stack with a new VPC publishes (`<stack>:VpcId`, ...), so synth stays offline and CloudFormation
   * refuses to delete the first stack while this one uses its network. Same account and region; not with `vpcId`,
   * `subnetId` or `availabilityZone`.
   * @default - the stack's own VPC (`vpcId`, or a new one)
   */
  readonly vpcFrom?: string;
  /**
   * Availability zone of a new VPC (e.g. `us-east-1b`): the VPC then spans this one zone and the server runs
   * there. d2, d3, d3en and m4 are not offered in every zone (`aws ec2 describe-instance-type-offerings`); choose it at the
   * first deploy: a later change moves the subnet, which the update guard refuses. Not with `vpcId` or `vpcFrom`.
   * @default - the region's first two zones, the server in the first
   */
  readonly availabilityZone?: string;
  /**
   * CIDRs allowed to mount (comma-separated in `-c`): the export lists them and the security group admits
   * TCP 2049 from them. Canonical CIDRs only (no leading zeros, no host bits, prefix 1-32), inside private
   * address space (10/8, 172.16/12, 192.168/16, 100.64/10) or the looked-up VPC's CIDR, unless
   * `allowPublicClientCidrs`.
   * @default - the VPC's CIDR; with `clientSecurityGroupId`, the security group admits only that group (the
   * export still lists the VPC's CIDR)
   */
  readonly clientCidrs?: string[];
  /**
   * Security group of the clients (`sg-` id), admitted to TCP 2049. Security groups carry no addresses, so
   * the export itself then lists `clientCidrs`, or the VPC CIDR.
   * @default - no client security group is admitted
   */
  readonly clientSecurityGroupId?: string;
  /**
   * `true` admits `clientCidrs` (and a `loginIp`) in public address space: a deliberate opt-in, e.g. for clients
   * that reach the VPC from public addresses over a VPN. `false` when the key is not given.
   */
  readonly allowPublicClientCidrs: boolean;
  /**
   * EC2 tag key that selects the cluster's client nodes (the value is `clusterName`): State Manager mounts
   * the storage on every instance tagged `<clientTagKey>=<clusterName>`; `cluster` when not given.
   */
  readonly clientTagKey: string;
  /**
   * IPv4 address of the Alces clusterware master (the login node); giving it makes the server join the
   * cluster's clusterware ring. A canonical host address in private space (or the looked-up VPC's CIDR),
   * unless `allowPublicClientCidrs`.
   * @default - the server does not join a clusterware ring
   */
  readonly loginIp?: string;
  /**
   * Name of an existing EC2 key pair for SSH. Not needed: SSM Session Manager reaches the server without one.
   * @default - no key pair
   */
  readonly keyPair?: string;
  /**
   * Name of an existing cluster placement group to launch the server into.
   * @default - no placement group
   */
  readonly placementGroup?: string;
  /**
   * EBS snapshot sets kept (EBS backend), a whole number from 0 to 1000; `0` turns scheduled snapshots off.
   * `7` when the key is not given.
   */
  readonly snapshotRetain: number;
  /**
   * Refuse EC2 API termination of the instance (`true` or `false` in `-c`).
   * @default - the construct's default: true for instance store (the data lives and dies with the
   * instance), false for EBS
   */
  readonly terminationProtection?: boolean;
  /**
   * `encryptInstanceStore`: LUKS2 on the instance-store array (backend instance-store).
   * @default - the construct's default: true on d2, whose instance store the platform does not encrypt; false on d3, d3en
   */
  readonly encryptInstanceStore?: boolean;
  /**
   * `alarmEmail`: an address the stack's alarm topic notifies (the address confirms the subscription).
   * @default - no subscription (the topic's ARN is the AlarmTopicArn output)
   */
  readonly alarmEmail?: string;
  /**
   * `alarmTopicArn`: an existing SNS topic the alarms notify instead of the stack's own.
   * @default - the stack's own alarm topic
   */
  readonly alarmTopicArn?: string;
  /**
   * Snapshot ids (comma-separated in `-c`) to create the EBS data volumes from, one per volume in stripe
   * order: restores a snapshot set into a new server with the same plan (README, "Restoring from a
   * snapshot set"). Read only when the volumes are created: later deploys may leave it out.
   * @default - new, blank data volumes
   */
  readonly restoreSnapshotIds?: string[];
  /**
   * Image id (`ami-...`) for a deliberate image change: the instance is replaced (README, "Changing a deployed
   * server"): an EBS server's new instance takes its volumes and address over; on instance store the update
   * guard refuses it (the disks go with the instance), unless `acceptDataLoss`.
   * @default - the latest Amazon Linux 2023 at the server's creation, kept on every later update
   */
  readonly machineImageId?: string;
  /**
   * `true` lets the update guard pass a change that loses or strands data (scratch data only; for one deploy).
   * `false` when the key is not given.
   */
  readonly acceptDataLoss: boolean;
  /**
   * `true` lets the update guard pass a lower `snapshotRetain`, and the older EBS snapshot sets (or FSx backups) it
   * deletes go (for one deploy). `false` when the key is not given.
   */
  readonly acceptFewerSnapshots: boolean;
  /**
   * `true` lets `cdk destroy` delete the data: the EBS data volumes, the FSx file system (and its automatic backups),
   * or the instance-store instance and its disks. `false` when the key is not given: a destroy keeps the volumes and
   * file systems, and the stack's termination protection refuses the destroy of an instance-store server (README,
   * "What cdk destroy does").
   */
  readonly deleteDataOnDestroy: boolean;
  /**
   * `true` for the first of the two deploys that upgrade an EBS server deployed before the stable address: its
   * volume attachments stay in the stack, retained (CloudFormation forgets them without detaching), and the
   * next deploy, without this key, lets the server attach its volumes itself. `false` when the key is not given.
   */
  readonly legacyVolumeAttachments: boolean;
  /**
   * Keep exactly this many EBS data volumes (1-3) when raising `capacityTiB` of an existing EBS server: the
   * volumes grow in place instead of the stripe gaining volumes, which the update guard refuses.
   * @default - as many volumes as the capacity needs
   */
  readonly dataVolumeCount?: number;
  /**
   * The sustained aggregate throughput the cluster needs, MB/s: the planner picks the cheapest single-server
   * plan that sustains it once burst credits are spent, when the capacity rule's plan does not.
   * @default - none: the plan follows capacity alone
   */
  readonly throughputMBps?: number;
  /**
   * Directory clients mount this server's export on: an absolute path outside the system directories (`/etc`,
   * `/usr`, `/var`, ...; `/home` only with `allowHomeMountPoint`). A restored server gets its own until it is
   * promoted (README, "Restoring from a snapshot set").
   * @default '/data'
   */
  readonly mountPoint?: string;
  /** `true` allows `mountPoint` to be `/home` or under it (home directories on NFS); `false` when not given. */
  readonly allowHomeMountPoint: boolean;
  /**
   * The clients' mount roots (`mountPoint` must be one or lie below one), for the server and the client-mount
   * association alike.
   * @default - DEFAULT_MOUNT_ROOTS: /data, /scratch, /shared, /fsx
   */
  readonly mountRoots?: string[];
  /**
   * TCP connections per client mount of this NFS server (`nfs.nconnect`): a whole number from 1 to 16, `1` for one
   * connection and no `nconnect` option. Ignored by FSx for Lustre. `DEFAULT_NCONNECT` (16) when not given.
   */
  readonly nconnect: number;
  /**
   * NFS read-ahead the client nodes set, KiB (`ClientMount`'s `readAheadKiB`, the document's `readAheadKiB`): a whole
   * number from 0 to `MAX_READ_AHEAD_KIB`, `0` to leave the kernel's own (128 KiB since Linux 5.4).
   * `DEFAULT_READ_AHEAD_KIB` (15360) when not given.
   */
  readonly clientReadAheadKiB: number;
}
