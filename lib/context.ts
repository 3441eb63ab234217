/**
 * Context parameters of the deployable app (docs/design.md#4-the-context-contract): `cdk synth|deploy -c key=value`.
 *
 * Pure parsing and validation, no CDK constructs: every bad value stops synth with a message that names
 * the key, echoes the value and says what is allowed. Values arrive as strings from `-c`, or as JSON
 * values from cdk.json; both are accepted.
 */
import {
  Backend, FsxLustreDeploymentType, FsxLustreStorageType, Generation, StoragePlan, StorageRequest, instanceTypeProblem, planStorage,
} from './sizing';
import { Token } from 'aws-cdk-lib';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { resolveFsxLustreOptions } from './sizing/fsx-lustre';
import { DEFAULT_NCONNECT, DEFAULT_READ_AHEAD_KIB, NFS_MAX_NCONNECT } from './sizing/nfs-client';
import { MAX_READ_AHEAD_KIB } from './validation';
import {
  DASHBOARD_NAME_PATTERN, EMAIL_PATTERN, IMAGE_ID_PATTERN, ec2IdPattern, EMAIL_RULE, MAX_FSX_STORAGE_CAPACITY_GIB, NAME_PATTERN, NAME_RULE, ResourceEnvironment,
  SNAPSHOT_ID_PATTERN, STACK_NAME_PATTERN, TAG_KEY_PATTERN, TAG_KEY_RULE, addressSpaceProblem, cidrProblem, directoryProblem, duplicateValues, ipv4Problem,
  s3PathProblem, snapshotSetProblem, topicArnProblem,
  mountRootProblem,
} from './validation';

// Shared with the construct; re-exported here for the names lib/index.ts has always exported from this module.
export { NAME_PATTERN, cidrProblem } from './validation';

