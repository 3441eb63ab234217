/**
 * Who wrote a record (docs/design.md, sections 6 and 7): the owner mark every record carries, and whether a
 * registration may write over or delete what a name holds. A registration writes over and deletes only what it wrote: a
 * record with its mark, or a record written before marks by the same server, as the record itself shows. Anything else
 * at its names, of any kind, is refused.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { RecordKind } from './paths';

/**
 * The owner mark of a record: the registration that wrote it, by its stack and logical id as CloudFormation names them,
 * and the record it wrote, by kind, cluster and server. A reader without CloudFormation checks the second part against
 * the parameter's name as `readRecordName` reads it: a record whose mark names another record is not the record its
 * name says.
 */
export interface RecordOwner {
  /** The stack whose registration wrote the record: its StackId, `arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<id>`. */
  readonly stackId: string;
  /** The registration's logical id in that stack. */
  readonly logicalResourceId: string;
  /** Which record of the server this is. */
  readonly record: RecordKind;
  /** The cluster's name. */
  readonly clusterName: string;
  /** The server's name. */
  readonly serverName: string;
}

/** What a name holds, read from its value before a registration writes over it or deletes it. */
export type Holding =
  | { readonly is: 'marked'; readonly owner: RecordOwner }
  | { readonly is: 'unmarked ring'; readonly serverName: string; readonly ownerId: string }
  | { readonly is: 'unmarked mount' }
  | { readonly is: 'other'; readonly what: string };

/** What a registration knows of itself when it decides about one of its names. */
export interface Claimant {
  /** The mark it writes at this name. */
  readonly owner: RecordOwner;
  /**
   * The instance or file system ids it registers, and on an Update also the one it registered before. A ring record
   * written before marks is its own when it names one of them.
   */
  readonly ids: readonly string[];
  /** Whether the server's ring record is this registration's: a mount record written before marks is its then. */
  readonly ringIsOurs: boolean;
  /** A Delete: only the resource that wrote a record removes it, since another of its stack may have taken it over. */
  readonly deleting: boolean;
}

/** The fields of every mount record: KEYS in lib/scripts/client_mount.py. */
const MOUNT_KEYS = ['server', 'exportPath', 'mountPoint', 'fsType', 'options', 'fstab'];
const OWNER_KEYS = ['stackId', 'logicalResourceId', 'record', 'clusterName', 'serverName'] as const;

/**
 * Reads a parameter's value: a marked record, a record written before marks and known by its shape, or anything else.
 */
export function holding(value: string): Holding {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { is: 'other', what: 'a value that is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { is: 'other', what: 'a JSON value that is not an object' };
  }
  const r = parsed as Record<string, unknown>;
  if ('owner' in r) {
    return isOwner(r.owner) ? { is: 'marked', owner: r.owner } : { is: 'other', what: 'a record whose owner mark is not one' };
  }
  const ownerId = r.instanceId ?? r.fileSystemId;
  if (r.role === 'storage' && typeof r.name === 'string' && typeof ownerId === 'string') {
    return { is: 'unmarked ring', serverName: r.name, ownerId };
  }
  if (MOUNT_KEYS.every((k) => typeof r[k] === 'string')) return { is: 'unmarked mount' };
  return { is: 'other', what: 'a JSON object that is neither a ring record nor a mount record' };
}

/**
 * Why `name`, which holds `held`, is not the claimant's to write over or delete, as the refusal's message. Undefined
 * when it is the claimant's:
 * - a record marked by the claimant's stack as this very record, and for a Delete by the claimant's own resource;
 * - a ring record written before marks that names this server and one of its ids;
 * - a mount record written before marks while the server's ring record is the claimant's.
 */
export function refusal(name: string, held: Holding, c: Claimant): string | undefined {
  const ours = c.owner;
  const kind = ours.record;
  const where = `, where this server's ${kind} record goes`;
  let what: string;
  if (held.is === 'marked') {
    const o = held.owner;
    if (o.record === kind && o.clusterName === ours.clusterName && o.serverName === ours.serverName) {
      if (o.stackId === ours.stackId && (!c.deleting || o.logicalResourceId === ours.logicalResourceId)) return undefined;
      return belongs(name, `${o.logicalResourceId} of stack ${o.stackId}`, `${ours.logicalResourceId} of stack ${ours.stackId}`);
    }
    what = `the ${o.record} record of ${o.clusterName}/${o.serverName} (written by ${o.logicalResourceId} of stack ${o.stackId})${where}`;
  } else if (held.is === 'unmarked ring' && kind === RecordKind.RING && held.serverName === ours.serverName) {
    if (c.ids.includes(held.ownerId)) return undefined;
    const [id, previous] = c.ids;
    const replaces = previous !== undefined && previous !== id ? ` (or to ${previous}, which it replaces)` : '';
    return belongs(name, held.ownerId, `${id ?? 'this registration'}${replaces}`);
  } else if (held.is === 'unmarked ring') {
    what = `the ring record of ${held.ownerId} (server ${held.serverName}), written before owner marks${where}`;
  } else if (held.is === 'unmarked mount' && kind === RecordKind.MOUNT) {
    if (c.ringIsOurs) return undefined;
    what = "a mount record written before owner marks that this registration cannot show it wrote (the server's ring " +
      'record is not its own)';
  } else if (held.is === 'unmarked mount') {
    what = `a mount record written before owner marks${where}`;
  } else {
    what = `${held.what}${where}`;
  }
  return (
    `${name} holds ${what}: a registration writes over and deletes only the records it wrote (docs/design.md, ` +
    'section 7). Give this server another serverName or clusterName, or, if nothing needs what ' +
    `${name} holds, delete it and deploy again`
  );
}

/** The refusal for another server's record under this server's name, where another stack registered the same names. */
function belongs(name: string, owner: string, ours: string): string {
  return (
    `${name} belongs to ${owner}, not to ${ours}: another server of the cluster is registered under this name. ` +
    `Give this server another serverName, or, if ${owner} is gone, delete its records (${name} and the other ` +
    'record of its server) and deploy again'
  );
}

function isOwner(v: unknown): v is RecordOwner {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return OWNER_KEYS.every((k) => typeof o[k] === 'string') && (Object.values(RecordKind) as unknown[]).includes(o.record);
}
