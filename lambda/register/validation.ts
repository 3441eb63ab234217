/**
 * The registration's trust boundary: the grammar of each value its ResourceProperties carry, and the parse that checks
 * raw properties against it before the handler acts on them. The values are ids, paths, mount options and an FSx
 * backend's target, whose own rules come from that backend's entry in fsx-targets.ts. The construct runs the same
 * checks at synth time, so a bad value fails there first.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { isFsxBackend, validateBackend, type FsxBackend } from './backend';
import { FSX_TARGETS } from './fsx-targets';
import { EXISTING_KINDS, EXISTING_PROP, FILE_SYSTEM_ID, isExistingKind, parseExistingTarget, type ExistingKind } from './existing/target';
import { validateServerNames, type NameKey } from './paths';
import { FSX_PROP, OPTIONAL_PROP, PROP, type FsxTarget, type RegistrationProperties } from './properties';

/** Path and option lengths that keep the mount record under SSM's 4 KB, since its `fstab` repeats them. */
export const MAX_PATH_LENGTH = 255;
/** Longest mount option list, for the same reason as {@link MAX_PATH_LENGTH}. */
export const MAX_OPTIONS_LENGTH = 1024;

const INSTANCE_ID = /^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const NETWORK_INTERFACE_ID = /^eni-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
/**
 * An FSx file system's DNS name, for Lustre and OpenZFS alike, as the client mount script accepts it: FSX_DNS in
 * lib/scripts/client_mount.py.
 */
export const FSX_DNS_NAME = /^fs-[0-9a-f]{8,17}\.fsx\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const AVAILABILITY_ZONE = /^(?:[a-z]{2}(?:-[a-z]+)+-\d[a-z]|)$/;
const NO_SPACE = /^[^\s\0-\x1f\x7f]+$/;

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

/**
 * Validates an FSx registration's target, the `FSX_PROP` properties, for its backend; throws naming the field, the rule
 * and the value. The mount name and the deployment follow the backend's rules in fsx-targets.ts.
 */
export function validateFsxTarget(field: (key: string) => string, t: FsxTarget, backend: FsxBackend): void {
  const check = (key: string, value: string, ok: boolean, rule: string) => {
    if (!ok) throw new Error(`${field(key)} must be ${rule}, got ${JSON.stringify(value)}`);
  };
  const rules = FSX_TARGETS[backend];
  check(FSX_PROP.fileSystemId, t.fileSystemId, FILE_SYSTEM_ID.test(t.fileSystemId),
    "an FSx file system id ('fs-' and 8 or 17 lower-case hex digits)");
  check(FSX_PROP.dnsName, t.dnsName, FSX_DNS_NAME.test(t.dnsName) && t.dnsName.startsWith(`${t.fileSystemId}.`),
    `the file system's DNS name (${t.fileSystemId}.fsx.<region>.amazonaws.com)`);
  check(FSX_PROP.mountName, t.mountName, rules.mountName.valid(t.mountName), rules.mountName.rule);
  check(FSX_PROP.availabilityZone, t.availabilityZone, AVAILABILITY_ZONE.test(t.availabilityZone), "an Availability Zone name (e.g. 'us-east-1a') or empty");
  const { deployment } = rules;
  check(FSX_PROP.deployment, t.deployment, deployment.grammar.test(t.deployment), `${deployment.rule} for ${backend}`);
}

/**
 * Validates raw ResourceProperties, whose values all arrive from CloudFormation as strings, and returns them typed.
 * Throws an Error naming every missing key, or the first invalid one with its value and the rule.
 */
export function parseRegistrationProperties(
  raw: Record<string, unknown> | undefined,
): RegistrationProperties {
  if (raw === undefined || raw === null || typeof raw !== 'object') {
    throw new Error(`ResourceProperties is missing; expected the keys ${Object.values(PROP).join(', ')}`);
  }
  if (raw[EXISTING_PROP.fileSystemId] !== undefined || raw[EXISTING_PROP.address] !== undefined) return withExisting(raw);
  // An FSx registration names a file system instead of an instance.
  const backend = raw[PROP.backend];
  const isFsx = isFsxBackend(backend);
  requireKeys(raw, isFsx ? backend : undefined);
  const get = stringReader(raw);
  const props = commonProperties(get, isFsx);
  validateCommon(props, isFsx);
  return isFsx ? withFileSystem(props, backend, get, raw) : withNetworkInterface(props, get, raw);
}

/** The properties every registration has, validated. */
type CommonProperties = Omit<RegistrationProperties, 'fsx' | 'existing' | 'networkInterfaceId'>;
/** The same, read but not yet checked: the backend still any string. */
type UncheckedProperties = Omit<CommonProperties, 'backend'> & { readonly backend: string };

const field = (key: string): string => `ResourceProperties.${key}`;

/**
 * Throws naming every required key that is absent or empty. An FSx registration names a file system, not an instance,
 * and its backend's rules say whether `MountName` may be absent.
 */