/** Typed, validated context of the app. Optional members are absent when the key was not given. */
export interface StorageServerContext {
  /** Usable capacity wanted, in TiB (a positive number); `5` when the key is not given. */
  readonly capacityTiB: number;
  /**
   * `auto` (the planner chooses: EBS st1 up to 16 TiB, d2 instance store up to 43.6 TiB, beyond that or for more
   * throughput the cheapest of all backends), `ebs`, `instance-store` or `fsx-lustre`; `auto` when not given.
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
   * FSx for Lustre deployment type (`backend=fsx-lustre` only): `PERSISTENT_2`, `PERSISTENT_1` or `SCRATCH_2` (not
   * replicated: scratch data only).
   * @default - PERSISTENT_2
   */
  readonly fsxDeploymentType?: FsxLustreDeploymentType;
  /**
   * FSx for Lustre throughput per TiB of storage, MB/s (`backend=fsx-lustre` only): PERSISTENT_2 125, 250, 500,
   * 1000; PERSISTENT_1 SSD 50, 100, 200; PERSISTENT_1 HDD 12, 40; none for SCRATCH_2.
   * @default - the type's smallest (the file system is sized up to sustain `throughputMBps`); with no FSx key at
   * all, the cheapest persistent option that sustains `throughputMBps`
   */
  readonly fsxPerUnitStorageThroughput?: number;
  /**
   * FSx for Lustre storage type (`backend=fsx-lustre` only): `SSD`, or `HDD` with PERSISTENT_1.
   * @default SSD
   */
  readonly fsxStorageType?: FsxLustreStorageType;
  /**
   * S3 path (`s3://<bucket>[/<prefix>]`) to link the FSx for Lustre file system to (`backend=fsx-lustre` only).
   * @default - no data repository
   */
  readonly fsxDataRepositoryPath?: string;
  /**
   * FSx for Lustre root squash (`backend=fsx-lustre` only): `false` leaves root on the clients as root.
   * @default true
   */
  readonly fsxRootSquash?: boolean;
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
   * snapshot set").
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

/** Every context key the app reads, with its default (undefined: absent unless given). */
export const CONTEXT_DEFAULTS = {
  /** Usable capacity wanted, in TiB. */
  capacityTiB: 5,
  /** The planner chooses the backend from the capacity. */
  backend: 'auto',
  /** Cluster the server serves. */
  clusterName: 'cluster',
  /** This server's name in the cluster ring. */
  serverName: 'storage1',
  /** Absent: the stack creates a new VPC. */
  vpcId: undefined,
  /** Absent: the VPC's first private subnet with egress. */
  subnetId: undefined,
  /** Absent: the stack's own VPC. */
  vpcFrom: undefined,
  /** Absent: a new VPC spans the region's first two zones. */
  availabilityZone: undefined,
  /** Absent: the VPC's CIDR may mount, unless a client security group is given. */
  clientCidrs: undefined,
  /** Absent: no client security group is admitted. */
  clientSecurityGroupId: undefined,
  /** Client CIDRs and the clusterware master must be in private address space (or the looked-up VPC). */
  allowPublicClientCidrs: false,
  /** EC2 tag key that selects client nodes (the value is the cluster name). */
  clientTagKey: 'cluster',
  /** Absent: the server does not join a clusterware ring. */
  loginIp: undefined,
  /** Absent: no SSH key pair (SSM Session Manager needs none). */
  keyPair: undefined,
  /** Absent: no placement group. */
  placementGroup: undefined,
  /** EBS snapshot sets kept; 0 turns snapshots off. */
  snapshotRetain: 7,
  /** Absent: on for instance store, off for EBS (the construct's default). */
  terminationProtection: undefined,
  /** Absent: the construct's default (encrypted on d2). */
  encryptInstanceStore: undefined,
  /** Absent: the alarm topic has no subscription (subscribe to the AlarmTopicArn output). */
  alarmEmail: undefined,
  /** Absent: the stack's own alarm topic. */
  alarmTopicArn: undefined,
  /** Absent: new, blank data volumes. */
  restoreSnapshotIds: undefined,
  /** Absent: the image resolved at the server's creation. */
  machineImageId: undefined,
  /** The update guard refuses changes that lose data. */
  acceptDataLoss: false,
  /** The server attaches its own volumes (no AWS::EC2::VolumeAttachment). */
  legacyVolumeAttachments: false,
  /** Absent: as many volumes as the capacity needs. */
  dataVolumeCount: undefined,
  /** Absent: the plan follows capacity alone. */
  throughputMBps: undefined,
  /** Absent: the construct's default, /data. */
  mountPoint: undefined,
  /** /home is a system directory unless this is true. */
  allowHomeMountPoint: false,
  /** Absent: /data, /scratch, /shared, /fsx (DEFAULT_MOUNT_ROOTS). */
  mountRoots: undefined,
  /** TCP connections per client mount of an NFS server (the Linux maximum); 1: one, no nconnect option. */
  nconnect: DEFAULT_NCONNECT,
  /** NFS read-ahead on the client nodes, KiB (15 x rsize, as AWS's efs-utils sets it); 0: the kernel's own. */
  clientReadAheadKiB: DEFAULT_READ_AHEAD_KIB,
  /** The original template's families, d2 and m4. */
  generation: 'previous',
  /** Absent: the planner's choice. */
  instanceType: undefined,
  /** Absent: PERSISTENT_2 (backend fsx-lustre). */
  fsxDeploymentType: undefined,
  /** Absent: the type's smallest, or with no FSx key the cheapest persistent option for throughputMBps. */
  fsxPerUnitStorageThroughput: undefined,
  /** Absent: SSD (backend fsx-lustre). */
  fsxStorageType: undefined,
  /** Absent: no S3 data repository (backend fsx-lustre). */
  fsxDataRepositoryPath: undefined,
  /** Absent: root squash on (backend fsx-lustre). */
  fsxRootSquash: undefined,
  /** This stack makes the cluster's client-mount association. */
  clientMount: true,
  /** Absent: StorageServer-<clusterName>-<serverName>, for names whose stack name no other pair shares. */
  stackName: undefined,
} as const;

/** CloudFormation's limit on a stack name. */
const STACK_NAME_MAX = 128;
const STACK_NAME_PREFIX = 'StorageServer-';

/**
 * The stack name the app has always given a cluster and server: `StorageServer-<clusterName>-<serverName>`, with
 * `_` and `.` (valid in names, not in stack names) written as `-`. Not one-to-one: `a_b`, `a-b` and `a` with
 * server `b-...` all give `StorageServer-a-b-...`; {@link appStackName} uses it only where it is.
 */
export function stackName(clusterName: string, serverName: string): string {
  return `${STACK_NAME_PREFIX}${clusterName}-${serverName}`.replace(/[_.]/g, '-');
}

/**
 * Whether {@link stackName} gives this pair a name no other pair of valid names gets: a clusterName of letters and
 * digits only and a serverName without `_` and `.`. Then the name reads back as the pair (the cluster up to the
 * first `-` after the prefix, the server after it), so these names are kept and no deployed stack of such a pair is
 * renamed. Any other pair shares its name with one of these (`a_b`/`storage1` and `a`/`b-storage1`).
 */
export function hasOwnStackName(clusterName: string, serverName: string): boolean {
  return /^[A-Za-z0-9]+$/.test(clusterName) && /^[A-Za-z0-9-]+$/.test(serverName);
}

/**
 * The app's stack name: `stackName` when given (`-c stackName=...`), else {@link stackName} for a pair that owns
 * it ({@link hasOwnStackName}); undefined for a pair whose name another pair shares, which the app refuses rather
 * than guess whether a stack of that name is this pair's (renaming it would deploy a second server beside it).
 * So distinct pairs of names never get the same derived name.
 */
export function appStackName(clusterName: string, serverName: string, explicit?: string): string | undefined {
  if (explicit !== undefined) return explicit;
  return hasOwnStackName(clusterName, serverName) ? stackName(clusterName, serverName) : undefined;
}

/** A pair that {@link stackName} maps to the same name as (clusterName, serverName), if there is a valid one. */
function sharedWith(clusterName: string, serverName: string): [string, string] | undefined {
  const name = stackName(clusterName, serverName).slice(STACK_NAME_PREFIX.length);
  const split = name.indexOf('-');
  const other: [string, string] = [name.slice(0, split), name.slice(split + 1)];
  const valid = other.every((n) => NAME_PATTERN.test(n) && DASHBOARD_NAME_PATTERN.test(n));
  return valid && (other[0] !== clusterName || other[1] !== serverName) ? other : undefined;
}

/** Name of a context key the app reads (`-c <key>=value`): a key of {@link CONTEXT_DEFAULTS}. */
export type ContextKey = keyof typeof CONTEXT_DEFAULTS;

/** Reads a context value by key; the app passes `(key) => app.node.tryGetContext(key)`. */
export type ContextReader = (key: ContextKey) => unknown;

/**
 * Parses and validates every key of {@link CONTEXT_DEFAULTS} (docs/design.md, section 4). Throws on the first bad value. `target` is where the stack deploys
 * when known (the app passes the CLI's CDK_DEFAULT_REGION and CDK_DEFAULT_ACCOUNT): an alarm topic elsewhere is
 * refused.
 */
export function parseContext(read: ContextReader, target: ResourceEnvironment = {}): StorageServerContext {
  const raw = (key: ContextKey): string | undefined => {
    const value = read(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw contextError(key, JSON.stringify(value), 'a string, number or boolean');
  };
  const optional = <T>(key: ContextKey, parse: (key: ContextKey, value: string) => T): T | undefined => {
    const value = raw(key);
    return value === undefined ? undefined : parse(key, value);
  };

  const vpcId = optional('vpcId', parseVpcId);
  const subnetId = optional('subnetId', parseSubnetId);
  if (subnetId !== undefined && vpcId === undefined) {
    throw contextError('subnetId', subnetId, 'only together with vpcId (a new VPC has no subnet id before deploy)');
  }
  const vpcFrom = optional('vpcFrom', parseVpcFrom);
  if (vpcFrom !== undefined && vpcId !== undefined) {
    throw contextError('vpcFrom', vpcFrom, 'only without vpcId (the server joins either a looked-up VPC or another stack\'s)');
  }
  const availabilityZone = optional('availabilityZone', (key, value) => parseAvailabilityZone(key, value, target));
  if (availabilityZone !== undefined && (vpcId !== undefined || vpcFrom !== undefined)) {
    throw contextError('availabilityZone', availabilityZone, `only for a new VPC (not with ${vpcId !== undefined ? 'vpcId: choose the zone by subnetId' : 'vpcFrom: the server joins that stack\'s subnet'})`);
  }
  const allowPublicClientCidrs = optional('allowPublicClientCidrs', parseBoolean) ?? CONTEXT_DEFAULTS.allowPublicClientCidrs;
  // A looked-up VPC's CIDR is known only to the construct, which checks the address space then (a CIDR
  // inside the VPC is fine even if public); a new VPC's CIDR is private, so private space is the rule here.
  const space = { allowPublic: allowPublicClientCidrs || vpcId !== undefined };
  const clusterName = optional('clusterName', parseName) ?? CONTEXT_DEFAULTS.clusterName;
  const serverName = optional('serverName', parseServerName) ?? CONTEXT_DEFAULTS.serverName;
  const name = parseStackName(raw, clusterName, serverName);
  if (vpcFrom !== undefined && vpcFrom === name) {
    throw contextError('vpcFrom', vpcFrom, `another stack's name (this stack is ${name})`);
  }
  const capacityTiB = optional('capacityTiB', parseCapacity) ?? CONTEXT_DEFAULTS.capacityTiB;
  const backend = optional('backend', parseBackend) ?? CONTEXT_DEFAULTS.backend;
  const dataVolumeCount = optional('dataVolumeCount', parseVolumeCount);
  const throughputMBps = optional('throughputMBps', parseThroughput);
  const restoreSnapshotIds = optional('restoreSnapshotIds', parseSnapshotIds);
  const generation = optional('generation', parseGeneration) ?? CONTEXT_DEFAULTS.generation;
  const fsx = parseFsxKeys(raw, backend);
  const allowHomeMountPoint = optional('allowHomeMountPoint', parseBoolean) ?? CONTEXT_DEFAULTS.allowHomeMountPoint;
  const plan = planOf({ capacityTiB, backend, dataVolumeCount, throughputMBps, generation, fsxLustre: fsxRequest(fsx) });
  checkPlanSize(plan, capacityTiB, throughputMBps);
  if (restoreSnapshotIds !== undefined && plan !== undefined) checkSnapshotSet(restoreSnapshotIds, plan, capacityTiB, raw('restoreSnapshotIds')!);
  const instanceType = optional('instanceType', (key, value) => parseInstanceType(key, value, plan, { capacityTiB, backend, throughputMBps }));
  return {
    capacityTiB,
    backend,
    clusterName,
    serverName,
    stackName: name,
    vpcId,
    subnetId,
    vpcFrom,
    availabilityZone,
    clientCidrs: optional('clientCidrs', (key, value) => parseCidrList(key, value, space)),
    clientSecurityGroupId: optional('clientSecurityGroupId', parseSecurityGroupId),
    allowPublicClientCidrs,
    clientTagKey: optional('clientTagKey', parseTagKey) ?? CONTEXT_DEFAULTS.clientTagKey,
    loginIp: optional('loginIp', (key, value) => parseIpv4(key, value, space)),
    keyPair: optional('keyPair', parseKeyPairName),
    placementGroup: optional('placementGroup', parsePlacementGroupName),
    snapshotRetain: optional('snapshotRetain', parseSnapshotRetain) ?? CONTEXT_DEFAULTS.snapshotRetain,
    terminationProtection: optional('terminationProtection', parseBoolean),
    encryptInstanceStore: optional('encryptInstanceStore', parseBoolean),
    alarmEmail: optional('alarmEmail', (key, value) => matching(key, value, EMAIL_PATTERN, EMAIL_RULE)),
    alarmTopicArn: optional('alarmTopicArn', (key, value) => parseTopicArn(key, value, target)),
    restoreSnapshotIds,
    machineImageId: optional('machineImageId', parseImageId),
    acceptDataLoss: optional('acceptDataLoss', parseBoolean) ?? CONTEXT_DEFAULTS.acceptDataLoss,
    legacyVolumeAttachments: optional('legacyVolumeAttachments', parseBoolean) ?? CONTEXT_DEFAULTS.legacyVolumeAttachments,
    dataVolumeCount,
    throughputMBps,
    mountPoint: optional('mountPoint', (key, value) => parseMountPoint(key, value, allowHomeMountPoint)),
    allowHomeMountPoint,
    mountRoots: optional('mountRoots', parseMountRoots),
    nconnect: optional('nconnect', (key, value) => parseNconnect(key, value, plan)) ?? CONTEXT_DEFAULTS.nconnect,
    clientReadAheadKiB: optional('clientReadAheadKiB', (key, value) => parseWholeNumber(key, value, 0, MAX_READ_AHEAD_KIB,
      `a whole number of KiB from 0 (the kernel's own read-ahead) to ${MAX_READ_AHEAD_KIB}`)) ?? CONTEXT_DEFAULTS.clientReadAheadKiB,
    ...fsx,
    generation,
    instanceType,
    clientMount: optional('clientMount', parseBoolean) ?? CONTEXT_DEFAULTS.clientMount,
  };
}

const FSX_KEYS = ['fsxDeploymentType', 'fsxPerUnitStorageThroughput', 'fsxStorageType', 'fsxDataRepositoryPath', 'fsxRootSquash'] as const;

/**
 * The FSx for Lustre keys: only with backend=fsx-lustre, each value checked here (so the message names the key),
 * the combination checked by the planner's own rules.
 */
function parseFsxKeys(
  raw: (key: ContextKey) => string | undefined,
  backend: Backend | 'auto',
): Pick<StorageServerContext, (typeof FSX_KEYS)[number]> {
  const given = FSX_KEYS.filter((k) => raw(k) !== undefined);
  if (given.length === 0) return {};
  if (backend !== 'fsx-lustre') {
    throw contextError(given[0], raw(given[0])!, `only together with backend=fsx-lustre (backend is '${backend}')`);
  }
  const type = raw('fsxDeploymentType');
  if (type !== undefined && !['SCRATCH_2', 'PERSISTENT_1', 'PERSISTENT_2'].includes(type)) {
    throw contextError('fsxDeploymentType', type, "one of 'PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2'");
  }
  const storage = raw('fsxStorageType');
  if (storage !== undefined && storage !== 'SSD' && storage !== 'HDD') {
    throw contextError('fsxStorageType', storage, "'SSD' or 'HDD' (HDD with fsxDeploymentType=PERSISTENT_1 only)");
  }
  const perUnitText = raw('fsxPerUnitStorageThroughput');
  if (perUnitText !== undefined && !/^[1-9][0-9]{0,3}$/.test(perUnitText)) {
    throw contextError('fsxPerUnitStorageThroughput', perUnitText, 'a whole number of MB/s per TiB such as 125');
  }
  const options = {
    deploymentType: type as FsxLustreDeploymentType | undefined,
    storageType: storage as FsxLustreStorageType | undefined,
    perUnitStorageThroughput: perUnitText === undefined ? undefined : Number(perUnitText),
  };
  try {
    resolveFsxLustreOptions(options);
  } catch (err) {
    const key = perUnitText !== undefined ? 'fsxPerUnitStorageThroughput' : 'fsxStorageType';
    throw contextError(key, raw(key) ?? '', (err as Error).message.replace(/^fsxLustre\.[A-Za-z]+ /, 'a value that '));
  }
  const path = raw('fsxDataRepositoryPath');
  const pathProblem = path === undefined ? undefined : s3PathProblem(path);
  if (pathProblem) {
    throw contextError('fsxDataRepositoryPath', path!, 'an S3 path s3://<bucket>[/<prefix>] of at most 900 characters, the ' +
      `bucket named by S3's bucket naming rules (${pathProblem})`);
  }
  return {
    fsxDeploymentType: options.deploymentType,
    fsxStorageType: options.storageType,
    fsxPerUnitStorageThroughput: options.perUnitStorageThroughput,
    fsxDataRepositoryPath: path,
    fsxRootSquash: raw('fsxRootSquash') === undefined ? undefined : parseBoolean('fsxRootSquash', raw('fsxRootSquash')!),
  };
}

function parseMountPoint(key: ContextKey, value: string, allowHome: boolean): string {
  const problem = directoryProblem(value, { allowHome });
  if (problem) throw contextError(key, value, `an absolute directory outside the system directories: ${problem}`);
  return value;
}

function parseVpcFrom(key: ContextKey, value: string): string {
  if (!STACK_NAME_PATTERN.test(value)) {
    throw contextError(key, value, 'the name of another stack of this app that made its own VPC, e.g. StorageServer-hpc1-home ' +
      `(a CloudFormation stack name: a letter, then letters, digits and hyphens, at most ${STACK_NAME_MAX} characters)`);
  }
  return value;
}

/**
 * An availability zone name: a region CDK knows (aws-cdk-lib's RegionInfo, kept with the library) and a zone
 * letter; in the deploy's region when the CLI gives one.
 */
function parseAvailabilityZone(key: ContextKey, value: string, target: ResourceEnvironment): string {
  const region = /^(.+\d)([a-z])$/.exec(value)?.[1];
  if (region === undefined || !RegionInfo.regions.some((r) => r.name === region)) {
    throw contextError(key, value, 'an availability zone name: a region and a zone letter, e.g. us-east-1b ' +
      '(aws ec2 describe-availability-zones lists those of a region)');
  }
  if (target.region !== undefined && !Token.isUnresolved(target.region) && target.region !== region) {
    throw contextError(key, value, `a zone of the region this deploy targets, ${target.region} (e.g. ${target.region}a)`);
  }
  return value;
}

function parseMountRoots(key: ContextKey, value: string): string[] {
  const roots = value.split(',');
  for (const root of roots) {
    const problem = mountRootProblem(root);
    if (problem) throw contextError(key, value, `a comma list of absolute directories outside the system directories (bad: '${root}': ${problem})`);
  }
  return roots;
}

/** The Error every bad context value produces: key, value, what is allowed. */
export function contextError(key: string, value: string, allowed: string): Error {
  return new Error(`Invalid context value ${key}=${JSON.stringify(value)}: allowed is ${allowed}.`);
}

function parseCapacity(key: ContextKey, value: string): number {
  // Number('') and Number('0x10') are surprising; accept plain decimals only.
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) {
    throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  }
  const n = Number(value);
  if (!(n > 0)) throw contextError(key, value, 'a positive number of TiB, e.g. 5 or 21.5');
  return n;
}

function parseThroughput(key: ContextKey, value: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(Number(value) > 0)) {
    throw contextError(key, value, 'a positive number of MB/s (10^6 bytes per second), e.g. 400');
  }
  return Number(value);
}

