/**
 * Validators shared by the app's context parser (lib/context.ts) and the StorageServer construct: one rule,
 * one place, so the CLI and the library cannot drift. Pure functions, no constructs: each returns the reason
 * a value is bad (a phrase the caller wraps with the key or prop name), or undefined when it is good.
 */
import { Token } from 'aws-cdk-lib';
import type { StoragePlan } from './sizing';

/** Names valid for `clusterName` and `serverName`: they become parts of SSM parameter paths. */
export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Private IPv4 address space a client CIDR or the clusterware master must lie in unless public addresses are
 * allowed deliberately: RFC 1918 and the shared (carrier-grade NAT) space of RFC 6598.
 */
export const PRIVATE_IPV4_CIDRS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'] as const;

/**
 * Directories of the operating system that neither the export (`exportPath`, on the server) nor the mount point
 * (`mountPoint`, on the clients) may be or lie under: mounting the data there hides the system's own files.
 * lib/scripts/client-mount.sh holds the same list (a unit test compares them).
 */
export const SYSTEM_DIRECTORIES = ['/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run', '/sbin', '/sys', '/tmp', '/usr', '/var'] as const;

/** Where an address or CIDR may lie: see {@link addressSpaceProblem}. */
export interface AddressSpaceOptions {
  /**
   * The VPC's CIDR. A concrete one admits addresses inside it even when they are public (a VPC may use public
   * space); a token (a VPC created in the same stack) admits nothing beyond private space.
   * @default - private space only
   */
  readonly vpcCidr?: string;
  /**
   * Admit public addresses (the `allowPublicClientCidrs` opt-in).
   * @default false
   */
  readonly allowPublic?: boolean;
}

/** What a directory path may be: see {@link directoryProblem}. */
export interface DirectoryOptions {
  /**
   * Allow `/home` and directories under it (home directories on NFS, common in HPC: the `allowHomeMountPoint` opt-in).
   * @default false
   */
  readonly allowHome?: boolean;
}

/** Placeholder CIDR of `Vpc.fromLookup()` before the lookup has run (aws-cdk-lib's DUMMY_VPC_PROPS). */
const LOOKUP_PLACEHOLDER_CIDR = '1.2.3.4/5';

/**
 * Whether `vpcCidr` is the placeholder of a `Vpc.fromLookup()` that has not run yet: the first synth of an app
 * with a VPC lookup sees CDK's dummy VPC (its subnets are s-12345, p-12345, ...), the CLI then looks the VPC up
 * and synthesizes again. Whatever depends on the real VPC (its CIDR, a subnet by id) is decided on that run.
 */