function requireKeys(raw: Record<string, unknown>, fsx: FsxBackend | undefined): void {
  const optional: string[] = [FSX_PROP.availabilityZone, ...(fsx && FSX_TARGETS[fsx].mountName.optional ? [FSX_PROP.mountName] : [])];
  const required: string[] = fsx
    ? [...Object.values(PROP).filter((k) => k !== PROP.instanceId), ...Object.values(FSX_PROP).filter((k) => !optional.includes(k))]
    : Object.values(PROP);
  const missing = required.filter(
    (key) => raw[key] === undefined || raw[key] === null || raw[key] === '',
  );
  if (missing.length > 0) {
    throw new Error(`ResourceProperties is missing ${missing.join(', ')}; each must be a non-empty string`);
  }
}

/** Reads one property, which must be a string. */
function stringReader(raw: Record<string, unknown>): (key: string) => string {
  return (key) => {
    const value = raw[key];
    if (typeof value !== 'string') {
      throw new Error(`ResourceProperties.${key} must be a string, got ${JSON.stringify(value)}`);
    }
    return value;
  };
}

/** The common properties as strings, each read in order before any is validated. */
function commonProperties(get: (key: string) => string, isFsx: boolean): UncheckedProperties {
  return {
    instanceId: isFsx ? '' : get(PROP.instanceId),
    clusterName: get(PROP.clusterName),
    serverName: get(PROP.serverName),
    parameterPrefix: get(PROP.parameterPrefix),
    exportPath: get(PROP.exportPath),
    mountPoint: get(PROP.mountPoint),
    mountOptions: get(PROP.mountOptions),
    backend: get(PROP.backend),
  };
}

/** Checks each common property against its grammar, in {@link PROP} order; an existing storage's backend is its kind. */
function validateCommon(props: UncheckedProperties, isFsx: boolean, existing = false): asserts props is CommonProperties {
  if (!isFsx && !existing) validateInstanceId(field(PROP.instanceId), props.instanceId);
  validateServerNames((key: NameKey) => field(PROP[key]), props.parameterPrefix, props.clusterName, props.serverName);
  validatePath(field(PROP.exportPath), props.exportPath);
  validatePath(field(PROP.mountPoint), props.mountPoint);
  validateMountOptions(field(PROP.mountOptions), props.mountOptions);
  if (!existing) validateBackend(field(PROP.backend), props.backend);
  else if (!isExistingKind(props.backend)) {
    throw new Error(`${field(PROP.backend)} of existing storage must be one of ${EXISTING_KINDS.join(', ')}, got ${JSON.stringify(props.backend)}`);
  }
}

/**
 * Existing storage: named by a file system id or an address (existing/target.ts) instead of an instance or this stack's
 * file system, whose keys it refuses beside it.
 */
function withExisting(raw: Record<string, unknown>): RegistrationProperties {
  const foreign = [PROP.instanceId, ...Object.values(FSX_PROP), OPTIONAL_PROP.networkInterfaceId].filter((k) => raw[k] !== undefined);
  if (foreign.length > 0) {
    throw new Error(`${foreign.map(field).join(', ')} cannot be given beside ${EXISTING_PROP.fileSystemId} or ${EXISTING_PROP.address}`);
  }
  const required = Object.values(PROP).filter((k) => k !== PROP.instanceId);
  const missing = required.filter((key) => raw[key] === undefined || raw[key] === null || raw[key] === '');
  if (missing.length > 0) throw new Error(`ResourceProperties is missing ${missing.join(', ')}; each must be a non-empty string`);
  const get = stringReader(raw);
  const props = commonProperties(get, true);
  validateCommon(props, false, true);
  // validateCommon has checked that the backend is a kind.
  const existing = parseExistingTarget(props.backend as ExistingKind, get, (key) => raw[key] !== undefined, field);
  return { ...props, existing };
}

/** An FSx registration: its file system, and the path its backend's rules say it exports. */
function withFileSystem(
  props: CommonProperties,
  backend: FsxBackend,
  get: (key: string) => string,
  raw: Record<string, unknown>,
): RegistrationProperties {
  const rules = FSX_TARGETS[backend];
  const optional = (key: string): string => (raw[key] === undefined ? '' : get(key));
  const fsx: FsxTarget = {
    fileSystemId: get(FSX_PROP.fileSystemId),
    dnsName: get(FSX_PROP.dnsName),
    mountName: rules.mountName.optional ? optional(FSX_PROP.mountName) : get(FSX_PROP.mountName),
    availabilityZone: optional(FSX_PROP.availabilityZone),
    deployment: get(FSX_PROP.deployment),
  };
  validateFsxTarget(field, fsx, backend);
  if (!rules.exportPath.valid(props.exportPath, fsx.mountName)) {
    throw new Error(`${field(PROP.exportPath)} must be ${rules.exportPath.rule(fsx.mountName)}, got ${JSON.stringify(props.exportPath)}`);
  }
  return { ...props, fsx };
}

/** An EC2 registration: with its stable network interface when one is given. */
function withNetworkInterface(
  props: CommonProperties,
  get: (key: string) => string,
  raw: Record<string, unknown>,
): RegistrationProperties {
  const rawInterface = raw[OPTIONAL_PROP.networkInterfaceId];
  if (rawInterface === undefined || rawInterface === '') return props;
  const networkInterfaceId = get(OPTIONAL_PROP.networkInterfaceId);
  validateNetworkInterfaceId(field(OPTIONAL_PROP.networkInterfaceId), networkInterfaceId);
  return { ...props, networkInterfaceId };
}