function parseGeneration(key: ContextKey, value: string): Generation {
  if (value === 'previous' || value === 'current') return value;
  throw contextError(key, value, "'previous' (d2, m4) or 'current' (Nitro: m6i with st1, d3 and d3en)");
}

function parseBackend(key: ContextKey, value: string): Backend | 'auto' {
  if (value === 'auto' || value === 'ebs' || value === 'instance-store' || value === 'fsx-lustre') return value;
  throw contextError(key, value, "one of 'auto', 'ebs', 'instance-store', 'fsx-lustre'");
}

function parseName(key: ContextKey, value: string): string {
  if (!NAME_PATTERN.test(value)) throw contextError(key, value, NAME_RULE);
  return value;
}

function parseServerName(key: ContextKey, value: string): string {
  if (!NAME_PATTERN.test(value) || !DASHBOARD_NAME_PATTERN.test(value)) {
    throw contextError(key, value, `${NAME_RULE}, but no '.' (it names the server's CloudWatch dashboard, whose name ` +
      'takes A-Z a-z 0-9 _ - only)');
  }
  return value;
}

/**
 * The stack name: `stackName` when given, else the derived name of a pair that owns it; a pair whose derived name
 * another pair shares is refused, naming the key to change and how to keep a deployed stack's name.
 */