export function isLookupPlaceholder(vpcCidr: string): boolean {
  return vpcCidr === LOOKUP_PLACEHOLDER_CIDR;
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

interface Network { address: number; prefix: number }

/** The four octets as one unsigned 32-bit number, or a reason the text is not a canonical dotted quad. */
function parseDottedQuad(text: string): number | string {
  const m = DOTTED_QUAD.exec(text);
  if (!m) return 'not an IPv4 address of four numbers 0-255 such as 10.0.1.10';
  const octets = m.slice(1, 5);
  if (octets.some((o) => Number(o) > 255)) return 'each of the four numbers must be 0-255';
  if (octets.some((o) => o.length > 1 && o.startsWith('0'))) {
    // inet_aton() reads 010 as octal 8: the same text would mean another address to some tools.
    const canonical = octets.map(Number).join('.');
    return `a number has a leading zero, which some tools read as octal; write ${canonical}`;
  }
  return octets.reduce((acc, o) => acc * 256 + Number(o), 0);
}

function formatAddress(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');
}

function networkOf(cidr: string): Network {
  const [address, prefix] = cidr.split('/');
  return { address: parseDottedQuad(address) as number, prefix: Number(prefix) };
}

function contains(outer: Network, inner: Network): boolean {
  if (inner.prefix < outer.prefix) return false;
  const size = 2 ** (32 - outer.prefix);
  return Math.floor(inner.address / size) === Math.floor(outer.address / size);
}

/**
 * Validates one IPv4 CIDR in canonical form: four numbers 0-255 without leading zeros, a prefix length 1-32
 * without a leading zero, and no host bits set (`10.0.0.1/16` is refused: the network is `10.0.0.0/16`).
 * Returns the reason it is bad, or undefined when it is good. Address space is {@link addressSpaceProblem}'s.
 */
export function cidrProblem(cidr: string): string | undefined {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(cidr);
  if (!m) return 'not an IPv4 CIDR such as 10.0.0.0/16 (four numbers 0-255, then /, then a prefix length 1-32)';
  const address = parseDottedQuad(m[1]);
  if (typeof address === 'string') {
    return address.startsWith('not ') ? 'not an IPv4 CIDR such as 10.0.0.0/16 (four numbers 0-255, then /, then a prefix length 1-32)' : address;
  }
  const prefix = Number(m[2]);
  if (prefix === 0) return 'a /0 (every IPv4 address) is refused: the prefix length must be 1-32';
  if (prefix > 32) return 'the prefix length must be 1-32';
  if (m[2].startsWith('0')) return `the prefix length has a leading zero; write /${prefix}`;
  const size = 2 ** (32 - prefix);
  const network = Math.floor(address / size) * size;
  if (network !== address) return `host bits are set; the network is ${formatAddress(network)}/${prefix}`;
  return undefined;
}

/**
 * Validates one IPv4 host address (e.g. the clusterware master's `loginIp`): a canonical dotted quad without
 * leading zeros that names one host: not 0.0.0.0, the broadcast address, loopback (127/8), link-local
 * (169.254/16), multicast (224/4) or reserved (240/4). Returns the reason it is bad, or undefined.
 */
export function ipv4Problem(ip: string): string | undefined {
  const address = parseDottedQuad(ip);
  if (typeof address === 'string') return address;
  const special: [string, string][] = [
    ['0.0.0.0/8', 'an address of "this network" (0.0.0.0/8), not a host'],
    ['127.0.0.0/8', 'a loopback address (127.0.0.0/8): every host is its own'],
    ['169.254.0.0/16', 'a link-local address (169.254.0.0/16), not routed beyond one link'],
    ['224.0.0.0/4', 'a multicast address (224.0.0.0/4), not a host'],
    ['255.255.255.255/32', 'the broadcast address, not a host'],
    ['240.0.0.0/4', 'a reserved address (240.0.0.0/4), not a host'],
  ];
  const found = special.find(([cidr]) => contains(networkOf(cidr), { address, prefix: 32 }));
  return found?.[1];
}

/**
 * Checks that a canonical CIDR (or a canonical address, taken as /32) lies inside private address space
 * ({@link PRIVATE_IPV4_CIDRS}) or inside a concrete VPC CIDR, unless `allowPublic`. Returns the reason it is
 * bad, or undefined. Validate the form first ({@link cidrProblem}, {@link ipv4Problem}).
 */
export function addressSpaceProblem(cidrOrAddress: string, options: AddressSpaceOptions = {}): string | undefined {
  if (options.allowPublic) return undefined;
  const network = networkOf(cidrOrAddress.includes('/') ? cidrOrAddress : `${cidrOrAddress}/32`);
  if (PRIVATE_IPV4_CIDRS.some((p) => contains(networkOf(p), network))) return undefined;
  const vpcCidr = options.vpcCidr;
  if (vpcCidr !== undefined && !Token.isUnresolved(vpcCidr)) {
    // Before a Vpc.fromLookup() has run, CDK synthesizes once with a placeholder; the CLI then looks the VPC up
    // and synthesizes again, and that run decides.
    if (isLookupPlaceholder(vpcCidr)) return undefined;
    if (cidrProblem(vpcCidr) === undefined && contains(networkOf(vpcCidr), network)) return undefined;
    return `public address space outside private space (${PRIVATE_IPV4_CIDRS.join(', ')}) and outside the VPC's CIDR ` +
      `${vpcCidr}; set allowPublicClientCidrs to admit public addresses deliberately`;
  }
  return `public address space outside private space (${PRIVATE_IPV4_CIDRS.join(', ')}); ` +
    'set allowPublicClientCidrs to admit public addresses deliberately';
}

/**
 * Validates a directory for the export or the mount point: an absolute path of at most 255 characters in
 * `[A-Za-z0-9_.-]` segments (no empty, `.` or `..` segment, no trailing `/`; the client script's rule), not `/`, and neither one of {@link SYSTEM_DIRECTORIES} nor under
 * one (`/etc`, `/var/lib/nfs`); `/home` and below only with `allowHome`. Returns the reason it is bad, or undefined.
 */
export function directoryProblem(path: string, options: DirectoryOptions = {}): string | undefined {
  const segments = path.split('/').slice(1);
  if (path.length > 255) return `longer than 255 characters (${path.length})`;
  if (!path.startsWith('/') || path === '/' ||
    segments.some((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9_.-]+$/.test(s))) {
    return "not an absolute directory path of A-Z a-z 0-9 _ . - / (not '/', no '..', '.', '//' or trailing '/')";
  }
  const system = SYSTEM_DIRECTORIES.find((d) => path === d || path.startsWith(`${d}/`));
  if (system === '/home' && options.allowHome) return undefined;
  if (system !== undefined) {
    const hint = system === '/home' ? ' (for home directories on NFS set allowHomeMountPoint)' : '';
    return `${path === system ? 'a' : 'under a'} system directory (${system}), whose files the mount would hide; ` +
      `system directories are ${SYSTEM_DIRECTORIES.join(' ')}${hint}`;
  }
  return undefined;
}

/**
 * Where clients mount a storage server unless told otherwise: a record's `mountPoint` must be one of these or lie
 * below one (`/home` is added by `allowHomeMountPoint`). An allowlist: a deny list of system directories cannot
 * name every directory whose files a node runs as root (`/opt/aws`, `/snap`, `/nix`, ...).
 * lib/scripts/client-mount.sh holds the same default (`DEFAULT_MOUNT_ROOTS`; a unit test compares them).
 */
export const DEFAULT_MOUNT_ROOTS = ['/data', '/scratch', '/shared', '/fsx'] as const;

/** Where a mount point may be: see {@link mountPointProblem}. */
export interface MountPointOptions {
  /**
   * The mount roots: directories a mount point may be or lie below.
   * @default DEFAULT_MOUNT_ROOTS
   */
  readonly mountRoots?: readonly string[];
  /**
   * Add `/home` to the mount roots (home directories on NFS: the `allowHomeMountPoint` opt-in).
   * @default false
   */
  readonly allowHome?: boolean;
}

/**
 * Validates one mount root: a directory path as {@link directoryProblem} wants it, outside the system directories
 * (`/home` too: that is `allowHome`'s). The client script refuses the same roots. Returns the reason, or undefined.
 */
export function mountRootProblem(root: string): string | undefined {
  return directoryProblem(root);
}

/**
 * Validates a client mount point: an absolute directory path in `[A-Za-z0-9_.-]` segments (as
 * {@link directoryProblem}) that is one of the mount roots or lies below one; the client script applies the same
 * rule to every record it reads. Returns the reason it is bad, or undefined.
 */
export function mountPointProblem(path: string, options: MountPointOptions = {}): string | undefined {
  const roots = [...(options.mountRoots ?? DEFAULT_MOUNT_ROOTS), ...(options.allowHome ? ['/home'] : [])];
  const rule = `a mount point must be a mount root or below one: ${roots.join(' ')}`;
  // The system directory's reason first where there is one: it is the more telling (and names allowHomeMountPoint).
  const form = directoryProblem(path, { allowHome: options.allowHome });
  if (form !== undefined) return form.includes('system director') ? `${form}; ${rule}` : form;
  if (roots.some((r) => path === r || path.startsWith(`${r}/`))) return undefined;
  return `not a mount root or below one; the mount roots are ${roots.join(' ')}`;
}

/** The values that occur more than once, each once, in order of first repetition. */
export function duplicateValues(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) repeated.add(v);
    seen.add(v);
  }
  return [...repeated];
}

