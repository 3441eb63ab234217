/**
 * Validators shared by the app's context parser (lib/context.ts) and the StorageServer construct: one rule,
 * one place, so the CLI and the library cannot drift. Pure functions, no constructs: each returns the reason
 * a value is bad (a phrase the caller wraps with the key or prop name), or undefined when it is good.
 */
import { Token } from 'aws-cdk-lib';
import type { StoragePlan } from './sizing';

/**
 * Names valid for `clusterName` and `serverName`: they become segments of SSM parameter paths (whose characters are
 * `a-zA-Z0-9_.-`: Systems Manager User Guide, "Parameter name requirements and constraints"), of the stack name and
 * of tag values. 1-64 characters, the first a letter or a digit: `.` and `..` would read as path segments of their
 * own, and a leading `-` as a command-line option.
 */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What {@link NAME_PATTERN} allows, in words, for messages. */
export const NAME_RULE = '1-64 characters from A-Z a-z 0-9 _ . -, the first a letter or a digit';

/**
 * The characters of a CloudWatch dashboard name (`[A-Za-z0-9_-]`, CloudWatch API Reference, PutDashboard): the
 * server's dashboard is named after `serverName`, so a server with a dashboard has no `.` in its name.
 */
export const DASHBOARD_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * A CloudFormation stack name (CloudFormation API Reference, CreateStack, StackName): letters, digits and hyphens,
 * starting with a letter, at most 128 characters.
 */
export const STACK_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

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

/**
 * IPv4 space that never holds an NFS client or a login node, from the IANA IPv4 Special-Purpose Address Registry
 * (RFC 6890): "this network" (RFC 791, RFC 1122 3.2.1.3), loopback (RFC 1122 3.2.1.3), link-local (RFC 3927),
 * multicast (RFC 5771), and the reserved block with the limited broadcast address (RFC 1112 4, RFC 919). Neither a
 * client CIDR nor a host address may touch it, even with `allowPublicClientCidrs`. Most specific first.
 */
export const SPECIAL_PURPOSE_IPV4: readonly { readonly cidr: string; readonly kind: string; readonly what: string }[] = [
  { cidr: '0.0.0.0/8', kind: '"this network"', what: 'an address of "this network" (0.0.0.0/8), not a host' },
  { cidr: '127.0.0.0/8', kind: 'loopback', what: 'a loopback address (127.0.0.0/8): every host is its own' },
  { cidr: '169.254.0.0/16', kind: 'link-local', what: 'a link-local address (169.254.0.0/16), not routed beyond one link' },
  { cidr: '224.0.0.0/4', kind: 'multicast', what: 'a multicast address (224.0.0.0/4), not a host' },
  { cidr: '255.255.255.255/32', kind: 'broadcast', what: 'the broadcast address, not a host' },
  { cidr: '240.0.0.0/4', kind: 'reserved', what: 'a reserved address (240.0.0.0/4), not a host' },
];

/**
 * The largest subnet a host address is taken to be in: every VPC subnet is a /16 to a /28 (Amazon VPC User Guide,
 * "Subnet CIDR blocks"), so an address whose last 16 bits are all 0 or all 1 is the network or broadcast address of
 * whatever subnet holds it (RFC 919, RFC 1122 3.2.1.3), never a host.
 */
export const LARGEST_SUBNET_PREFIX = 16;

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
 * leading zeros that names one host: not in `SPECIAL_PURPOSE_IPV4` (0/8, loopback, link-local, multicast,
 * reserved, broadcast), and not the network or broadcast address of its subnet (`LARGEST_SUBNET_PREFIX`).
 * Returns the reason it is bad, or undefined.
 */