function parseStackName(raw: (key: ContextKey) => string | undefined, clusterName: string, serverName: string): string {
  const given = raw('stackName');
  if (given !== undefined && !STACK_NAME_PATTERN.test(given)) {
    throw contextError('stackName', given, 'a CloudFormation stack name: a letter, then letters, digits and hyphens, at most ' +
      `${STACK_NAME_MAX} characters`);
  }
  const name = appStackName(clusterName, serverName, given);
  const legacy = stackName(clusterName, serverName);
  if (name === undefined) {
    const key: ContextKey = /^[A-Za-z0-9]+$/.test(clusterName) ? 'serverName' : 'clusterName';
    const other = sharedWith(clusterName, serverName);
    throw contextError(key, key === 'serverName' ? serverName : clusterName,
      'names whose stack name no other pair of names shares: a clusterName of letters and digits only, a serverName ' +
      `without '_' and '.' (clusterName=${clusterName} serverName=${serverName} would be ${legacy}` +
      (other ? `, which clusterName=${other[0]} serverName=${other[1]} gives too` : ', which other names give too') +
      `). A stack deployed under that name keeps it with -c stackName=${legacy}; for a new stack choose such names, ` +
      'or name the stack yourself with -c stackName=<name>');
  }
  if (given === undefined && name.length > STACK_NAME_MAX) {
    const key: ContextKey = raw('serverName') !== undefined ? 'serverName' : 'clusterName';
    throw contextError(
      key,
      key === 'serverName' ? serverName : clusterName,
      `names that keep the stack name ${STACK_NAME_PREFIX}<clusterName>-<serverName> within CloudFormation's ` +
        `${STACK_NAME_MAX} characters: clusterName and serverName together at most ` +
        `${STACK_NAME_MAX - STACK_NAME_PREFIX.length - 1} characters (got ${clusterName.length} + ${serverName.length}), ` +
        'or -c stackName=<name>',
    );
  }
  return name;
}

