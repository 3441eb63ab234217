/**
 * Special-purpose address space for IPv4 and IPv6 as IANA records it, and the one rule that decides from a row's
 * columns whether a client may lie in it: private space always, globally reachable space with the public opt-in,
 * anything else never. Addresses are handled as bigints so both families share one parser and one comparison.
 */

/** The IANA registry a row is read from. */
export enum AddressRegistry {
  /** https://www.iana.org/assignments/iana-ipv4-special-registry: RFC 6890, updated by RFC 8190. */
  IPV4_SPECIAL = 'IANA IPv4 Special-Purpose Address Registry',
  /** https://www.iana.org/assignments/iana-ipv6-special-registry: RFC 6890, updated by RFC 8190. */
  IPV6_SPECIAL = 'IANA IPv6 Special-Purpose Address Registry',
  /** https://www.iana.org/assignments/ipv4-address-space: only its multicast rows, RFC 5771. */
  IPV4_SPACE = 'IANA IPv4 Address Space Registry',
  /** https://www.iana.org/assignments/ipv6-address-space: only its multicast row, RFC 4291. */
  IPV6_SPACE = 'IANA IPv6 Address Space registry',
}

/**
 * A boolean column of RFC 6890's registries: "N/A" where the answer depends on an embedded address, as for 6to4 and
 * Teredo.
 */
export enum RegistryFlag {
  TRUE = 'True',
  FALSE = 'False',
  NOT_APPLICABLE = 'N/A',
}

/** Where a row's addresses may be client addresses. */
export enum ClientSpace {
  /** Private addressing of RFC 1918, RFC 6598 and RFC 4193: admitted without the opt-in. */
  PRIVATE = 'private',
  /** Globally reachable unicast space: admitted only with `allowPublicClientCidrs`. */
  PUBLIC = 'public',
  /** Never a client, even with `allowPublicClientCidrs`. */
  NEVER = 'never',
}

/** One row of a registry, its columns as IANA publishes them. */
export interface RegistryRow {
  readonly registry: AddressRegistry;
  /** The "Address Block" column. */
  readonly cidr: string;
  readonly name: string;
  readonly rfc: string;
  /** The "Termination Date" column, for a withdrawn assignment. */
  readonly terminated?: string;
  /** True for the address-space registries' multicast rows, which carry no RFC 6890 columns. */
  readonly multicast?: boolean;
  readonly destination: RegistryFlag;
  readonly forwardable: RegistryFlag;
  readonly globallyReachable: RegistryFlag;
}

/**
 * The private space a client may lie in without the opt-in: RFC 1918, the shared space of RFC 6598, and the unique
 * local space of RFC 4193. The registries mark these not globally reachable, like benchmarking or documentation space.
 * No column says which of those rows are for an organisation's own hosts, so this list does.
 */
export const PRIVATE_CIDRS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'] as const;

const T = RegistryFlag.TRUE;
const F = RegistryFlag.FALSE;
const NA = RegistryFlag.NOT_APPLICABLE;
const v4 = (cidr: string, name: string, rfc: string, destination: RegistryFlag, forwardable: RegistryFlag,
  globallyReachable: RegistryFlag): RegistryRow =>
  ({ registry: AddressRegistry.IPV4_SPECIAL, cidr, name, rfc, destination, forwardable, globallyReachable });
const v6 = (cidr: string, name: string, rfc: string, destination: RegistryFlag, forwardable: RegistryFlag,
  globallyReachable: RegistryFlag): RegistryRow =>
  ({ registry: AddressRegistry.IPV6_SPECIAL, cidr, name, rfc, destination, forwardable, globallyReachable });

/**
 * Every row of IANA's IPv4 and IPv6 Special-Purpose Address Registries, with the columns that decide: Destination,
 * Forwardable, Globally Reachable. Each registry has 25 rows; the newest, allocated 2025-04, is 100:0:0:1::/64 of
 * RFC 9780. The rows were checked one by one against a copy of the registries' CSV of 2024-10-22, since IANA's own page
 * was reachable here only as that copy. The multicast blocks of the two address-space registries follow, since the
 * special-purpose registries do not list them.
 */