export function ipv4Problem(ip: string): string | undefined {
  if (typeof ip !== 'string') return 'not a string';
  const address = parseDottedQuad(ip);
  if (typeof address === 'string') return address;
  const found = SPECIAL_PURPOSE_IPV4.find(({ cidr }) => contains(networkOf(cidr), { address, prefix: 32 }));
  if (found) return found.what;
  const size = 2 ** (32 - LARGEST_SUBNET_PREFIX);
  if (address % size === 0) {
    return `a network address (${ip} ends in .0.0): the first address of every subnet of /${LARGEST_SUBNET_PREFIX} or smaller that holds it, not a host`;
  }
  if (address % size === size - 1) {
    return `a broadcast address (${ip} ends in .255.255): the last address of every subnet of /${LARGEST_SUBNET_PREFIX} or smaller that holds it, not a host`;
  }
  return undefined;
}

/** The special-purpose block a canonical CIDR overlaps, if any: see `SPECIAL_PURPOSE_IPV4`. */
function specialPurposeProblem(network: Network): string | undefined {
  const found = SPECIAL_PURPOSE_IPV4.find(({ cidr }) => {
    const special = networkOf(cidr);
    return contains(special, network) || contains(network, special);
  });
  return found && `it holds ${found.kind} addresses (${found.cidr}), which are never clients, even with allowPublicClientCidrs`;
}

/**
 * Checks that a canonical CIDR (or a canonical address, taken as /32) lies inside private address space
 * ({@link PRIVATE_IPV4_CIDRS}) or inside a concrete VPC CIDR, unless `allowPublic`; with `allowPublic`, that it
 * touches no special-purpose block (`SPECIAL_PURPOSE_IPV4`: multicast, loopback, ...). Returns the reason it
 * is bad, or undefined. Validate the form first ({@link cidrProblem}, {@link ipv4Problem}).
 */