/** An e-mail address the alarm topic may subscribe (`alarmEmail`): one address, no spaces or commas. */
export const EMAIL_PATTERN = /^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/;

/**
 * An SNS topic ARN the alarms may notify (`alarmTopicArn`): a standard topic (CloudWatch alarms cannot publish to a
 * FIFO topic).
 */
export const TOPIC_ARN_PATTERN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;

/**
 * Whether `path` is an S3 path FSx for Lustre accepts as a data repository: `s3://<bucket>[/<prefix>]`, at most 900
 * characters (FSx API: ImportPath). Shared by the construct's prop and the app's context key.
 */
export function isS3DataRepositoryPath(path: string): boolean {
  return /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/\S*)?$/.test(path) && path.length <= 900;
}

/** An EBS snapshot id. */
export const SNAPSHOT_ID_PATTERN = /^snap-([0-9a-f]{8}|[0-9a-f]{17})$/;

/**
 * Checks a snapshot set to restore the data volumes from against the plan: the EBS backend, one distinct snapshot
 * id per data volume. Returns the reason it is bad, or undefined. Unresolved tokens pass the form check.
 */
export function snapshotSetProblem(plan: StoragePlan, ids: readonly string[]): string | undefined {
  const bad = ids.find((id) => !Token.isUnresolved(id) && !SNAPSHOT_ID_PATTERN.test(id));
  if (bad !== undefined) return `each entry must be a snapshot id such as 'snap-0123456789abcdef0', got '${bad}'`;
  const repeated = duplicateValues(ids.filter((id) => !Token.isUnresolved(id)));
  if (repeated.length > 0) {
    return `each data volume needs its own snapshot, but ${repeated.join(', ')} appears more than once`;
  }
  if (plan.backend !== 'ebs') return `only the EBS backend has data volumes, but the plan is ${plan.backend}`;
  if (ids.length !== plan.dataVolumes.length) {
    return `the plan has ${plan.dataVolumes.length} data volume(s), so give exactly ${plan.dataVolumes.length} ` +
      `snapshot id(s) in stripe order, got ${ids.length} (${ids.join(', ')})`;
  }
  return undefined;
}
