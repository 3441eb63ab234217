/**
 * The update guard's second half: the resources that hold a server's data or its clients' address, watched
 * by CloudFormation's own replacement rules instead of a hand list of settings, and the server's identity.
 *
 * The construct records, for each such resource (the instance, the stable network interface, each EBS data
 * volume, the FSx file system), its logical id and the value of every property whose change replaces it
 * according to CloudFormation's resource specification (replacement-rules.ts, generated), plus, for the
 * instance, every property whose update stops and starts it (instance-updates.ts). CloudFormation resolves the
 * values (a subnet's id, a launch template's version number, a security group's id) before the guard sees
 * them, so a change to anything those values come from is a change here too. The guard refuses any such change
 * unless the resource's policy ({@link roleObjection}) allows it: an EBS server's instance may be replaced.
 *
 * Dependency-free (bundled into the Lambda, imported by the construct at synth time).
 */
import { createHash } from 'crypto';
import { WATCH_PROP, type Objection, type Refusal, type StorageLayout } from './contract';
import { WATCHED_TYPES, type WatchedType } from './watched-types';

export { WATCH_PROP };

/** One watched resource, as recorded. */
export interface WatchedResource {
  /** Its CloudFormation type: one of {@link WATCHED_TYPES}. */
  readonly type: WatchedType;
  /** Its logical id: a new one is a new resource, and the old one is deleted. */
  readonly logicalId: string;
  /** The names of the properties watched (present or not): a change is judged on the names both sides watch. */
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
  /** Per role (`Instance`, `Interface`, `DataVolume0`, `FileSystem`), the resource. */
  readonly watched?: Readonly<Record<string, WatchedResource>>;
  readonly identity?: ServerIdentity;
}

const ROLE = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
const LOGICAL_ID = /^[A-Za-z0-9]{1,255}$/;
const IDENTITY_KEYS = { stackName: 'StackName', clusterName: 'ClusterName', serverName: 'ServerName', serverId: 'ServerId' } as const;

