/**
 * Identity from CloudFormation's own record: docs/design.md section 8, "What the stack holds". The resources the stack
 * holds now, as CloudFormation lists them, are set against the resources of the template being deployed. aws.ts lists
 * them with ListStackResources over the root stack and every nested stack. The construct renders the template's
 * resources into the guard's `Kept` property at synth. CloudFormation deletes a server's volume, interface, file system
 * or instance-store instance that is held now and not kept at the end of this deploy, or strands it if retained. Such a
 * deploy is refused, whatever the construct id, path, nested stack or server name that made the resource. Names are
 * labels; the logical ids and physical ids CloudFormation holds are the identity.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS, type Backend } from '../register/backend';
import type { ShownBy } from './backend-guard';
import { GUARD_BACKENDS } from './backends';
import type { Refusal } from './policy';
import { RESOURCE_TYPE, SERVER_ID_TAG } from './wire';

export { KEPT_PROP } from './wire';

/**
 * The types the guard asks CloudFormation about: those that may hold a server's data or its clients' address, and the
 * guard itself, since a guard held and not kept is how a lost guard state is recognised.
 */
export const HELD_TYPES = [
  'AWS::EC2::Instance',
  'AWS::EC2::Volume',
  'AWS::EC2::NetworkInterface',
  'AWS::FSx::FileSystem',
  RESOURCE_TYPE,
] as const;
export type HeldType = (typeof HELD_TYPES)[number];

/**
 * A resource path from the root stack: the logical ids of the nested stacks that lead to it, then its own, joined by
 * `/`. CloudFormation's logical ids are alphanumeric, per template anatomy, "Resources", so `/` cannot occur in one.
 */
const PATH = /^[A-Za-z0-9]{1,255}(\/[A-Za-z0-9]{1,255}){0,15}$/;
/** The guard's own stack as a path prefix: `''` for the root stack, else nested stack logical ids each ending in `/`. */
const PREFIX = /^([A-Za-z0-9]{1,255}\/){0,15}$/;

/** What the deploy keeps: the guard's own stack and, per held type, the paths of the template's resources. */
export interface Kept {
  /** The guard's stack as a prefix of paths; `''` at the root. */
  readonly stack: string;
  readonly resources: { readonly [T in HeldType]: readonly string[] };
}

/** A resource CloudFormation holds now, in the root stack or a nested one. */
export interface HeldResource {
  readonly path: string;
  readonly type: HeldType;
  readonly physicalId: string;
}

/** What EC2 or FSx says of a held resource: the server it is tagged as, and, for an instance, whether it has instance store. */
export interface HeldDescription {
  readonly physicalId: string;
  /** The `storage-server:id` tag's value; absent: not a StorageServer's resource. */
  readonly serverId?: string;
  /** An instance whose type has instance store, by DescribeInstanceTypes' InstanceStorageSupported. */
  readonly instanceStore?: boolean;
  /** A file system's type, by DescribeFileSystems' FileSystemType: LUSTRE, OPENZFS and so on. */
  readonly fileSystemType?: string;
}

/**
 * The backend a server's dropped resources show, where they show one, as the backends' descriptors say in `shownBy`: a
 * file system's type, else an instance with instance store, else an EBS volume or an instance without instance store.
 * Undefined for an interface alone.
 */
export function backendShown(types: readonly HeldType[], described: readonly HeldDescription[]): Backend | undefined {
  const shownBy = (shows: (s: ShownBy) => boolean): Backend | undefined => BACKENDS.find((b) => shows(GUARD_BACKENDS[b].shownBy));
  const fsType = described.find((d) => d.fileSystemType !== undefined)?.fileSystemType;
  const byType = fsType === undefined ? undefined : shownBy((s) => s.fileSystemType === fsType);
  if (byType !== undefined) return byType;
  if (described.some((d) => d.instanceStore === true)) return shownBy((s) => s.instanceStore === true);
  if (types.includes('AWS::EC2::Volume') || described.some((d) => d.instanceStore === false)) return shownBy((s) => s.instanceStore === false);
  return undefined;
}

/** The `Kept` property, checked: absent on a guard deployed before it. */
export function parseKept(raw: unknown, at: string): Kept | undefined {
  if (raw === undefined) return undefined;
  const o = object(raw, at);
  const unknown = Object.keys(o).filter((k) => k !== 'Stack' && k !== 'Resources');
  if (unknown.length > 0) throw new Error(`${at} has unknown keys ${unknown.join(', ')}; expected Stack, Resources`);
  if (typeof o.Stack !== 'string' || !PREFIX.test(o.Stack)) {
    throw new Error(`${at}.Stack must be '' or nested stack logical ids each followed by /, got ${JSON.stringify(o.Stack)}`);
  }
  const r = object(o.Resources, `${at}.Resources`);
  const strange = Object.keys(r).filter((k) => !(HELD_TYPES as readonly string[]).includes(k));
  if (strange.length > 0) throw new Error(`${at}.Resources has unknown types ${strange.join(', ')}; expected ${HELD_TYPES.join(', ')}`);
  const resources = Object.fromEntries(HELD_TYPES.map((type) => {
    const list = r[type] ?? [];
    if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || !PATH.test(p))) {
      throw new Error(`${at}.Resources.${type} must be a list of resource paths matching ${PATH}, got ${JSON.stringify(list)}`);
    }
    return [type, list as string[]];
  })) as Record<HeldType, string[]>;
  return { stack: o.Stack, resources };
}

