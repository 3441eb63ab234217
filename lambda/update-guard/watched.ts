/**
 * The update guard's second half: the server's identity, and the resources that hold a server's data or its clients'
 * address, watched by CloudFormation's own replacement rules instead of a hand list of settings.
 *
 * The construct records each such resource: the instance, the stable network interface, each EBS data volume and the
 * FSx file system. For each it records the logical id and the value of every property whose change replaces it. The
 * generated replacement-rules.ts gives those from CloudFormation's resource specification, and spec-overrides.ts
 * corrects them where AWS's reference says otherwise, as `EFFECTIVE_RULES`. For the instance it also records every
 * property whose update stops and starts it: see instance-updates.ts. CloudFormation resolves the values before the
 * guard sees them: a subnet's id, a launch template's version number, a security group's id. So a change to anything
 * those values come from is a change here too. The guard refuses any such change unless the resource's policy allows
 * it, by {@link roleObjection} with the backend's word on it: an EBS server's instance may be replaced.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { createHash } from 'crypto';
import { BACKENDS } from '../register/backend';
import { GUARD_BACKENDS } from './backends';
import type { StorageLayout } from './layout';
import { displayed } from './messages';
import { FSX_COPY, FSX_REPLACED, KEEP_OR_SECOND_SERVER, SECOND_SERVER } from './objections';
import type { Objection, Refusal } from './policy';
import { WATCHED_TYPES, type WatchedType } from './watched-types';
import { WATCH_PROP } from './wire';

export { WATCH_PROP };

/** One watched resource, as recorded. */
export interface WatchedResource {
  /** Its CloudFormation type: one of {@link WATCHED_TYPES}. */
  readonly type: WatchedType;
  /** Its logical id: a new one is a new resource, and the old one is deleted. */
  readonly logicalId: string;
  /** The names of the properties watched, present or not: a change is judged on the names both sides watch. */
  readonly watching: readonly string[];
  /** The values of the watched properties the resource sets. */
  readonly properties: Readonly<Record<string, unknown>>;
}

/** The server's identity: what its records, tags and stack name are made of. */
export interface ServerIdentity {
  readonly stackName: string;
  readonly clusterName: string;
  readonly serverName: string;
  /** The value of the `storage-server:id` tag on its data resources: `<stack name>/<server name>`. */
  readonly serverId: string;
}

/** The watched half of the guard's properties; both parts absent on a guard deployed before them. */
export interface WatchedProperties {
  /** The resource of each role: `Instance`, `Interface`, `DataVolume0`, `FileSystem` and so on. */
  readonly watched?: Readonly<Record<string, WatchedResource>>;
  readonly identity?: ServerIdentity;
}

const ROLE = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
const LOGICAL_ID = /^[A-Za-z0-9]{1,255}$/;
const IDENTITY_KEYS = { stackName: 'StackName', clusterName: 'ClusterName', serverName: 'ServerName', serverId: 'ServerId' } as const;

/** The wire form of {@link WatchedProperties}, without the absent parts. */
export function watchedWire(w: WatchedProperties): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  if (w.watched) {
    wire[WATCH_PROP.watched] = Object.fromEntries(Object.entries(w.watched).map(([role, r]) => [role, {
      Type: r.type, LogicalId: r.logicalId, Watching: [...r.watching], Properties: r.properties,
    }]));
  }
  if (w.identity) {
    wire[WATCH_PROP.identity] = Object.fromEntries(
      (Object.keys(IDENTITY_KEYS) as (keyof ServerIdentity)[]).map((k) => [IDENTITY_KEYS[k], w.identity![k]]));
  }
  return wire;
}

/** Reads and checks the watched half of raw ResourceProperties; `where` names them in errors. */
export function parseWatched(props: Record<string, unknown>, where: string): WatchedProperties {
  const rawWatched = props[WATCH_PROP.watched];
  const watched = rawWatched === undefined ? undefined : parseResources(rawWatched, `${where}.${WATCH_PROP.watched}`);
  const rawIdentity = props[WATCH_PROP.identity];
  const identity = rawIdentity === undefined ? undefined : parseIdentity(rawIdentity, `${where}.${WATCH_PROP.identity}`);
  return { watched, identity };
}

/** `Watched`: per role, one resource. */
function parseResources(raw: unknown, at: string): Record<string, WatchedResource> {
  const watched: Record<string, WatchedResource> = {};
  for (const [role, resource] of Object.entries(object(raw, at))) {
    if (!ROLE.test(role)) throw new Error(`${at} has a role ${JSON.stringify(role)} that does not match ${ROLE}`);
    watched[role] = parseResource(resource, `${at}.${role}`);
  }
  return watched;
}

