/**
 * Where the records live in SSM Parameter Store (docs/design.md, section 6): the prefix, the cluster and server
 * names that make up a record's name, their grammar (one path level each), and the names built from them.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */

/** SSM Parameter Store prefix of the records when none is given (docs/design.md, section 6). */
export const DEFAULT_PARAMETER_PREFIX = '/storage-server';
/** Longest cluster or server name (`NAME_PATTERN` in lib/validation.ts allows 1-64 characters too). */
export const MAX_NAME_LENGTH = 64;
/**
 * Longest prefix. SSM counts a name's whole ARN against 1011 characters; with 64-character cluster and
 * server names the mount record's name adds 144 characters to the prefix, so 512 leaves room for the
 * longest partition and region in the ARN.
 */
export const MAX_PREFIX_LENGTH = 512;
/** SSM allows 15 levels; the mount record adds 4 below the prefix (cluster/storage/server/mount). */
export const MAX_PREFIX_LEVELS = 11;

const NAME = /^[A-Za-z0-9_.-]+$/;

/** A cluster or server name: `[A-Za-z0-9_.-]`, 1-64 characters (one SSM path level). */
export function validateName(field: string, value: string): void {
  if (value.length < 1 || value.length > MAX_NAME_LENGTH || !NAME.test(value)) {
    throw new Error(
      `${field} must be 1-${MAX_NAME_LENGTH} characters of A-Z, a-z, 0-9, '_', '.' or '-' ` +
        `(one SSM parameter path level), got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * An SSM path prefix: '/'-separated levels of `[A-Za-z0-9_.-]`, starting with '/', no trailing '/',
 * the first level not starting with 'aws' or 'ssm' (reserved by SSM), at most 11 levels and 512 characters.
 */
export function validatePrefix(field: string, value: string): void {
  const levels = value.split('/').slice(1);
  const problem = !value.startsWith('/')
    ? "must start with '/'"
    : levels.some((l) => !NAME.test(l))
      ? "must be '/'-separated non-empty levels of A-Z, a-z, 0-9, '_', '.' or '-' with no trailing '/'"
      : /^(aws|ssm)/i.test(levels[0])
        ? "must not start with 'aws' or 'ssm' (reserved by SSM)"
        : levels.length > MAX_PREFIX_LEVELS
          ? `must have at most ${MAX_PREFIX_LEVELS} levels (SSM allows 15; the records add 4)`
          : value.length > MAX_PREFIX_LENGTH
            ? `must be at most ${MAX_PREFIX_LENGTH} characters`
            : undefined;
  if (problem) throw new Error(`${field} ${problem}, got ${JSON.stringify(value)}`);
}

/** `<prefix>/<cluster>/ring/<server>`: the server's ring member record. */
export function ringParameterName(prefix: string, cluster: string, server: string): string {
  return `${prefix}/${cluster}/ring/${server}`;
}

/** `<prefix>/<cluster>/storage/<server>/mount`: the server's mount config record. */
export function mountParameterName(prefix: string, cluster: string, server: string): string {
  return `${storagePath(prefix, cluster)}${server}/mount`;
}

/** `<prefix>/<cluster>/storage/`: where a client finds every storage server of its cluster. */
export function storagePath(prefix: string, cluster: string): string {
  return `${prefix}/${cluster}/storage/`;
}

/** `<prefix>/<cluster>/ring/`: every ring member of a cluster. */
export function ringPath(prefix: string, cluster: string): string {
  return `${prefix}/${cluster}/ring/`;
}

/**
 * Splits a ring parameter name back into prefix, cluster and server, or returns undefined when the name
 * is not one (the handler's Delete works from the PhysicalResourceId, which is the ring parameter name).
 */
export function parseRingParameterName(
  name: string,
): { prefix: string; clusterName: string; serverName: string } | undefined {
  const m = /^(\/.+)\/([^/]+)\/ring\/([^/]+)$/.exec(name);
  if (!m) return undefined;
  const [, prefix, clusterName, serverName] = m;
  try {
    validatePrefix('prefix', prefix);
    validateName('cluster', clusterName);
    validateName('server', serverName);
  } catch {
    return undefined;
  }
  return { prefix, clusterName, serverName };
}
