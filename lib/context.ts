/**
 * Context parameters of the deployable app (DESIGN.md, contract 2): `cdk synth|deploy -c key=value`.
 *
 * Pure parsing and validation, no CDK constructs: every bad value stops synth with a message that names
 * the key, echoes the value and says what is allowed. Values arrive as strings from `-c`, or as JSON
 * values from cdk.json; both are accepted.
 */
import type { Backend } from './sizing';

/** Names valid for `clusterName` and `serverName`: they become parts of SSM parameter paths. */
export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Typed, validated context of the app. Optional members are absent when the key was not given. */
export interface StorageServerContext {
  /** Usable capacity wanted, in TiB (a positive number); `5` when the key is not given. */
  readonly capacityTiB: number;
  /**
   * `auto` (the planner chooses: EBS st1 up to 16 TiB, d2 instance store above), `ebs` or
   * `instance-store`; `auto` when the key is not given.
   */
  readonly backend: Backend | 'auto';
  /**
   * Cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, part of the SSM parameter paths and the
   * value of the client tag; `cluster` when the key is not given.
   */
  readonly clusterName: string;
  /** This server's name in the cluster ring, same characters as `clusterName`; `storage1` when not given. */
  readonly serverName: string;
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
   * CIDRs allowed to mount (comma-separated in `-c`): the export lists them and the security group admits
   * TCP 2049 from them. `/0` is refused.
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
   * EC2 tag key that selects the cluster's client nodes (the value is `clusterName`): State Manager mounts
   * the storage on every instance tagged `<clientTagKey>=<clusterName>`; `cluster` when not given.
   */
  readonly clientTagKey: string;
  /**
   * IPv4 address of the Alces clusterware master (the login node); giving it makes the server join the
   * cluster's clusterware ring.
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
   * Snapshot ids (comma-separated in `-c`) to create the EBS data volumes from, one per volume in stripe
   * order: restores a snapshot set into a new server with the same plan (README, "Restoring from a
   * snapshot set").
   * @default - new, blank data volumes
   */
  readonly restoreSnapshotIds?: string[];
  /**
   * Image id (`ami-...`) for a deliberate image change: the instance is replaced (README, "Changing a deployed
   * server"); the update guard refuses it where that would lose or strand data, unless `acceptDataLoss`.
   * @default - the latest Amazon Linux 2023 at the server's creation, kept on every later update
   */
  readonly machineImageId?: string;
  /**
   * `true` lets the update guard pass a change that loses or strands data (scratch data only; for one deploy).
   * `false` when the key is not given.
   */
  readonly acceptDataLoss: boolean;
  /**
   * Keep exactly this many EBS data volumes (1-3) when raising `capacityTiB` of an existing EBS server: the
   * volumes grow in place instead of the stripe gaining volumes, which the update guard refuses.
   * @default - as many volumes as the capacity needs
   */
  readonly dataVolumeCount?: number;
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
  /** Absent: the VPC's CIDR may mount, unless a client security group is given. */
  clientCidrs: undefined,
  /** Absent: no client security group is admitted. */
  clientSecurityGroupId: undefined,
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
  /** Absent: new, blank data volumes. */
  restoreSnapshotIds: undefined,
  /** Absent: the image resolved at the server's creation. */
  machineImageId: undefined,
  /** The update guard refuses changes that lose data. */
  acceptDataLoss: false,
  /** Absent: as many volumes as the capacity needs. */
  dataVolumeCount: undefined,
} as const;

/** CloudFormation's limit on a stack name. */
const STACK_NAME_MAX = 128;
const STACK_NAME_PREFIX = 'StorageServer-';

/**
 * The app's stack name for a cluster and server: `StorageServer-<clusterName>-<serverName>`, with `_` and `.`
 * (valid in names, not in stack names) written as `-`. Every pair of names that passes `parseContext` gives a
 * valid stack name of at most 128 characters.
 */
export function stackName(clusterName: string, serverName: string): string {
  return `${STACK_NAME_PREFIX}${clusterName}-${serverName}`.replace(/[_.]/g, '-');
}

/** Name of a context key the app reads (`-c <key>=value`): a key of {@link CONTEXT_DEFAULTS}. */
export type ContextKey = keyof typeof CONTEXT_DEFAULTS;

/** Reads a context value by key; the app passes `(key) => app.node.tryGetContext(key)`. */
export type ContextReader = (key: ContextKey) => unknown;

