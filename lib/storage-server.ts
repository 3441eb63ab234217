import { Annotations, CfnResource, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { Ec2NfsServer } from './backends/ec2-nfs-server';
import type { StorageBackend } from './backends/backend';
import { FsxLustreServer } from './backends/fsx-lustre';
import type { FsType } from '../lambda/register/contract';
import { MountOnOptions, mountStorageOn } from './client-mount';
import { BenchDocument } from './bench-document';
import { ClusterwareRing } from './clusterware';
import { MonitoringOptions, StorageMonitoring, alarmTopicFor } from './monitoring';
import { applyServerCompliance } from './compliance';
import {
  DASHBOARD_NAME_PATTERN, EMAIL_PATTERN, EMAIL_RULE, IMAGE_ID_PATTERN, MAX_FSX_STORAGE_CAPACITY_GIB, NAME_PATTERN, NAME_RULE,
  REGION_PATTERN, TIME_OF_DAY_PATTERN, addressSpaceProblem, cidrProblem, directoryProblem, ipv4Problem, ipv6ClientProblem,
  s3PathProblem, snapshotSetProblem, topicArnProblem,
  DEFAULT_MOUNT_ROOTS, mountPointProblem, mountRootProblem,
} from './validation';
import { ServerRegistration } from './registration';
import { UpdateGuard } from './update-guard';
import { CrossRegionCopy, SNAPSHOT_INTERVAL_HOURS, SnapshotPolicy } from './snapshot-policy';
import { Backend, FsxLustreOptions, Generation, StoragePlan, StorageRequest, knownInstanceType, planStorage, withInstanceType } from './sizing';
import { warnAboutPlan } from './plan-warnings';
import { DEFAULT_NCONNECT, NFS_MAX_NCONNECT } from './sizing/nfs-client';

// Public since before the backends had files of their own; the backend constructs themselves are internal.
export { DEFAULT_ARM64_IMAGE_PARAMETER, DEFAULT_IMAGE_PARAMETER, SERVER_ID_TAG } from './backends/ec2-nfs-server';

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

/** Scheduled EBS snapshots of the data volumes (EBS backend only). */
export interface SnapshotOptions {
  /**
   * Snapshots kept; 0 turns scheduled snapshots off.
   * @default 7
   */
  readonly retain?: number;
  /**
   * Hours between snapshots (DLM accepts 1, 2, 3, 4, 6, 8, 12, 24).
   * @default 24
   */
  readonly intervalHours?: number;
  /**
   * UTC time of day (HH:MM) of the first snapshot.
   * @default '03:00'
   */
  readonly startTimeUtc?: string;
  /**
   * Freeze the XFS file system around each snapshot (fsfreeze through an SSM document), so the set restores
   * without log replay. A failed freeze still yields a crash-consistent snapshot.
   * @default true
   */
  readonly applicationConsistent?: boolean;
  /**
   * Copy each snapshot to another region.
   * @default - no copy
   */
  readonly crossRegionCopy?: CrossRegionCopy;
}

/** Membership of an Alces Flight clusterware ring. */
export interface ClusterwareOptions {
  /** IPv4 address of the clusterware master (the login node). */
  readonly loginIp: string;
  /**
   * Secret whose value is the cluster token. The server reads it at boot with its instance role; the token
   * is never in user data or the template.
   * @default - a new secret with a generated token (configure the master with it)
   */
  readonly tokenSecret?: secretsmanager.ISecret;
  /**
   * The cluster uuid, as in the master's config.yml.
   * @default - a name-based uuid derived from the cluster name
   */
  readonly clusterUuid?: string;
}

/** FSx for Lustre settings (backend `fsx-lustre`). */
export interface FsxLustreServerOptions extends FsxLustreOptions {
  /**
   * Link the file system to this S3 path (`s3://<bucket>[/<prefix>]`): its objects appear as files, and new or
   * changed files are exported back (PERSISTENT_2: a data repository association on `/`; the older types: import
   * and export path). FSx reads and writes the bucket with its service-linked role.
   * @default - no data repository
   */
  readonly dataRepositoryPath?: string;
  /**
   * Root squash: root on a client works on the file system as uid and gid 65534 (nobody), so it cannot read or
   * change other users' files; `false` leaves root as root on every client (FSx's own default). Set through the
   * FSx API by a custom resource (CloudFormation has no such property) once the file system exists.
   * @default true
   */
  readonly rootSquash?: boolean;
  /**
   * Clients whose root stays root while root squash is on (an admin node), as Lustre NIDs: `10.0.1.6@tcp`, or a
   * range such as `10.0.[2-10].[1-255]@tcp`; at most 64.
   * @default - none: root is squashed on every client
   */
  readonly noSquashNids?: string[];
}

/** Properties of a {@link StorageServer}. */
export interface StorageServerProps {
  /** VPC to place the server in. */
  readonly vpc: ec2.IVpc;
  /**
   * Where to place the server; the first subnet selected is used (EBS volumes live in its AZ).
   * @default - the first private subnet with egress (packages, SSM and CloudFormation signals need egress)
   */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * Usable capacity wanted, in TiB.
   * @default 5
   */
  readonly capacityTiB?: number;
  /**
   * `auto` picks EBS st1 up to 16 TiB and d2 instance store up to 43.6 TiB; beyond that, or when `throughputMBps`
   * is more than that plan sustains, the cheapest plan of any backend that meets both, FSx for Lustre's persistent
   * types included (see `planStorage`). `fsx-lustre` deploys an Amazon FSx for Lustre file system instead of a
   * server: the EC2-only props (instance type, image, key pair, placement group, NFS settings, export path,
   * clusterware, volume snapshots and counts) are then refused.
   * @default 'auto'
   */
  readonly backend?: Backend | 'auto';
  /**
   * The instance generation the planner chooses from: `previous` (d2, m4: the original template's families) or
   * `current` (Nitro: m6i with st1, whose EBS and network baselines are what a long transfer sees; d3 and d3en for
   * instance store, whose throughput estimate is a lower bound; see `planStorage`). Changing it on a deployed EBS
   * server changes its instance type: a stop/start the data survives; on an instance-store server the update guard
   * refuses it (the data lives on the instance's disks).
   * @default 'previous'
   */
  readonly generation?: Generation;
  /**
   * FSx for Lustre options (backend `fsx-lustre` only): deployment type, storage type, per-unit throughput and an
   * S3 data repository. The file system is encrypted (with `encryptionKey` on the persistent types), backed up
   * daily on the persistent types (`snapshots.retain` days, at `snapshots.startTimeUtc`) unless linked to a data
   * repository (FSx backs up no linked file system: backups off, with a synth warning), and kept on removal
   * unless `dataVolumeRemovalPolicy` says otherwise.
   * @default - PERSISTENT_2 SSD at 125 MB/s per TiB; with `throughputMBps`, the cheapest persistent option that
   * sustains it
   */
  readonly fsxLustre?: FsxLustreServerOptions;
  /**
   * Cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, the first a letter or a digit. Part of the SSM
   * parameter paths.
   * @default 'cluster'
   */
  readonly clusterName?: string;
  /**
   * This server's name in the cluster ring, same characters as `clusterName`; no `.` unless `monitoring.dashboard` is
   * false (the dashboard is named after it, and CloudWatch dashboard names take `A-Z a-z 0-9 _ -` only).
   * @default 'storage1'
   */
  readonly serverName?: string;
  /**
   * CIDRs allowed to mount. The export lists exactly these; the security group admits TCP 2049 from them.
   * Canonical IPv4 CIDRs (no leading zeros, no host bits, prefix 1-32), each inside private address space
   * (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10) or inside the VPC's CIDR when that is concrete
   * (an imported or looked-up VPC), unless `allowPublicClientCidrs`.
   * @default - the VPC's CIDR when no `clientPeers` are given either; otherwise none
   */
  readonly clientCidrs?: string[];
  /**
   * Admit `clientCidrs` (and a `clusterware.loginIp`) in public address space, outside private space and the
   * VPC's CIDR: a deliberate opt-in (e.g. clients on public addresses behind a VPN); synth warns when it is used.
   * @default false
   */
  readonly allowPublicClientCidrs?: boolean;
  /**
   * Security groups (or other connectables) of clients allowed to mount. Security groups carry no
   * addresses, so the NFS export itself is then restricted to `clientCidrs`, or to the VPC CIDR. A peer that admits
   * addresses (`ec2.Peer.ipv4()`, `ec2.Peer.anyIpv4()`, `ec2.Peer.anyIpv6()`) follows the `clientCidrs` rules: never
   * a /0, and private space (IPv6: fc00::/7) unless `allowPublicClientCidrs`.
   * @default - none
   */
  readonly clientPeers?: ec2.IConnectable[];
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
   * Existing cluster placement group to launch into (closer to the compute nodes, 10 Gbps per flow).
   * @default - none
   */
  readonly placementGroup?: ec2.IPlacementGroupRef;
  /**
   * What happens to the EBS data volumes (or the FSx for Lustre file system) when they leave the stack. DESTROY
   * deletes your data. The default keeps them on a stack update or deletion, and deletes them only when the
   * stack's first creation rolls back (CloudFormation's `RetainExceptOnCreate`: they are new and blank then).
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly dataVolumeRemovalPolicy?: RemovalPolicy;
  /**
   * Create the EBS data volumes from these snapshots, one per volume in stripe order (a snapshot set of a
   * server with the same plan). Used to restore into a new server: see the README.
   * @default - new, blank volumes
   */
  readonly dataVolumeSnapshotIds?: string[];
  /**
   * NFS server and mount settings.
   * @default - sync exports, NFSv4.1, threads scaled with vCPUs
   */
  readonly nfs?: NfsOptions;
  /**
   * KMS key that encrypts the root and data volumes (FSx for Lustre persistent types: the file system).
   * @default - the account's AWS managed key for EBS (aws/ebs), or for FSx (aws/fsx)
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * Scheduled snapshots of the EBS data volumes (ignored for instance store). On FSx for Lustre's persistent types,
   * `retain` (0-90) and `startTimeUtc` set its daily automatic backups; the other options are refused there.
   * @default - daily, 7 kept, application-consistent
   */
  readonly snapshots?: SnapshotOptions;
  /**
   * Refuse EC2 API termination of the instance (turn off before `cdk destroy`).
   * @default - true for instance store (the data lives and dies with the instance), false for EBS
   */
  readonly terminationProtection?: boolean;
  /**
   * Encrypt the instance-store array on the server (backend `instance-store`): LUKS2 with dm-crypt (aes-xts-plain64,
   * a 512-bit key that is made with the array, kept only on the server's encrypted root volume, and removed when
   * the array is gone) between the striped volume and its XFS. d2's HDD instance store is not encrypted by the
   * platform; d3 and d3en's HDDs are (XTS-AES-256, one-time keys). `false` on d2 leaves the data unencrypted at rest
   * (cdk-nag then reports AwsSolutions-EC26). Applies when an array is made: the update guard refuses a change
   * on a deployed server (its array keeps the layout it was made with).
   * @default - true where the platform does not encrypt the instance store (d2), false where it does (d3, d3en)
   */
  readonly encryptInstanceStore?: boolean;
  /**
   * The dashboard and alarm thresholds (lib/monitoring.ts): heartbeat missing, file system full, st1 burst bucket
   * low, status check failed; an FSx file system's free capacity.
   * @default - a dashboard, and alarms at 85 and 95 % full, 20 % burst balance, 3 minutes without heartbeat
   */
  readonly monitoring?: MonitoringOptions;
  /**
   * An SNS topic the alarms notify, on ALARM and back to OK (mutually exclusive with `alarmEmail`): a standard topic
   * in the stack's region and account (checked when both are known).
   * @default - a new topic (encrypted, TLS only) with no subscription but `alarmEmail`'s: see `alarmTopic` attribute
   */
  readonly alarmTopic?: sns.ITopic;
  /**
   * An e-mail address the new alarm topic notifies (the address must confirm the subscription); mutually exclusive
   * with `alarmTopic`. One address by a practical grammar (`EMAIL_PATTERN`: an RFC 5322 dot-atom local part, a domain
   * of RFC 1035 labels): `a@.b.c`, lists and spaces are refused.
   * @default - no subscription: subscribe to the `alarmTopic` attribute (the AlarmTopicArn output)
   */
  readonly alarmEmail?: string;
  /**
   * Machine image id (`ami-...`) to run instead of the one resolved at creation. Changing it is a deliberate
   * upgrade: CloudFormation replaces the instance (see the README, "Replacing an EBS server's instance"). An
   * EBS server's replacement takes the volumes and the stable address over, and clients carry on; on
   * instance store the update guard refuses it (the disks go with the instance) unless `acceptDataLoss` is set.
   * @default - the latest Amazon Linux 2023 at the instance's creation, for the instance type's architecture
   * (x86_64, or arm64 for a Graviton `instanceType` such as m7g), resolved by EC2 at launch (`resolve:ssm:` of
   * the public AL2023 parameter) and never re-resolved by a later update
   */
  readonly machineImageId?: string;
  /**
   * Machine image, for images an id cannot name (mutually exclusive with `machineImageId`). An image whose id
   * CloudFormation resolves at every deploy (e.g. `MachineImage.latestAmazonLinux2023()`) replaces the instance
   * at each new release (a replacement each time; the update guard refuses it on instance store): prefer
   * `machineImageId`.
   * @default - as for `machineImageId`
   */
  readonly machineImage?: ec2.IMachineImage;
  /**
   * Keep exactly this many EBS data volumes when growing an existing EBS server (see `planStorage`): raising
   * `capacityTiB` then enlarges each volume in place instead of adding volumes to the stripe, which the update
   * guard refuses.
   * @default - as many volumes as the capacity needs (one up to 16 TiB)
   */
  readonly dataVolumeCount?: number;
  /**
   * The sustained aggregate throughput the cluster needs, MB/s (10^6 bytes per second). When the plan for the
   * capacity cannot sustain it once burst credits are spent, the planner picks the cheapest single-server plan
   * that can (`plan.reason` says so); more than one server sustains is refused.
   * @default - none: the plan follows capacity alone
   */
  readonly throughputMBps?: number;
  /**
   * Let the update guard pass a change that loses or strands data (a backend change, an instance-store type
   * change, fewer or reordered volumes, a new encryption key, another AZ, a replaced instance-store server).
   * For scratch data only; set it for one deploy, then remove it.
   * @default false
   */
  readonly acceptDataLoss?: boolean;
  /**
   * For the first of two deploys that upgrade an EBS server deployed before the stable address (README,
   * "Stable address"): keeps its `AWS::EC2::VolumeAttachment` resources, unchanged but retained, so that the
   * next deploy (without this) removes them from the stack without detaching the live volumes. Leave it off
   * otherwise: with attachments in the stack, the instance cannot be replaced.
   * @default false
   */
  readonly legacyVolumeAttachments?: boolean;
  /**
   * Join the Alces clusterware ring of the cluster as a slave (writes /opt/clusterware/etc/config.yml at boot).
   * @default - no clusterware ring membership
   */
  readonly clusterware?: ClusterwareOptions;
  /**
   * SSM Parameter Store prefix of the ring and mount records.
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
  /**
   * Directory exported by the server: an absolute path of `[A-Za-z0-9_.-]` segments, neither `/` nor a system
   * directory or one under it (`SYSTEM_DIRECTORIES`: `/etc`, `/var/lib/nfs`, `/home/x` ... are refused).
   * @default '/export/data'
   */
  readonly exportPath?: string;
  /**
   * Directory clients mount the export on: one of `mountRoots` or a directory below one (`/home` and below only
   * with `allowHomeMountPoint`), in `[A-Za-z0-9_.-]` segments. Every node mounts every server of its cluster: two
   * servers of one cluster in one app may not share a mount point (nor a `serverName`); refused at synth.
   * @default '/data'
   */
  readonly mountPoint?: string;
  /**
   * The directories `mountPoint` may be or lie below: the clients' mount roots. Nodes refuse a mount config outside
   * their own (`ClientMount`'s `mountRoots`), so give both the same list. Each is an absolute directory outside the
   * system directories (`/etc`, `/usr`, `/home`, ...).
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

/**
 * Client mount options, by the convention AWS uses for EFS (Amazon EFS User Guide, "Mount settings used by EFS mount
 * helper") less `noresvport`, plus `nosuid,nodev`, and `nconnect=<n>` unless `nconnect` is 1 (one TCP connection is
 * one EC2 flow, 5 Gbps: docs/sources/nconnect.md [EC2-BW]; EFS itself takes no nconnect, our knfsd does).
 * The export is `secure` (clients must use a reserved port, so a user without root on a node cannot forge another
 * uid with AUTH_SYS), and a Linux NFS server refuses `noresvport` clients on a secure export (shown in the VM
 * tests). `nosuid,nodev`: a setuid binary or a device node planted on the server never gives root on a client
 * (the client mount script adds them to whatever a record says, too).
 */
export function clientMountOptions(version: '4.1' | '4.2', nconnect: number = DEFAULT_NCONNECT): string {
  const connections = nconnect > 1 ? `,nconnect=${nconnect}` : '';
  return `nfsvers=${version},rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2${connections},_netdev,nosuid,nodev`;
}

/**
 * Shared storage for an HPC cluster, sized from the requested capacity and throughput: one NFS server (a d2, d3
 * or d3en instance with its instance-store disks striped into one XFS volume, or an m4 or m6i instance with st1 or
 * gp3 EBS volumes that outlive it), or an Amazon FSx for Lustre file system where one server does not do. It registers itself in SSM
 * Parameter Store so that clients can find and mount it.
 */
export class StorageServer extends Construct implements ec2.IConnectable {
  /** The EC2 instance serving NFS (backends `ebs` and `instance-store`; undefined for `fsx-lustre`). */
  public readonly instance?: ec2.Instance;
  /** The subnet the server (or the file system) is in: the first of `vpcSubnets`, or the VPC's first private one. */
  public readonly subnet: ec2.ISubnet;
  /** The FSx for Lustre file system (backend `fsx-lustre`; undefined otherwise). */
  public readonly fileSystem?: fsx.LustreFileSystem;
  /** How clients mount it: `nfs4`, or `lustre` for FSx for Lustre. */
  public readonly fsType: FsType;
  /**
   * What clients mount: the NFS server's stable private IP ({@link privateIp}), or the FSx file system's DNS name.
   */
  public readonly mountAddress: string;
  /** The cluster this server serves. */
  public readonly clusterName: string;
  /** This server's name in the cluster ring. */
  public readonly serverName: string;
  /** The plan the server was built from: backend, instance type, volumes, throughput, cost. */
  public readonly plan: StoragePlan;
  /** The exported directory on the server; for FSx for Lustre `/` and its mount name. */
  public readonly exportPath: string;
  /** The directory clients mount on. */
  public readonly mountPoint: string;
  /** Mount options clients should use. */
  public readonly mountOptions: string;
  /**
   * Network access to the storage: `server.connections.allowDefaultPortFrom(peer)` opens NFS (TCP 2049), or for
   * FSx for Lustre the CDK's Lustre range (TCP 988-1023).
   */
  public readonly connections: ec2.Connections;
  /**
   * The server's private IP address: the primary address of its stable network interface, which every instance
   * of the server attaches to itself, so it stays the same when the instance is replaced. Clients mount it. EC2
   * backends only (FSx for Lustre is mounted by {@link mountAddress}, its DNS name).
   */
  public readonly privateIp?: string;
  /** The server's stable network interface (`eni-...`), carrying {@link privateIp} and the NFS security group (EC2 backends). */
  public readonly networkInterfaceId?: string;
  /** The EBS data volumes (empty for instance store and FSx for Lustre), in stripe order. */
  public readonly dataVolumes: ec2.Volume[];
  /** SSM parameter holding this server's ring record. */
  public readonly ringParameterName: string;
  /** SSM parameter holding this server's mount configuration. */
  public readonly mountParameterName: string;
  /**
   * Completes when the storage is mountable: on the EC2 backends the State Manager association that applies the
   * server's settings (at creation and at every update that changes a setting, only when the bootstrap reports the
   * export live); on FSx for Lustre the file system itself (AVAILABLE once created).
   */
  public readonly ready: CfnResource;
  /** The snapshot policy (EBS backend with snapshots on). */
  public readonly snapshotPolicy?: SnapshotPolicy;
  /** The clusterware ring membership, when `clusterware` was given. */
  public readonly clusterware?: ClusterwareRing;
  /** The day-2 guard: refuses a stack update that would lose or strand this server's data (see the README). */
  public readonly updateGuard: UpdateGuard;
  /** The dashboard and the alarms. */
  public readonly monitoring: StorageMonitoring;
  /** The topic the alarms notify: `alarmTopic`, or the one this construct made (subscribe to it). */
  public readonly alarmTopic: sns.ITopic;
  /** The cluster benchmark's SSM document: each node runs fio on the storage it mounts (npm run bench:cluster). */
  public readonly benchDocument: BenchDocument;

  constructor(scope: Construct, id: string, props: StorageServerProps) {
    super(scope, id);
    validateObject('StorageServer props', props, 'an object (StorageServerProps)', undefined, true);
    const capacityTiB = props.capacityTiB ?? 5;
    const clusterName = (this.clusterName = props.clusterName ?? 'cluster');
    const serverName = (this.serverName = props.serverName ?? 'storage1');
    this.mountPoint = props.mountPoint ?? '/data';

    validateName('clusterName', clusterName);
    validateName('serverName', serverName);
    validateDashboardName(serverName, props.monitoring?.dashboard);
    validatePropTypes(props);
    validateClientAddresses(this, props);
    validateNfsOptions(props.nfs);
    validateSnapshotOptions(props.snapshots);
    validateAlarms(this, props);
    if (props.exportPath !== undefined) validateDirectory('exportPath', props.exportPath);
    validateMountPoint(this.mountPoint, props.mountRoots, props.allowHomeMountPoint);
    const request: StorageRequest = {
      capacityTiB,
      backend: props.backend ?? 'auto',
      dataVolumeCount: props.dataVolumeCount,
      throughputMBps: props.throughputMBps,
      generation: props.generation,
      fsxLustre: fsxRequestOptions(props.fsxLustre),
    };
    const planned = planStorage(request);
    validatePlanSize(planned, capacityTiB, props.throughputMBps);
    this.plan = planOnOverride(planned, props.instanceType);
    if (props.instanceType !== undefined && this.plan.backend === 'ebs' && this.plan.instanceType !== props.instanceType.toString()) {
      Annotations.of(this).addWarningV2('storage-server:uncataloguedInstanceType',
        `instanceType ${props.instanceType.toString()} is not in the planner's catalogue: plan (throughput, cost) is that of ` +
        `${this.plan.instanceType}, which the planner chose; the server runs on ${props.instanceType.toString()}.`);
    }
    if (props.fsxLustre !== undefined && this.plan.backend !== 'fsx-lustre') {
      throw new Error(`fsxLustre applies to backend 'fsx-lustre' only; the plan is backend '${this.plan.backend}'.`);
    }
    validateSnapshotIds(this.plan, props.dataVolumeSnapshotIds);
    warnAboutPlan(this, request, planned, props.instanceType?.toString());

    const subnet = props.vpc.selectSubnets(props.vpcSubnets ?? { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS })
      .subnets[0];
    if (!subnet) throw new Error('vpcSubnets: the selection matches no subnet in the VPC; select at least one subnet.');
    this.subnet = subnet;

    validateUniqueInCluster(this);

    // The backend, behind the one small interface the registration and the client mount use (lib/backends).
    let backend: StorageBackend;
    if (this.plan.backend === 'fsx-lustre') {
      const fsx = new FsxLustreServer(this, 'FsxLustre', { server: props, plan: this.plan, clusterName, serverName, subnet });
      this.fileSystem = fsx.fileSystem;
      backend = fsx;
    } else {
      // Id 'Default': the EC2 server's resources keep the logical ids they had when this construct made them
      // itself (CloudFormation would otherwise replace them, data volumes included).
      const server = new Ec2NfsServer(this, 'Default', {
        server: props,
        plan: this.plan,
        capacityTiB,
        clusterName,
        serverName,
        exportPath: props.exportPath ?? '/export/data',
        mountOptions: clientMountOptions(props.nfs?.version ?? '4.1', props.nfs?.nconnect ?? DEFAULT_NCONNECT),
        subnet,
      });
      this.instance = server.instance;
      this.privateIp = server.privateIp;
      this.networkInterfaceId = server.networkInterfaceId;
      this.dataVolumes = server.dataVolumes;
      this.snapshotPolicy = server.snapshotPolicy;
      this.clusterware = server.clusterware;
      backend = server;
    }
    this.dataVolumes ??= [];
    this.fsType = backend.fsType;
    this.mountAddress = backend.mountAddress;
    this.exportPath = backend.exportPath;
    this.mountOptions = backend.mountOptions;
    this.connections = backend.connections;
    this.ready = backend.ready;
    this.updateGuard = backend.updateGuard;
    this.alarmTopic = alarmTopicFor(this, props);
    this.benchDocument = new BenchDocument(this, 'Bench', { mountPoint: this.mountPoint });
    this.monitoring = new StorageMonitoring(this, 'Monitoring', {
      ...props.monitoring,
      identity: { clusterName, serverName },
      storage: backend.monitored,
      alarmTopic: this.alarmTopic,
    });

    const registration = new ServerRegistration(this, 'Registration', {
      ...backend.registrationTarget,
      clusterName,
      serverName,
      parameterPrefix: props.parameterPrefix,
      exportPath: this.exportPath,
      mountPoint: this.mountPoint,
      mountOptions: this.mountOptions,
      backend: this.plan.backend,
    });
    // After the guard, and after the storage is mountable (an FSx registration names the file system, which
    // orders it already: a DependsOn on top would be redundant, cfn-lint W3005).
    registration.resource.node.addDependency(this.updateGuard.resource);
    if (!('fileSystem' in backend.registrationTarget)) registration.resource.node.addDependency(this.ready);
    this.ringParameterName = registration.ringParameterName;
    this.mountParameterName = registration.mountParameterName;
    applyServerCompliance(this);
  }

  /**
   * Mounts this storage on an instance, or on every instance of an Auto Scaling group: adds the mount to its
   * user data with the server's known address (no SSM lookup, so no IAM), installs the Lustre client for FSx for
   * Lustre where it is missing, opens NFS (or Lustre) from it, and makes it wait until the storage is mountable.
   */
  public mountOn(target: ec2.Instance | autoscaling.AutoScalingGroup, options: MountOnOptions = {}): void {
    mountStorageOn(this, target, options);
  }
}

function validateName(prop: string, value: string): void {
  if (Token.isUnresolved(value)) return;
  if (typeof value !== 'string' || !NAME_PATTERN.test(value)) {
    throw new Error(`${prop} must be ${NAME_RULE} (it is part of SSM parameter paths), got ${shown(value)}.`);
  }
}

/** The server's dashboard is named after it, and CloudWatch dashboard names take no '.'. */
function validateDashboardName(serverName: string, dashboard: boolean | undefined): void {
  if (Token.isUnresolved(serverName) || dashboard === false || DASHBOARD_NAME_PATTERN.test(serverName)) return;
  throw new Error(`serverName must have no '.' while the server has a dashboard (its name, StorageServer-<stack>-<serverName>, ` +
    `takes A-Z a-z 0-9 _ - only), got '${serverName}': rename the server, or set monitoring.dashboard to false.`);
}

/**
 * What TypeScript's types would refuse, checked at run time for JavaScript callers (and `as any`): each prop's
 * type, enum or form, so that a wrong value stops synth naming the prop instead of reaching a record, a script or a
 * resource. Numbers with ranges, names, addresses and paths have checks of their own.
 */
function validatePropTypes(props: StorageServerProps): void {
  validateObject('vpc', props.vpc, 'an ec2.IVpc', 'selectSubnets', true);
  validateObject('vpcSubnets', props.vpcSubnets, 'an ec2.SubnetSelection');
  validateObject('instanceType', props.instanceType, "an ec2.InstanceType such as new ec2.InstanceType('m4.xlarge')", 'sameInstanceClassAs');
  validateObject('keyPair', props.keyPair, 'an ec2.IKeyPair such as ec2.KeyPair.fromKeyPairName(...)', 'keyPairName');
  validateObject('placementGroup', props.placementGroup, 'an ec2.IPlacementGroup such as ec2.PlacementGroup.fromPlacementGroupName(...)');
  validateObject('encryptionKey', props.encryptionKey, 'a kms.IKey', 'keyArn');
  validateObject('machineImage', props.machineImage, 'an ec2.IMachineImage', 'getImage');
  validateObject('alarmTopic', props.alarmTopic, 'an sns.ITopic such as sns.Topic.fromTopicArn(...)', 'topicArn');
  validateObject('clusterware.tokenSecret', props.clusterware?.tokenSecret, 'a secretsmanager.ISecret', 'secretArn');
  for (const prop of ['nfs', 'snapshots', 'monitoring', 'fsxLustre', 'clusterware'] as const) {
    validateObject(prop, props[prop], 'an object of options');
  }
  validateObject('snapshots.crossRegionCopy', props.snapshots?.crossRegionCopy, 'an object { targetRegion, ... }');
  const booleans: [string, unknown][] = [
    ['allowPublicClientCidrs', props.allowPublicClientCidrs], ['terminationProtection', props.terminationProtection],
    ['encryptInstanceStore', props.encryptInstanceStore], ['acceptDataLoss', props.acceptDataLoss],
    ['legacyVolumeAttachments', props.legacyVolumeAttachments], ['allowHomeMountPoint', props.allowHomeMountPoint],
    ['snapshots.applicationConsistent', props.snapshots?.applicationConsistent],
    ['snapshots.crossRegionCopy.encrypted', props.snapshots?.crossRegionCopy?.encrypted],
    ['monitoring.dashboard', props.monitoring?.dashboard],
  ];
  for (const [prop, value] of booleans) validateOneOf(prop, value, [true, false]);
  validateOneOf('dataVolumeRemovalPolicy', props.dataVolumeRemovalPolicy, Object.values(RemovalPolicy));
  for (const [prop, list] of [['clientCidrs', props.clientCidrs], ['clientPeers', props.clientPeers], ['dataVolumeSnapshotIds', props.dataVolumeSnapshotIds]] as const) {
    if (list !== undefined && !Token.isUnresolved(list) && !Array.isArray(list)) throw new Error(`${prop} must be an array, got ${shown(list)}.`);
  }
  for (const id of props.dataVolumeSnapshotIds ?? []) {
    if (typeof id !== 'string') throw new Error(`dataVolumeSnapshotIds: each entry must be a snapshot id string, got ${shown(id)}.`);
  }
  const image = props.machineImageId;
  if (image !== undefined && !Token.isUnresolved(image) && (typeof image !== 'string' || !IMAGE_ID_PATTERN.test(image))) {
    throw new Error(`machineImageId must be an image id such as 'ami-0123456789abcdef0', got ${shown(image)}.`);
  }
  const path = props.fsxLustre?.dataRepositoryPath;
  const pathProblem = path === undefined || Token.isUnresolved(path) ? undefined : s3PathProblem(path);
  if (pathProblem) {
    throw new Error(`fsxLustre.dataRepositoryPath must be an S3 path s3://<bucket>[/<prefix>] of at most 900 characters, got ` +
      `${JSON.stringify(path)}: ${pathProblem} (bucket names by S3's naming rules).`);
  }
  for (const prop of ['parameterPrefix', 'exportPath', 'mountPoint', 'alarmEmail'] as const) {
    const value = props[prop];
    if (value !== undefined && typeof value !== 'string') throw new Error(`${prop} must be a string, got ${shown(value)}.`);
  }
}

/** An object prop: present when `required`, and an object (with `member`, when given, the mark of its type). */
function validateObject(prop: string, value: unknown, what: string, member?: string, required = false): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'object' || value === null || (member !== undefined && !(member in value))) {
    throw new Error(`${prop} must be ${what}, got ${shown(value)}.`);
  }
}

