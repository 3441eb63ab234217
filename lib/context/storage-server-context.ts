/**
 * The typed, validated context of the deployable app (docs/design.md#4-the-context-contract): one member per context
 * key, documented with the values it takes and its default. lib/context/keys.ts lists the keys and their defaults;
 * the parsers beside it fill this type. A backend's own keys are its slice, documented in its folder and read here
 * through the registry's types.
 */
import type { Backend } from '../../lambda/register/contract';
import type { GenerationName } from '../sizing';
import type { BACKEND_SIZING } from '../sizing/registry';
import type { ContextSlices } from './backend-context';
import type { QuotaLimit } from '../quotas';

/** Every backend's own members together: the slice `S` of each `BackendSizing<S>` the registry holds. */
export type BackendContextSlices = ContextSlices<typeof BACKEND_SIZING>;

/** Typed, validated context of the app. Optional members are absent when the key was not given. */
export interface StorageServerContext extends BackendContextSlices {
  /** Usable capacity wanted, a positive number of TiB; `5` when the key is not given. */
  readonly capacityTiB: number;
  /**
   * `auto`, `ebs`, `instance-store`, `fsx-lustre` or `fsx-openzfs`; `auto` when not given. With `auto` the planner
   * chooses: EBS st1 up to 16 TiB, d2 instance store up to 43.6 TiB, and beyond that or for more throughput the
   * cheapest of all backends. `fsx-openzfs` is Amazon FSx for OpenZFS, AWS's managed NFS.
   */
  readonly backend: Backend | 'auto';
  /**
   * The instance generation: `previous` for d2 and m4, or `current` for Nitro, which is m6i with st1 and d3 and d3en
   * for instance store; `previous` when not given.
   */
  readonly generation: GenerationName;
  /**
   * The instance type, instead of the planner's choice. For backend ebs it is a catalogued type with EBS data volumes:
   * m4, m6i, or Graviton m7g and m6g, which get the arm64 image. For instance-store it is a d2, d3 or d3en whose disks
   * hold the capacity. It is refused for fsx-lustre. Pinning it keeps the instance when the capacity grows across the
   * planner's tiers.
   * @default - the planner's choice; a change of it stops and starts the instance, and synth warns where growth would
   */
  readonly instanceType?: string;
  /**
   * `false` leaves out the cluster's client-mount association: its document, association and read policy. It is for a
   * second server of a cluster whose first stack already has one, since one association mounts every server of the
   * cluster. `true` when not given.
   */
  readonly clientMount: boolean;
  /**
   * Cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, the first a letter or a digit; part of the SSM
   * parameter paths, the stack name and the value of the client tag; `cluster` when the key is not given.
   */
  readonly clusterName: string;
  /**
   * This server's name in the cluster ring, of the same characters as `clusterName` but no `.`, since it names the
   * server's CloudWatch dashboard; `storage1` when not given.
   */
  readonly serverName: string;
  /**
   * The stack's name: the `stackName` key, or `StorageServer-<clusterName>-<serverName>` when no other pair of names
   * gives the same; see {@link appStackName}.
   */
  readonly stackName: string;
  /**
   * Existing VPC to place the server in, by its `vpc-` id. It is looked up at synth, which needs AWS credentials with a
   * concrete account and region.
   * @default - a new VPC with 2 AZs, 1 NAT gateway and flow logs, so synth works offline
   */
  readonly vpcId?: string;
  /**
   * Subnet of `vpcId` for the server, by its `subnet-` id; only valid together with `vpcId`.
   * @default - the VPC's first private subnet with egress
   */
  readonly subnetId?: string;
  /**
   * The stack name of another stack of this app whose new VPC this server joins, e.g. `StorageServer-hpc1-home`. The
   * server is placed in the same subnet as that stack's server. The VPC, its CIDR and the subnet are imported from the
   * exports every stack with a new VPC publishes, such as `<stack>:VpcId`. So synth stays offline, and CloudFormation
   * refuses to delete the first stack while this one uses its network. Same account and region; not with `vpcId`,
   * `subnetId` or `availabilityZone`.
   * @default - the stack's own VPC: `vpcId`, or a new one
   */
  readonly vpcFrom?: string;
  /**
   * Availability zone of a new VPC, e.g. `us-east-1b`: the VPC then spans this one zone and the server runs there. d2,
   * d3, d3en and m4 are not offered in every zone; `aws ec2 describe-instance-type-offerings` lists where. Choose it at
   * the first deploy, since a later change moves the subnet, which the update guard refuses. Not with `vpcId` or
   * `vpcFrom`.
   * @default - the region's first two zones, the server in the first
   */
  readonly availabilityZone?: string;
  /**
   * CIDRs allowed to mount, comma-separated in `-c`: the export lists them and the security group admits TCP 2049 from
   * them. Only canonical CIDRs are taken, with no leading zeros, no host bits and a prefix of 1-32. They lie inside
   * private address space, 10/8, 172.16/12, 192.168/16 or 100.64/10, or the looked-up VPC's CIDR, unless
   * `allowPublicClientCidrs`.
   * @default - the VPC's CIDR; with `clientSecurityGroupId`, the security group admits only that group, and the export
   * still lists the VPC's CIDR
   */
  readonly clientCidrs?: string[];
  /**
   * Security group of the clients, by its `sg-` id, admitted to TCP 2049. Security groups carry no addresses, so the
   * export itself then lists `clientCidrs`, or the VPC CIDR.
   * @default - no client security group is admitted
   */
  readonly clientSecurityGroupId?: string;
  /**
   * Clients whose root stays root on the EC2 server's export (`no_root_squash`), comma-separated canonical IPv4 CIDRs
   * such as 10.0.1.5/32, each within `clientCidrs` or the VPC's CIDR: the `rootClientCidrs` prop.
   * @default - none: every client is root squashed
   */
  readonly rootClientCidrs?: string[];
  /**
   * `true` admits `clientCidrs` and a `loginIp` in public address space. It is a deliberate opt-in, e.g. for clients
   * that reach the VPC from public addresses over a VPN. `false` when the key is not given.
   */
  readonly allowPublicClientCidrs: boolean;
  /**
   * EC2 tag key that selects the cluster's client nodes, whose value is `clusterName`: State Manager mounts the storage
   * on every instance tagged `<clientTagKey>=<clusterName>`; `cluster` when not given.
   */
  readonly clientTagKey: string;
  /**
   * IPv4 address of the Alces clusterware master, the login node; giving it makes the server join the cluster's
   * clusterware ring. It is a canonical host address in private space or the looked-up VPC's CIDR, unless
   * `allowPublicClientCidrs`.
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
   * Quota limits, `user:<uid>:<GiB>`, `group:<gid>:<GiB>` or `project:<id>:<GiB>:<directory>`, comma-separated: the
   * `quotas` prop's `limits`, whose backends and rules apply.
   * @default - no limits
   */
  readonly quotaLimits?: QuotaLimit[];
  /**
   * A limit in GiB for every user without one, 1-2147483647: the `quotas` prop's `defaultUserGiB`.
   * @default - none
   */
  readonly quotaDefaultUserGiB?: number;
  /**
   * EBS snapshot sets kept by the EBS backend, a whole number from 0 to 1000; `0` turns scheduled snapshots off. `7`
   * when the key is not given.
   */
  readonly snapshotRetain: number;
  /**
   * Refuse EC2 API termination of the instance: `true` or `false` in `-c`.
   * @default - the construct's default: true for instance store, whose data lives and dies with the instance; false for
   * EBS
   */
  readonly terminationProtection?: boolean;
  /**
   * `encryptInstanceStore`: LUKS2 on the instance-store array of backend instance-store.
   * @default - the construct's default: true on d2, whose instance store the platform does not encrypt; false on d3, d3en
   */
  readonly encryptInstanceStore?: boolean;
  /**
   * `alarmEmail`: an address the stack's alarm topic notifies, once the address confirms the subscription.
   * @default - no subscription; the topic's ARN is the AlarmTopicArn output
   */
  readonly alarmEmail?: string;
  /**
   * `alarmTopicArn`: an existing SNS topic the alarms notify instead of the stack's own.
   * @default - the stack's own alarm topic
   */
  readonly alarmTopicArn?: string;
  /**
   * Snapshot ids to create the EBS data volumes from, comma-separated in `-c`, one per volume in stripe order. It
   * restores a snapshot set into a new server with the same plan; see the README's "Restoring from a snapshot set". It
   * is read only when the volumes are created, so later deploys may leave it out.
   * @default - new, blank data volumes
   */
  readonly restoreSnapshotIds?: string[];
  /**
   * Image id, `ami-...`, for a deliberate image change, which replaces the instance; see the README's "Changing a
   * deployed server". An EBS server's new instance takes its volumes and address over. On instance store the update
   * guard refuses it unless `acceptDataLoss`, since the disks go with the instance.
   * @default - the latest Amazon Linux 2023 at the server's creation, kept on every later update
   */
  readonly machineImageId?: string;
  /**
   * `true` lets the update guard pass a change that loses or strands data, for scratch data only and for one deploy.
   * `false` when the key is not given.
   */
  readonly acceptDataLoss: boolean;
  /**
   * `true` lets the update guard pass a lower `snapshotRetain` for one deploy, and the older EBS snapshot sets or FSx
   * backups it deletes go. `false` when the key is not given.
   */
  readonly acceptFewerSnapshots: boolean;
  /**
   * `true` lets `cdk destroy` delete the data: the EBS data volumes, the FSx file system with its automatic backups, or
   * the instance-store instance and its disks. `false` when the key is not given. A destroy then keeps the volumes and
   * file systems, and the stack's termination protection refuses the destroy of an instance-store server; see the
   * README's "What cdk destroy does".
   */
  readonly deleteDataOnDestroy: boolean;
  /**
   * `true` for the first of the two deploys that upgrade an EBS server deployed before the stable address. Its volume
   * attachments stay in the stack with `DeletionPolicy: Retain`, so that CloudFormation later forgets them without
   * detaching. The next deploy, without this key, lets the server attach its volumes itself. `false` when the key is
   * not given.
   */
  readonly legacyVolumeAttachments: boolean;
  /**
   * Keep exactly this many EBS data volumes, 1-21, when raising `capacityTiB` of an existing EBS server. The volumes
   * then grow in place instead of the stripe gaining volumes, which the update guard refuses.
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
   * Directory clients mount this server's export on: an absolute path outside the system directories such as `/etc`,
   * `/usr` and `/var`, and outside `/home` unless `allowHomeMountPoint`. A restored server gets its own until it is
   * promoted; see the README's "Restoring from a snapshot set".
   * @default '/data'
   */
  readonly mountPoint?: string;
  /** `true` allows `mountPoint` to be `/home` or under it, for home directories on NFS; `false` when not given. */
  readonly allowHomeMountPoint: boolean;
  /**
   * The clients' mount roots, for the server and the client-mount association alike. `mountPoint` must be one of them
   * or lie below one.
   * @default - DEFAULT_MOUNT_ROOTS: /data, /scratch, /shared, /fsx
   */
  readonly mountRoots?: string[];
  /**
   * TCP connections per client mount of this NFS server, the construct's `nfs.nconnect`. It is a whole number from 1 to
   * 16, `1` for one connection and no `nconnect` option. FSx for Lustre ignores it. `DEFAULT_NCONNECT`, 16, when not
   * given.
   */
  readonly nconnect: number;
  /**
   * NFS read-ahead the client nodes set, KiB: the `readAheadKiB` of `ClientMount` and of its document. It is a whole
   * number from 0 to `MAX_READ_AHEAD_KIB`; `0` leaves the kernel's own, 128 KiB on Linux 5.4 and later.
   * `DEFAULT_READ_AHEAD_KIB`, 15360, when not given.
   */
  readonly clientReadAheadKiB: number;
}
