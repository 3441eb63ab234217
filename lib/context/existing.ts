/**
 * The keys of a stack that registers storage that exists already (docs/design.md, section 9): `existingStorage` names
 * it, and only the keys that name the records, the cluster's VPC and clients, and the cluster's association go with it.
 * Nothing is planned, so every sizing, server and backend key is refused beside it.
 */
import { EXISTING_PROP, existingValueProblem } from '../../lambda/register/existing/target';
import { existingPathProblem } from '../../lambda/register/existing/record-values';
import { EXISTING_STORAGE_FORMS, ExistingStorageKind } from '../existing-storage';
import type { ResourceEnvironment } from '../validation/topic-arn';
import { clientAddressSpace, parseClientKeys, parseSecurityGroupId } from './clients';
import { parseClientMountKeys } from './client-mount';
import { CONTEXT_DEFAULTS, type ContextKey } from './keys';
import { STACK_NAME_MAX, parseNameKeys } from './names';
import { checkVpcFrom, parseVpcKeys } from './network';
import type { StorageServerContext } from './storage-server-context';
import { type ContextValues, contextError, parseBoolean } from './values';

/** The stack name of existing storage, `StorageServerExisting-<clusterName>-<serverName>`, unless `stackName`. */
const EXISTING_STACK_PREFIX = 'StorageServerExisting-';

/** The storage `existingStorage` names: its kind, its file system id or NFS address, and the path typed after it. */
export interface ExistingStorageSpec {
  readonly kind: ExistingStorageKind;
  /** `fs-...`, or the NFS server's IPv4 address. */
  readonly id: string;
  /** The volume path (FSx for OpenZFS), directory (EFS) or export (NFS); absent where the kind's default applies. */
  readonly path?: string;
  /** EFS over TLS, typed as the kind `efs+tls`; absent otherwise. */
  readonly tls?: boolean;
}

/** The validated context of an existing storage's stack: what `existingStorage` and the keys beside it give. */
export interface ExistingStorageContext extends Pick<StorageServerContext,
  'clusterName' | 'serverName' | 'stackName' | 'vpcId' | 'vpcFrom' | 'clientCidrs' | 'clientSecurityGroupId' |
  'allowPublicClientCidrs' | 'clientTagKey' | 'allowHomeMountPoint' | 'mountRoots' | 'clientReadAheadKiB'> {
  /**
   * `<kind>:<target>`: `fsx-lustre:fs-<id>`, `fsx-openzfs:fs-<id>[:<volume path>]`, `efs:fs-<id>[:<directory>]`
   * (`efs+tls:` over TLS) or `nfs:<private IPv4>:<export path>`.
   */
  readonly existingStorage: ExistingStorageSpec;
  /**
   * A security group of the existing file system (its interfaces' or mount targets') to which the stack adds ingress
   * from the clients on the kind's ports; absent when its groups admit them already.
   */
  readonly storageSecurityGroupId?: string;
  /** Where the nodes mount it: required, since a default would stand on the mount point of the cluster's server. */
  readonly mountPoint: string;
  /**
   * Whether this stack makes the cluster's client-mount association; `false` when the key is not given, since the
   * cluster's server stack has it (docs/context-keys.md, "Storage that exists already").
   */
  readonly clientMount: boolean;
}

/** The keys an existing storage's stack reads, of every kind. */
const READ_BY_EVERY_KIND: readonly ContextKey[] = [
  'existingStorage', 'clusterName', 'serverName', 'stackName', 'mountPoint', 'allowHomeMountPoint', 'mountRoots',
  'clientMount', 'clientTagKey', 'clientReadAheadKiB',
];
/** The keys only a file system's stack reads: where it must be reachable and whom its security groups must admit. */
const READ_FOR_FILE_SYSTEMS: readonly ContextKey[] = ['vpcId', 'vpcFrom', 'clientCidrs', 'clientSecurityGroupId', 'storageSecurityGroupId'];

/** The keys that only an existing storage's stack reads: a server's stack refuses them. */
const EXISTING_ONLY: readonly ContextKey[] = ['storageSecurityGroupId'];

/** Refuses, in a server's context, a key that only `existingStorage` reads, which the server would ignore. */
export function refuseExistingOnlyKeys(values: ContextValues<ContextKey>): void {
  for (const key of EXISTING_ONLY) {
    const value = values.raw(key);
    if (value !== undefined) {
      throw contextError(key, value, 'nothing without existingStorage: it names the group of storage that exists already, ' +
        "to which the stack adds the clients' rules; a server's stack makes its own group");
    }
  }
}

/** Whether the context names existing storage, so that the app builds its stack rather than a server's. */
export function namesExistingStorage(values: ContextValues<ContextKey>): boolean {
  return values.raw('existingStorage') !== undefined;
}

