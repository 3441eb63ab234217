import { Token, Tokenization } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { cidrProblem, cidrWithin } from '../../../lambda/value-check/network';
import { shown } from '../../prop-checks';
import { SettingNames } from '../../setting-names';

// The EC2 server's root clients: the only clients whose root stays root on the export (no_root_squash), for a copy
// that keeps owners. The server lists them first on the exports line and checks them again at every apply.

/**
 * The `rootClientCidrs` prop, checked where synth can see it: canonical IPv4 CIDRs, each once, each within one of the
 * export's client CIDRs. One that is a token, or that lies outside every literal client CIDR while some client CIDR is a
 * token, is left to the server's settings validation, which refuses the apply when it is not within a client CIDR.
 */
export function rootClientCidrs(scope: IConstruct, cidrs: string[] | undefined, exportCidrs: string[]): string[] | undefined {
  if (cidrs === undefined) return undefined;
  const names = SettingNames.of(scope);
  const notString = Array.isArray(cidrs) ? cidrs.findIndex((c) => typeof c !== 'string') : -1;
  if (notString >= 0) {
    const at = names.byContext ? `rootClientCidrs entry ${notString + 1}` : `rootClientCidrs[${notString}]`;
    throw new Error(`${at} must be a canonical IPv4 CIDR, got ${shown(cidrs[notString])}: not a string.`);
  }
  if (!Array.isArray(cidrs) || Token.isUnresolved(cidrs) || cidrs.some((c) => Tokenization.reverseList([c]) !== undefined)) {
    throw new Error('rootClientCidrs must be a list of CIDRs written out, each entry its own string, not a token list.');
  }
  const known = exportCidrs.filter((c) => !Token.isUnresolved(c));
  const seen = new Set<string>();
  cidrs.forEach((cidr, i) => {
    const at = names.byContext ? `rootClientCidrs entry ${i + 1}` : `rootClientCidrs[${i}]`;
    if (Token.isUnresolved(cidr)) return;
    const problem = cidrProblem(cidr);
    if (problem) throw new Error(`${at} must be a canonical IPv4 CIDR such as 10.0.1.5/32, got ${shown(cidr)}: ${problem}.`);
    if (seen.has(cidr)) throw new Error(`rootClientCidrs: each entry must appear once, got '${cidr}' twice.`);
    seen.add(cidr);
    if (known.length === exportCidrs.length && !known.some((c) => cidrProblem(c) === undefined && cidrWithin(cidr, c))) {
      const clients = names.name({ prop: 'clientCidrs', key: 'clientCidrs' });
      throw new Error(`${at} ${cidr} is not within the export's clients (${known.join(', ')}, ${clients} or else the ` +
        `VPC's CIDR): a root client must be one of the clients, which it only spares root squash.`);
    }
  });
  return cidrs;
}