export function addressSpaceProblem(cidrOrAddress: string, options: AddressSpaceOptions = {}): string | undefined {
  const network = networkOf(cidrOrAddress.includes('/') ? cidrOrAddress : `${cidrOrAddress}/32`);
  if (PRIVATE_IPV4_CIDRS.some((p) => contains(networkOf(p), network))) return undefined;
  // The opt-in admits public unicast space, never multicast, loopback and the like (no client lives there).
  if (options.allowPublic) return specialPurposeProblem(network);
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

/**
 * The largest NFS read-ahead the client nodes are told to set, KiB: 1 GiB. Not a kernel limit (`read_ahead_kb` takes
 * any page count), this project's bound: 68 times AWS's 15 MiB (docs/sources/nconnect.md, F13), and it refuses a value
 * given in bytes by mistake (15 MiB in bytes is 15728640). lib/scripts/client-mount.sh holds the same bound
 * (`MAX_READ_AHEAD_KIB`; a unit test compares them).
 */
export const MAX_READ_AHEAD_KIB = 1024 * 1024;

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

/**
 * The characters of a local part (`atext`, RFC 5322 3.2.3), which the alarm address uses in dot-atom form: runs of
 * them joined by single dots, no dot first or last. Quoted local parts (RFC 5322 3.2.4) are refused: practical
 * addresses do not use them, and they would let spaces and commas in.
 */
export const EMAIL_ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";

/**
 * One label of a host name (RFC 1035 2.3.1, relaxed by RFC 1123 2.1 to allow a leading digit): 1-63 letters, digits
 * and hyphens, not starting or ending with a hyphen.
 */
export const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** Longest local part of an e-mail address (RFC 5321 4.5.3.1.1). */
export const EMAIL_MAX_LOCAL = 64;
/** Longest e-mail address (RFC 5321 4.5.3.1.3: a 256-octet path, less its `<` and `>`). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * An e-mail address the alarm topic may subscribe (`alarmEmail`), by a sound practical grammar: a dot-atom local
 * part of {@link EMAIL_ATEXT} (at most {@link EMAIL_MAX_LOCAL}), `@`, and a domain of two or more {@link DNS_LABEL}s
 * whose last label (the top-level domain) is not all digits (RFC 3696 2); at most {@link EMAIL_MAX_LENGTH} in all.
 * Refuses `a@.b.c` (an empty label), `a@-b.c` (a label starting with a hyphen), lists and spaces. Built from the
 * pieces above, which are the one definition.
 */
export const EMAIL_PATTERN = new RegExp(
  `^(?=[^@]{1,${EMAIL_MAX_LOCAL}}@)(?=.{1,${EMAIL_MAX_LENGTH}}$)` +
    `[${EMAIL_ATEXT}]+(?:\\.[${EMAIL_ATEXT}]+)*@(?:${DNS_LABEL}\\.)+(?=[A-Za-z0-9-]*[A-Za-z])${DNS_LABEL}$`,
);

/** What {@link EMAIL_PATTERN} allows, in words, for messages. */
export const EMAIL_RULE = 'one e-mail address such as ops@example.com: a local part of letters, digits and ' +
  "!#$%&'*+/=?^_`{|}~- in runs joined by single dots (at most 64 characters), @, and a domain of two or more labels of " +
  'letters, digits and inner hyphens (no empty label, no hyphen first or last), the last not all digits; at most ' +
  '254 characters';

/**
 * AWS partitions and the region names each holds (AWS General Reference, "ARN format" and "AWS Regions"; the SDKs'
 * partitions.json): a region belongs to the first partition whose pattern matches it.
 */
export const PARTITIONS: readonly { readonly partition: string; readonly regions: RegExp }[] = [
  { partition: 'aws-cn', regions: /^cn-/ },
  { partition: 'aws-us-gov', regions: /^us-gov-/ },
  { partition: 'aws-iso', regions: /^us-iso-/ },
  { partition: 'aws-iso-b', regions: /^us-isob-/ },
  { partition: 'aws-iso-e', regions: /^eu-isoe-/ },
  { partition: 'aws-iso-f', regions: /^us-isof-/ },
  { partition: 'aws-eusc', regions: /^eusc-/ },
  { partition: 'aws', regions: /^/ },
];

/**
 * A region name: an area (`us`, `eu`, `ap`, `cn`, `eusc`, ...), one or two words, a number (`us-east-1`,
 * `us-gov-west-1`, `ap-southeast-5`, `eusc-de-east-1`).
 */
export const REGION_PATTERN = /^[a-z]{2,4}(-[a-z]+){1,2}-[1-9][0-9]?$/;

/** An AWS account id: 12 digits (AWS Account Management Reference Guide, "View AWS account identifiers"). */
export const ACCOUNT_PATTERN = /^[0-9]{12}$/;

/**
 * An SNS topic name CloudWatch alarms can publish to: 1-256 letters, digits, `_` and `-` (SNS API Reference,
 * CreateTopic, Name); a FIFO topic (`.fifo`) is refused, since alarm actions need a standard topic.
 */
export const TOPIC_NAME_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** The partition that holds a region. */
export function partitionOf(region: string): string {
  return PARTITIONS.find((p) => p.regions.test(region))!.partition;
}

/** Where a resource must be: the stack's region and account, for a topic ARN given in context or props. */
export interface ResourceEnvironment {
  /**
   * The stack's region, when known (an env-agnostic stack's is not).
   * @default - unknown: the region is not checked
   */
  readonly region?: string;
  /**
   * The stack's account, when known.
   * @default - unknown: the account is not checked
   */
  readonly account?: string;
}

/**
 * Validates the ARN of the standard SNS topic the alarms notify (`alarmTopicArn`): `arn:<partition>:sns:<region>:
 * <account>:<topic>` with a known partition that holds the region, a 12-digit account and a standard topic's name;
 * in the stack's region (CloudWatch alarm actions notify a topic of the alarm's own region) and, when known, account.
 * Returns the reason it is bad, or undefined.
 */
export function topicArnProblem(arn: string, where: ResourceEnvironment = {}): string | undefined {
  if (typeof arn !== 'string') return 'not a string';
  const parts = arn.split(':');
  if (parts.length !== 6 || parts[0] !== 'arn' || parts[2] !== 'sns') {
    return 'not an SNS topic ARN arn:<partition>:sns:<region>:<account>:<topic>';
  }
  const [, partition, , region, account, name] = parts;
  if (!PARTITIONS.some((p) => p.partition === partition)) {
    return `unknown partition '${partition}' (one of ${PARTITIONS.map((p) => p.partition).join(', ')})`;
  }
  if (!REGION_PATTERN.test(region)) return `'${region}' is not a region name such as us-east-1`;
  if (partitionOf(region) !== partition) return `region ${region} is in partition ${partitionOf(region)}, not ${partition}`;
  if (!ACCOUNT_PATTERN.test(account)) return `'${account}' is not a 12-digit account id`;
  if (!TOPIC_NAME_PATTERN.test(name)) {
    return `'${name}' is not a standard topic's name (1-256 of A-Z a-z 0-9 _ -; alarms cannot notify a FIFO topic)`;
  }
  if (where.region !== undefined && !Token.isUnresolved(where.region) && region !== where.region) {
    return `the topic is in ${region}, but the stack deploys to ${where.region}: alarms notify a topic of their own region`;
  }
  if (where.account !== undefined && !Token.isUnresolved(where.account) && account !== where.account) {
    return `the topic is in account ${account}, but the stack deploys to account ${where.account}`;
  }
  return undefined;
}

/**
 * Prefixes S3 reserves (S3 User Guide, "General purpose bucket naming rules"): a bucket name may not start with them.
 */
export const S3_RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'] as const;
/** Suffixes S3 reserves (same source). */
export const S3_RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'] as const;

/**
 * Validates a general purpose bucket name by the S3 User Guide's "General purpose bucket naming rules": 3-63
 * characters of lower-case letters, digits, dots and hyphens; a letter or digit first and last; no two adjacent
 * dots; not an IP address; none of the reserved prefixes and suffixes. Returns the reason it is bad, or undefined.
 */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return `the bucket name has ${name.length} characters, not 3-63`;
  if (!/^[a-z0-9.-]+$/.test(name)) return 'the bucket name may hold only a-z 0-9 . -';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'the bucket name must begin and end with a letter or digit';
  if (name.includes('..')) return 'the bucket name has two adjacent dots';
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return 'the bucket name is formatted as an IP address';
  const prefix = S3_RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `the bucket name starts with '${prefix}', which S3 reserves`;
  const suffix = S3_RESERVED_SUFFIXES.find((p) => name.endsWith(p));
  if (suffix) return `the bucket name ends with '${suffix}', which S3 reserves`;
  return undefined;
}

