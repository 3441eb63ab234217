/**
 * The keys that say who the clients are: the CIDRs and the security group admitted to NFS, the tag that selects the
 * client nodes, and the clusterware master's address. The address space those addresses may lie in is set here too.
 */
import { TAG_KEY_PATTERN, TAG_KEY_RULE, ec2IdPattern } from '../validation/names';
import { addressSpaceProblem, cidrProblem, ipv4Problem } from '../../lambda/value-check/network';
import { duplicateValues } from '../validation/lists';
import { CLIENT_SPACE_ALLOWED } from '../../lambda/value-check/special-purpose';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError } from './values';

/** The address space client CIDRs and the clusterware master are checked against here; a VPC's CIDR admits no more. */
export function clientAddressSpace(allowPublicClientCidrs: boolean): { allowPublic: boolean } {
  return { allowPublic: allowPublicClientCidrs };
}

/** The client keys, in the order they are checked. */
export function parseClientKeys(
  values: ContextValues<ContextKey>,
  space: { allowPublic: boolean },
): Pick<StorageServerContext, 'clientCidrs' | 'rootClientCidrs' | 'clientSecurityGroupId' | 'clientTagKey' | 'loginIp'> {
  const { optional } = values;
  return {
    clientCidrs: optional('clientCidrs', (key, value) => parseCidrList(key, value, space)),
    rootClientCidrs: optional('rootClientCidrs', (key, value) => parseCidrList(key, value, space)),
    clientSecurityGroupId: optional('clientSecurityGroupId', parseSecurityGroupId),
    clientTagKey: optional('clientTagKey', parseTagKey) ?? CONTEXT_DEFAULTS.clientTagKey,
    loginIp: optional('loginIp', (key, value) => parseIpv4(key, value, space)),
  };
}

/** A security group id as EC2 writes one, `sg-` and 8 or 17 hex digits. */
export function parseSecurityGroupId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('sg').test(value)) {
    throw contextError(key, value, "a security group id such as 'sg-0123456789abcdef0'");
  }
  return value;
}

const CIDR_LIST_ALLOWED = 'a comma-separated list of canonical IPv4 CIDRs such as 10.0.0.0/16 (prefix 1-32, no ' +
  'leading zeros, no host bits) in private address space unless allowPublicClientCidrs=true';

function parseCidrList(key: ContextKey, value: string, space: { allowPublic: boolean }): string[] {
  const cidrs = value.split(',').map((c) => c.trim());
  for (const cidr of cidrs) {
    const problem = cidrProblem(cidr) ?? addressSpaceProblem(cidr, space);
    if (problem) throw contextError(key, value, `${CIDR_LIST_ALLOWED} (bad: '${cidr}': ${problem})`);
  }
  const repeated = duplicateValues(cidrs);
  if (repeated.length > 0) throw contextError(key, value, `${CIDR_LIST_ALLOWED}, each once (repeated: ${repeated.join(', ')})`);
  return cidrs;
}

function parseTagKey(key: ContextKey, value: string): string {
  // Length in characters, as EC2 counts them: a letter outside the BMP is one, not two UTF-16 units.
  if ([...value].length > 128 || !TAG_KEY_PATTERN.test(value)) throw contextError(key, value, TAG_KEY_RULE);
  return value;
}

function parseIpv4(key: ContextKey, value: string, space: { allowPublic: boolean }): string {
  const problem = ipv4Problem(value) ?? addressSpaceProblem(value, space);
  if (problem) {
    // The space allowed is said once, here: the problem's own "allowed is" clause is dropped.
    const reason = problem.replace(/; allowed is .*$/, '');
    throw contextError(key, value, `the canonical IPv4 address of one host, such as 10.0.1.10, in ` +
      `${CLIENT_SPACE_ALLOWED.replace(/^allowed is /, '')} (bad: ${reason})`);
  }
  return value;
}
