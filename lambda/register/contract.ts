/**
 * The registration contract (docs/design.md, sections 6 and 7), shared by the CDK construct
 * (lib/registration.ts) and the Lambda handler (lambda/register/index.ts) so the two cannot drift.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */

/** ResourceProperties keys of the registration custom resource. */
export const PROP = {
  instanceId: 'InstanceId',
  clusterName: 'ClusterName',
  serverName: 'ServerName',
  parameterPrefix: 'ParameterPrefix',
  exportPath: 'ExportPath',
  mountPoint: 'MountPoint',
  mountOptions: 'MountOptions',
  backend: 'Backend',
} as const;

/**
 * Optional ResourceProperties: `NetworkInterfaceId`, the server's stable network interface (an ENI the server
 * attaches to itself and keeps across instance replacement). When given, the records carry the interface's
 * address, and registration fails unless the interface is attached to the instance (the server has taken its
 * address, so clients are never pointed at an address nobody serves).
 */
export const OPTIONAL_PROP = {
  networkInterfaceId: 'NetworkInterfaceId',
} as const;

/**
 * ResourceProperties of an FSx for Lustre registration, which has no instance: they take the place of
 * `InstanceId` (the file system is AVAILABLE once CloudFormation has created it, so nothing is described).
 */
export const FSX_PROP = {
  fileSystemId: 'FileSystemId',
  dnsName: 'DnsName',
  mountName: 'MountName',
  availabilityZone: 'AvailabilityZone',
  deployment: 'Deployment',
} as const;

/** Keys of the custom resource's `Data` (readable with `Fn::GetAtt`). */
export const DATA = {
  ringParameterName: 'RingParameterName',
  mountParameterName: 'MountParameterName',
  privateIp: 'PrivateIp',
} as const;

/** SSM Parameter Store prefix of the records when none is given (docs/design.md, section 6). */
export const DEFAULT_PARAMETER_PREFIX = '/storage-server';
/** The storage backends a record may name. */
export const BACKENDS = ['ebs', 'instance-store', 'fsx-lustre'] as const;
/**
 * Where the data lives: durable EBS st1 volumes (`ebs`), the instance's local disks, lost on stop
 * (`instance-store`), or an Amazon FSx for Lustre file system, a managed parallel file system, beyond what one
 * server holds or sustains (`fsx-lustre`). The planner's, the records' and the update guard's backend.
 */
export type Backend = (typeof BACKENDS)[number];

/** Longest cluster or server name (`NAME_PATTERN` in lib/validation.ts allows 1-64 characters too). */
export const MAX_NAME_LENGTH = 64;
/**
 * Longest prefix. SSM counts a name's whole ARN against 1011 characters; with 64-character cluster and
 * server names the mount record's name adds 144 characters to the prefix, so 512 leaves room for the
 * longest partition and region in the ARN.
 */
export const MAX_PREFIX_LENGTH = 512;
/** SSM allows 15 levels; the mount record adds 4 below the prefix (cluster/storage/server/mount). */
export const MAX_PREFIX_LEVELS = 11;
/** Path and option lengths that keep the mount record (which repeats them in `fstab`) under SSM's 4 KB. */
export const MAX_PATH_LENGTH = 255;
/** Longest mount option list, for the same reason as {@link MAX_PATH_LENGTH}. */
export const MAX_OPTIONS_LENGTH = 1024;

/**
 * Ring member record: `<prefix>/<cluster>/ring/<server>`. An EC2 NFS server's carries `instanceId`; an FSx for
 * Lustre file system's carries `fileSystemId` instead (docs/design.md, section 6).
 */
export type RingRecord = Ec2RingRecord | FsxRingRecord;

