/**
 * The deploy-time value check's contract: the values a synth could not see, each with the rule the construct holds its
 * literal form to, and the check of the resolved values. Such values are tokens: template parameters, imports and
 * attributes. The construct, lib/deploy-check.ts, writes the properties. The handler, index.ts, parses and checks them
 * before any resource that carries one of the values is created or updated.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { exportPathProblem, mountOptionsProblem, serverAddressProblem } from './mount-target';
import { PRIVATE_IPV4_CIDRS, addressSpaceProblem, cidrProblem, ipv4Problem, ipv6ClientProblem, vpcCidrProblem } from './network';

/** The rule one value is held to: the same function the construct applies to the literal value at synth. */
export enum ValueRule {
  /** A `clientCidrs` entry: a canonical IPv4 CIDR, private unless public clients are allowed. */
  CLIENT_CIDR = 'client-cidr',
  /** A CIDR a `clientPeers` peer admits: IPv4 as `clientCidrs`, IPv6 inside fc00::/7 unless public clients are allowed. */
  CLIENT_PEER = 'client-peer',
  /** `clusterware.loginIp`: one canonical IPv4 address, private unless public clients are allowed. */
  LOGIN_IP = 'login-ip',
  /** The VPC's CIDR, where clients may be when no `clientCidrs` are given: a VPC size EC2 allows, held to the clientCidrs rules. */
  VPC_CIDR = 'vpc-cidr',
  /** An imported server's `mountAddress`: a canonical IPv4 address or a DNS name. */
  SERVER_ADDRESS = 'server-address',
  /** An imported server's `exportPath`: `/` or an absolute path of `[A-Za-z0-9_.-]` segments. */
  EXPORT_PATH = 'export-path',
  /** An imported server's `mountOptions`: comma-separated `name` or `name=value` of `[A-Za-z0-9_.:-]`. */
  MOUNT_OPTIONS = 'mount-options',
}

/** One value to check: its name as the user typed it, such as `clientCidrs[0]`, its rule and its resolved value. */
export interface ValueToCheck {
  /** The prop or context key as typed, with its index for a list entry. */
  readonly name: string;
  /** The rule. */
  readonly rule: ValueRule;
  /** The value. */
  readonly value: string;
}

/** What the rules need besides the values: the prop that widens them. */
export interface CheckOptions {
  /** `allowPublicClientCidrs`. */
  readonly allowPublic: boolean;
}

/** The check's ResourceProperties, parsed. */
export interface ValueCheckProperties extends CheckOptions {
  /** The values, in the order the construct gave them. */
  readonly checks: readonly ValueToCheck[];
}

/** ResourceProperties keys. CloudFormation passes every scalar as a string. */
export const PROP = {
  CHECKS: 'Checks',
  ALLOW_PUBLIC: 'AllowPublic',
} as const;

/** The CloudFormation resource type of the check. */
export const RESOURCE_TYPE = 'Custom::StorageServerValueCheck';

const RULES = Object.values(ValueRule) as string[];

/** What a value of the rule must be, as the synth-time messages say it. */
export function ruleText(rule: ValueRule, options: CheckOptions): string {
  const space = options.allowPublic ? 'private or public address space (allowPublicClientCidrs)' : `private address space (${PRIVATE_IPV4_CIDRS.join(' ')})`;
  switch (rule) {
    case ValueRule.CLIENT_CIDR:
      return `a canonical IPv4 CIDR in ${space}`;
    case ValueRule.CLIENT_PEER:
      return `a canonical CIDR in ${space}, fc00::/7 for IPv6 unless allowPublicClientCidrs, never /0`;
    case ValueRule.LOGIN_IP:
      return `the canonical IPv4 address of one host in ${space}`;
    case ValueRule.VPC_CIDR:
      return `a canonical IPv4 CIDR of /16 to /28 in ${space}, as clients may be anywhere in it`;
    case ValueRule.SERVER_ADDRESS:
      return 'a canonical IPv4 address or a DNS name';
    case ValueRule.EXPORT_PATH:
      return "'/' or an absolute path of A-Z a-z 0-9 _ . - segments";
    case ValueRule.MOUNT_OPTIONS:
      return 'a comma-separated list of name or name=value mount options of A-Z a-z 0-9 _ . : -';
  }
}