/**
 * Characters of one segment of the S3 prefix: the S3 User Guide's "safe characters" for object keys (0-9 a-z A-Z
 * `! - _ . * ' ( )`) and the printable ones of its "characters that might require special handling" (`& $ @ = ; : +
 * ,`), but not space or `?`; never its "characters to avoid" (`\ { ^ } % ` ] " > [ ~ < # |`), control or non-ASCII
 * characters, which the path would carry into the FSx API and the client's mount record.
 */
export const S3_KEY_SEGMENT = /^[0-9A-Za-z!\-_.*'()&$@=;:+,]+$/;

/** Longest data repository path (FSx API Reference, CreateFileSystemLustreConfiguration, ImportPath). */
export const S3_PATH_MAX = 900;

/**
 * Validates an S3 path FSx for Lustre accepts as a data repository: `s3://<bucket>[/<prefix>]` with a bucket name by
 * {@link bucketNameProblem} and a prefix of `/`-separated {@link S3_KEY_SEGMENT}s (no empty, `.` or `..` segment; one
 * trailing `/` allowed), at most {@link S3_PATH_MAX} characters. Returns the reason it is bad, or undefined.
 */
export function s3PathProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  if (path.length > S3_PATH_MAX) return `longer than ${S3_PATH_MAX} characters (${path.length})`;
  if (!path.startsWith('s3://')) return "it does not start with 's3://'";
  const [bucket, ...segments] = path.slice('s3://'.length).split('/');
  const bad = bucketNameProblem(bucket);
  if (bad) return bad;
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  const segment = segments.find((s) => s === '' || s === '.' || s === '..' || !S3_KEY_SEGMENT.test(s));
  if (segment !== undefined) {
    return `the prefix has a bad segment '${segment}' (segments of 0-9 A-Z a-z ! - _ . * ' ( ) & $ @ = ; : + ,, not empty, '.' or '..')`;
  }
  return undefined;
}

