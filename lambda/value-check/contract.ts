/**
 * The deploy-time value check's contract: the values a synth could not see, each with the rule the construct holds its
 * literal form to, and the check of the resolved values. Such values are tokens: template parameters, imports and
 * attributes. The construct, lib/deploy-check.ts, writes the properties. The handler, index.ts, parses and checks them
 * before any resource that carries one of the values is created or updated.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import {
  exportPathProblem, lustreAddressProblem, lustreExportPathProblem, mountOptionsProblem, mountPointProblem, parameterPrefixProblem,
  recordNameProblem, serverAddressProblem,
} from './mount-target';
import { FLAG_OPTIONS, VALUED_OPTIONS } from './mount-options';
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
  /** An imported NFS server's `mountAddress`: a canonical IPv4 host address or an FSx file system's DNS name. */
  SERVER_ADDRESS = 'server-address',
  /** An imported FSx for Lustre file system's `mountAddress`: its DNS name. */
  LUSTRE_ADDRESS = 'lustre-address',
  /** An imported NFS server's `exportPath`: an absolute path of `[A-Za-z0-9_.-]` segments, not `/`. */
  EXPORT_PATH = 'export-path',
  /** An imported FSx for Lustre file system's `exportPath`: `/` and its mount name. */
  LUSTRE_EXPORT_PATH = 'lustre-export-path',
  /** An imported NFS server's `mountOptions`: options on the client nodes' NFS allowlist. */
  MOUNT_OPTIONS = 'mount-options',
  /** An imported FSx for Lustre file system's `mountOptions`: options on the client nodes' Lustre allowlist. */
  LUSTRE_MOUNT_OPTIONS = 'lustre-mount-options',
  /** An imported server's `mountPoint`: a directory outside the system directories, `/home` allowed. */
  MOUNT_POINT = 'mount-point',
  /** An imported server's `clusterName` or `serverName`: one SSM path level. */
  RECORD_NAME = 'record-name',
  /** An imported server's `parameterPrefix`: an SSM path its records may be under. */
  PARAMETER_PREFIX = 'parameter-prefix',
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

/** Each allowlist as a message names it: the flags, then `name=` for the options that take a value. */
const OPTIONS_SHOWN = {
  nfs4: [...FLAG_OPTIONS.nfs4, ...Object.keys(VALUED_OPTIONS.nfs4).map((o) => `${o}=`)].join(' '),
  lustre: [...FLAG_OPTIONS.lustre, ...Object.keys(VALUED_OPTIONS.lustre).map((o) => `${o}=`)].join(' '),
};

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
      return 'a canonical IPv4 address of a host or an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)';
    case ValueRule.LUSTRE_ADDRESS:
      return 'the FSx for Lustre file system\'s DNS name (fs-<id>.fsx.<region>.amazonaws.com)';
    case ValueRule.EXPORT_PATH:
      return 'an absolute path of A-Z a-z 0-9 _ . - segments, not \'/\'';
    case ValueRule.LUSTRE_EXPORT_PATH:
      return "'/' and the file system's mount name, 3-8 of a-z 0-9";
    case ValueRule.MOUNT_OPTIONS:
      return `a comma-separated list of the NFS mount options the client nodes allow (${OPTIONS_SHOWN.nfs4})`;
    case ValueRule.LUSTRE_MOUNT_OPTIONS:
      return `a comma-separated list of the Lustre mount options the client nodes allow (${OPTIONS_SHOWN.lustre})`;
    case ValueRule.MOUNT_POINT:
      return "an absolute directory path of A-Z a-z 0-9 _ . - segments, not '/', a system directory or one below it (/home allowed)";
    case ValueRule.RECORD_NAME:
      return '1-64 characters of A-Z a-z 0-9 _ . -';
    case ValueRule.PARAMETER_PREFIX:
      return "an SSM path of '/'-separated levels of A-Z a-z 0-9 _ . -, at most 11 levels and 512 characters, not starting with aws or ssm";
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
    case ValueRule.LUSTRE_ADDRESS:
      return lustreAddressProblem(value);
    case ValueRule.EXPORT_PATH:
      return exportPathProblem(value);
    case ValueRule.LUSTRE_EXPORT_PATH:
      return lustreExportPathProblem(value);
    case ValueRule.MOUNT_OPTIONS:
      return mountOptionsProblem(value, 'nfs4');
    case ValueRule.LUSTRE_MOUNT_OPTIONS:
      return mountOptionsProblem(value, 'lustre');
    case ValueRule.MOUNT_POINT:
      return mountPointProblem(value);
    case ValueRule.RECORD_NAME:
      return recordNameProblem(value);
    case ValueRule.PARAMETER_PREFIX:
      return parameterPrefixProblem(value);
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