function parseTopicArn(key: ContextKey, value: string, target: ResourceEnvironment): string {
  const problem = topicArnProblem(value, target);
  if (problem) {
    throw contextError(key, value, 'the ARN of a standard SNS topic in the stack\'s region and account, such as ' +
      `arn:aws:sns:us-east-1:123456789012:storage-alarms (${problem})`);
  }
  return value;
}

function parseVpcId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('vpc').test(value)) {
    throw contextError(key, value, "a VPC id such as 'vpc-0123456789abcdef0'");
  }
  return value;
}

function parseSubnetId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('subnet').test(value)) {
    throw contextError(key, value, "a subnet id such as 'subnet-0123456789abcdef0'");
  }
  return value;
}

function parseSecurityGroupId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('sg').test(value)) {
    throw contextError(key, value, "a security group id such as 'sg-0123456789abcdef0'");
  }
  return value;
}

const CIDR_LIST_ALLOWED = 'a comma-separated list of canonical IPv4 CIDRs such as 10.0.0.0/16 (prefix 1-32, no ' +
  'leading zeros, no host bits) in private address space unless allowPublicClientCidrs=true';

function parseCidrList(key: ContextKey, value: string, space: { allowPublic: boolean }): string[] {
  const cidrs = value.split(',').map((c) => c.trim());
  for (const cidr of cidrs) {
    const problem = cidrProblem(cidr) ?? addressSpaceProblem(cidr, space);
    if (problem) throw contextError(key, value, `${CIDR_LIST_ALLOWED} (bad: '${cidr}': ${problem})`);
  }
  const repeated = duplicateValues(cidrs);
  if (repeated.length > 0) throw contextError(key, value, `${CIDR_LIST_ALLOWED}, each once (repeated: ${repeated.join(', ')})`);
  return cidrs;
}