/** A prop with a fixed set of values (undefined: the default). */
function validateOneOf(prop: string, value: unknown, allowed: readonly unknown[]): void {
  if (value === undefined || Token.isUnresolved(value) || allowed.includes(value)) return;
  throw new Error(`${prop} must be one of ${allowed.map(describeValue).join(', ')}, got ${describeValue(value)}.`);
}

/**
 * An FSx for Lustre plan the update guard can record (the planner has no upper bound there): names throughputMBps
 * when the file system was sized up for it.
 */
function validatePlanSize(plan: StoragePlan, capacityTiB: number, throughputMBps: number | undefined): void {
  const gib = plan.fsxLustre?.storageCapacityGiB;
  if (gib === undefined || gib <= MAX_FSX_STORAGE_CAPACITY_GIB) return;
  const maxTiB = Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024);
  const prop = throughputMBps !== undefined && capacityTiB <= maxTiB ? 'throughputMBps' : 'capacityTiB';
  throw new Error(`${prop} asks for an FSx for Lustre file system of ${gib} GiB; at most ${MAX_FSX_STORAGE_CAPACITY_GIB} GiB ` +
    `(${maxTiB} TiB) is allowed, got ${prop}=${prop === 'capacityTiB' ? capacityTiB : throughputMBps}.`);
}