/** One watched resource: its type, one of {@link WATCHED_TYPES}, its logical id, and its watched names and values. */
function parseResource(raw: unknown, at: string): WatchedResource {
  const r = object(raw, at);
  const unknown = Object.keys(r).filter((k) => !['Type', 'LogicalId', 'Watching', 'Properties'].includes(k));
  if (unknown.length > 0) throw new Error(`${at} has unknown keys ${unknown.join(', ')}; expected Type, LogicalId, Watching, Properties`);
  const type = text(r.Type, `${at}.Type`);
  if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
    throw new Error(`${at}.Type must be one of ${WATCHED_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
  }
  const watching = r.Watching ?? [];
  if (!Array.isArray(watching) || watching.some((w) => typeof w !== 'string')) {
    throw new Error(`${at}.Watching must be a list of property names, got ${JSON.stringify(watching)}`);
  }
  return {
    type: type as WatchedType,
    logicalId: text(r.LogicalId, `${at}.LogicalId`, LOGICAL_ID),
    watching: watching as string[],
    properties: r.Properties === undefined ? {} : object(r.Properties, `${at}.Properties`),
  };
}

/** `Identity`: the four names, each without whitespace. */
function parseIdentity(raw: unknown, at: string): ServerIdentity {
  const o = object(raw, at);
  const expected = Object.values(IDENTITY_KEYS) as string[];
  const unknown = Object.keys(o).filter((k) => !expected.includes(k));
  if (unknown.length > 0) throw new Error(`${at} has unknown keys ${unknown.join(', ')}; expected ${expected.join(', ')}`);
  const field = (k: keyof ServerIdentity): string => text(o[IDENTITY_KEYS[k]], `${at}.${IDENTITY_KEYS[k]}`, /^\S+$/);
  return { stackName: field('stackName'), clusterName: field('clusterName'), serverName: field('serverName'), serverId: field('serverId') };
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${at} must be an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}

function text(value: unknown, at: string, pattern?: RegExp): string {
  if (typeof value !== 'string' || (pattern && !pattern.test(value))) {
    throw new Error(`${at} must be ${pattern ? `a string matching ${pattern}` : 'a string'}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Canonical JSON: keys sorted at every level, so two resolutions of one value compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** 16 hex digits of the SHA-256 of the watched half, for the layout id; `''` when both parts are absent. */
export function watchedDigest(w: WatchedProperties): string {
  if (!w.watched && !w.identity) return '';
  return createHash('sha256').update(canonical(watchedWire(w))).digest('hex').slice(0, 16);
}

/**
 * What replacing or deleting a watched resource of each type loses, where its backend's descriptor says nothing of its
 * own: the instance's local disks, the address clients mounted, a volume's share of the stripe, a file system.
 */
const REPLACED: { readonly [T in WatchedType]: Objection } = {
  'AWS::EC2::Instance': {
    why: 'it replaces the instance or stops and starts it, and every instance-store disk goes with it', safePath: KEEP_OR_SECOND_SERVER,
  },
  'AWS::EC2::NetworkInterface': {
    why: 'it replaces the stable network interface: the address every client mounted goes with it',
    safePath: `keep the old value (subnet, vpcId), or ${SECOND_SERVER}`,
  },
  'AWS::EC2::Volume': {
    why: 'it replaces a data volume: a new, empty volume takes its place in the stripe (the old one is retained, detached)',
    safePath: KEEP_OR_SECOND_SERVER,
  },
  'AWS::FSx::FileSystem': { why: FSX_REPLACED, safePath: `keep the old value, or ${FSX_COPY}` },
};

/**
 * What the guard says against replacing or deleting the resource of one role, judged with the new layout; undefined
 * when allowed. The backend's own word, its descriptor's `replaced`, comes first, else {@link REPLACED}'s.
 */
export function roleObjection(type: WatchedType, layout: StorageLayout): Objection | undefined {
  const own = GUARD_BACKENDS[layout.backend].replaced[type];
  return own === undefined ? REPLACED[type] : own(layout);
}

/** A change the guard objects to, before it is a {@link Refusal}: the setting, its two values, and why. */
interface Change {
  readonly setting: string;
  readonly oldValue: string;
  readonly newValue: string;
  readonly objection: Objection;
}

/**
 * Every change of the watched half the guard refuses, judged against the new layout; with `acceptDataLoss` each is
 * marked accepted. A part absent from the old properties, as in a guard deployed before it, is recorded, not compared.
 */
export function compareWatched(
  oldW: WatchedProperties,
  newW: WatchedProperties,
  layout: StorageLayout,
  acceptDataLoss: boolean,
): Refusal[] {
  const changes = [
    ...(oldW.identity && newW.identity ? identityChanges(oldW.identity, newW.identity) : []),
    ...(oldW.watched && newW.watched ? resourceChanges(oldW.watched, newW.watched, layout) : []),
  ];
  return changes.map((c) => ({
    setting: c.setting, oldValue: displayed(c.oldValue), newValue: displayed(c.newValue), ...c.objection, accepted: acceptDataLoss,
  }));
}

/** A renamed cluster or server: the stack's server would move to the new name. */
function identityChanges(before: ServerIdentity, after: ServerIdentity): Change[] {
  return (['clusterName', 'serverName'] as const).filter((key) => before[key] !== after[key]).map((key) => ({
    setting: `${WATCH_PROP.identity}.${IDENTITY_KEYS[key]}`,
    oldValue: before[key],
    newValue: after[key],
    objection: {
      why: `a ${key === 'clusterName' ? 'cluster' : 'server'} rename moves this stack's server: its records leave the old ` +
        'name, the clients that mounted it there lose it, and two names that make one stack name would share one server',
      safePath: `keep ${key} as it was (a stack name belongs to one cluster and server name), or ${SECOND_SERVER}`,
    },
  }));
}

/** Per role whose replacement the guard objects to, in the old properties' order: its changes. */
function resourceChanges(
  before: Readonly<Record<string, WatchedResource>>,
  after: Readonly<Record<string, WatchedResource>>,
  layout: StorageLayout,
): Change[] {
  return Object.entries(before).flatMap(([role, resource]) => {
    const objection = roleObjection(resource.type, layout);
    return objection === undefined ? [] : roleChanges(role, resource, after[role], objection);
  });
}

/**
 * One role's changes: deleted or of another type, a new logical id, or else each watched property whose value changed,
 * on the names both sides watch.
 */
function roleChanges(role: string, before: WatchedResource, after: WatchedResource | undefined, objection: Objection): Change[] {
  if (after === undefined || after.type !== before.type) {
    return [{
      setting: role, oldValue: before.logicalId, newValue: after ? `${after.type} ${after.logicalId}` : '(removed)',
      objection: { why: `the update deletes ${role} (${before.type}): ${objection.why}`, safePath: objection.safePath },
    }];
  }
  if (after.logicalId !== before.logicalId) {
    return [{
      setting: `${role} (logical id)`, oldValue: before.logicalId, newValue: after.logicalId,
      objection: {
        why: `a new logical id is a new resource and the old one is deleted (a renamed or moved construct): ${objection.why}`,
        safePath: 'keep the construct id and its place in the construct tree; ' + objection.safePath,
      },
    }];
  }
  return before.watching.filter((p) => after.watching.includes(p)).flatMap((p) => {
    const o = canonical(before.properties[p]);
    const n = canonical(after.properties[p]);
    return o === n ? [] : [{
      setting: `${role}.${p}`, oldValue: o, newValue: n,
      objection: { why: `${before.type} ${p} changed: ${objection.why}`, safePath: hint(p, objection.safePath) },
    }];
  });
}

/**
 * What usually changes a property, to put in front of the safe path. It helps the reader and is no safety rule. The
 * backends' descriptors add the properties of their own resources.
 */
const CAUSES: Readonly<Record<string, string>> = {
  SubnetId: 'subnetId, vpcId or a rebuilt VPC',
  AvailabilityZone: 'subnetId, vpcId or availabilityZone',
  LaunchTemplate: 'the launch template (IMDSv2 settings, a new aws-cdk-lib)',
  SecurityGroupIds: 'the security group (its description names the cluster and server)',
  SubnetIds: 'subnetId, vpcId or a rebuilt VPC',
  InstanceType: 'instanceType, capacityTiB or generation',
  ImageId: 'machineImageId',
  KeyName: 'keyPair',
  PlacementGroupName: 'placementGroup',
  KmsKeyId: 'encryptionKey',
  ...Object.fromEntries(BACKENDS.flatMap((b) => Object.entries(GUARD_BACKENDS[b].causes ?? {}))),
};

function hint(property: string, safePath: string): string {
  const cause = CAUSES[property];
  return cause ? `undo the change of ${cause} that changed ${property}; or ${safePath}` : safePath;
}