function parseTagKey(key: ContextKey, value: string): string {
  // Length in characters, as EC2 counts them (a letter outside the BMP is one, not two UTF-16 units).
  if ([...value].length > 128 || !TAG_KEY_PATTERN.test(value)) throw contextError(key, value, TAG_KEY_RULE);
  return value;
}

function parseIpv4(key: ContextKey, value: string, space: { allowPublic: boolean }): string {
  const problem = ipv4Problem(value) ?? addressSpaceProblem(value, space);
  if (problem) {
    throw contextError(key, value, `an IPv4 address such as 10.0.1.10, the canonical address of one host in private ` +
      `address space unless allowPublicClientCidrs=true (${problem})`);
  }
  return value;
}

function matching(key: ContextKey, value: string, pattern: RegExp, expected: string): string {
  if (!pattern.test(value)) throw contextError(key, value, expected);
  return value;
}

function parseKeyPairName(key: ContextKey, value: string): string {
  if (value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw contextError(key, value, 'the name of an existing EC2 key pair (1-255 printable ASCII characters)');
  }
  return value;
}

function parsePlacementGroupName(key: ContextKey, value: string): string {
  if (value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw contextError(key, value, 'the name of an existing cluster placement group (1-255 printable ASCII characters)');
  }
  return value;
}