/** The fields every ring member record has. */
export interface RingRecordBase {
  /** The server's name in the ring (`serverName`). */
  readonly name: string;
  /** The member's role in the ring; always `storage` for a storage server. */
  readonly role: 'storage';
  /** The server's private IPv4 address; empty for FSx for Lustre, which clients reach by its DNS name. */
  readonly privateIp: string;
  /** The server's private DNS name (FSx: the file system's DNS name); empty when EC2 reports none. */
  readonly privateDnsName: string;
  /** Availability Zone of the instance or file system; empty when unknown. */
  readonly availabilityZone: string;
  /**
   * EC2 instance type, e.g. `m4.2xlarge`; for FSx for Lustre the deployment, e.g. `PERSISTENT_2/SSD/125`; empty
   * when EC2 reports none.
   */
  readonly instanceType: string;
  /** Where the server's data lives. */
  readonly backend: Backend;
  /** ISO 8601 time of the registration. */
  readonly registeredAt: string;
}

/** The ring record of an EC2 NFS server (backend `ebs` or `instance-store`). */
export interface Ec2RingRecord extends RingRecordBase {
  /** EC2 instance id of the server. */
  readonly instanceId: string;
}

/** The ring record of an FSx for Lustre file system. */
export interface FsxRingRecord extends RingRecordBase {
  /** The file system's id, `fs-...`. */
  readonly fileSystemId: string;
}

/** Mount config record: `<prefix>/<cluster>/storage/<server>/mount`. */
export interface MountRecord {
  /** The server's private IP; for FSx for Lustre the file system's DNS name. */
  readonly server: string;
  /** The directory the server exports; for FSx for Lustre `/<mountName>`. */
  readonly exportPath: string;
  /** The directory clients mount the export on. */
  readonly mountPoint: string;
  /** File system type for mount and fstab: `nfs4`, or `lustre` for FSx for Lustre. */
  readonly fsType: FsType;
  /** Client mount options. */
  readonly options: string;
  /** The complete fstab line. */
  readonly fstab: string;
}

/** The file system types of a mount config. */
export type FsType = 'nfs4' | 'lustre';

/** What an FSx for Lustre registration names instead of an instance. */
export interface FsxTarget {
  /** The file system's id, `fs-...`. */
  readonly fileSystemId: string;
  /** The file system's DNS name, `fs-....fsx.<region>.amazonaws.com`. */
  readonly dnsName: string;
  /** The file system's Lustre mount name (8 characters; `fsx` for SCRATCH_1). */
  readonly mountName: string;
  /** Availability Zone of the file system's subnet; may be empty. */
  readonly availabilityZone: string;
  /** The deployment, e.g. `PERSISTENT_2/SSD/125`, recorded as the ring record's `instanceType`. */
  readonly deployment: string;
}

/** The ResourceProperties of the custom resource, validated. */
export interface RegistrationProperties {
  /** EC2 instance id of the server to register; `''` for FSx for Lustre (see `fsx`). */
  readonly instanceId: string;
  /** The FSx for Lustre file system to register (backend `fsx-lustre`), instead of an instance. */
  readonly fsx?: FsxTarget;
  /** The cluster the server serves. */
  readonly clusterName: string;
  /** The server's name in the ring. */
  readonly serverName: string;
  /** SSM Parameter Store prefix of the records. */
  readonly parameterPrefix: string;
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The directory clients mount the export on. */
  readonly mountPoint: string;
  /** Client mount options. */
  readonly mountOptions: string;
  /** The server's stable network interface (`eni-...`), when it has one: its address is the server's. */
  readonly networkInterfaceId?: string;
  /** Where the server's data lives. */
  readonly backend: Backend;
}

const NAME = /^[A-Za-z0-9_.-]+$/;
const INSTANCE_ID = /^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const NETWORK_INTERFACE_ID = /^eni-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const FILE_SYSTEM_ID = /^fs-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
/** An FSx for Lustre DNS name, as the client mount script accepts it (lib/scripts/client-mount.sh, FSX_DNS). */
export const FSX_DNS_NAME = /^fs-[0-9a-f]{8,17}\.fsx\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
/** A Lustre mount name: FSx gives 8 lower-case letters and digits (`fsx` on SCRATCH_1). */
export const LUSTRE_MOUNT_NAME = /^[a-z0-9]{3,8}$/;
const AVAILABILITY_ZONE = /^(?:[a-z]{2}(?:-[a-z]+)+-\d[a-z]|)$/;
const DEPLOYMENT = /^(SCRATCH_2|PERSISTENT_1|PERSISTENT_2)\/(SSD|HDD)\/\d{1,4}$/;
const NO_SPACE = /^[^\s\0-\x1f\x7f]+$/;