/** The wire form of {@link WatchedProperties} (without the absent parts). */
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
  const name = (...path: string[]): string => [where, ...path].join('.');
  const object = (value: unknown, at: string): Record<string, unknown> => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new Error(`${at} must be an object, got ${JSON.stringify(value)}`);
    }
    return value as Record<string, unknown>;
  };
  const text = (value: unknown, at: string, pattern?: RegExp): string => {
    if (typeof value !== 'string' || (pattern && !pattern.test(value))) {
      throw new Error(`${at} must be ${pattern ? `a string matching ${pattern}` : 'a string'}, got ${JSON.stringify(value)}`);
    }
    return value;
  };
  let watched: Record<string, WatchedResource> | undefined;
  const rawWatched = props[WATCH_PROP.watched];
  if (rawWatched !== undefined) {
    watched = {};
    for (const [role, raw] of Object.entries(object(rawWatched, name(WATCH_PROP.watched)))) {
      const at = (...p: string[]): string => name(WATCH_PROP.watched, role, ...p);
      if (!ROLE.test(role)) throw new Error(`${name(WATCH_PROP.watched)} has a role ${JSON.stringify(role)} that does not match ${ROLE}`);
      const r = object(raw, at());
      const unknown = Object.keys(r).filter((k) => !['Type', 'LogicalId', 'Watching', 'Properties'].includes(k));
      if (unknown.length > 0) throw new Error(`${at()} has unknown keys ${unknown.join(', ')}; expected Type, LogicalId, Watching, Properties`);
      const type = text(r.Type, at('Type'));
      if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
        throw new Error(`${at('Type')} must be one of ${WATCHED_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
      }
      const watching = r.Watching ?? [];
      if (!Array.isArray(watching) || watching.some((w) => typeof w !== 'string')) {
        throw new Error(`${at('Watching')} must be a list of property names, got ${JSON.stringify(watching)}`);
      }
      watched[role] = {
        type: type as WatchedType,
        logicalId: text(r.LogicalId, at('LogicalId'), LOGICAL_ID),
        watching: watching as string[],
        properties: r.Properties === undefined ? {} : object(r.Properties, at('Properties')),
      };
    }
  }
  let identity: ServerIdentity | undefined;
  const rawIdentity = props[WATCH_PROP.identity];
  if (rawIdentity !== undefined) {
    const o = object(rawIdentity, name(WATCH_PROP.identity));
    const expected = Object.values(IDENTITY_KEYS) as string[];
    const unknown = Object.keys(o).filter((k) => !expected.includes(k));
    if (unknown.length > 0) throw new Error(`${name(WATCH_PROP.identity)} has unknown keys ${unknown.join(', ')}; expected ${expected.join(', ')}`);
    const field = (k: keyof ServerIdentity): string => text(o[IDENTITY_KEYS[k]], name(WATCH_PROP.identity, IDENTITY_KEYS[k]), /^\S+$/);
    identity = { stackName: field('stackName'), clusterName: field('clusterName'), serverName: field('serverName'), serverId: field('serverId') };
  }
  return { watched, identity };
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

const SECOND_SERVER = 'deploy a second server with another serverName, copy the data, then remove the first';

/**
 * What the guard says against replacing (or deleting) the resource of one role, judged with the new layout;
 * undefined when allowed. Instance: an EBS server's may be replaced (the new instance takes the volumes and
 * the interface over) unless CloudFormation still attaches the volumes; an instance-store server's disks go
 * with it. The interface is the address clients mounted; volumes and file systems hold the data.
 */
export function roleObjection(type: WatchedType, layout: StorageLayout): Objection | undefined {
  switch (type) {
    case 'AWS::EC2::Instance':
      if (layout.backend === 'ebs') {
        return layout.volumeAttachment === 'server' ? undefined : {
          why: 'it replaces the instance, and CloudFormation attaches the data volumes (legacyVolumeAttachments): ' +
            'it would attach them to the new instance while the old one holds them (VolumeInUse) and roll back',
          safePath: 'first deploy once without legacyVolumeAttachments (the server then attaches its own volumes), then make this change',
        };
      }
      return {
        why: 'it replaces the instance or stops and starts it, and every instance-store disk goes with it',
        safePath: `keep the old value, or ${SECOND_SERVER}`,
      };
    case 'AWS::EC2::NetworkInterface':
      return {
        why: 'it replaces the stable network interface: the address every client mounted goes with it',
        safePath: `keep the old value (subnet, vpcId), or ${SECOND_SERVER}`,
      };
    case 'AWS::EC2::Volume':
      return {
        why: 'it replaces a data volume: a new, empty volume takes its place in the stripe (the old one is retained, detached)',
        safePath: `keep the old value, or ${SECOND_SERVER}`,
      };
    case 'AWS::FSx::FileSystem':
      return {
        why: 'CloudFormation replaces the file system, and every byte on it goes with the old one',
        safePath: 'keep the old value, or deploy a second server with another serverName (a new file system), copy the data, then remove the first',
      };
  }
}

/**
 * Every change of the watched half the guard refuses (with `acceptDataLoss`, marked accepted), judged against
 * the new layout. A part absent from the old properties (a guard deployed before it) is recorded, not compared.
 */
export function compareWatched(
  oldW: WatchedProperties,
  newW: WatchedProperties,
  layout: StorageLayout,
  acceptDataLoss: boolean,
): Refusal[] {
  const refusals: Refusal[] = [];
  const refuse = (setting: string, oldValue: string, newValue: string, o: Objection): void => {
    refusals.push({ setting, oldValue: shown(oldValue), newValue: shown(newValue), ...o, accepted: acceptDataLoss });
  };
  if (oldW.identity && newW.identity) {
    for (const key of ['clusterName', 'serverName'] as const) {
      if (oldW.identity[key] === newW.identity[key]) continue;
      refuse(`${WATCH_PROP.identity}.${IDENTITY_KEYS[key]}`, oldW.identity[key], newW.identity[key], {
        why: `a ${key === 'clusterName' ? 'cluster' : 'server'} rename moves this stack's server: its records leave the old ` +
          'name, the clients that mounted it there lose it, and two names that make one stack name would share one server',
        safePath: `keep ${key} as it was (a stack name belongs to one cluster and server name), or ${SECOND_SERVER}`,
      });
    }
  }
  if (oldW.watched && newW.watched) {
    for (const [role, before] of Object.entries(oldW.watched)) {
      const after = newW.watched[role];
      const objection = roleObjection(before.type, layout);
      if (objection === undefined) continue;
      if (after === undefined || after.type !== before.type) {
        refuse(role, before.logicalId, after ? `${after.type} ${after.logicalId}` : '(removed)', {
          why: `the update deletes ${role} (${before.type}): ${objection.why}`, safePath: objection.safePath,
        });
        continue;
      }
      if (after.logicalId !== before.logicalId) {
        refuse(`${role} (logical id)`, before.logicalId, after.logicalId, {
          why: `a new logical id is a new resource and the old one is deleted (a renamed or moved construct): ${objection.why}`,
          safePath: 'keep the construct id and its place in the construct tree; ' + objection.safePath,
        });
        continue;
      }
      const both = before.watching.filter((p) => after.watching.includes(p));
      for (const p of both) {
        const o = canonical(before.properties[p]);
        const n = canonical(after.properties[p]);
        if (o === n) continue;
        refuse(`${role}.${p}`, o, n, { why: `${before.type} ${p} changed: ${objection.why}`, safePath: hint(p, objection.safePath) });
      }
    }
  }
  return refusals;
}

/** What usually changes a property, to put in front of the safe path (a help for the reader, not a safety rule). */
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
};

function hint(property: string, safePath: string): string {
  const cause = CAUSES[property];
  return cause ? `undo the change of ${cause} that changed ${property}; or ${safePath}` : safePath;
}

function shown(value: string): string {
  return value === '' || value === undefined ? '(none)' : value;
}