export const SPECIAL_PURPOSE_ROWS: readonly RegistryRow[] = [
  v4('0.0.0.0/8', 'This network', 'RFC 791 3.2', F, F, F),
  v4('0.0.0.0/32', 'This host on this network', 'RFC 1122 3.2.1.3', F, F, F),
  v4('10.0.0.0/8', 'Private-Use', 'RFC 1918', T, T, F),
  v4('100.64.0.0/10', 'Shared Address Space', 'RFC 6598', T, T, F),
  v4('127.0.0.0/8', 'Loopback', 'RFC 1122 3.2.1.3', F, F, F),
  v4('169.254.0.0/16', 'Link Local', 'RFC 3927', T, F, F),
  v4('172.16.0.0/12', 'Private-Use', 'RFC 1918', T, T, F),
  v4('192.0.0.0/24', 'IETF Protocol Assignments', 'RFC 6890 2.1', F, F, F),
  v4('192.0.0.0/29', 'IPv4 Service Continuity Prefix', 'RFC 7335', T, T, F),
  v4('192.0.0.8/32', 'IPv4 dummy address', 'RFC 7600', F, F, F),
  v4('192.0.0.9/32', 'Port Control Protocol Anycast', 'RFC 7723', T, T, T),
  v4('192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', T, T, T),
  v4('192.0.0.170/32', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 2.2', F, F, F),
  v4('192.0.0.171/32', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 2.2', F, F, F),
  v4('192.0.2.0/24', 'Documentation (TEST-NET-1)', 'RFC 5737', F, F, F),
  v4('192.31.196.0/24', 'AS112-v4', 'RFC 7535', T, T, T),
  v4('192.52.193.0/24', 'AMT', 'RFC 7450', T, T, T),
  { ...v4('192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', 'RFC 7526', NA, NA, NA), terminated: '2015-03' },
  v4('192.88.99.2/32', '6a44-relay anycast address', 'RFC 6751', T, T, F),
  v4('192.168.0.0/16', 'Private-Use', 'RFC 1918', T, T, F),
  v4('192.175.48.0/24', 'Direct Delegation AS112 Service', 'RFC 7534', T, T, T),
  v4('198.18.0.0/15', 'Benchmarking', 'RFC 2544', T, T, F),
  v4('198.51.100.0/24', 'Documentation (TEST-NET-2)', 'RFC 5737', F, F, F),
  v4('203.0.113.0/24', 'Documentation (TEST-NET-3)', 'RFC 5737', F, F, F),
  v4('240.0.0.0/4', 'Reserved', 'RFC 1112 4', F, F, F),
  v4('255.255.255.255/32', 'Limited Broadcast', 'RFC 8190, RFC 919 7', T, F, F),
  { registry: AddressRegistry.IPV4_SPACE, cidr: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771', multicast: true,
    destination: T, forwardable: T, globallyReachable: NA },

  v6('::1/128', 'Loopback Address', 'RFC 4291', F, F, F),
  v6('::/128', 'Unspecified Address', 'RFC 4291', F, F, F),
  v6('::ffff:0:0/96', 'IPv4-mapped Address', 'RFC 4291', F, F, F),
  v6('64:ff9b::/96', 'IPv4-IPv6 Translat.', 'RFC 6052', T, T, T),
  v6('64:ff9b:1::/48', 'IPv4-IPv6 Translat.', 'RFC 8215', T, T, F),
  v6('100::/64', 'Discard-Only Address Block', 'RFC 6666', T, T, F),
  v6('100:0:0:1::/64', 'Dummy IPv6 Prefix', 'RFC 9780', F, F, F),
  v6('2001::/23', 'IETF Protocol Assignments', 'RFC 2928', F, F, F),
  v6('2001::/32', 'TEREDO', 'RFC 4380, RFC 8190', T, T, NA),
  v6('2001:1::1/128', 'Port Control Protocol Anycast', 'RFC 7723', T, T, T),
  v6('2001:1::2/128', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', T, T, T),
  v6('2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', 'RFC 9665', T, T, T),
  v6('2001:2::/48', 'Benchmarking', 'RFC 5180', T, T, F),
  v6('2001:3::/32', 'AMT', 'RFC 7450', T, T, T),
  v6('2001:4:112::/48', 'AS112-v6', 'RFC 7535', T, T, T),
  { ...v6('2001:10::/28', 'Deprecated (previously ORCHID)', 'RFC 4843', NA, NA, NA), terminated: '2014-03' },
  v6('2001:20::/28', 'ORCHIDv2', 'RFC 7343', T, T, T),
  v6('2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', 'RFC 9374', T, T, T),
  v6('2001:db8::/32', 'Documentation', 'RFC 3849', F, F, F),
  v6('2002::/16', '6to4', 'RFC 3056', T, T, NA),
  v6('2620:4f:8000::/48', 'Direct Delegation AS112 Service', 'RFC 7534', T, T, T),
  v6('3fff::/20', 'Documentation', 'RFC 9637', F, F, F),
  v6('5f00::/16', 'Segment Routing (SRv6) SIDs', 'RFC 9602', T, T, F),
  v6('fc00::/7', 'Unique-Local', 'RFC 4193, RFC 8190', T, T, F),
  v6('fe80::/10', 'Link-Local Unicast', 'RFC 4291', T, F, F),
  { registry: AddressRegistry.IPV6_SPACE, cidr: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291', multicast: true,
    destination: T, forwardable: T, globallyReachable: NA },
];

/**
 * Decides a row from its columns. Private space is the organisation's own. A withdrawn or multicast block holds no
 * client host. Otherwise "Globally Reachable" decides, and "N/A", as for 6to4 and Teredo, is not a yes.
 */
export function clientSpaceOf(row: RegistryRow): ClientSpace {
  if ((PRIVATE_CIDRS as readonly string[]).includes(row.cidr)) return ClientSpace.PRIVATE;
  // A withdrawn block may be reassigned to anything, and a multicast address names a group, not one client.
  if (row.terminated !== undefined || row.multicast) return ClientSpace.NEVER;
  switch (row.globallyReachable) {
    case RegistryFlag.TRUE: return ClientSpace.PUBLIC;
    case RegistryFlag.FALSE: return ClientSpace.NEVER;
    // Teredo and 6to4 reach as far as the IPv4 address they embed, which no column vouches for.
    case RegistryFlag.NOT_APPLICABLE: return ClientSpace.NEVER;
    default: throw new Error(`${row.registry} row ${row.cidr}: unhandled Globally Reachable value ${String(row.globallyReachable)}`);
  }
}

/** An IPv4 or IPv6 network: its first address as a number, the prefix length, and the family's width in bits. */
export interface IpNetwork {
  readonly bits: 32 | 128;
  readonly address: bigint;
  readonly prefix: number;
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string): bigint | undefined {
  const m = DOTTED_QUAD.exec(text);
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255)) return undefined;
  return m.slice(1, 5).reduce((acc, o) => acc * 256n + BigInt(Number(o)), 0n);
}

/** An IPv6 address in the text form of RFC 4291 2.2, with `::` once at most and an IPv4 tail allowed, or undefined. */
function parseV6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): string[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    const last = groups[groups.length - 1];
    if (last.includes('.')) {
      const tail = parseV4(last);
      if (tail === undefined) return undefined;
      groups.splice(-1, 1, (tail >> 16n).toString(16), (tail & 0xffffn).toString(16));
    }
    return groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g)) ? groups : undefined;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g, 16)), 0n);
}

