/**
 * What a client is told to mount when the server is not this stack's: `StorageServer.fromStorageServerAttributes`. The
 * values reach the client's user data and fstab, so each is held to a grammar with no quote, space or shell character.
 */
import { MAX_OPTIONS_LENGTH as MAX_OPTIONS, MAX_PATH_LENGTH as MAX_PATH } from '../register/validation';
import { ipv4Problem } from './network';

/** The longest DNS name, RFC 1035 section 2.3.4: 255 octets on the wire, 253 characters written out. */
export const MAX_DNS_NAME = 253;

/** One DNS label, RFC 1123 section 2.1: letters, digits and inner hyphens, 1-63 characters. */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * Why `address` is not a server address, or undefined: a canonical IPv4 address of a host, or a DNS name of RFC 1123
 * labels with at least one dot and a top label that is not all digits (RFC 1123 section 2.1's rule that keeps a name
 * from reading as a dotted quad).
 */
export function serverAddressProblem(address: string): string | undefined {
  if (typeof address !== 'string' || address === '') return 'empty';
  if (/^[0-9.]+$/.test(address)) return ipv4Problem(address);
  if (address.length > MAX_DNS_NAME) return `longer than ${MAX_DNS_NAME} characters (${address.length})`;
  const labels = address.split('.');
  if (labels.length < 2 || labels.some((l) => !LABEL.test(l)) || /^[0-9]+$/.test(labels[labels.length - 1])) {
    return 'neither a canonical IPv4 address nor a DNS name of dot-separated labels of A-Z a-z 0-9 and inner hyphens';
  }
  return undefined;
}

/** Why `path` is not an exported path, or undefined: `/`, or an absolute path of `[A-Za-z0-9_.-]` segments. */
export function exportPathProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  if (path.length > MAX_PATH) return `longer than ${MAX_PATH} characters (${path.length})`;
  if (path === '/') return undefined;
  const segments = path.split('/').slice(1);
  if (!path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9_.-]+$/.test(s))) {
    return "neither '/' nor an absolute path of A-Z a-z 0-9 _ . - segments (no '..', '.', '//' or trailing '/')";
  }
  return undefined;
}

/** Why `options` is not a mount option list, or undefined: `name` or `name=value` entries of `[A-Za-z0-9_.:-]`, commas between. */
export function mountOptionsProblem(options: string): string | undefined {
  if (typeof options !== 'string') return 'not a string';
  if (options.length > MAX_OPTIONS) return `longer than ${MAX_OPTIONS} characters (${options.length})`;
  if (!/^[A-Za-z0-9_.:-]+(=[A-Za-z0-9_.:-]+)?(,[A-Za-z0-9_.:-]+(=[A-Za-z0-9_.:-]+)?)*$/.test(options)) {
    return 'not a comma-separated list of name or name=value options of A-Z a-z 0-9 _ . : -';
  }
  return undefined;
}