/**
 * Client CIDRs, CIDR peers and the clusterware master: canonical, and in private space or the VPC's concrete CIDR
 * unless `allowPublicClientCidrs` (then synth warns). A token CIDR (the new VPC's own) is not checked. A peer that
 * admits addresses (`ec2.Peer.anyIpv4()`, `ec2.Peer.ipv4(...)`, `ec2.Peer.anyIpv6()`) is held to the clientCidrs
 * rules; security groups and prefix lists name no addresses here and pass.
 */
function validateClientAddresses(scope: Construct, props: StorageServerProps): void {
  const space = { vpcCidr: props.vpc.vpcCidrBlock, allowPublic: props.allowPublicClientCidrs ?? false };
  const isPublic = (cidr: string) => addressSpaceProblem(cidr, { vpcCidr: space.vpcCidr }) !== undefined;
  const publicOnes: string[] = [];
  const seen = new Set<string>();
  for (const cidr of props.clientCidrs ?? []) {
    if (Token.isUnresolved(cidr)) continue;
    const problem = typeof cidr === 'string' ? cidrProblem(cidr) ?? addressSpaceProblem(cidr, space) : 'not a string';
    if (problem) throw new Error(`clientCidrs: each entry must be a canonical IPv4 CIDR in private address space, got ${shown(cidr)}: ${problem}.`);
    if (seen.has(cidr)) throw new Error(`clientCidrs: each entry must appear once, got '${cidr}' twice.`);
    seen.add(cidr);
    if (isPublic(cidr)) publicOnes.push(cidr);
  }
  for (const [i, peer] of (props.clientPeers ?? []).entries()) {
    for (const cidr of peerCidrs(peer, i)) {
      if (Token.isUnresolved(cidr)) continue;
      const v6 = cidr.includes(':');
      const problem = v6 ? ipv6ClientProblem(cidr, space) : cidrProblem(cidr) ?? addressSpaceProblem(cidr, space);
      if (problem) {
        throw new Error(`clientPeers[${i}] admits ${cidr}: a peer that admits addresses must follow the clientCidrs rules (a canonical ` +
          `CIDR in private address space${v6 ? ', fc00::/7 for IPv6' : ''}, never /0, unless allowPublicClientCidrs): ${problem}. ` +
          'Security groups are admitted as they are.');
      }
      if (v6 ? ipv6ClientProblem(cidr) !== undefined : isPublic(cidr)) publicOnes.push(cidr);
    }
  }
  const loginIp = props.clusterware?.loginIp;
  if (loginIp !== undefined && !Token.isUnresolved(loginIp)) {
    const problem = ipv4Problem(loginIp) ?? addressSpaceProblem(loginIp, space);
    if (problem) throw new Error(`clusterware.loginIp must be the canonical IPv4 address of one host in private address space, got ${shown(loginIp)}: ${problem}.`);
    if (isPublic(loginIp)) publicOnes.push(loginIp);
  }
  if (publicOnes.length > 0) {
    Annotations.of(scope).addWarningV2('storage-server:publicClientCidrs',
      `allowPublicClientCidrs: ${publicOnes.join(', ')} ${publicOnes.length > 1 ? 'are' : 'is'} public address space; ` +
      'NFS (TCP 2049) and the export are open to it. Make sure that is intended.');
  }
}

