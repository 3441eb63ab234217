/**
 * Client addresses: the canonical form of an IPv4 CIDR and of a host address, and the address space they may lie in.
 * That is private space unless public space is admitted, and never a block that special-purpose.ts decides is no
 * client's. A VPC's CIDR is held to the same rules and to EC2's VPC sizes. IPv6 client peers and the placeholder CIDR
 * of a VPC lookup that has not run yet are here too. Each check returns the reason a value is bad, or undefined.
 */
import { PRIVATE_CIDRS, isPrivateNetwork, neverClientProblem, neverClientRow, parseNetwork } from './special-purpose';

/**
 * Private IPv4 address space that a client CIDR or the clusterware master must lie in, unless public addresses are
 * allowed deliberately: RFC 1918 and the shared, carrier-grade NAT space of RFC 6598.
 */
export const PRIVATE_IPV4_CIDRS: readonly string[] = PRIVATE_CIDRS.filter((c) => !c.includes(':'));

/** Where an address or CIDR may lie: see {@link addressSpaceProblem}. */
export interface AddressSpaceOptions {
  /**
   * Admit public addresses: the `allowPublicClientCidrs` opt-in.
   * @default false
   */
  readonly allowPublic?: boolean;
}

/** Placeholder CIDR of `Vpc.fromLookup()` before the lookup has run: aws-cdk-lib's DUMMY_VPC_PROPS. */
const LOOKUP_PLACEHOLDER_CIDR = '1.2.3.4/5';

/**
 * Whether `vpcCidr` is the placeholder of a `Vpc.fromLookup()` that has not run yet. The first synth of an app with a
 * VPC lookup sees CDK's dummy VPC, whose subnets are s-12345, p-12345 and so on; the CLI then looks the VPC up and
 * synthesizes again. Whatever depends on the real VPC, such as its CIDR or a subnet by id, is decided on that run.
 */