/** The `Kept` property as the construct renders it. */
export function keptWire(kept: Kept): Record<string, unknown> {
  return { Stack: kept.stack, Resources: Object.fromEntries(HELD_TYPES.map((t) => [t, [...kept.resources[t]].sort()])) };
}

/** The held resources of held types that the deploy does not keep under the same path and type. */
export function unkept(held: readonly HeldResource[], kept: Kept): HeldResource[] {
  return held.filter((h) => !kept.resources[h.type].includes(h.path));
}

/**
 * One refusal per held, unkept resource of a StorageServer that holds data or the clients' address: volumes,
 * interfaces, file systems, and instances with instance store. An EBS server's instance holds nothing; its volumes do.
 */
export function unkeptRefusals(
  gone: readonly HeldResource[], described: readonly HeldDescription[], acceptDataLoss: boolean, newBackend?: string,
): Refusal[] {
  const byId = new Map(described.map((d) => [d.physicalId, d]));
  const refusals: Refusal[] = [];
  // A server whose dropped resources show another backend than this deploy's: with backend auto the planner chose
  // another one, and another backend is another construct. It is named first, whatever else changed.
  const servers = new Map<string, HeldResource[]>();
  for (const h of gone) {
    const id = byId.get(h.physicalId)?.serverId;
    if (id !== undefined) servers.set(id, [...(servers.get(id) ?? []), h]);
  }
  for (const [serverId, resources] of servers) {
    const old = backendShown(resources.map((r) => r.type), resources.map((r) => byId.get(r.physicalId)!));
    if (newBackend === undefined || old === undefined || old === newBackend) continue;
    refusals.push({
      setting: 'Backend',
      oldValue: `${old} (${SERVER_ID_TAG}=${serverId})`,
      newValue: newBackend,
      why: `another backend is another construct: the ${old} server's resources listed next would be deleted or ` +
        'stranded (with backend auto, the planner chose another backend for the new sizes)',
      safePath: `keep backend '${old}' (-c backend=${old}, prop backend: '${old}'), under the construct's old id and place`,
      accepted: acceptDataLoss,
    });
  }
  for (const h of gone) {
    const d = byId.get(h.physicalId);
    if (d?.serverId === undefined) continue;
    if (h.type === 'AWS::EC2::Instance' && d.instanceStore !== true) continue;
    const server = d.serverId.slice(d.serverId.indexOf('/') + 1);
    refusals.push({
      setting: `Resource ${h.path}`,
      oldValue: `${h.type} ${h.physicalId} (${SERVER_ID_TAG}=${d.serverId})`,
      newValue: '(not in the template)',
      why: `CloudFormation holds it and this deploy's template has no resource ${h.path}: it would be deleted at the end ` +
        `of the deploy, or left with no server if retained (${WHAT_IT_HOLDS[h.type]})`,
      safePath: `deploy the server that made it under its old construct id and place, nested stack and serverName ` +
        `(${JSON.stringify(server)}), so that its logical id is ${h.path.slice(h.path.lastIndexOf('/') + 1)} again; to remove ` +
        'that server on purpose, deploy its removal alone, with no other change, and acceptDataLoss=true',
      accepted: acceptDataLoss,
    });
  }
  return refusals;
}

const WHAT_IT_HOLDS: Record<HeldType, string> = {
  'AWS::EC2::Instance': 'its instance-store disks hold the data',
  'AWS::EC2::Volume': 'it holds data',
  'AWS::EC2::NetworkInterface': 'its address is the one the clients mount',
  'AWS::FSx::FileSystem': 'it holds data',
  [RESOURCE_TYPE]: 'the guard',
};

/**
 * A guard created for a server whose watched resources CloudFormation already holds under the same paths. The guard's
 * logical id changed, by an override or a move, and its record of the last accepted layout is gone, so a change that
 * replaces them could not be seen. Refused, naming the guard CloudFormation holds in that stack.
 */
export function lostStateRefusal(
  held: readonly HeldResource[], kept: Kept, ownLogicalIds: readonly string[], guardPath: string, acceptDataLoss: boolean,
): Refusal | undefined {
  const ownPaths = ownLogicalIds.map((id) => `${kept.stack}${id}`);
  const existing = held.filter((h) => h.type !== RESOURCE_TYPE && ownPaths.includes(h.path));
  if (existing.length === 0) return undefined;
  const oldGuards = unkept(held, kept).filter((h) => h.type === RESOURCE_TYPE && h.path.startsWith(kept.stack) &&
    !h.path.slice(kept.stack.length).includes('/'));
  const was = oldGuards.length === 1 ? oldGuards[0].path.slice(kept.stack.length) : undefined;
  return {
    setting: 'Resource (update guard)',
    oldValue: was ?? '(another logical id)',
    newValue: guardPath,
    why: `this server's resources exist (${existing.map((h) => `${h.path} ${h.physicalId}`).join(', ')}) and its guard is new: ` +
      'the record of the last accepted layout went with the old logical id, so a change that replaces them could not be seen',
    safePath: was !== undefined
      ? `give the guard its logical id ${was} back (remove the override, or put the construct back where it was) and deploy again`
      : 'give the guard back the logical id it had in the last successful deploy (remove the override, or put the construct back) and deploy again',
    accepted: acceptDataLoss,
  };
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${at} must be an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