/**
 * Whether `path` is an S3 path FSx for Lustre accepts as a data repository ({@link s3PathProblem}). Shared by the
 * construct's prop and the app's context key.
 */
export function isS3DataRepositoryPath(path: string): boolean {
  return s3PathProblem(path) === undefined;
}

/**
 * Checks an IPv6 CIDR of a client peer (`ec2.Peer.ipv6()`, `ec2.Peer.anyIpv6()`): never a /0, and inside unique
 * local space (fc00::/7, RFC 4193: the only IPv6 space that is not public) unless `allowPublic`. The form itself is
 * the CDK's to check. Returns the reason it is bad, or undefined.
 */
export function ipv6ClientProblem(cidr: string, options: AddressSpaceOptions = {}): string | undefined {
  const [address, prefixText] = cidr.split('/');
  const prefix = Number(prefixText);
  if (prefix === 0) return 'a /0 (every IPv6 address) is refused: the prefix length must be 1-128';
  const first = address.startsWith('::') ? 0 : parseInt(address.split(':')[0], 16);
  const uniqueLocal = prefix >= 7 && (first & 0xfe00) === 0xfc00;
  if (uniqueLocal || options.allowPublic) return undefined;
  return 'public IPv6 address space outside unique local space (fc00::/7); set allowPublicClientCidrs to admit public ' +
    'addresses deliberately';
}

/**
 * The largest FSx for Lustre storage capacity, GiB, that a plan may have: the update guard records it as a whole
 * number of at most 7 digits (lambda/update-guard/contract.ts), about 9,765 TiB, far beyond any FSx quota.
 */
export const MAX_FSX_STORAGE_CAPACITY_GIB = 9_999_999;

/**
 * An EC2 resource id of a kind (`vpc`, `subnet`, `sg`, `ami`, `snap`): the prefix, `-`, and 8 or 17 lower-case hex
 * digits (EC2 User Guide, "Resource IDs": the short form before 2016, the long one after).
 */
export function ec2IdPattern(kind: string): RegExp {
  return new RegExp(`^${kind}-([0-9a-f]{8}|[0-9a-f]{17})$`);
}

/** An image id (`machineImageId`). */
export const IMAGE_ID_PATTERN = ec2IdPattern('ami');

/** A time of day in UTC, `HH:MM` from 00:00 to 23:59 (DLM's CreateRule Times; FSx's daily backup start). */
export const TIME_OF_DAY_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/**
 * The EC2 tag key that selects the cluster's client nodes (`clientTagKey`): a State Manager association targets
 * `tag:<key>`, whose key must match `^[\p{L}\p{Z}\p{N}_.:/=\-@]*$` (SSM API Reference, Target, Key), within EC2's tag
 * rules (EC2 User Guide, "Tag restrictions": 1-128 characters, not starting with `aws:` in any case). So letters,
 * digits, spaces and `_ . : / = - @`, but not the `+` EC2 itself would take.
 */
export const TAG_KEY_PATTERN = /^(?![Aa][Ww][Ss]:)[\p{L}\p{Z}\p{N}_.:/=@-]{1,128}$/u;

/** What {@link TAG_KEY_PATTERN} allows, in words, for messages. */
export const TAG_KEY_RULE = "an EC2 tag key State Manager can target: 1-128 letters, digits, spaces or _ . : / = - @, not starting with 'aws:'";

/** An EBS snapshot id. */
export const SNAPSHOT_ID_PATTERN = ec2IdPattern('snap');

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
