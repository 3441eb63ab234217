/**
 * Whether an existing file system admits the cluster's clients: the ports each kind needs open to them (one cited row
 * each of docs/sources/fsx-rules.md; an FSx backend's in its rules), and the check of a network interface's security group rules against them. Rules
 * of all the interface's groups add up, as EC2 evaluates them: a port is open to a client when any rule admits it.
 *
 * It imports nothing but the value checks and the registration's own modules: bundled into the Lambda, and unit-tested
 * with the API's own shapes.
 */
import { cidrWithin } from '../../value-check/network';
import { isFsxBackend } from '../backend';
import type { PortRange } from '../fsx-target-rules';
import { FSX_TARGETS } from '../fsx-targets';
import type { ExistingClients, ExistingFileSystemKind } from './target';

export type { PortRange };

/**
 * EFS-MOUNT-TARGET-ACCESS: "a mount target whose network interface has a security group with a rule that enables
 * inbound connections on the NFS port from the instance", TCP 2049.
 */
const EFS_PORTS: readonly PortRange[] = [{ from: 2049, to: 2049 }];

/** The TCP ports a client needs open on the file system's interfaces: an FSx backend's rules say its own. */
export function clientPorts(kind: ExistingFileSystemKind): readonly PortRange[] {
  return isFsxBackend(kind) ? FSX_TARGETS[kind].existing.clientPorts : EFS_PORTS;
}

/** An ingress rule as DescribeSecurityGroupRules gives it (SecurityGroupRule), with what this check reads. */
export interface GroupRule {
  readonly GroupId?: string;
  readonly IsEgress?: boolean;
  /** `tcp`, `6`, `-1` (all), or another protocol. */
  readonly IpProtocol?: string;
  readonly FromPort?: number;
  readonly ToPort?: number;
  readonly CidrIpv4?: string;
  readonly ReferencedGroupInfo?: { readonly GroupId?: string };
  readonly PrefixListId?: string;
}

/** The TCP ports the file system's groups must let it send to a client on: LUSTRE-EGRESS for Lustre, else none. */
export function clientEgressPorts(kind: ExistingFileSystemKind): readonly PortRange[] {
  return isFsxBackend(kind) ? FSX_TARGETS[kind].existing.clientEgressPorts : [];
}

/**
 * `rules` with each rule that names a prefix list replaced by one rule per IPv4 entry of the list, as EC2 applies it;
 * a list whose entries `entriesOf` cannot give (undefined: not readable here) keeps its rule, which admits no client
 * and which the refusal names as not read.
 */
export async function withPrefixListEntries(
  rules: readonly GroupRule[],
  entriesOf: (prefixListId: string) => Promise<readonly string[] | undefined>,
): Promise<GroupRule[]> {
  const ids = [...new Set(rules.map((r) => r.PrefixListId).filter((id): id is string => id !== undefined))];
  const entries = new Map(await Promise.all(ids.map(async (id) => [id, await entriesOf(id)] as const)));
  return rules.flatMap((rule) => {
    const cidrs = rule.PrefixListId === undefined ? undefined : entries.get(rule.PrefixListId);
    if (cidrs === undefined) return [rule];
    return cidrs.filter((c) => !c.includes(':')).map((CidrIpv4) => ({ ...rule, PrefixListId: undefined, CidrIpv4 }));
  });
}

/** One client's ports that no rule of an interface's groups admits (or, `egress`, lets out to it). */
export interface Shortfall {
  /** The client: a CIDR or a security group id. */
  readonly client: string;
  readonly missing: readonly PortRange[];
  /** Whether the ports are the file system's outbound ones to the client, not the client's inbound ones. */
  readonly egress: boolean;
}

/** Whether `rule`, of the direction `egress` says, admits `client` (a CIDR or a group id) on TCP `port`. */
function admits(rule: GroupRule, client: string, port: number, egress: boolean): boolean {
  if ((rule.IsEgress ?? false) !== egress) return false;
  const protocol = rule.IpProtocol ?? '';
  const all = protocol === '-1';
  if (!all && protocol !== 'tcp' && protocol !== '6') return false;
  if (!all && !((rule.FromPort ?? -1) <= port && port <= (rule.ToPort ?? -1))) return false;
  // A group's members have addresses unknown here, all inside 0.0.0.0/0 (a group's default egress rule).
  if (client.startsWith('sg-')) return rule.ReferencedGroupInfo?.GroupId === client || rule.CidrIpv4 === '0.0.0.0/0';
  return rule.CidrIpv4 !== undefined && cidrWithin(client, rule.CidrIpv4);
}

/** The ports of `ranges` that no rule admits for `client`, as ranges again. */
function missingPorts(rules: readonly GroupRule[], client: string, ranges: readonly PortRange[], egress: boolean): PortRange[] {
  const missing: PortRange[] = [];
  for (const range of ranges) {
    for (let port = range.from; port <= range.to; port++) {
      if (rules.some((r) => admits(r, client, port, egress))) continue;
      const last = missing[missing.length - 1];
      if (last !== undefined && last.to === port - 1) missing[missing.length - 1] = { from: last.from, to: port };
      else missing.push({ from: port, to: port });
    }
  }
  return missing;
}

/**
 * Each client whose ports of `kind` the rules of one interface's groups leave closed, inbound and then outbound; empty
 * when all are open.
 */
export function shortfalls(kind: ExistingFileSystemKind, rules: readonly GroupRule[], clients: ExistingClients): Shortfall[] {
  const all = [...clients.cidrs, ...clients.groupIds];
  return [false, true].flatMap((egress) => all
    .map((client) => ({ client, egress, missing: missingPorts(rules, client, egress ? clientEgressPorts(kind) : clientPorts(kind), egress) }))
    .filter((s) => s.missing.length > 0));
}

/** `TCP 988 and 1018-1023`. */
export function portsText(ranges: readonly PortRange[]): string {
  const one = (r: PortRange) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`);
  const parts = ranges.map(one);
  return `TCP ${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]}`;
}

/**
 * What to tell the user of one interface that leaves clients out: `where` names it (`eni-... of fs-...`), `groupIds`
 * its groups. A prefix list whose entries could not be read is named as such.
 */
export function shortfallMessage(
  where: string,
  groupIds: readonly string[],
  found: readonly Shortfall[],
  rules: readonly GroupRule[],
  kind: ExistingFileSystemKind,
): string {
  const said = (egress: boolean) => found.filter((s) => s.egress === egress).map((s) => `${s.client} on ${portsText(s.missing)}`).join('; ');
  const [inbound, outbound] = [said(false), said(true)];
  const lists = [...new Set(rules.filter((r) => r.PrefixListId).map((r) => r.PrefixListId))];
  const parts = [
    ...(inbound ? [`do not admit ${inbound}: add ingress rules from the clients on ${portsText(clientPorts(kind))} to one of them`] : []),
    ...(outbound ? [`do not let it send to ${outbound}: add egress rules to the clients on ${portsText(clientEgressPorts(kind))} ` +
      "to one of them, as a group that does not allow all outbound traffic needs"] : []),
  ];
  return (
    `the security groups of ${where} (${groupIds.join(', ') || 'none'}) ${parts.join('; and they ')}` +
    (lists.length > 0 ? ` (the entries of prefix lists ${lists.join(', ')} could not be read: ec2:GetManagedPrefixListEntries refused)` : '')
  );
}