/**
 * A CIDR or a single address of either family, host bits cleared, or undefined if unreadable. A single address is taken
 * as /32 or /128.
 */
export function parseNetwork(text: string): IpNetwork | undefined {
  const [addressText, prefixText, ...rest] = text.split('/');
  if (rest.length > 0) return undefined;
  const v6Form = addressText.includes(':');
  const bits = v6Form ? 128 : 32;
  const address = v6Form ? parseV6(addressText) : parseV4(addressText);
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (address === undefined || !/^\d{1,3}$/.test(prefixText ?? '0') || prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { bits, address: (address >> hostBits) << hostBits, prefix };
}

/** Whether `inner` lies wholly inside `outer`, both of one family. */
export function networkContains(outer: IpNetwork, inner: IpNetwork): boolean {
  if (outer.bits !== inner.bits || inner.prefix < outer.prefix) return false;
  const hostBits = BigInt(outer.bits - outer.prefix);
  return inner.address >> hostBits === outer.address >> hostBits;
}

const ROWS = SPECIAL_PURPOSE_ROWS.map((row) => ({ row, network: parseNetwork(row.cidr) as IpNetwork }));

/**
 * The row that makes a network no client's, or undefined. That is the most specific row holding the whole network when
 * it is never a client's, else the first such row inside the network: `::/1` holds `::1/128`. A row inside a broader
 * one overrides it: `192.0.0.9/32` is globally reachable inside `192.0.0.0/24`.
 */
export function neverClientRow(network: IpNetwork): RegistryRow | undefined {
  const holding = ROWS.filter(({ network: n }) => networkContains(n, network)).sort((a, b) => b.network.prefix - a.network.prefix)[0];
  if (holding && clientSpaceOf(holding.row) === ClientSpace.NEVER) return holding.row;
  return ROWS.find(({ row, network: n }) => n.prefix > network.prefix && networkContains(network, n) &&
    clientSpaceOf(row) === ClientSpace.NEVER)?.row;
}

/** Whether a network lies wholly in {@link PRIVATE_CIDRS}. */
export function isPrivateNetwork(network: IpNetwork): boolean {
  return PRIVATE_CIDRS.some((p) => networkContains(parseNetwork(p) as IpNetwork, network));
}

/** The columns of a row that make it no client's, in the registry's own words. */
function whyNever(row: RegistryRow): string {
  if (row.terminated !== undefined) return `an assignment terminated ${row.terminated}`;
  if (row.multicast) return 'multicast: a group address, not one host';
  const columns = [`Globally Reachable ${row.globallyReachable}`];
  if (row.destination === RegistryFlag.FALSE) columns.push('Destination False');
  if (row.forwardable === RegistryFlag.FALSE) columns.push('Forwardable False');
  return columns.join(', ');
}

/** What a client address may be, for messages. */
export const CLIENT_SPACE_ALLOWED = `allowed is private space (${PRIVATE_CIDRS.join(', ')}), or with ` +
  'allowPublicClientCidrs globally reachable unicast space';

/**
 * The reason `text`, a CIDR or an address of either family, touches a block that is never a client's, naming the
 * registry row and what is allowed; or undefined.
 */
export function neverClientProblem(text: string): string | undefined {
  const network = parseNetwork(text);
  const row = network && neverClientRow(network);
  if (row === undefined) return undefined;
  const where = text.includes('/') ? 'it holds addresses of' : 'an address of';
  return `${where} ${row.cidr}, "${row.name}" in the ${row.registry} (${row.rfc}; ${whyNever(row)}), ` +
    `which are never clients, even with allowPublicClientCidrs; ${CLIENT_SPACE_ALLOWED}`;
}