/**
 * The CIDRs a client peer admits: its own (an `ec2.IPeer` such as `Peer.anyIpv4()`), or for any other connectable
 * the peer rules its connections carry (`new ec2.Connections({ peer })`, read from the CDK's list of them). A
 * security group or prefix list admits none by address.
 */
function peerCidrs(peer: ec2.IConnectable, index: number): string[] {
  if (typeof peer !== 'object' || peer === null || typeof peer.connections !== 'object' || peer.connections === null) {
    throw new Error(`clientPeers[${index}] must be an ec2.IConnectable (a security group, an instance, ...), got ${shown(peer)}.`);
  }
  const cidrOf = (p: unknown): string | undefined => {
    if (typeof (p as ec2.IPeer)?.toIngressRuleConfig !== 'function') return undefined;
    const rule = (p as ec2.IPeer).toIngressRuleConfig() as { cidrIp?: string; cidrIpv6?: string };
    return rule.cidrIp ?? rule.cidrIpv6;
  };
  const rules = (peer.connections as unknown as { _securityGroupRules?: { asArray?: () => unknown[] } })._securityGroupRules;
  const peers = [peer, ...(typeof rules?.asArray === 'function' ? rules.asArray() : [])];
  return [...new Set(peers.map(cidrOf).filter((c): c is string => c !== undefined))];
}