/** nconnect: 1..16, and only for an NFS server (an FSx for Lustre plan's clients mount Lustre, not NFS). */
function parseNconnect(key: ContextKey, value: string, plan: StoragePlan | undefined): number {
  const n = parseWholeNumber(key, value, 1, NFS_MAX_NCONNECT, 'a whole number of TCP connections per client mount from 1 ' +
    `(one connection: no nconnect option) to ${NFS_MAX_NCONNECT} (the Linux limit)`);
  if (plan?.backend === 'fsx-lustre') {
    throw contextError(key, value, 'only for an NFS server (backend ebs or instance-store): this plan is FSx for Lustre, ' +
      'whose clients mount Lustre; leave nconnect out');
  }
  return n;
}

/** A whole number min..max written in plain decimal (no sign, no leading zero, no exponent). */
function parseWholeNumber(key: ContextKey, value: string, min: number, max: number, allowed: string): number {
  const n = Number(value);
  if (!/^(0|[1-9][0-9]{0,8})$/.test(value) || n < min || n > max) throw contextError(key, value, allowed);
  return n;
}

function parseSnapshotRetain(key: ContextKey, value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 1000) {
    throw contextError(key, value, 'a whole number of snapshots from 0 (snapshots off) to 1000');
  }
  return n;
}

function parseSnapshotIds(key: ContextKey, value: string): string[] {
  const ids = value.split(',').map((id) => id.trim());
  for (const id of ids) {
    if (!SNAPSHOT_ID_PATTERN.test(id)) {
      throw contextError(key, value, `a comma-separated list of snapshot ids such as 'snap-0123456789abcdef0' (bad: '${id}')`);
    }
  }
  const repeated = duplicateValues(ids);
  if (repeated.length > 0) {
    throw contextError(key, value, `a comma-separated list of distinct snapshot ids, one per data volume (repeated: ${repeated.join(', ')})`);
  }
  return ids;
}

/** The plan the context asks for, or undefined when the planner refuses it (the construct reports the planner). */
function planOf(request: StorageRequest): StoragePlan | undefined {
  try {
    return planStorage(request);
  } catch {
    return undefined;
  }
}

/** The planner's view of the FSx keys (none given: the planner chooses among the persistent options). */
function fsxRequest(fsx: Pick<StorageServerContext, (typeof FSX_KEYS)[number]>): StorageRequest['fsxLustre'] {
  const { fsxDeploymentType: deploymentType, fsxStorageType: storageType, fsxPerUnitStorageThroughput: perUnitStorageThroughput } = fsx;
  if (deploymentType === undefined && storageType === undefined && perUnitStorageThroughput === undefined) return undefined;
  return { deploymentType, storageType, perUnitStorageThroughput };
}

/**
 * A plan the stack can hold: an FSx for Lustre file system of at most {@link MAX_FSX_STORAGE_CAPACITY_GIB} (the
 * planner has no upper bound of its own there). Names throughputMBps when the file system was sized up for it.
 */