/** Why one resolved value breaks its rule, or undefined. */
export function valueProblem(rule: ValueRule, value: string, options: CheckOptions): string | undefined {
  const space = { allowPublic: options.allowPublic };
  switch (rule) {
    case ValueRule.CLIENT_CIDR:
      return cidrProblem(value) ?? addressSpaceProblem(value, space);
    case ValueRule.CLIENT_PEER:
      return value.includes(':') ? ipv6ClientProblem(value, space) : cidrProblem(value) ?? addressSpaceProblem(value, space);
    case ValueRule.LOGIN_IP:
      return ipv4Problem(value) ?? addressSpaceProblem(value, space);
    case ValueRule.VPC_CIDR:
      return vpcCidrProblem(value, space);
    case ValueRule.SERVER_ADDRESS:
      return serverAddressProblem(value);
    case ValueRule.EXPORT_PATH:
      return exportPathProblem(value);
    case ValueRule.MOUNT_OPTIONS:
      return mountOptionsProblem(value);
  }
}

/**
 * Every broken rule among the resolved values, one sentence each naming the value as typed, what it resolved to and
 * what is allowed. No CIDR may appear twice in `clientCidrs`.
 */
export function checkValues(props: ValueCheckProperties): string[] {
  const problems: string[] = [];
  const clientCidrs = new Set<string>();
  for (const { name, rule, value } of props.checks) {
    const problem = valueProblem(rule, value, props);
    if (problem !== undefined) {
      problems.push(`${name} resolved at deploy to ${JSON.stringify(value)}: allowed is ${ruleText(rule, props)}: ${problem}.`);
      continue;
    }
    if (rule !== ValueRule.CLIENT_CIDR) continue;
    if (clientCidrs.has(value)) problems.push(`${name} resolved at deploy to ${JSON.stringify(value)}, which clientCidrs already holds: each entry must appear once.`);
    clientCidrs.add(value);
  }
  return problems;
}

/** `true`/`false` as CloudFormation passes a boolean property. */
function parseFlag(raw: Record<string, unknown>, key: string): boolean {
  const v = raw[key];
  if (v === 'true' || v === true) return true;
  if (v === 'false' || v === false || v === undefined) return false;
  throw new Error(`${key} must be 'true' or 'false', got ${JSON.stringify(v)}`);
}

/** The trust boundary: the raw ResourceProperties, checked for shape before any value is judged. */
export function parseValueCheckProperties(raw: unknown): ValueCheckProperties {
  if (typeof raw !== 'object' || raw === null) throw new Error(`ResourceProperties must be an object, got ${JSON.stringify(raw)}`);
  const props = raw as Record<string, unknown>;
  const rawChecks = props[PROP.CHECKS];
  if (!Array.isArray(rawChecks) || rawChecks.length === 0) throw new Error(`${PROP.CHECKS} must be a non-empty list, got ${JSON.stringify(rawChecks)}`);
  const checks = rawChecks.map((c, i): ValueToCheck => {
    const o = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
    const { Name: name, Rule: rule, Value: value } = o;
    if (typeof name !== 'string' || name === '') throw new Error(`${PROP.CHECKS}[${i}].Name must be a non-empty string, got ${JSON.stringify(name)}`);
    if (typeof rule !== 'string' || !RULES.includes(rule)) {
      throw new Error(`${PROP.CHECKS}[${i}].Rule must be one of ${RULES.join(', ')}, got ${JSON.stringify(rule)}`);
    }
    if (typeof value !== 'string') throw new Error(`${PROP.CHECKS}[${i}].Value (${name}) must be a string, got ${JSON.stringify(value)}`);
    return { name, rule: rule as ValueRule, value };
  });
  return { checks, allowPublic: parseFlag(props, PROP.ALLOW_PUBLIC) };
}

/** The wire form of one value, as the construct puts it in {@link PROP.CHECKS}. */
export function wireCheck(check: ValueToCheck): { Name: string; Rule: string; Value: string } {
  return { Name: check.name, Rule: check.rule, Value: check.value };
}
