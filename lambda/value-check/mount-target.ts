/**
 * What a client is told to mount when the server is not this stack's: `StorageServer.fromStorageServerAttributes`. The
 * values reach the client's user data and fstab without the client mount script's record checker, so each is held to
 * what that checker, lib/scripts/client_mount.py, admits of a mount record, or to less.
 */
import { FSX_TARGETS } from '../register/fsx-targets';
import { isName, prefixProblem } from '../register/paths';
import { FSX_DNS_NAME, MAX_OPTIONS_LENGTH as MAX_OPTIONS, MAX_PATH_LENGTH as MAX_PATH } from '../register/validation';
import { allowedOptionsProblem } from './mount-options';
import { directoryProblem } from './mounts';
import { ipv4Problem } from './network';

/** The longest DNS name, RFC 1035 section 2.3.4: 255 octets on the wire, 253 characters written out. */
export const MAX_DNS_NAME = 253;

/** One DNS label, RFC 1123 section 2.1 (RFC 952's letters, digits and inner hyphens, a digit first allowed): 1-63 characters. */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The form of an FSx file system's DNS name, which the clients mount by no other name. */
const FSX_NAME_FORM = 'fs-<id>.fsx.<region>.amazonaws.com';

/**
 * Why `address` is not a DNS name the clients would look up, or undefined. RFC 1123 section 2.1 labels of at most 63
 * characters and RFC 1035's 253 in all; no trailing dot, since the client's FSx name pattern has none.
 */
function dnsNameProblem(address: string): string | undefined {
  if (address.length > MAX_DNS_NAME) return `a DNS name longer than ${MAX_DNS_NAME} characters (${address.length}, RFC 1035)`;
  const labels = address.split('.');
  if (labels[labels.length - 1] === '') return 'a DNS name with a trailing dot, which the clients do not take';
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad === '') return "a DNS name with an empty label ('..' or a leading dot)";
  if (bad !== undefined) {
    return bad.length > 63 ? `a DNS label longer than 63 characters (${bad.length}, RFC 1123)` :
      'a DNS label of other characters than A-Z a-z 0-9 and inner hyphens (RFC 1123)';
  }
  return FSX_DNS_NAME.test(address) ? undefined : `not an FSx file system's DNS name (${FSX_NAME_FORM}), the only name the clients mount`;
}

/**
 * Why `address` is not an NFS server's: a canonical IPv4 host address (an EC2 server's), or an FSx for OpenZFS file
 * system's DNS name. IPv6 is refused, bracketed (RFC 3986) or bare (RFC 4291 section 2.2, RFC 5952): the clients
 * mount IPv4 only. Anything else is a DNS name, held to {@link dnsNameProblem}.
 */
export function serverAddressProblem(address: string): string | undefined {
  if (typeof address !== 'string' || address === '') return 'empty';
  // A look-alike letter or digit from another script reads as the name it imitates.
  if (/[^\x21-\x7e]/.test(address)) return 'a character outside printable ASCII (a space, or a letter or digit of another script)';
  if (address.includes(':') || address.startsWith('[')) return 'an IPv6 address (RFC 4291), which the clients do not mount: they mount IPv4 only';
  if (/^[0-9.]+$/.test(address)) return ipv4Problem(address);
  return dnsNameProblem(address);
}

/** Why `address` is not an FSx for Lustre file system's DNS name, the only address a Lustre client is given. */
export function lustreAddressProblem(address: string): string | undefined {
  if (typeof address !== 'string' || address === '') return 'empty';
  const problem = serverAddressProblem(address);
  if (problem !== undefined) return problem;
  return FSX_DNS_NAME.test(address) ? undefined : `an IPv4 address, where FSx for Lustre is mounted by its DNS name (${FSX_NAME_FORM})`;
}

/** Why `path` is not an exported path, or undefined: an absolute path of `[A-Za-z0-9_.-]` segments, not `/`. */
export function exportPathProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  if (path.length > MAX_PATH) return `longer than ${MAX_PATH} characters (${path.length})`;
  if (path === '/') return 'the root directory, which the clients refuse to mount';
  const segments = path.split('/').slice(1);
  if (!path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9_.-]+$/.test(s))) {
    return "not an absolute path of A-Z a-z 0-9 _ . - segments (no '..', '.', '//' or trailing '/')";
  }
  return undefined;
}

/** Why `path` is not what FSx for Lustre exports, `/` and its mount name, as the registration's rule has it, or undefined. */
export function lustreExportPathProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  const { mountName, exportPath } = FSX_TARGETS['fsx-lustre'];
  return path.startsWith('/') && mountName.valid(path.slice(1)) && exportPath.valid(path, path.slice(1)) ? undefined :
    `not '/' and ${mountName.rule.replace(/ for fsx-lustre$/, '')}`;
}

/** Why `options` is not a mount option list the clients take for `fsType`, or undefined; see {@link allowedOptionsProblem}. */
export function mountOptionsProblem(options: string, fsType: 'nfs4' | 'lustre'): string | undefined {
  if (typeof options !== 'string') return 'not a string';
  if (options === '') return 'empty';
  if (options.length > MAX_OPTIONS) return `longer than ${MAX_OPTIONS} characters (${options.length})`;
  return allowedOptionsProblem(options, fsType);
}

/**
 * Why `path` is not a mount point some client node may take, or undefined: a directory as `directoryProblem` wants
 * it, `/home` allowed. Which of them a node takes is its own mount roots' decision.
 */
export function mountPointProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  return directoryProblem(path, { allowHome: true });
}

/** Why `name` is not a cluster or server name, one SSM path level, or undefined. */
export function recordNameProblem(name: string): string | undefined {
  return typeof name === 'string' && isName(name) ? undefined : 'not 1-64 characters of A-Z a-z 0-9 _ . -';
}

/** Why `prefix` is not an SSM prefix the records may be under, or undefined. */
export function parameterPrefixProblem(prefix: string): string | undefined {
  return typeof prefix === 'string' ? prefixProblem(prefix) : 'not a string';
}