function checkPlanSize(plan: StoragePlan | undefined, capacityTiB: number, throughputMBps: number | undefined): void {
  const gib = plan?.fsxLustre?.storageCapacityGiB;
  if (gib === undefined || gib <= MAX_FSX_STORAGE_CAPACITY_GIB) return;
  const maxTiB = Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024);
  if (throughputMBps !== undefined && capacityTiB <= maxTiB) {
    throw contextError('throughputMBps', String(throughputMBps), `a throughput an FSx for Lustre file system of at most ${maxTiB} ` +
      `TiB sustains (the plan sized it up to ${gib} GiB)`);
  }
  throw contextError('capacityTiB', String(capacityTiB), `a positive number of TiB, at most ${maxTiB} (the largest FSx for Lustre ` +
    `file system this app records, ${MAX_FSX_STORAGE_CAPACITY_GIB} GiB; the plan needs ${gib} GiB)`);
}

/**
 * The snapshot set against the plan the same context gives (the planner is pure), so that every problem with it
 * names the context key rather than the construct's prop.
 */
function checkSnapshotSet(ids: string[], plan: StoragePlan, capacityTiB: number, value: string): void {
  const problem = snapshotSetProblem(plan, ids);
  if (problem) {
    throw contextError('restoreSnapshotIds', value, `a snapshot set that fits the plan (${plan.backend} on ` +
      `${plan.instanceType} for capacityTiB=${capacityTiB}): ${problem}`);
  }
}

/** The `instanceType` key: a catalogued type the plan's backend takes (lib/sizing/instance-type.ts says which). */
function parseInstanceType(
  key: ContextKey, value: string, plan: StoragePlan | undefined, asked: Pick<StorageRequest, 'capacityTiB' | 'backend' | 'throughputMBps'>,
): string {
  const problem = instanceTypeProblem(value, plan, asked);
  if (problem) throw contextError(key, value, problem);
  return value;
}

function parseImageId(key: ContextKey, value: string): string {
  if (!IMAGE_ID_PATTERN.test(value)) {
    throw contextError(key, value, "an image id such as 'ami-0123456789abcdef0'");
  }
  return value;
}

function parseVolumeCount(key: ContextKey, value: string): number {
  if (!/^[1-3]$/.test(value)) {
    throw contextError(key, value, 'a whole number of EBS data volumes from 1 to 3 (at most 16 TiB each, 48 TiB in all)');
  }
  return Number(value);
}

function parseBoolean(key: ContextKey, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw contextError(key, value, "'true' or 'false'");
}

/**
 * Context keys that belong to the CDK, not to this app: feature flags (`@aws-cdk/...`), keys the CLI injects
 * (`aws:cdk:enable-path-metadata`, `aws:cdk:bundling-stacks`, ...: shown by printing `getAllContext()` under
 * `cdk synth`), cached lookups in cdk.context.json (`vpc-provider:account=...`, `availability-zones:...`: a
 * lower-case provider name and a colon) and `cdk acknowledge`'s list.
 */
function isCdkContextKey(key: string): boolean {
  return ['@aws-cdk/', '@aws-cdk-containers/', 'aws:', 'aws-cdk:', 'cdk-'].some((p) => key.startsWith(p)) ||
    /^[a-z][a-z0-9-]*:/.test(key) ||
    key === 'acknowledged-issue-numbers';
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known key an unknown one was probably meant to be: same letters in another case, TB for TiB, or a typo. */
function nearMiss(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const swapped = [lower.replace(/tib/g, 'tb'), lower.replace(/tb/g, 'tib')];
  const exact = known.find((k) => k.toLowerCase() === lower || swapped.includes(k.toLowerCase()));
  if (exact !== undefined) return exact;
  const [best] = known
    .map((k) => ({ k, d: editDistance(lower, k.toLowerCase()) }))
    .filter(({ d }) => d <= 2)
    .sort((x, y) => x.d - y.d);
  return best?.k;
}

/**
 * Refuses context keys the app does not read, so that a typo (`-c capacityTB=10`) stops synth instead of
 * silently deploying the default. `keys` are all the app's context keys (`Object.keys(app.node.getAllContext())`);
 * the CDK's own (feature flags, keys the CLI injects, cached lookups) are ignored. The message suggests the
 * known key a near miss was meant to be and lists every known key.
 */
export function checkContextKeys(keys: readonly string[]): void {
  const known = Object.keys(CONTEXT_DEFAULTS);
  const unknown = keys.filter((k) => !known.includes(k) && !isCdkContextKey(k));
  if (unknown.length === 0) return;
  const described = unknown.map((k) => {
    const guess = nearMiss(k, known);
    return guess === undefined ? JSON.stringify(k) : `${JSON.stringify(k)} (did you mean ${guess}?)`;
  });
  throw new Error(`Unknown context key${unknown.length > 1 ? 's' : ''} ${described.join(', ')}: the app reads only ` +
    `${known.join(', ')} (keys are case-sensitive; CDK's own keys such as @aws-cdk/... feature flags are ignored).`);
}