/** A cluster or server name: `[A-Za-z0-9_.-]`, 1-64 characters (one SSM path level). */
export function validateName(field: string, value: string): void {
  if (value.length < 1 || value.length > MAX_NAME_LENGTH || !NAME.test(value)) {
    throw new Error(
      `${field} must be 1-${MAX_NAME_LENGTH} characters of A-Z, a-z, 0-9, '_', '.' or '-' ` +
        `(one SSM parameter path level), got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * An SSM path prefix: '/'-separated levels of `[A-Za-z0-9_.-]`, starting with '/', no trailing '/',
 * the first level not starting with 'aws' or 'ssm' (reserved by SSM), at most 11 levels and 512 characters.
 */
export function validatePrefix(field: string, value: string): void {
  const levels = value.split('/').slice(1);
  const problem = !value.startsWith('/')
    ? "must start with '/'"
    : levels.some((l) => !NAME.test(l))
      ? "must be '/'-separated non-empty levels of A-Z, a-z, 0-9, '_', '.' or '-' with no trailing '/'"
      : /^(aws|ssm)/i.test(levels[0])
        ? "must not start with 'aws' or 'ssm' (reserved by SSM)"
        : levels.length > MAX_PREFIX_LEVELS
          ? `must have at most ${MAX_PREFIX_LEVELS} levels (SSM allows 15; the records add 4)`
          : value.length > MAX_PREFIX_LENGTH
            ? `must be at most ${MAX_PREFIX_LENGTH} characters`
            : undefined;
  if (problem) throw new Error(`${field} ${problem}, got ${JSON.stringify(value)}`);
}

/** An absolute path usable as one fstab field: starts with '/', no whitespace, at most 255 characters. */
export function validatePath(field: string, value: string): void {
  if (!value.startsWith('/') || !NO_SPACE.test(value) || value.length > MAX_PATH_LENGTH) {
    throw new Error(
      `${field} must be an absolute path without whitespace, at most ${MAX_PATH_LENGTH} characters, ` +
        `got ${JSON.stringify(value)}`,
    );
  }
}

/** NFS mount options as one fstab field: non-empty, no whitespace, at most 1024 characters. */
export function validateMountOptions(field: string, value: string): void {
  if (!NO_SPACE.test(value) || value.length > MAX_OPTIONS_LENGTH) {
    throw new Error(
      `${field} must be a non-empty comma-separated option list without whitespace, at most ` +
        `${MAX_OPTIONS_LENGTH} characters, got ${JSON.stringify(value)}`,
    );
  }
}

/** A storage backend: one of {@link BACKENDS}. */
export function validateBackend(field: string, value: string): asserts value is Backend {
  if (!(BACKENDS as readonly string[]).includes(value)) {
    throw new Error(`${field} must be one of ${BACKENDS.join(', ')}, got ${JSON.stringify(value)}`);
  }
}

/** An EC2 instance id: `i-` and 8 or 17 lower-case hex digits. */
export function validateInstanceId(field: string, value: string): void {
  if (!INSTANCE_ID.test(value)) {
    throw new Error(
      `${field} must be an EC2 instance id ('i-' and 8 or 17 lower-case hex digits), got ${JSON.stringify(value)}`,
    );
  }
}

/** An EC2 network interface id: `eni-` and 8 or 17 lower-case hex digits. */
export function validateNetworkInterfaceId(field: string, value: string): void {
  if (!NETWORK_INTERFACE_ID.test(value)) {
    throw new Error(
      `${field} must be an EC2 network interface id ('eni-' and 8 or 17 lower-case hex digits), got ${JSON.stringify(value)}`,
    );
  }
}

/** `<prefix>/<cluster>/ring/<server>`: the server's ring member record. */
export function ringParameterName(prefix: string, cluster: string, server: string): string {
  return `${prefix}/${cluster}/ring/${server}`;
}

/** `<prefix>/<cluster>/storage/<server>/mount`: the server's mount config record. */
export function mountParameterName(prefix: string, cluster: string, server: string): string {
  return `${storagePath(prefix, cluster)}${server}/mount`;
}

/** `<prefix>/<cluster>/storage/`: where a client finds every storage server of its cluster. */
export function storagePath(prefix: string, cluster: string): string {
  return `${prefix}/${cluster}/storage/`;
}

/** `<prefix>/<cluster>/ring/`: every ring member of a cluster. */
export function ringPath(prefix: string, cluster: string): string {
  return `${prefix}/${cluster}/ring/`;
}

/**
 * Splits a ring parameter name back into prefix, cluster and server, or returns undefined when the name
 * is not one (the handler's Delete works from the PhysicalResourceId, which is the ring parameter name).
 */
export function parseRingParameterName(
  name: string,
): { prefix: string; clusterName: string; serverName: string } | undefined {
  const m = /^(\/.+)\/([^/]+)\/ring\/([^/]+)$/.exec(name);
  if (!m) return undefined;
  const [, prefix, clusterName, serverName] = m;
  try {
    validatePrefix('prefix', prefix);
    validateName('cluster', clusterName);
    validateName('server', serverName);
  } catch {
    return undefined;
  }
  return { prefix, clusterName, serverName };
}

/**
 * The fstab line a client uses: `<ip>:<exportPath> <mountPoint> nfs4 <options> 0 0`, or for FSx for Lustre
 * `<dnsName>@tcp:/<mountName> <mountPoint> lustre <options> 0 0` (the FSx for Lustre guide's fstab form).
 */
export function fstabLine(server: string, exportPath: string, mountPoint: string, options: string, fsType: FsType = 'nfs4'): string {
  const source = fsType === 'lustre' ? `${server}@tcp:${exportPath}` : `${server}:${exportPath}`;
  return `${source} ${mountPoint} ${fsType} ${options} 0 0`;
}

/** The mount config record for a server at `server` (an IP; for `lustre` the file system's DNS name). */
export function mountRecord(
  server: string,
  exportPath: string,
  mountPoint: string,
  options: string,
  fsType: FsType = 'nfs4',
): MountRecord {
  return {
    server,
    exportPath,
    mountPoint,
    fsType,
    options,
    fstab: fstabLine(server, exportPath, mountPoint, options, fsType),
  };
}

/** Validates an FSx registration's target (the `FSX_PROP` properties); throws naming the field and the value. */
export function validateFsxTarget(field: (key: string) => string, t: FsxTarget): void {
  const check = (key: string, value: string, ok: boolean, rule: string) => {
    if (!ok) throw new Error(`${field(key)} must be ${rule}, got ${JSON.stringify(value)}`);
  };
  check(FSX_PROP.fileSystemId, t.fileSystemId, FILE_SYSTEM_ID.test(t.fileSystemId),
    "an FSx file system id ('fs-' and 8 or 17 lower-case hex digits)");
  check(FSX_PROP.dnsName, t.dnsName, FSX_DNS_NAME.test(t.dnsName) && t.dnsName.startsWith(`${t.fileSystemId}.`),
    `the file system's DNS name (${t.fileSystemId}.fsx.<region>.amazonaws.com)`);
  check(FSX_PROP.mountName, t.mountName, LUSTRE_MOUNT_NAME.test(t.mountName), 'a Lustre mount name (3-8 lower-case letters and digits)');
  check(FSX_PROP.availabilityZone, t.availabilityZone, AVAILABILITY_ZONE.test(t.availabilityZone), "an Availability Zone name (e.g. 'us-east-1a') or empty");
  check(FSX_PROP.deployment, t.deployment, DEPLOYMENT.test(t.deployment), "a deployment such as 'PERSISTENT_2/SSD/125'");
}

/**
 * Validates raw ResourceProperties (all values arrive as strings from CloudFormation) and returns them
 * typed. Throws an Error naming every missing key, or the first invalid one with its value and the rule.
 */
export function parseRegistrationProperties(
  raw: Record<string, unknown> | undefined,
): RegistrationProperties {
  if (raw === undefined || raw === null || typeof raw !== 'object') {
    throw new Error(`ResourceProperties is missing; expected the keys ${Object.values(PROP).join(', ')}`);
  }
  // An FSx for Lustre registration names a file system instead of an instance.
  const isFsx = raw[PROP.backend] === 'fsx-lustre';
  const required: string[] = isFsx
    ? [...Object.values(PROP).filter((k) => k !== PROP.instanceId), ...Object.values(FSX_PROP).filter((k) => k !== FSX_PROP.availabilityZone)]
    : Object.values(PROP);
  const missing = required.filter(
    (key) => raw[key] === undefined || raw[key] === null || raw[key] === '',
  );
  if (missing.length > 0) {
    throw new Error(`ResourceProperties is missing ${missing.join(', ')}; each must be a non-empty string`);
  }
  const get = (key: string): string => {
    const value = raw[key];
    if (typeof value !== 'string') {
      throw new Error(`ResourceProperties.${key} must be a string, got ${JSON.stringify(value)}`);
    }
    return value;
  };
  const field = (key: string): string => `ResourceProperties.${key}`;
  const props = {
    instanceId: isFsx ? '' : get(PROP.instanceId),
    clusterName: get(PROP.clusterName),
    serverName: get(PROP.serverName),
    parameterPrefix: get(PROP.parameterPrefix),
    exportPath: get(PROP.exportPath),
    mountPoint: get(PROP.mountPoint),
    mountOptions: get(PROP.mountOptions),
    backend: get(PROP.backend),
  };
  if (!isFsx) validateInstanceId(field(PROP.instanceId), props.instanceId);
  validateName(field(PROP.clusterName), props.clusterName);
  validateName(field(PROP.serverName), props.serverName);
  validatePrefix(field(PROP.parameterPrefix), props.parameterPrefix);
  validatePath(field(PROP.exportPath), props.exportPath);
  validatePath(field(PROP.mountPoint), props.mountPoint);
  validateMountOptions(field(PROP.mountOptions), props.mountOptions);
  const backend = props.backend;
  validateBackend(field(PROP.backend), backend);
  if (isFsx) {
    const fsx: FsxTarget = {
      fileSystemId: get(FSX_PROP.fileSystemId),
      dnsName: get(FSX_PROP.dnsName),
      mountName: get(FSX_PROP.mountName),
      availabilityZone: raw[FSX_PROP.availabilityZone] === undefined ? '' : get(FSX_PROP.availabilityZone),
      deployment: get(FSX_PROP.deployment),
    };
    validateFsxTarget(field, fsx);
    if (props.exportPath !== `/${fsx.mountName}`) {
      throw new Error(`${field(PROP.exportPath)} must be '/' and the mount name (${JSON.stringify(`/${fsx.mountName}`)}) for FSx for Lustre, got ${JSON.stringify(props.exportPath)}`);
    }
    return { ...props, backend, fsx };
  }
  const rawInterface = raw[OPTIONAL_PROP.networkInterfaceId];
  if (rawInterface === undefined || rawInterface === '') return { ...props, backend };
  const networkInterfaceId = get(OPTIONAL_PROP.networkInterfaceId);
  validateNetworkInterfaceId(field(OPTIONAL_PROP.networkInterfaceId), networkInterfaceId);
  return { ...props, backend, networkInterfaceId };
}