/** The existing storage's keys, in the order they are checked: its own, the keys refused beside it, then the rest. */
export function parseExistingStorageKeys(values: ContextValues<ContextKey>, target: ResourceEnvironment): ExistingStorageContext {
  const { optional, raw } = values;
  const existingStorage = optional('existingStorage', parseExistingStorage)!;
  const typed = `existingStorage=${raw('existingStorage')}`;
  const isFileSystem = existingStorage.kind !== ExistingStorageKind.NFS;
  const read = isFileSystem ? [...READ_BY_EVERY_KIND, ...READ_FOR_FILE_SYSTEMS] : READ_BY_EVERY_KIND;
  for (const key of Object.keys(CONTEXT_DEFAULTS) as ContextKey[]) {
    const value = raw(key);
    if (value === undefined || read.includes(key)) continue;
    const why = READ_FOR_FILE_SYSTEMS.includes(key)
      ? 'an NFS server is described by nothing at deploy; the nodes check its address against their allowed servers'
      : key === 'allowPublicClientCidrs'
        ? "the registration holds an existing file system's clients to private address space"
        : 'the stack registers storage that exists already, and plans and builds no server';
    throw contextError(key, value, `nothing beside ${typed}: ${why}. The keys read beside it are ${read.join(', ')}`);
  }
  const vpc = parseVpcKeys(values, target);
  if (isFileSystem && vpc.vpcId === undefined && vpc.vpcFrom === undefined) {
    throw missing('vpcId', typed, "the cluster's VPC, where the file system must be reachable: a VPC id such as " +
      "'vpc-0123456789abcdef0' (looked up at synth), or vpcFrom=<the stack of this app that made it>");
  }
  const parsed = parseNameKeys(values);
  // Never a server's stack name: deploying this stack under it would replace that server's stack with a registration.
  const stackName = raw('stackName') ?? parsed.stackName.replace(/^StorageServer-/, EXISTING_STACK_PREFIX);
  if (raw('stackName') !== undefined && stackName.startsWith('StorageServer-')) {
    throw contextError('stackName', stackName, `a name that does not begin StorageServer-, a server's stack name: deploying this ` +
      `stack under one would turn that server's stack into this registration alone (the default is ${EXISTING_STACK_PREFIX}${parsed.clusterName}-${parsed.serverName})`);
  }
  if (stackName.length > STACK_NAME_MAX) {
    throw contextError('serverName', parsed.serverName, `a name that keeps the stack name ${stackName} within ${STACK_NAME_MAX} characters, or -c stackName=<name>`);
  }
  const names = { ...parsed, stackName };
  checkVpcFrom(vpc.vpcFrom, names.stackName);
  if (raw('serverName') === undefined) {
    throw missing('serverName', typed, "its name in the cluster's records, of A-Z a-z 0-9 _ -, unique in the cluster: " +
      `the default, ${CONTEXT_DEFAULTS.serverName}, is the default server's`);
  }
  // Refused above when given: the registration holds the clients to private space (existing/target.ts).
  const allowPublicClientCidrs = false;
  const allowHomeMountPoint = optional('allowHomeMountPoint', parseBoolean) ?? CONTEXT_DEFAULTS.allowHomeMountPoint;
  const { clientCidrs, clientSecurityGroupId, clientTagKey } = parseClientKeys(values, clientAddressSpace(allowPublicClientCidrs));
  const { mountPoint, mountRoots, clientReadAheadKiB } = parseClientMountKeys(values, allowHomeMountPoint, undefined);
  if (mountPoint === undefined) {
    throw missing('mountPoint', typed, 'the directory the nodes mount it on, such as /data, below one of the mount roots');
  }
  return {
    existingStorage, ...names, ...vpc, clientCidrs, clientSecurityGroupId, allowPublicClientCidrs, clientTagKey,
    mountPoint, allowHomeMountPoint, mountRoots, clientReadAheadKiB,
    storageSecurityGroupId: optional('storageSecurityGroupId', parseSecurityGroupId),
    clientMount: optional('clientMount', parseBoolean) ?? false,
  };
}

function missing(key: ContextKey, typed: string, what: string): Error {
  return new Error(`Missing context value ${key}: ${typed} needs it, ${what}.`);
}

/**
 * `<kind>:<target>`. The id and address are held to the registration's own rules (existing/target.ts), the paths to
 * those their records are held to (existing-storage.ts).
 */
function parseExistingStorage(key: ContextKey, value: string): ExistingStorageSpec {
  const refuse = (bad: string) => contextError(key, value, `${EXISTING_STORAGE_FORMS} (bad: ${bad})`);
  const [typed, id, ...rest] = value.split(':');
  // EFS over TLS is EFS with a suffix, not a kind of its own: the records' backend is efs either way.
  const tls = typed === `${ExistingStorageKind.EFS}+tls`;
  const kind = Object.values(ExistingStorageKind).find((k) => k === (tls ? ExistingStorageKind.EFS : typed));
  if (kind === undefined) throw refuse(`'${typed}' is no kind; the kinds are ${Object.values(ExistingStorageKind).join(', ')} (and efs+tls)`);
  const path = rest.length > 0 ? rest.join(':') : undefined;
  const prop = kind === ExistingStorageKind.NFS ? EXISTING_PROP.address : EXISTING_PROP.fileSystemId;
  const idProblem = existingValueProblem(prop, id ?? '');
  if (idProblem !== undefined) throw refuse(`${JSON.stringify(id ?? '')} ${idProblem.replace(/^must be/, 'is not')}`);
  const pathProblem = existingPathProblem(kind, path);
  if (pathProblem !== undefined) throw refuse(pathProblem);
  return { kind, id, ...(path !== undefined ? { path } : {}), ...(tls ? { tls } : {}) };
}
