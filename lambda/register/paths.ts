/**
 * Where the records live in SSM Parameter Store (docs/design.md, section 6): the prefix, the cluster and server names
 * that make up a record's name, their grammar of one path level each, and the names built from them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */

/** SSM Parameter Store prefix of the records when none is given (docs/design.md, section 6). */
export const DEFAULT_PARAMETER_PREFIX = '/storage-server';
/** Longest cluster or server name; `NAME_PATTERN` in lib/validation.ts allows 1-64 characters too. */
export const MAX_NAME_LENGTH = 64;
/**
 * Longest prefix. SSM counts a name's whole ARN against 1011 characters. With 64-character cluster and server names the
 * mount record's name adds 144 characters to the prefix, so 512 leaves room for the longest partition and region in the
 * ARN.
 */
export const MAX_PREFIX_LENGTH = 512;
/** SSM allows 15 levels; the mount record adds 4 below the prefix: cluster/storage/server/mount. */
export const MAX_PREFIX_LEVELS = 11;

const NAME = /^[A-Za-z0-9_.-]+$/;

/** A cluster or server name: `[A-Za-z0-9_.-]`, 1-64 characters, one SSM path level. */
export function validateName(field: string, value: string): void {
  if (!isName(value)) {
    throw new Error(
      `${field} must be 1-${MAX_NAME_LENGTH} characters of A-Z, a-z, 0-9, '_', '.' or '-' ` +
        `(one SSM parameter path level), got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * An SSM path prefix: '/'-separated levels of `[A-Za-z0-9_.-]`, starting with '/', no trailing '/', at most 11 levels
 * and 512 characters. SSM reserves a first level that starts with 'aws' or 'ssm'.
 */
export function validatePrefix(field: string, value: string): void {
  const problem = prefixProblem(value);
  if (problem) throw new Error(`${field} ${problem}, got ${JSON.stringify(value)}`);
}

/** What makes `value` no prefix, or undefined; see {@link validatePrefix}. */
export function prefixProblem(value: string): string | undefined {
  const levels = value.split('/').slice(1);
  return !value.startsWith('/')
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
}

/** Whether `value` is a cluster or server name; see {@link validateName}. */
export function isName(value: string): boolean {
  return value.length >= 1 && value.length <= MAX_NAME_LENGTH && NAME.test(value);
}

/** The two records of a server: its ring member record and its clients' mount config. */
export enum RecordKind {
  /** The cluster ring's record of a server: `<prefix>/<cluster>/ring/<server>`. */
  RING = 'ring',
  /** A server's mount record: `<prefix>/<cluster>/storage/<server>/mount`. */
  MOUNT = 'mount',
}

/** A record's name read back by the grammar: which record of which server under which prefix. */
export interface RecordName {
  /** Which record of the server. */
  readonly kind: RecordKind;
  /** The SSM path prefix. */
  readonly prefix: string;
  /** The cluster's name. */
  readonly clusterName: string;
  /** The server's name. */
  readonly serverName: string;
}

const CLUSTER = '<cluster>';
const SERVER = '<server>';
/**
 * The grammar of the record names, the one place that says it: the levels each record adds below the prefix,
 * where `<cluster>` and `<server>` stand for a name and every other level is itself. Names are built and read
 * from it alone, so the readings {@link readRecordName} finds are exactly the names {@link recordName} makes.
 */
const RECORD_LEVELS: { readonly [K in RecordKind]: readonly string[] } = {
  ring: [CLUSTER, 'ring', SERVER],
  mount: [CLUSTER, 'storage', SERVER, 'mount'],
};
const KINDS = Object.values(RecordKind);

/** The name of a server's record: `<prefix>/<cluster>/ring/<server>` or `<prefix>/<cluster>/storage/<server>/mount`. */
export function recordName(kind: RecordKind, prefix: string, cluster: string, server: string): string {
  const levels = RECORD_LEVELS[kind].map((l) => (l === CLUSTER ? cluster : l === SERVER ? server : l));
  return [prefix, ...levels].join('/');
}

/**
 * Every reading of `name` by the grammar: none for a name that is no record's, one for a name that reads as one record,
 * and two for a name that reads as a ring record and as a mount record at once. A ring record of cluster `storage` and
 * server `mount` under `<p>/<c>` has the name of the mount record of server `ring` of cluster `<c>` under `<p>`.
 */
export function readRecordName(name: string): RecordName[] {
  const levels = name.split('/');
  return KINDS.flatMap((kind) => {
    const template = RECORD_LEVELS[kind];
    const split = levels.length - template.length;
    if (split < 1) return [];
    const prefix = levels.slice(0, split).join('/');
    const tail = levels.slice(split);
    const fits = template.every((l, i) => (l === CLUSTER || l === SERVER ? isName(tail[i]) : tail[i] === l));
    if (!fits || prefixProblem(prefix) !== undefined) return [];
    const at = (l: string) => tail[template.indexOf(l)];
    return [{ kind, prefix, clusterName: at(CLUSTER), serverName: at(SERVER) }];
  });
}

/** `<prefix>/<cluster>/ring/<server>`: the server's ring member record. */
export function ringParameterName(prefix: string, cluster: string, server: string): string {
  return recordName(RecordKind.RING, prefix, cluster, server);
}

/** `<prefix>/<cluster>/storage/<server>/mount`: the server's mount config record. */
export function mountParameterName(prefix: string, cluster: string, server: string): string {
  return recordName(RecordKind.MOUNT, prefix, cluster, server);
}

/**
 * `<prefix>/<cluster>/removed/<server>`: the tombstone a registration leaves when it deletes records it owns, by which
 * clients tell a removed server from one being replaced (docs/design.md, section 9). Its levels read as a mount record's
 * name only for cluster `storage` and server `mount`, which {@link validateServerNames} refuses, since the ring record's
 * name reads so too.
 */
export function tombstoneParameterName(prefix: string, cluster: string, server: string): string {
  return `${clusterPath(prefix, cluster)}removed/${server}`;
}

/** `<prefix>/<cluster>/storage/`: where a client finds every storage server of its cluster. */
export function storagePath(prefix: string, cluster: string): string {
  return `${clusterPath(prefix, cluster)}storage/`;
}

/** `<prefix>/<cluster>/ring/`: every ring member of a cluster. */
export function ringPath(prefix: string, cluster: string): string {
  return `${clusterPath(prefix, cluster)}ring/`;
}

/** `<prefix>/<cluster>/`: every record of a cluster lies below it. */
export function clusterPath(prefix: string, cluster: string): string {
  return `${prefix}/${cluster}/`;
}

/**
 * Splits a ring parameter name back into prefix, cluster and server, or returns undefined when the name is not one. The
 * handler's Delete needs it, since it works from the PhysicalResourceId, which is the ring parameter name.
 */
export function parseRingParameterName(
  name: string,
): { prefix: string; clusterName: string; serverName: string } | undefined {
  const ring = readRecordName(name).find((r) => r.kind === RecordKind.RING);
  return ring && { prefix: ring.prefix, clusterName: ring.clusterName, serverName: ring.serverName };
}

/** The keys a server's record names are made of, as {@link validateServerNames} names them in its messages. */
export type NameKey = 'parameterPrefix' | 'clusterName' | 'serverName';

/**
 * Validates the names a server's records are made of: the prefix and each name by its grammar, then the three together.
 * A ring record's name must not read as a mount record's. Clients take every name of the mount record's form below
 * their cluster's storage path for a mount record, and its server's registration owns that name. This rule alone keeps
 * every record of every server it admits on a name of its own. A ring name has one ring reading and a mount name one
 * mount reading, since the levels after the prefix are fixed. The one way a name reads as both kinds is the ring name
 * refused here. `field` names a key as the caller's user typed it.
 */
export function validateServerNames(field: (key: NameKey) => string, prefix: string, cluster: string, server: string): void {
  validateName(field('clusterName'), cluster);
  validateName(field('serverName'), server);
  validatePrefix(field('parameterPrefix'), prefix);
  const ring = ringParameterName(prefix, cluster, server);
  const mount = readRecordName(ring).find((r) => r.kind === RecordKind.MOUNT);
  if (mount) {
    throw new Error(
      `${field('serverName')} ${JSON.stringify(server)} of ${field('clusterName')} ${JSON.stringify(cluster)} under ` +
        `${field('parameterPrefix')} ${JSON.stringify(prefix)} names its ring record ${ring}, which is the name of the ` +
        `mount record of server ${JSON.stringify(mount.serverName)} of cluster ${JSON.stringify(mount.clusterName)} ` +
        `under prefix ${JSON.stringify(mount.prefix)}: a ring record's name must not read as a mount record's ` +
        '(docs/design.md, section 6). Give the server another serverName or clusterName',
    );
  }
}

/** The names of one server's records. */
export interface ServerRecordNames {
  readonly prefix: string;
  readonly clusterName: string;
  readonly serverName: string;
}

/**
 * How the records of two servers meet:
 * - `same` when they are the same records: one cluster, one server name;
 * - `nested` when one's cluster path lies below the other's, as `/p/hpc1/` and `/p/hpc1/storage/` do. One cluster's
 *   records then lie among another's, where its clients list them. With cluster `storage` and server `mount`, a ring
 *   record takes a mount record's name.
 * - undefined when no name of one can be a name of the other. Every record lies below its cluster path, and two paths
 *   of which neither starts the other have no name below both.
 */
export function recordsMeet(a: ServerRecordNames, b: ServerRecordNames): 'same' | 'nested' | undefined {
  const [pa, pb] = [clusterPath(a.prefix, a.clusterName), clusterPath(b.prefix, b.clusterName)];
  if (pa === pb) return a.serverName === b.serverName ? 'same' : undefined;
  return pa.startsWith(pb) || pb.startsWith(pa) ? 'nested' : undefined;
}