/**
 * The alarm address and topic: one address by the e-mail grammar, and a topic in the stack's region and account
 * (an alarm notifies a topic of its own region) when both are known.
 */
function validateAlarms(scope: Construct, props: StorageServerProps): void {
  const email = props.alarmEmail;
  if (email !== undefined && !Token.isUnresolved(email) && !EMAIL_PATTERN.test(email)) {
    throw new Error(`alarmEmail must be ${EMAIL_RULE}, got ${shown(email)}.`);
  }
  const arn = props.alarmTopic?.topicArn;
  if (arn === undefined || Token.isUnresolved(arn)) return;
  const stack = Stack.of(scope);
  const problem = topicArnProblem(arn, { region: stack.region, account: stack.account });
  if (problem) throw new Error(`alarmTopic must be a standard SNS topic in the stack's region and account, got ${arn}: ${problem}.`);
}

/**
 * Two servers of one cluster in one app (home beside scratch, in one stack or two) must differ in name (their
 * SSM parameter paths) and in mount point (every node mounts every server of its cluster).
 */
function validateUniqueInCluster(server: StorageServer): void {
  if ([server.clusterName, server.serverName, server.mountPoint].some((v) => Token.isUnresolved(v))) return;
  for (const other of server.node.root.node.findAll()) {
    if (other === server || !(other instanceof StorageServer) || other.clusterName !== server.clusterName) continue;
    if (other.serverName === server.serverName) {
      throw new Error(`serverName '${server.serverName}' is taken in cluster '${server.clusterName}' by ${other.node.path}: ` +
        'give each server of a cluster its own serverName (it names its SSM parameters and its mount config).');
    }
    if (other.mountPoint === server.mountPoint) {
      throw new Error(`mountPoint '${server.mountPoint}' is taken in cluster '${server.clusterName}' by ${other.node.path} ` +
        `(server '${other.serverName}'): give server '${server.serverName}' another mountPoint, e.g. '/scratch' ` +
        '(every node of the cluster mounts every server).');
    }
  }
}