export function isLookupPlaceholder(vpcCidr: string): boolean {
  return vpcCidr === LOOKUP_PLACEHOLDER_CIDR;
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The largest subnet a host address is taken to be in. Every VPC subnet is a /16 to a /28, per the Amazon VPC User
 * Guide, "Subnet CIDR blocks". So an address whose last 16 bits are all 0 or all 1 is the network or broadcast address
 * of whatever subnet holds it, never a host: RFC 919, RFC 1122 3.2.1.3.
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

/** Whether every address of IPv4 CIDR `inner` is in IPv4 CIDR `outer`; both valid by {@link cidrProblem}. */
export function cidrWithin(inner: string, outer: string): boolean {
  return contains(networkOf(outer), networkOf(inner));
}

/**
 * Validates one IPv4 CIDR in canonical form: four numbers 0-255 without leading zeros, a prefix length 1-32 without a
 * leading zero, and no host bits set. `10.0.0.1/16` is refused, since the network is `10.0.0.0/16`. Returns the reason
 * it is bad, or undefined when it is good. {@link addressSpaceProblem} checks the address space.
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
 * The VPC sizes EC2 creates, per CreateVpc: "The smallest VPC you can create uses a /28 netmask ..., and the largest
 * uses a /16".
 */
export const VPC_PREFIX_RANGE = { largest: 16, smallest: 28 } as const;

/**
 * Checks a VPC's concrete IPv4 CIDR as client CIDRs are checked, since clients may be anywhere in it when none are
 * given and the OpenZFS export then admits it. It is also held to the sizes EC2 gives a VPC. Returns the reason it is
 * bad, or undefined.
 */
export function vpcCidrProblem(cidr: string, options: AddressSpaceOptions = {}): string | undefined {
  const form = cidrProblem(cidr);
  if (form) return form;
  const prefix = Number(cidr.split('/')[1]);
  if (prefix < VPC_PREFIX_RANGE.largest || prefix > VPC_PREFIX_RANGE.smallest) {
    return `a VPC's CIDR is /${VPC_PREFIX_RANGE.largest} to /${VPC_PREFIX_RANGE.smallest} (EC2 CreateVpc), not /${prefix}`;
  }
  return addressSpaceProblem(cidr, options);
}

/**
 * Validates one IPv4 host address, such as the clusterware master's `loginIp`: a canonical dotted quad without leading
 * zeros that names one host. It must lie in no block that is never a client's, as special-purpose.ts decides: loopback,
 * link-local, documentation, multicast and the rest. It must not be the network or broadcast address of its subnet, by
 * `LARGEST_SUBNET_PREFIX`. Returns the reason it is bad, or undefined.
 */
export function ipv4Problem(ip: string): string | undefined {
  if (typeof ip !== 'string') return 'not a string';
  const address = parseDottedQuad(ip);
  if (typeof address === 'string') return address;
  const never = neverClientProblem(ip);
  if (never) return never;
  const size = 2 ** (32 - LARGEST_SUBNET_PREFIX);
  if (address % size === 0) {
    return `a network address (${ip} ends in .0.0): the first address of every subnet of /${LARGEST_SUBNET_PREFIX} or smaller that holds it, not a host`;
  }
  if (address % size === size - 1) {
    return `a broadcast address (${ip} ends in .255.255): the last address of every subnet of /${LARGEST_SUBNET_PREFIX} or smaller that holds it, not a host`;
  }
  return undefined;
}

/**
 * Checks that a canonical CIDR, or a canonical address taken as /32, lies inside {@link PRIVATE_IPV4_CIDRS}. With
 * `allowPublic` it checks instead that the CIDR touches no block that special-purpose.ts decides is never a client's,
 * such as multicast, loopback or documentation space. Returns the reason it is bad, or undefined. Validate the form
 * first with {@link cidrProblem} or {@link ipv4Problem}.
 */
export function addressSpaceProblem(cidrOrAddress: string, options: AddressSpaceOptions = {}): string | undefined {
  const network = networkOf(cidrOrAddress.includes('/') ? cidrOrAddress : `${cidrOrAddress}/32`);
  if (PRIVATE_IPV4_CIDRS.some((p) => contains(networkOf(p), network))) return undefined;
  // The opt-in admits globally reachable unicast space only: the registries' own column decides, as for IPv6.
  if (options.allowPublic) return neverClientProblem(cidrOrAddress);
  // Suggesting the opt-in for space it does not admit would contradict the refusal that follows.
  return neverClientProblem(cidrOrAddress) ?? `public address space outside private space (${PRIVATE_IPV4_CIDRS.join(', ')}); ` +
    'set allowPublicClientCidrs to admit public addresses deliberately';
}

/**
 * Checks an IPv6 CIDR of a client peer, `ec2.Peer.ipv6()` or `ec2.Peer.anyIpv6()`, by the rule IPv4 follows. It is
 * never a /0. It lies inside unique local space, fc00::/7 of RFC 4193, the only IPv6 space that is private. With
 * `allowPublic` it may also lie in globally reachable space, but never in a block that special-purpose.ts decides is no
 * client's, such as `::1/128`, `fe80::/10` or `ff00::/8`. Returns the reason it is bad, or undefined.
 */
export function ipv6ClientProblem(cidr: string, options: AddressSpaceOptions = {}): string | undefined {
  const network = parseNetwork(cidr);
  if (network === undefined || network.bits !== 128 || !cidr.includes('/')) {
    return 'not an IPv6 CIDR such as fd00::/8 (RFC 4291 2.3: an address, then /, then a prefix length 1-128)';
  }
  if (network.prefix === 0) return 'a /0 (every IPv6 address) is refused: the prefix length must be 1-128';
  if (isPrivateNetwork(network)) return undefined;
  if (options.allowPublic || neverClientRow(network)) return neverClientProblem(cidr);
  return 'public IPv6 address space outside unique local space (fc00::/7); set allowPublicClientCidrs to admit public ' +
    'addresses deliberately';
}

/**
 * Why `ip` cannot be a host of the subnet `subnetCidr`, or undefined. EC2 reserves the first four addresses and the
 * last of every subnet, for the network, the VPC router, DNS, future use and broadcast, per the Amazon VPC User Guide,
 * "Subnet CIDR blocks". No instance can have them. An address outside the subnet is not this subnet's concern.
 */
export function subnetReservedProblem(ip: string, subnetCidr: string): string | undefined {
  const host = parseNetwork(ip);
  const subnet = parseNetwork(subnetCidr);
  if (host === undefined || subnet === undefined || host.bits !== 32 || subnet.bits !== 32) return undefined;
  const size = 1n << BigInt(32 - subnet.prefix);
  const offset = host.address - subnet.address;
  if (offset < 0n || offset >= size) return undefined;
  if (offset > 3n && offset !== size - 1n) return undefined;
  const role = offset === size - 1n ? 'its last address' : `its address ${offset} of the first four`;
  return `EC2 reserves the first four addresses and the last of every subnet, and ${ip} is ${role} in subnet ${subnetCidr} ` +
    '(Amazon VPC User Guide, "Subnet CIDR blocks"): no instance can have it';
}
