// Value imports, as in the file these props came from: API Extractor's report copies each import's form.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { ClusterwareOptions } from '../clusterware';
import type { MonitoringOptions } from '../monitoring';
import type { NfsOptions } from '../backends/ec2-nfs-server-props';
import type { FsxLustreServerOptions } from '../backends/fsx-lustre-props';
import type { FsxOpenZfsServerOptions } from '../backends/fsx-openzfs-props';
import type { SnapshotOptions } from '../backends/snapshot-options';
import type { QuotaOptions } from '../quotas';
import type { Backend } from '../backend-enum';
import type { Generation } from '../sizing/enums';

// The props of the StorageServer facade in lib/storage-server.ts, apart from its wiring. The option groups they name
// live beside what reads them: NfsOptions with the EC2 backend's props, FsxLustreServerOptions with the FSx backend's,
// SnapshotOptions beside both backends, ClusterwareOptions with the clusterware ring.

/** Properties of a {@link StorageServer}. */
export interface StorageServerProps {
  /** VPC to place the server in. */
  readonly vpc: ec2.IVpc;
  /**
   * Where to place the server; the first subnet selected is used, and EBS volumes live in its AZ.
   * @default - the first private subnet with egress, since packages, SSM and CloudFormation signals need egress
   */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * Usable capacity wanted, in TiB.
   * @default 5
   */
  readonly capacityTiB?: number;
  /**
   * Where the data lives; unset, the planner picks it (`auto`, which JavaScript may also give as the string).
   * - `auto` picks EBS st1 up to 16 TiB and d2 instance store up to 43.6 TiB. Beyond that, or when `throughputMBps` is
   *   more than that plan sustains, it picks the cheapest plan of any backend that meets both, FSx for Lustre's
   *   persistent types included: see `planStorage`.
   * - `fsx-lustre` deploys an Amazon FSx for Lustre file system instead of a server. The EC2-only props are then
   *   refused: instance type, image, key pair, placement group, NFS settings, export path, clusterware, volume
   *   snapshots and counts.
   * - `fsx-openzfs` deploys an Amazon FSx for OpenZFS file system, AWS's managed NFS, mounted as `nfs4` from its DNS
   *   name at path `/fsx`. It refuses the same EC2-only props.
   * @default - auto: the planner picks the backend
   */
  readonly backend?: Backend;
  /**
   * The instance generation the planner chooses from. `previous` is d2 and m4, the original template's families.
   * `current` is Nitro: m6i with st1, whose EBS and network baselines are what a long transfer sees, and d3 and d3en
   * for instance store, whose throughput estimate is a lower bound; see `planStorage`. Changing it on a deployed EBS
   * server changes its instance type, a stop and start the data survives. On an instance-store server the update guard
   * refuses it, since the data lives on the instance's disks.
   * @default Generation.PREVIOUS
   */
  readonly generation?: Generation;
  /**
   * FSx for Lustre options, for backend `fsx-lustre` only: deployment type, storage type, per-unit throughput and an S3
   * data repository. The file system is encrypted, with `kmsKey` on the persistent types. It is backed up daily
   * on the persistent types, kept `snapshots.retain` days and started at `snapshots.startTimeUtc`, unless linked to a
   * data repository: FSx backs up no linked file system, so backups are off, with a synth warning. It is kept on
   * removal unless `removalPolicy` says otherwise.
   * @default - PERSISTENT_2 SSD at 125 MB/s per TiB; with `throughputMBps`, the cheapest persistent option that
   * sustains it
   */
  readonly fsxLustre?: FsxLustreServerOptions;
  /**
   * FSx for OpenZFS options, for backend `fsx-openzfs` only: deployment type, throughput capacity and root squash.
   * MULTI_AZ_1 takes a standby subnet in a second zone. The file system is SSD and LZ4-compressed. It is encrypted with
   * `kmsKey`, else with the AWS managed key aws/fsx. It is backed up daily, kept `snapshots.retain` days, 0-90,
   * and started at `snapshots.startTimeUtc`. It is kept on removal unless `removalPolicy` says otherwise. Its
   * root volume is exported to `clientCidrs`, or the VPC's CIDR, only, with root squash. Its security group admits NFS
   * from `clientCidrs` and `clientPeers` only, on TCP and UDP 111, 2049 and 20001-20003.
   * @default - SINGLE_AZ_1 at the smallest throughput tier that sustains `throughputMBps`, root squash on
   */
  readonly fsxOpenZfs?: FsxOpenZfsServerOptions;
  /**
   * Cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, the first a letter or a digit. Part of the SSM
   * parameter paths.
   * @default 'cluster'
   */
  readonly clusterName?: string;
  /**
   * This server's name in the cluster ring, of the same characters as `clusterName`. No `.` unless
   * `monitoring.dashboard` is false, since the dashboard is named after it and CloudWatch dashboard names take
   * `A-Z a-z 0-9 _ -` only.
   * @default 'storage1'
   */
  readonly serverName?: string;
  /**
   * CIDRs allowed to mount. The export lists exactly these, and the security group admits TCP 2049 from them.
   *
   * Each is a canonical IPv4 CIDR, with no leading zeros, no host bits and a prefix of 1-32. Each lies inside private
   * address space, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10, unless `allowPublicClientCidrs`. A
   * concrete VPC CIDR, of an imported or looked-up VPC, is held to the same rules and to the /16 to /28 EC2 gives a
   * VPC, as clients may be anywhere in it.
   *
   * Some values are checked only when the deploy resolves them: an entry that is a token, such as a parameter,
   * `Fn.importValue` or `Fn.select`; a token VPC CIDR; a `clientPeers` CIDR; a `clusterware.loginIp`. They are checked
   * by the same rules before any resource that carries them is created or changed, by a
   * `Custom::StorageServerValueCheck` those resources depend on. A token list, such as a `List<String>` parameter or
   * `Fn.split`, is refused, since each CIDR is a security-group rule of its own.
   * @default - the VPC's CIDR when no `clientPeers` are given either; otherwise none
   */
  readonly clientCidrs?: string[];
  /**
   * Admit `clientCidrs`, a VPC's CIDR and a `clusterware.loginIp` in public address space, outside private space. It is
   * a deliberate opt-in, e.g. for clients on public addresses behind a VPN, and synth warns when it is used. It admits
   * only globally reachable unicast space, for IPv4 and IPv6 alike. It never admits multicast, nor a block IANA's
   * special-purpose registries mark not globally reachable, such as loopback, link-local or documentation space.
   * @default false
   */
  readonly allowPublicClientCidrs?: boolean;
  /**
   * Clients whose root stays root on the EC2 server's export (`no_root_squash`), such as the node a copy runs on, which
   * keeps owners as root (README, "Moving data"): IPv4 CIDRs, each within `clientCidrs` or the VPC's CIDR. Every other
   * client stays root squashed. Root on such a client is root on every file of the export, so name one node, for the
   * copy's time only. A token entry is checked by the server when its settings are applied. FSx for OpenZFS takes
   * `fsxOpenZfs.rootSquash` and FSx for Lustre `fsxLustre.noSquashNids` instead, and refuse this prop by name.
   * @default - none: every client is root squashed
   */
  readonly rootClientCidrs?: string[];
  /**
   * Security groups or other connectables of clients allowed to mount. Security groups carry no addresses, so the NFS
   * export itself is then restricted to `clientCidrs`, or to the VPC CIDR. A peer that admits addresses, such as
   * `ec2.Peer.ipv4()`, `ec2.Peer.anyIpv4()` or `ec2.Peer.anyIpv6()`, follows the `clientCidrs` rules: never a /0, and
   * private space, fc00::/7 on IPv6, unless `allowPublicClientCidrs`. That admits no special-purpose block for either
   * family, such as `::1/128`, `fe80::/10` or `ff00::/8`.
   * @default - none
   */
  readonly clientPeers?: ec2.IConnectable[];
  /**
   * Security group to assign to the server or file system, instead of a new one. This construct adds to it the rules
   * its own group would hold: NFS (TCP 2049) or Lustre (TCP 988 and 1018-1023) in from `clientCidrs` and `clientPeers`;
   * on the EC2 backends HTTPS (TCP 443) out, and clusterware gossip (TCP and UDP 7946) to `clusterware.loginIp`; on
   * FSx for Lustre, Lustre out to the clients and among the group's own members. A group imported with
   * `mutable: false` takes no rules: it must already allow these, and synth warns with the list. `connections` is this
   * group. A destroy that keeps an FSx file system does not keep a group it did not make: give a group of the same
   * stack the file system's removal policy, or synth refuses. Changing the group of a deployed FSx file system
   * replaces it, and may replace an instance-store server's instance: the update guard refuses both. On EBS the stable
   * interface's group changes in place and the instance may be replaced.
   * @default - a new security group is created, with the rules above
   */
  readonly securityGroup?: ec2.ISecurityGroup;
  /**
   * Instance type to use instead of the planner's choice. For instance store it must be a d2, d3 or d3en type whose
   * disks hold the requested capacity.
   * @default - the planner's choice
   */
  readonly instanceType?: ec2.InstanceType;
  /**
   * EC2 key pair for SSH. Not needed: SSM Session Manager reaches the server without one.
   * @default - no key pair
   */
  readonly keyPair?: ec2.IKeyPair;
  /**
   * Existing cluster placement group to launch into, closer to the compute nodes, with 10 Gbps per flow.
   * @default - none
   */
  readonly placementGroup?: ec2.IPlacementGroupRef;
  /**
   * What happens to the EBS data volumes, or the FSx file system, when they leave the stack. The default keeps them on
   * a stack update or deletion, and deletes them only when the stack's first creation rolls back, while they are new
   * and blank: CloudFormation's `RetainExceptOnCreate`. DESTROY deletes your data, and synth refuses it without
   * `deleteDataOnDestroy`, as it refuses a `RemovalPolicies.destroy()` that reaches them. SNAPSHOT, on EBS only,
   * deletes each volume after a snapshot that keeps its data.
   * @default - RemovalPolicy.DESTROY with `deleteDataOnDestroy`, else RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Create the EBS data volumes from these snapshots, one per volume in stripe order: a snapshot set of a server with
   * the same plan. It restores into a new server: see the README. It is read only when the volumes are created, so
   * later deploys may leave it out. Other ids for volumes that exist are refused, since they would restore nothing.
   * @default - new, blank volumes
   */
  readonly dataVolumeSnapshotIds?: string[];
  /**
   * NFS server and mount settings.
   * @default - sync exports, NFSv4.1, threads scaled with vCPUs
   */
  readonly nfs?: NfsOptions;
  /**
   * KMS key that encrypts the root and data volumes, or the file system on FSx for Lustre's persistent types and FSx
   * for OpenZFS.
   * @default - the account's AWS managed key for EBS, aws/ebs, or for FSx, aws/fsx
   */
  readonly kmsKey?: kms.IKey;
  /**
   * Storage quotas: hard limits on what single users, groups or projects may store. On the EC2 servers, XFS user,
   * group and project limits and a default user limit, set by the server's apply with xfs_quota. On FSx for OpenZFS,
   * user and group limits of the root volume, set live through FSx's UpdateVolume on every deploy that changes them, so
   * no change replaces the file system. On FSx for Lustre, user, group and (Lustre 2.15) project limits, set with `lfs setquota`
   * by a State Manager association on the nodes tagged `<clientTagKey>=<clusterName>`. A limit dropped from the list is
   * lifted, and a quota set by hand outside the list is left alone. What a backend does not take is refused by name.
   * @default - no quotas
   */
  readonly quotas?: QuotaOptions;
  /**
   * EC2 tag key of the cluster's client nodes, as `ClientMount`'s: FSx for Lustre's quota association runs on the nodes
   * tagged `<clientTagKey>=<clusterName>`. The other backends run nothing on the nodes by tag and do not read it.
   * @default 'cluster'
   */
  readonly clientTagKey?: string;
  /**
   * Scheduled snapshots of the EBS data volumes, ignored for instance store. On FSx for Lustre's persistent types and
   * on FSx for OpenZFS, `retain`, 0-90, and `startTimeUtc` set the daily automatic backups, and the other options are
   * refused.
   * @default - daily, 7 kept, application-consistent
   */
  readonly snapshots?: SnapshotOptions;
  /**
   * Refuse EC2 API termination of the instance. It would fail `cdk destroy` half-way, so it also turns on the stack's
   * termination protection, which refuses the destroy before anything is deleted: turn it off before `cdk destroy`.
   * @default - true for instance store without `deleteDataOnDestroy`, where the data lives and dies with the instance;
   * false otherwise
   */
  readonly terminationProtection?: boolean;
  /**
   * Let `cdk destroy` delete the data: the EBS data volumes, whose snapshots stay, the FSx file system with its
   * automatic backups, or the instance-store instance with its disks. Without it a destroy keeps the volumes and file
   * systems, and what a kept file system still uses: its security group, and its subnets and VPC where this app makes
   * them. The stack's termination protection then refuses the destroy of an instance-store server, and synth refuses a
   * removal policy that would delete data; see the README's "What cdk destroy does".
   * @default false
   */
  readonly deleteDataOnDestroy?: boolean;
  /**
   * Let the update guard pass a lower `snapshots.retain`. DLM then deletes the oldest EBS snapshot sets beyond the new
   * count at its next run, and FSx the automatic backups older than the new number of days. It is for that change only,
   * where `acceptDataLoss` lets every refused change pass. The refusal counts what would go.
   * @default false
   */
  readonly acceptFewerSnapshots?: boolean;
  /**
   * Encrypt the instance-store array on the server, for backend `instance-store`: LUKS2 with dm-crypt between the
   * striped volume and its XFS. It uses aes-xts-plain64 with a 512-bit key that is made with the array, kept only on
   * the server's encrypted root volume, and removed when the array is gone. The platform does not encrypt d2's HDD
   * instance store; it encrypts d3 and d3en's HDDs with XTS-AES-256 and one-time keys. `false` on d2 leaves the data
   * unencrypted at rest, and cdk-nag then reports AwsSolutions-EC26. It applies when an array is made. The update guard
   * refuses a change on a deployed server, since its array keeps the layout it was made with.
   * @default - true where the platform does not encrypt the instance store, d2; false where it does, d3 and d3en
   */
  readonly encryptInstanceStore?: boolean;
  /**
   * The dashboard and alarm thresholds of lib/monitoring.ts: heartbeat missing, file system full, st1 burst bucket low,
   * status check failed, and an FSx file system's used capacity (FSx for Lustre's: its fullest storage target's).
   * @default - a dashboard, and alarms at 85 and 95 % full, 20 % burst balance, 3 minutes without heartbeat
   */
  readonly monitoring?: MonitoringOptions;
  /**
   * An SNS topic the alarms notify, on ALARM and back to OK; mutually exclusive with `alarmEmail`. It must be a
   * standard topic in the stack's region and account, checked when both are known.
   * @default - a new topic, encrypted and TLS only, with no subscription but `alarmEmail`'s: see the `alarmTopic`
   * attribute
   */
  readonly alarmTopic?: sns.ITopic;
  /**
   * An e-mail address the new alarm topic notifies, once the address confirms the subscription; mutually exclusive with
   * `alarmTopic`. It is one address by a practical grammar, `EMAIL_PATTERN`: an RFC 5322 dot-atom local part and a
   * domain of RFC 1035 labels. `a@.b.c`, lists and spaces are refused.
   * @default - no subscription: subscribe to the `alarmTopic` attribute, the AlarmTopicArn output
   */
  readonly alarmEmail?: string;
  /**
   * Machine image id, `ami-...`, to run instead of the one resolved at creation. Changing it is a deliberate upgrade:
   * CloudFormation replaces the instance, as the README's "Replacing an EBS server's instance" says. An EBS server's
   * replacement takes the volumes and the stable address over, and clients carry on. On instance store the update guard
   * refuses it, since the disks go with the instance, unless `acceptDataLoss` is set.
   * @default - the latest Amazon Linux 2023 at the instance's creation, for the instance type's architecture: x86_64,
   * or arm64 for a Graviton `instanceType` such as m7g. EC2 resolves it at launch, by `resolve:ssm:` of the public
   * AL2023 parameter, and a later update never resolves it again.
   */
  readonly machineImageId?: string;
  /**
   * Machine image, for images an id cannot name; mutually exclusive with `machineImageId`. An image whose id
   * CloudFormation resolves at every deploy, e.g. `MachineImage.latestAmazonLinux2023()`, replaces the instance at each
   * new release, and the update guard refuses that on instance store. Prefer `machineImageId`.
   * @default - as for `machineImageId`
   */
  readonly machineImage?: ec2.IMachineImage;
  /**
   * Keep exactly this many EBS data volumes, 1-21, when growing an existing EBS server; see `planStorage`. Raising
   * `capacityTiB` then enlarges each volume in place instead of adding volumes to the stripe, which the update guard
   * refuses.
   * @default - as many volumes as the capacity needs, one up to 16 TiB
   */
  readonly dataVolumeCount?: number;
  /**
   * The sustained aggregate throughput the cluster needs, MB/s, that is 10^6 bytes per second. When the plan for the
   * capacity cannot sustain it once burst credits are spent, the planner picks the cheapest single-server plan that
   * can, and `plan.reason` says so. More than one server sustains is refused.
   * @default - none: the plan follows capacity alone
   */
  readonly throughputMBps?: number;
  /**
   * Let the update guard pass a change that loses or strands data: a backend change, an instance-store type change,
   * fewer or reordered volumes, a new encryption key, another AZ, a replaced instance-store server. For scratch data
   * only; set it for one deploy, then remove it.
   * @default false
   */
  readonly acceptDataLoss?: boolean;
  /**
   * For the first of two deploys that upgrade an EBS server deployed before the stable address, as "Stable address" in
   * docs/what-gets-deployed.md says. It keeps the server's `AWS::EC2::VolumeAttachment` resources, unchanged but retained, so that the
   * next deploy, without this, removes them from the stack without detaching the live volumes. Leave it off otherwise:
   * with attachments in the stack, the instance cannot be replaced.
   * @default false
   */
  readonly legacyVolumeAttachments?: boolean;
  /**
   * Join the Alces clusterware ring of the cluster as a slave, writing /opt/clusterware/etc/config.yml at boot.
   * @default - no clusterware ring membership
   */
  readonly clusterware?: ClusterwareOptions;
  /**
   * SSM Parameter Store prefix of the ring and mount records.
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
  /**
   * Directory exported by the server: an absolute path of `[A-Za-z0-9_.-]` segments. It is neither `/` nor a system
   * directory or one under it, by `SYSTEM_DIRECTORIES`, so `/etc`, `/var/lib/nfs` and `/home/x` are refused. Nor is it
   * one the FHS names for other files, by `NAMED_DIRECTORIES`, such as `/opt` or `/srv`; `/srv/nfs` is fine. It is
   * literal, not a token, since the server's scripts that use it are rendered at synth.
   * @default '/export/data'
   */
  readonly exportPath?: string;
  /**
   * Directory clients mount the export on: one of `mountRoots` or a directory below one, in `[A-Za-z0-9_.-]` segments.
   * `/home` and below need `allowHomeMountPoint`. Every node mounts every server of its cluster, so two servers of one
   * cluster in one app may not share a mount point, nor a `serverName`. Nor may one's be below the other's, as
   * `/data/n/inner` is below `/data/n`, since the outer would hide the inner. Synth refuses both. It is literal, not a
   * token, since the nodes' scripts that use it are rendered at synth.
   * @default '/data'
   */
  readonly mountPoint?: string;
  /**
   * The directories `mountPoint` may be or lie below: the clients' mount roots. Nodes refuse a mount config outside
   * their own, `ClientMount`'s `mountRoots`, so give both the same list. Each is an absolute directory outside the
   * system directories, such as `/etc`, `/usr` and `/home`. None of `/media`, `/mnt`, `/opt` and `/srv` is a root
   * itself, though a directory below one may be, such as `/opt/ohpc/pub`. docs/sources/file-hierarchy.md gives each its
   * authority.
   * @default DEFAULT_MOUNT_ROOTS: /data, /scratch, /shared, /fsx
   */
  readonly mountRoots?: string[];
  /**
   * Allow `mountPoint` to be `/home` or a directory under it: home directories on NFS are common on HPC clusters,
   * but mounting over the clients' `/home` hides their local home directories, so it must be deliberate.
   * @default false
   */
  readonly allowHomeMountPoint?: boolean;
}