/**
 * The plan as built: an EBS server on a catalogued `instanceType` override gets that type's estimate and cost (an
 * override the catalogue does not know keeps the planner's figures, and synth says so).
 */
function planOnOverride(plan: StoragePlan, instanceType: ec2.InstanceType | undefined): StoragePlan {
  if (instanceType === undefined || plan.backend !== 'ebs') return plan;
  const name = instanceType.toString();
  if (!knownInstanceType(name)) return plan;
  return withInstanceType(plan, name);
}

/** The planner's view of the FSx options: the request fields without the data repository. */
function fsxRequestOptions(options: FsxLustreServerOptions | undefined): FsxLustreOptions | undefined {
  if (options === undefined) return undefined;
  const { deploymentType, perUnitStorageThroughput, storageType } = options;
  // None given (only a data repository, or the app's unset keys): the planner chooses among the persistent options.
  if (deploymentType === undefined && perUnitStorageThroughput === undefined && storageType === undefined) return undefined;
  return { deploymentType, perUnitStorageThroughput, storageType };
}

function validateSnapshotIds(plan: StoragePlan, ids: string[] | undefined): void {
  if (ids === undefined) return;
  const problem = snapshotSetProblem(plan, ids);
  if (problem) throw new Error(`dataVolumeSnapshotIds: ${problem}.`);
}

