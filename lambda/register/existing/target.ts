/**
 * Storage that exists already, registered into a cluster's records (docs/design.md, section 9): an FSx for Lustre, FSx
 * for OpenZFS or EFS file system by its id, or an NFS server by its address. The custom resource names it by these
 * ResourceProperties in place of `InstanceId` or the FSx properties of a deployed server; the registration describes
 * it at deploy and checks it (existing/access.ts) before it writes a record.
 *
 * It imports nothing but the value checks and the backend list, which import nothing either: it is bundled into the
 * Lambda and imported by the construct at synth time.
 */
import { addressSpaceProblem, cidrProblem, ipv4Problem } from '../../value-check/network';
import { EXISTING_BACKENDS, FSX_BACKENDS } from '../backend';

/** The backends an existing storage's records name, by kind: what `Backend` may be beside {@link EXISTING_PROP}. */
export const EXISTING_KINDS = [...FSX_BACKENDS, ...EXISTING_BACKENDS] as const;
/** A backend of {@link EXISTING_KINDS}. */
export type ExistingKind = (typeof EXISTING_KINDS)[number];

/** The kinds named by a file system id, described at deploy; `nfs` is named by its address and described by nothing. */
export type ExistingFileSystemKind = Exclude<ExistingKind, 'nfs'>;

/** ResourceProperties of an existing storage's registration. */
export const EXISTING_PROP = {
  /** `fs-...`, for the three file system kinds. */
  fileSystemId: 'ExistingFileSystemId',
  /** The NFS server's IPv4 address, for `nfs`. */
  address: 'ExistingAddress',
  /** The cluster's VPC: the file system must be reachable in it. */
  vpcId: 'VpcId',
  /** The clients' CIDRs, comma-separated; the file system's security groups must admit each. */
  clientCidrs: 'ClientCidrs',
  /** The clients' security groups, comma-separated; likewise. */
  clientGroupIds: 'ClientSecurityGroupIds',
} as const;

/** Who mounts the storage: the security groups of the file system must admit each, by CIDR or by group. */
export interface ExistingClients {
  /** IPv4 CIDRs, canonical. */
  readonly cidrs: readonly string[];
  /** Security group ids, `sg-...`. */
  readonly groupIds: readonly string[];
}

/** An existing file system, validated: described and checked at deploy. */
export interface ExistingFileSystem {
  readonly kind: ExistingFileSystemKind;
  readonly fileSystemId: string;
  /** The cluster's VPC, `vpc-...`. */
  readonly vpcId: string;
  readonly clients: ExistingClients;
}

/** An existing NFS server, validated: known by its address alone. */
export interface ExistingAddress {
  readonly kind: 'nfs';
  readonly address: string;
}

/** What an existing storage's registration names. */
export type ExistingTarget = ExistingFileSystem | ExistingAddress;

/**
 * An FSx or EFS file system id: 'fs-' and 8 or 17 lower-case hex digits, as the client's DNS name patterns take them.
 * A deployed FSx file system's registration (validation.ts) holds its id to the same rule.
 */
export const FILE_SYSTEM_ID = /^fs-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const VPC_ID = /^vpc-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const SECURITY_GROUP_ID = /^sg-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

/** Whether `backend` names existing storage's kind. */
export function isExistingKind(backend: unknown): backend is ExistingKind {
  return (EXISTING_KINDS as readonly unknown[]).includes(backend);
}

/** The values of a comma-separated list property; '' is the empty list. */
export function listOf(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

/**
 * Why the value of one existing-storage property is bad, or undefined. `key` is an {@link EXISTING_PROP} value; the
 * construct checks literal values at synth with it and the handler every value at deploy.
 */
export function existingValueProblem(key: string, value: string): string | undefined {
  switch (key) {
    case EXISTING_PROP.fileSystemId:
      return FILE_SYSTEM_ID.test(value) ? undefined : "must be a file system id ('fs-' and 8 or 17 lower-case hex digits)";
    case EXISTING_PROP.vpcId:
      return VPC_ID.test(value) ? undefined : "must be a VPC id ('vpc-' and 8 or 17 lower-case hex digits)";
    case EXISTING_PROP.address: {
      // Private space only: a record's server is mounted by every node, as root.
      const why = ipv4Problem(value) ?? addressSpaceProblem(value);
      return why === undefined ? undefined : `must be the NFS server's private IPv4 address: ${why}`;
    }
    case EXISTING_PROP.clientCidrs: {
      const bad = listOf(value).map((c) => [c, cidrProblem(c) ?? addressSpaceProblem(c)]).find(([, why]) => why !== undefined);
      return bad === undefined ? undefined : `must be IPv4 CIDRs, comma-separated: ${JSON.stringify(bad[0])} ${bad[1]}`;
    }
    case EXISTING_PROP.clientGroupIds: {
      const bad = listOf(value).find((g) => !SECURITY_GROUP_ID.test(g));
      return bad === undefined ? undefined : `must be security group ids ('sg-' and 8 or 17 lower-case hex digits), comma-separated, got ${JSON.stringify(bad)}`;
    }
    default:
      return `is no property of existing storage (${Object.values(EXISTING_PROP).join(', ')})`;
  }
}

/**
 * Reads and validates an existing storage's target from raw ResourceProperties, for `kind`. `get` reads a property
 * that must be a string, `field` names a key in messages. Throws naming the key, the rule and the value.
 */
export function parseExistingTarget(
  kind: ExistingKind,
  get: (key: string) => string,
  has: (key: string) => boolean,
  field: (key: string) => string,
): ExistingTarget {
  const checked = (key: string): string => {
    if (!has(key)) throw new Error(`ResourceProperties is missing ${key}, which existing storage of kind ${kind} names`);
    const value = get(key);
    const why = existingValueProblem(key, value);
    if (why !== undefined) throw new Error(`${field(key)} ${why}, got ${JSON.stringify(value)}`);
    return value;
  };
  const refuseBeside = (keys: string[]) => {
    const extra = keys.filter(has);
    if (extra.length > 0) throw new Error(`${extra.map(field).join(', ')} cannot be given for existing storage of kind ${kind}`);
  };
  if (kind === 'nfs') {
    refuseBeside([EXISTING_PROP.fileSystemId, EXISTING_PROP.vpcId, EXISTING_PROP.clientCidrs, EXISTING_PROP.clientGroupIds]);
    return { kind, address: checked(EXISTING_PROP.address) };
  }
  refuseBeside([EXISTING_PROP.address]);
  const list = (key: string) => (has(key) ? listOf(checked(key)) : []);
  const clients = { cidrs: list(EXISTING_PROP.clientCidrs), groupIds: list(EXISTING_PROP.clientGroupIds) };
  if (clients.cidrs.length + clients.groupIds.length === 0) {
    throw new Error(
      `${field(EXISTING_PROP.clientCidrs)} and ${field(EXISTING_PROP.clientGroupIds)} are both empty: name the clients, ` +
        "whom the file system's security groups must admit",
    );
  }
  return { kind, fileSystemId: checked(EXISTING_PROP.fileSystemId), vpcId: checked(EXISTING_PROP.vpcId), clients };
}