/** Parses and validates every key of contract 2. Throws on the first bad value. */
export function parseContext(read: ContextReader): StorageServerContext {
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
  const clusterName = optional('clusterName', parseName) ?? CONTEXT_DEFAULTS.clusterName;
  const serverName = optional('serverName', parseName) ?? CONTEXT_DEFAULTS.serverName;
  const name = stackName(clusterName, serverName);
  if (name.length > STACK_NAME_MAX) {
    const key: ContextKey = raw('serverName') !== undefined ? 'serverName' : 'clusterName';
    throw contextError(
      key,
      key === 'serverName' ? serverName : clusterName,
      `names that keep the stack name ${STACK_NAME_PREFIX}<clusterName>-<serverName> within CloudFormation's ` +
        `${STACK_NAME_MAX} characters: clusterName and serverName together at most ` +
        `${STACK_NAME_MAX - STACK_NAME_PREFIX.length - 1} characters (got ${clusterName.length} + ${serverName.length})`,
    );
  }
  return {
    capacityTiB: optional('capacityTiB', parseCapacity) ?? CONTEXT_DEFAULTS.capacityTiB,
    backend: optional('backend', parseBackend) ?? CONTEXT_DEFAULTS.backend,
    clusterName,
    serverName,
    vpcId,
    subnetId,
    clientCidrs: optional('clientCidrs', parseCidrList),
    clientSecurityGroupId: optional('clientSecurityGroupId', parseSecurityGroupId),
    clientTagKey: optional('clientTagKey', parseTagKey) ?? CONTEXT_DEFAULTS.clientTagKey,
    loginIp: optional('loginIp', parseIpv4),
    keyPair: optional('keyPair', parseKeyPairName),
    placementGroup: optional('placementGroup', parsePlacementGroupName),
    snapshotRetain: optional('snapshotRetain', parseSnapshotRetain) ?? CONTEXT_DEFAULTS.snapshotRetain,
    terminationProtection: optional('terminationProtection', parseBoolean),
    restoreSnapshotIds: optional('restoreSnapshotIds', parseSnapshotIds),
    machineImageId: optional('machineImageId', parseImageId),
    acceptDataLoss: optional('acceptDataLoss', parseBoolean) ?? CONTEXT_DEFAULTS.acceptDataLoss,
    dataVolumeCount: optional('dataVolumeCount', parseVolumeCount),
  };
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

function parseBackend(key: ContextKey, value: string): Backend | 'auto' {
  if (value === 'auto' || value === 'ebs' || value === 'instance-store') return value;
  throw contextError(key, value, "one of 'auto', 'ebs', 'instance-store'");
}

function parseName(key: ContextKey, value: string): string {
  if (!NAME_PATTERN.test(value)) {
    throw contextError(key, value, '1 to 64 characters from A-Z a-z 0-9 _ . -');
  }
  return value;
}

function parseVpcId(key: ContextKey, value: string): string {
  if (!/^vpc-([0-9a-f]{8}|[0-9a-f]{17})$/.test(value)) {
    throw contextError(key, value, "a VPC id such as 'vpc-0123456789abcdef0'");
  }
  return value;
}

function parseSubnetId(key: ContextKey, value: string): string {
  if (!/^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/.test(value)) {
    throw contextError(key, value, "a subnet id such as 'subnet-0123456789abcdef0'");
  }
  return value;
}

function parseSecurityGroupId(key: ContextKey, value: string): string {
  if (!/^sg-([0-9a-f]{8}|[0-9a-f]{17})$/.test(value)) {
    throw contextError(key, value, "a security group id such as 'sg-0123456789abcdef0'");
  }
  return value;
}

/** Validates one IPv4 CIDR; returns the reason it is bad, or undefined when it is good. */
export function cidrProblem(cidr: string): string | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) return 'an IPv4 CIDR such as 10.0.0.0/16';
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255)) return 'an IPv4 CIDR whose four numbers are 0-255';
  if (prefix > 32) return 'an IPv4 CIDR whose prefix length is 0-32';
  if (prefix === 0) return 'a CIDR narrower than /0 (exporting to every address on the internet is refused)';
  return undefined;
}

function parseCidrList(key: ContextKey, value: string): string[] {
  const cidrs = value.split(',').map((c) => c.trim());
  for (const cidr of cidrs) {
    const problem = cidrProblem(cidr);
    if (problem) throw contextError(key, value, `a comma-separated list of CIDRs, each ${problem} (bad: '${cidr}')`);
  }
  return cidrs;
}

function parseTagKey(key: ContextKey, value: string): string {
  if (value.length > 128 || value.toLowerCase().startsWith('aws:') || !/^[\p{L}\p{N}\s_.:/=+\-@]+$/u.test(value)) {
    throw contextError(key, value, "an EC2 tag key: 1-128 letters, digits, spaces or _.:/=+-@, not starting with 'aws:'");
  }
  return value;
}

function parseIpv4(key: ContextKey, value: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) {
    throw contextError(key, value, 'an IPv4 address such as 10.0.1.10');
  }
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
    if (!/^snap-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) {
      throw contextError(key, value, `a comma-separated list of snapshot ids such as 'snap-0123456789abcdef0' (bad: '${id}')`);
    }
  }
  return ids;
}

function parseImageId(key: ContextKey, value: string): string {
  if (!/^ami-([0-9a-f]{8}|[0-9a-f]{17})$/.test(value)) {
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