/** Shows a value in a message: a string in single quotes, anything else as {@link describeValue} does. */
function shown(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : describeValue(value);
}

/**
 * Describes a value for a message: numbers as themselves (NaN, Infinity, -1), undefined and functions by their type,
 * objects that JSON cannot show (a construct, a cycle) by their class, anything else as JSON.
 */
function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === undefined || typeof value === 'function') return typeof value;
  try {
    return JSON.stringify(value);
  } catch {
    return `a ${(value as object).constructor?.name ?? 'object'}`;
  }
}

function validateWholeNumber(prop: string, value: number | undefined, min: number, max: number, meaning = ''): void {
  if (value === undefined || Token.isUnresolved(value)) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${prop} must be a whole number from ${min}${meaning} to ${max}, got ${describeValue(value)}.`);
  }
}

/** NFS settings: the version reaches the mount record and every client's fstab, so only the two offered. */
function validateNfsOptions(nfs: NfsOptions | undefined): void {
  validateWholeNumber('nfs.threads', nfs?.threads, 1, 1024);
  validateOneOf('nfs.exportMode', nfs?.exportMode, ['sync', 'async']);
  validateOneOf('nfs.version', nfs?.version, ['4.1', '4.2']);
  validateWholeNumber('nfs.nconnect', nfs?.nconnect, 1, NFS_MAX_NCONNECT, ' (one connection: no nconnect option)');
}

/**
 * Checked here, before anything is created, and for every backend: a bad value must never silently turn
 * snapshots off (`retain: -1` or `NaN` once did) or be ignored because the backend has no snapshots.
 */
function validateSnapshotOptions(snapshots: SnapshotOptions | undefined): void {
  validateWholeNumber('snapshots.retain', snapshots?.retain, 0, 1000, ' (snapshots off)');
  const hours = snapshots?.intervalHours;
  if (hours !== undefined && !Token.isUnresolved(hours) && !(SNAPSHOT_INTERVAL_HOURS as readonly unknown[]).includes(hours)) {
    throw new Error(`snapshots.intervalHours must be one of ${SNAPSHOT_INTERVAL_HOURS.join(', ')} (DLM), got ${describeValue(hours)}.`);
  }
  validateWholeNumber('snapshots.crossRegionCopy.retainDays', snapshots?.crossRegionCopy?.retainDays, 1, 36500);
  const start = snapshots?.startTimeUtc;
  if (start !== undefined && !Token.isUnresolved(start) && (typeof start !== 'string' || !TIME_OF_DAY_PATTERN.test(start))) {
    throw new Error(`snapshots.startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got ${shown(start)}.`);
  }
  const region = snapshots?.crossRegionCopy?.targetRegion;
  if (snapshots?.crossRegionCopy !== undefined && !Token.isUnresolved(region) && (typeof region !== 'string' || !REGION_PATTERN.test(region))) {
    throw new Error(`snapshots.crossRegionCopy.targetRegion must be a region name such as eu-west-1, got ${shown(region)}.`);
  }
}

/** The record's mountPoint against the clients' rule (lib/scripts/client-mount.sh applies the same on every node). */
function validateMountPoint(mountPoint: string, mountRoots: string[] | undefined, allowHome = false): void {
  for (const root of mountRoots ?? []) {
    const problem = Token.isUnresolved(root) ? 'a token' : mountRootProblem(root);
    if (problem) throw new Error(`mountRoots must be absolute directories outside the system directories, got '${root}': ${problem}.`);
  }
  if (Token.isUnresolved(mountPoint)) return;
  const roots = mountRoots ?? DEFAULT_MOUNT_ROOTS;
  const problem = typeof mountPoint === 'string' ? mountPointProblem(mountPoint, { mountRoots: roots, allowHome }) : 'not a string';
  if (problem) {
    throw new Error(`mountPoint must be an absolute directory path at or below one of mountRoots (${roots.join(' ')}` +
      `${allowHome ? ' /home' : ''}), got '${mountPoint}': ${problem}.`);
  }
}

function validateDirectory(prop: string, path: string, allowHome = false): void {
  if (Token.isUnresolved(path)) return;
  const problem = typeof path === 'string' ? directoryProblem(path, { allowHome }) : 'not a string';
  if (problem) throw new Error(`${prop} must be an absolute directory path outside the system directories, got '${path}': ${problem}.`);
}

