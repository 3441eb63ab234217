/**
 * The update-guard contract (docs/design.md#8-the-update-guard-contract), shared by the CDK construct (lib/update-guard.ts) and the
 * Lambda handler (lambda/update-guard/index.ts) so the two cannot drift.
 *
 * The guard holds the server's storage layout as custom resource properties. CloudFormation updates it
 * before the instance, the volumes and the registration (they depend on it), so a refused change fails the
 * stack update before anything that holds data was touched. What each layout field may do on update is
 * one table, {@link UPDATE_POLICIES}, in the manner of aws-parallelcluster's `update_policy.py`: the checks
 * are data, not scattered conditions.
 *
 * Dependency-free on purpose (Node's crypto only): it is bundled into the Lambda and imported by the
 * construct at synth time.
 */
import { createHash } from 'crypto';
import { BACKENDS, validateBackend, type Backend } from '../register/contract';
import { TYPE_CHANGE_RULE, dataVolumeEntry, parseDataVolumeEntry, volumeTypeProblem, type DataVolumeType } from './volume-types';

export { dataVolumeEntry } from './volume-types';

/** ResourceProperties keys of the update-guard custom resource. */
export const PROP = {
  backend: 'Backend',
  instanceStoreType: 'InstanceStoreType',
  dataVolumes: 'DataVolumes',
  snapshotIds: 'SnapshotIds',
  encryptionKey: 'EncryptionKey',
  availabilityZone: 'AvailabilityZone',
  imageId: 'ImageId',
  keyPair: 'KeyPair',
  placementGroup: 'PlacementGroup',
  volumeAttachment: 'VolumeAttachment',
  fileSystemType: 'FileSystemType',
  perUnitStorageThroughput: 'PerUnitStorageThroughput',
  storageCapacityGiB: 'StorageCapacityGiB',
  subnetId: 'SubnetId',
  instanceStoreEncryption: 'InstanceStoreEncryption',
  acceptDataLoss: 'AcceptDataLoss',
} as const;

/**
 * ResourceProperties keys outside the layout: the resources watched by CloudFormation's replacement rules and
 * the server's identity (watched.ts). Absent from a guard deployed before them.
 */
export const WATCH_PROP = { watched: 'Watched', identity: 'Identity' } as const;

/**
 * The FSx for Lustre fields: `''` on the EC2 backends, where they are left out of the PhysicalResourceId's hash
 * and may be absent from the properties (a guard deployed before FSx keeps its id).
 */
export const FSX_FIELDS = ['fileSystemType', 'perUnitStorageThroughput', 'storageCapacityGiB', 'subnetId'] as const;
/**
 * The fields added after the first guards were deployed, left out of the properties and the PhysicalResourceId's
 * hash when `''`: a guard deployed before them keeps its properties and its id (no update, a recognised rollback).
 */
export const OMITTED_WHEN_EMPTY: readonly LayoutField[] = [...FSX_FIELDS, 'instanceStoreEncryption'];
/** The values of `InstanceStoreEncryption`: `luks2` when the bootstrap encrypts the instance-store array. */
export const INSTANCE_STORE_ENCRYPTIONS = ['', 'luks2'] as const;

/**
 * Who attaches the EBS data volumes to the instance: `stack` (an AWS::EC2::VolumeAttachment per volume, as
 * versions before the stable address did; a guard's properties without `VolumeAttachment` mean this),
 * `retained` (those attachments kept, with DeletionPolicy Retain: the first step of the upgrade) or `server`
 * (the server attaches them itself, lib/scripts/storage-attach.sh).
 */
export const VOLUME_ATTACHMENTS = ['stack', 'retained', 'server'] as const;
/** A value of {@link VOLUME_ATTACHMENTS}. */
export type VolumeAttachment = (typeof VOLUME_ATTACHMENTS)[number];

/** The CloudFormation type of the guard's custom resource. */
export const RESOURCE_TYPE = 'Custom::StorageServerUpdateGuard';
/** What the PhysicalResourceId starts with; 16 hex digits of the layout's hash follow. */
export const PHYSICAL_ID_PREFIX = 'storage-layout-';
/** The `EncryptionKey` of volumes encrypted with the account's AWS managed EBS key. */
export const AWS_MANAGED_EBS_KEY = 'aws/ebs';
/** The `EncryptionKey` of an FSx for Lustre file system encrypted with the account's AWS managed FSx key. */
export const AWS_MANAGED_FSX_KEY = 'aws/fsx';
/**
 * Longest refusal message. CloudFormation keeps about 4 KB of a custom resource's reason, and the Provider
 * framework appends the function's log group and a stack trace to the message: 3000 leaves room for both.
 */
export const MAX_MESSAGE_LENGTH = 3000;

/** One EBS data volume of the layout. */
export interface DataVolumeLayout {
  /** The volume's own number: `DataVolume<index>` in the stack and its stripe-member tag. Never reused. */
  readonly index: number;
  /** Size in whole GiB. */
  readonly sizeGiB: number;
  /**
   * EBS volume type (volume-types.ts).
   * @default 'st1' - what every volume recorded before gp3 was
   */
  readonly volumeType?: DataVolumeType;
  /**
   * gp3 only: provisioned IOPS.
   * @default - none (st1)
   */
  readonly iops?: number;
  /**
   * gp3 only: provisioned throughput, MiB/s.
   * @default - none (st1)
   */
  readonly throughputMiBps?: number;
}

/**
 * Everything about a server whose change can lose data or strand it. Strings stay strings so CloudFormation
 * passes them unchanged; any of them may be a token at synth time (resolved before the handler sees it).
 */
export interface StorageLayout {
  /** Where the data lives. */
  readonly backend: Backend;
  /** The instance type when the backend is `instance-store` (its disks are the data); `''` for EBS. */
  readonly instanceStoreType: string;
  /** The EBS data volumes in stripe order; empty for instance store. */
  readonly dataVolumes: readonly DataVolumeLayout[];
  /** The snapshots the data volumes were created from, in stripe order; empty when they started blank. */
  readonly snapshotIds: readonly string[];
  /** ARN of the KMS key that encrypts the volumes, or `'aws/ebs'` for the AWS managed key. */
  readonly encryptionKey: string;
  /** Availability Zone of the server's subnet. */
  readonly availabilityZone: string;
  /** The instance's image id; a change replaces the instance. `''` when unknown. */
  readonly imageId: string;
  /** The instance's key pair name; a change replaces the instance. `''` for none. */
  readonly keyPair: string;
  /** The instance's placement group name; a change replaces the instance. `''` for none. */
  readonly placementGroup: string;
  /** Who attaches the EBS data volumes: see {@link VOLUME_ATTACHMENTS}. */
  readonly volumeAttachment: VolumeAttachment;
  /** FSx for Lustre: the deployment and storage type, e.g. `PERSISTENT_2/SSD`; `''` on the EC2 backends. */
  readonly fileSystemType: string;
  /** FSx for Lustre: MB/s per TiB (`''` for SCRATCH_2, which has none, and on the EC2 backends). */
  readonly perUnitStorageThroughput: string;
  /** FSx for Lustre: the storage capacity, whole GiB; `''` on the EC2 backends. */
  readonly storageCapacityGiB: string;
  /** FSx for Lustre: the file system's subnet (a new one replaces the file system); `''` on the EC2 backends. */
  readonly subnetId: string;
  /**
   * Instance store: `luks2` when the bootstrap encrypts the array (dm-crypt), `''` when it does not (and on the
   * other backends). An array keeps the layout it was made with.
   */
  readonly instanceStoreEncryption: string;
}

/** A field of {@link StorageLayout}. */
export type LayoutField = keyof StorageLayout;

/** Validated ResourceProperties: the layout and the opt-in. */
export interface GuardProperties {
  /** The layout. */
  readonly layout: StorageLayout;
  /** Whether refused changes pass anyway (scratch data only). */
  readonly acceptDataLoss: boolean;
}

/** What a policy says against a change: why it loses or strands data, and what to do instead. */
export interface Objection {
  /** Why the change is refused. */
  readonly why: string;
  /** What to do instead (no trailing period). */
  readonly safePath: string;
}

/** One refused change of one setting. */
export interface Refusal extends Objection {
  /** The setting, as named in ResourceProperties (`DataVolumes`). */
  readonly setting: string;
  /** The old value, rendered for a message. */
  readonly oldValue: string;
  /** The new value, rendered for a message. */
  readonly newValue: string;
  /** True when `acceptDataLoss` turned the refusal into a pass. */
  readonly accepted: boolean;
}

/**
 * A named update policy: given the old and new layouts, the objections to the change of one setting (none:
 * allowed). Only consulted when that setting's value changed.
 */
export interface UpdatePolicy {
  /** Short name for logs and docs. */
  readonly name: string;
  /** The objections to this change; empty when the change is allowed. */
  readonly objections: (oldLayout: StorageLayout, newLayout: StorageLayout) => readonly Objection[];
}

const SECOND_SERVER = 'deploy a second server with another serverName, copy the data, then remove the first';

/** Allows any change. */
export const ALLOWED: UpdatePolicy = { name: 'allowed', objections: () => [] };

/** Refuses any change, for one reason. */
export function refused(why: string, safePath: string): UpdatePolicy {
  return { name: 'refused', objections: () => [{ why, safePath }] };
}

/**
 * A policy per backend, applied when the old and new layouts have the same backend. A backend change is
 * refused by the `backend` row itself, and the fields that depend on the backend have nothing to add.
 */
export function perBackend(policies: { readonly [B in Backend]: UpdatePolicy }): UpdatePolicy {
  return {
    name: `per backend (${BACKENDS.map((b) => `${b}: ${policies[b].name}`).join(', ')})`,
    objections: (o, n) => (o.backend === n.backend ? policies[n.backend].objections(o, n) : []),
  };
}

/** One rule of {@link GROW_ONLY}: when it applies to an old and a new volume list, and what it says. */
export interface VolumeRule extends Objection {
  /** Short name for logs and docs. */
  readonly name: string;
  /** Whether the change from `o` to `n` breaks this rule. */
  readonly applies: (o: readonly DataVolumeLayout[], n: readonly DataVolumeLayout[]) => boolean;
}

const indexes = (volumes: readonly DataVolumeLayout[]): number[] => volumes.map((v) => v.index);
const sorted = (a: number[]): string => [...a].sort((x, y) => x - y).join();
const sameSet = (a: number[], b: number[]): boolean => a.length === b.length && sorted(a) === sorted(b);

/**
 * What the data volumes may not do: each rule a row. What is left is growth (every volume the same size or
 * larger, same volumes, same order), which EBS does in place and the server follows online (PV, LV, XFS), and
 * changes of type (st1 <-> gp3), IOPS and throughput, which EBS also does in place (volume-types.ts says why).
 * These have limits of their own that the guard leaves to EBS: up to four modifications per volume within a
 * rolling 24 hours, each after the previous one completed, and each type's maximum size.
 */
export const VOLUME_RULES: readonly VolumeRule[] = [
  {
    name: 'fewer volumes',
    applies: (o, n) => n.length < o.length,
    why: 'fewer volumes lose data: a removed volume takes its share of every striped file with it',
    safePath: `keep capacityTiB at its old volume count; to shrink, ${SECOND_SERVER}`,
  },
  {
    name: 'more volumes',
    applies: (o, n) => n.length > o.length,
    why: 'volumes added to an existing stripe: LVM cannot restripe an existing striped LV in place',
    safePath: `grow within the current volume count (each volume up to 16 TiB), or ${SECOND_SERVER}`,
  },
  {
    name: 'replaced volumes',
    applies: (o, n) => n.length === o.length && !sameSet(indexes(o), indexes(n)),
    why: 'a volume with a new index is a new, empty volume, and the one it replaces takes its share of the stripe with it',
    safePath: 'keep the volumes (their indexes) as they were',
  },
  {
    name: 'reordered volumes',
    applies: (o, n) => sameSet(indexes(o), indexes(n)) && indexes(o).join() !== indexes(n).join(),
    why: 'the stripe order is the data layout: volumes in another order scramble the file system',
    safePath: 'keep the volumes in their old stripe order',
  },
  {
    name: 'smaller volumes',
    applies: (o, n) => o.some((v) => n.some((w) => w.index === v.index && w.sizeGiB < v.sizeGiB)),
    why: 'EBS cannot shrink a volume',
    safePath: `keep each volume at least its old size; to shrink, ${SECOND_SERVER}`,
  },
  TYPE_CHANGE_RULE,
];

/** EBS data volumes may only grow (see {@link VOLUME_RULES}). */
export const GROW_ONLY: UpdatePolicy = {
  name: 'grow only',
  objections: (o, n) => VOLUME_RULES.filter((r) => r.applies(o.dataVolumes, n.dataVolumes)),
};

/**
 * Image, key pair and placement group: a change replaces the EC2 instance. Instance store: its disks go
 * with it. EBS: the replacement instance takes the volumes and the network interface over from the old one
 * (storage-attach, at its first boot), and clients carry on at the same address; only volumes that
 * CloudFormation attaches (`legacyVolumeAttachments`) cannot follow: a new AWS::EC2::VolumeAttachment of a
 * volume the old instance holds fails (VolumeInUse).
 */
export const INSTANCE_REPLACEMENT: UpdatePolicy = perBackend({
  ebs: {
    name: 'replaceable when the server attaches its own volumes',
    objections: (_o, n) =>
      n.volumeAttachment === 'server'
        ? []
        : [{
          why: 'it replaces the instance, and CloudFormation attaches the data volumes (legacyVolumeAttachments): ' +
            'it would attach them to the new instance while the old one holds them (VolumeInUse) and roll back',
          safePath: 'first deploy once without legacyVolumeAttachments (the server then attaches its own volumes), ' +
            'then make this change',
        }],
  },
  'instance-store': refused(
    'it replaces the instance, and every instance-store disk with it',
    `keep the old value, or ${SECOND_SERVER}`,
  ),
  'fsx-lustre': ALLOWED, // no instance: always ''
});

const FSX_REPLACED = 'CloudFormation replaces the file system, and every byte on it goes with the old one';
const FSX_COPY = 'deploy a second server with another serverName (a new file system), copy the data, then remove the first';

/**
 * FSx for Lustre per-unit throughput: FSx changes it in place on persistent SSD file systems (FSx for Lustre
 * guide, "Managing throughput capacity": PERSISTENT_1 SSD 50/100/200, PERSISTENT_2 125/250/500/1000); an HDD
 * file system's cannot be changed, and SCRATCH_2 has none.
 */
export const FSX_THROUGHPUT: UpdatePolicy = perBackend({
  ebs: ALLOWED,
  'instance-store': ALLOWED,
  'fsx-lustre': {
    name: 'in place on persistent SSD',
    // A new type is refused by the FileSystemType row; this one judges the throughput of the same type.
    objections: (o, n) =>
      o.fileSystemType !== n.fileSystemType || /^PERSISTENT_[12]\/SSD$/.test(n.fileSystemType)
        ? []
        : [{
          why: `FSx changes the throughput per unit of storage in place only on persistent SSD file systems (this one is ${o.fileSystemType || 'unknown'})`,
          safePath: `keep the old value, or ${FSX_COPY}`,
        }],
  },
});

/** FSx for Lustre storage capacity: FSx grows it in place (within the type's steps); it never shrinks. */
export const FSX_CAPACITY: UpdatePolicy = perBackend({
  ebs: ALLOWED,
  'instance-store': ALLOWED,
  'fsx-lustre': {
    name: 'grow only',
    objections: (o, n) =>
      Number(n.storageCapacityGiB) >= Number(o.storageCapacityGiB)
        ? []
        : [{
          why: 'FSx for Lustre cannot shrink a file system\'s storage capacity',
          safePath: `keep capacityTiB at least its old value; to shrink, ${FSX_COPY}`,
        }],
  },
});

const EBS_KEY = refused(
  'a new key replaces the volumes: EBS cannot re-encrypt a volume in place',
  'keep the old key, or snapshot the volumes, deploy a second server with another serverName from the ' +
    'snapshots under the new key (EBS re-encrypts on restore), then remove the first',
);
const EC2_ZONE = refused(
  'EBS volumes live in one Availability Zone, and the instance store dies with its host',
  'keep the old subnet, or deploy a second server with another serverName in the new subnet (EBS: ' +
    'from snapshots of the volumes; instance store: copy the data), then remove the first',
);

/**
 * The update policy of every layout field: the one table to read or edit. `AcceptDataLoss` is not part of
 * the layout: changing it is always allowed.
 */
export const UPDATE_POLICIES: { readonly [F in LayoutField]: UpdatePolicy } = {
  backend: refused('the data cannot move between backends in place', SECOND_SERVER),
  instanceStoreType: perBackend({
    ebs: ALLOWED, // always '' on EBS: an EBS server's instance type is a stop/start the data survives
    'instance-store': refused(
      'a type change is a stop/start: every instance-store byte is lost',
      `keep the old instance type, or ${SECOND_SERVER}`,
    ),
    'fsx-lustre': ALLOWED, // always ''
  }),
  dataVolumes: perBackend({ ebs: GROW_ONLY, 'instance-store': ALLOWED, 'fsx-lustre': ALLOWED }),
  snapshotIds: refused(
    'the volumes would be replaced by new ones from the snapshots; the old ones would be stranded',
    'keep the old snapshot ids (they only matter when the volumes are created); to restore a snapshot set, ' +
      'deploy a second server with another serverName from those snapshots, then remove the first',
  ),
  encryptionKey: perBackend({ ebs: EBS_KEY, 'instance-store': EBS_KEY, 'fsx-lustre': refused(`a new key (KmsKeyId): ${FSX_REPLACED}`, `keep the old key, or ${FSX_COPY}`) }),
  // On FSx a new zone is a new subnet, which the SubnetId row refuses.
  availabilityZone: perBackend({ ebs: EC2_ZONE, 'instance-store': EC2_ZONE, 'fsx-lustre': ALLOWED }),
  imageId: INSTANCE_REPLACEMENT,
  keyPair: INSTANCE_REPLACEMENT,
  placementGroup: INSTANCE_REPLACEMENT,
  volumeAttachment: perBackend({
    ebs: {
      name: 'stack -> retained -> server',
      objections: (o, n) => {
        if (o.volumeAttachment === 'stack' && n.volumeAttachment === 'server') {
          return [{
            why: 'the data volumes are attached by CloudFormation (AWS::EC2::VolumeAttachment); this version has the ' +
              'server attach them itself, and the update would delete those attachments, detaching the volumes ' +
              'from the running server',
            safePath: 'upgrade in two deploys: first with legacyVolumeAttachments=true (context) or ' +
              'legacyVolumeAttachments: true (prop), which keeps the attachments and retains them, then without it',
          }];
        }
        if (n.volumeAttachment !== 'server' && o.volumeAttachment === 'server') {
          return [{
            why: 'the server attaches its volumes itself; an AWS::EC2::VolumeAttachment of a volume already attached fails',
            safePath: 'leave legacyVolumeAttachments off',
          }];
        }
        return [];
      },
    },
    'instance-store': ALLOWED, // no data volumes
    'fsx-lustre': ALLOWED, // no data volumes
  }),
  fileSystemType: perBackend({
    ebs: ALLOWED, // always ''
    'instance-store': ALLOWED,
    'fsx-lustre': refused(`a new deployment or storage type: ${FSX_REPLACED}`, `keep the old type, or ${FSX_COPY}`),
  }),
  perUnitStorageThroughput: FSX_THROUGHPUT,
  storageCapacityGiB: FSX_CAPACITY,
  subnetId: perBackend({
    ebs: ALLOWED, // always '': the AvailabilityZone row guards EBS and instance store
    'instance-store': ALLOWED,
    'fsx-lustre': refused(`a new subnet (SubnetIds): ${FSX_REPLACED}`, `keep the old subnet, or ${FSX_COPY}`),
  }),
  instanceStoreEncryption: perBackend({
    ebs: ALLOWED, // always ''
    'instance-store': refused(
      'the array keeps the layout it was made with: encryption is set up (or left out) only on blank disks, so ' +
        'the running array would not follow the new setting until its data is lost (a stop/start or a replacement)',
      'keep the old setting (encryptInstanceStore: false for an array made unencrypted, as before this version ' +
        `encrypted d2 instance store), or ${SECOND_SERVER}`,
    ),
    'fsx-lustre': ALLOWED, // always ''
  }),
};

/**
 * Every change from `oldLayout` to `newLayout` that its policy refuses, in {@link PROP} order. With
 * `acceptDataLoss` each one is still returned, marked `accepted`, so the caller can log the loss it accepts.
 */
export function compareLayouts(
  oldLayout: StorageLayout,
  newLayout: StorageLayout,
  acceptDataLoss: boolean,
): Refusal[] {
  const refusals: Refusal[] = [];
  for (const field of LAYOUT_FIELDS) {
    const oldValue = renderField(oldLayout, field);
    const newValue = renderField(newLayout, field);
    if (oldValue === newValue) continue;
    for (const objection of UPDATE_POLICIES[field].objections(oldLayout, newLayout)) {
      refusals.push({
        setting: PROP[field],
        oldValue: displayed(oldValue),
        newValue: displayed(newValue),
        why: objection.why,
        safePath: objection.safePath,
        accepted: acceptDataLoss,
      });
    }
  }
  return refusals;
}

const MESSAGE_HEAD = 'StorageServer update refused, nothing was changed:';
const MESSAGE_TAIL =
  'To accept the loss (scratch data only), deploy again with acceptDataLoss=true (context) or ' +
  'acceptDataLoss: true (prop).';
const MAX_VALUE_LENGTH = 120;

/**
 * The one-line message of a refused update: each refusal as `<Setting> <old> -> <new>: <why>. Safe path:
 * <path>.`, then how to accept the loss. One line, because the Provider framework repeats every line after
 * the first in the stack trace it appends. Values are shortened and, past {@link MAX_MESSAGE_LENGTH},
 * the last refusals are counted instead of listed (the handler logs all of them).
 */
export function refusalMessage(refusals: readonly Refusal[]): string {
  const lines = refusals.map(
    (r) =>
      `${r.setting} ${shorten(r.oldValue)} -> ${shorten(r.newValue)}: ${r.why}. Safe path: ${r.safePath}.`,
  );
  const compose = (shown: number): string => {
    const rest = lines.length - shown;
    const more = rest > 0 ? [`And ${rest} more refusal(s), listed in the log of the guard function.`] : [];
    return [MESSAGE_HEAD, ...lines.slice(0, shown), ...more, MESSAGE_TAIL].join(' ');
  };
  let shown = lines.length;
  let message = compose(shown);
  while (message.length > MAX_MESSAGE_LENGTH && shown > 0) message = compose(--shown);
  return message;
}

/**
 * `storage-layout-` and the first 16 hex digits of the SHA-256 of the layout's canonical JSON (the
 * ResourceProperties values in {@link PROP} order, `AcceptDataLoss` left out, `VolumeAttachment` left out when
 * it is `stack`). Create and every accepted
 * Update return it as the PhysicalResourceId, so an Update whose new layout hashes to the current
 * PhysicalResourceId is a return to the last accepted layout: a rollback or a no-op.
 */
export function layoutPhysicalId(layout: StorageLayout, watchedDigest = ''): string {
  // VolumeAttachment `stack` is what a layout without the field means, and is left out: a guard deployed before
  // the field existed keeps its id, so the rollback of an update it refused is still recognised as one.
  // The FSx fields are left out when empty (the EC2 backends) for the same reason.
  const fields = LAYOUT_FIELDS.filter((f) => (f !== 'volumeAttachment' || layout.volumeAttachment !== 'stack') &&
    !(OMITTED_WHEN_EMPTY.includes(f) && layout[f] === ''));
  const canonical = JSON.stringify(Object.fromEntries(fields.map((f) => [PROP[f], wireValue(layout, f)])));
  // The watched half (watched.ts) counts when present, as its own digest; absent, the id is what it was before it.
  const text = watchedDigest === '' ? canonical : `${canonical}\n${watchedDigest}`;
  return PHYSICAL_ID_PREFIX + createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The ResourceProperties of a layout (without the ServiceToken). */
export function guardProperties(
  layout: StorageLayout,
  acceptDataLoss: boolean,
): Record<string, string | string[]> {
  const props: Record<string, string | string[]> = {};
  for (const field of LAYOUT_FIELDS) {
    // Empty late fields are left out: a server's guard keeps the properties it had before them (no update).
    if (OMITTED_WHEN_EMPTY.includes(field) && layout[field] === '') continue;
    props[PROP[field]] = wireValue(layout, field);
  }
  props[PROP.acceptDataLoss] = String(acceptDataLoss);
  return props;
}

/**
 * Validates raw ResourceProperties (or OldResourceProperties: `where` names which) and returns them typed.
 * Throws an Error naming the unknown or missing properties, or the first invalid one with its value and the
 * rule. `ServiceToken`, which CloudFormation adds, is ignored. The two lists may be absent, meaning empty:
 * CloudFormation is not documented to pass an empty list through.
 */
export function parseGuardProperties(raw: unknown, where = 'ResourceProperties'): GuardProperties {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`${where} is missing; expected the keys ${Object.values(PROP).join(', ')}`);
  }
  const props = raw as Record<string, unknown>;
  const known = new Set<string>([...Object.values(PROP), ...Object.values(WATCH_PROP), 'ServiceToken']);
  const unknown = Object.keys(props).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new Error(
      `${where} has unknown properties ${unknown.join(', ')}; expected ${Object.values(PROP).join(', ')}`,
    );
  }
  const missing = Object.values(PROP).filter(
    (k) => props[k] === undefined && k !== PROP.dataVolumes && k !== PROP.snapshotIds && k !== PROP.volumeAttachment &&
      !OMITTED_WHEN_EMPTY.some((f) => PROP[f] === k),
  );
  if (missing.length > 0) throw new Error(`${where} is missing ${missing.join(', ')}`);

  const name = (key: string): string => `${where}.${key}`;
  const text = (key: string): string => {
    const value = props[key];
    if (typeof value !== 'string') {
      throw new Error(`${name(key)} must be a string, got ${JSON.stringify(value)}`);
    }
    return value;
  };
  // Absent (a guard deployed before the field) means ''.
  const optionalText = (key: string): string => (props[key] === undefined ? '' : text(key));
  const list = (key: string): string[] => {
    const value = props[key] ?? [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      throw new Error(`${name(key)} must be a list of strings, got ${JSON.stringify(value)}`);
    }
    return value as string[];
  };
  const backend = text(PROP.backend);
  validateBackend(name(PROP.backend), backend);
  const acceptDataLoss = text(PROP.acceptDataLoss);
  if (acceptDataLoss !== 'true' && acceptDataLoss !== 'false') {
    throw new Error(
      `${name(PROP.acceptDataLoss)} must be 'true' or 'false', got ${JSON.stringify(acceptDataLoss)}`,
    );
  }
  const layout: StorageLayout = {
    backend,
    instanceStoreType: text(PROP.instanceStoreType),
    dataVolumes: list(PROP.dataVolumes).map((entry, i) =>
      parseDataVolumeEntry(`${name(PROP.dataVolumes)}[${i}]`, entry),
    ),
    snapshotIds: list(PROP.snapshotIds),
    encryptionKey: text(PROP.encryptionKey),
    availabilityZone: text(PROP.availabilityZone),
    imageId: text(PROP.imageId),
    keyPair: text(PROP.keyPair),
    placementGroup: text(PROP.placementGroup),
    volumeAttachment: volumeAttachment(name(PROP.volumeAttachment), props[PROP.volumeAttachment] ?? 'stack'),
    fileSystemType: optionalText(PROP.fileSystemType),
    perUnitStorageThroughput: optionalText(PROP.perUnitStorageThroughput),
    storageCapacityGiB: optionalText(PROP.storageCapacityGiB),
    subnetId: optionalText(PROP.subnetId),
    instanceStoreEncryption: optionalText(PROP.instanceStoreEncryption),
  };
  validateLayout(layout, (field) => name(PROP[field]));
  return { layout, acceptDataLoss: acceptDataLoss === 'true' };
}

/** A `VolumeAttachment` value; absent (a guard deployed before the field existed) means `stack`. */
function volumeAttachment(field: string, value: unknown): VolumeAttachment {
  if (!(VOLUME_ATTACHMENTS as readonly unknown[]).includes(value)) {
    throw new Error(`${field} must be one of ${VOLUME_ATTACHMENTS.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as VolumeAttachment;
}

/**
 * Checks a layout's values and their consistency with the backend. `name` turns a field into the name a
 * message uses; `isUnresolved` lets the construct skip values that are tokens at synth time.
 */
export function validateLayout(
  layout: StorageLayout,
  name: (field: LayoutField) => string,
  isUnresolved: (value: unknown) => boolean = () => false,
): void {
  const fail = (field: LayoutField, rule: string, value: unknown): never => {
    throw new Error(`${name(field)} ${rule}, got ${JSON.stringify(value)}`);
  };
  const check = (field: LayoutField, value: string, ok: boolean, rule: string): void => {
    if (!isUnresolved(value) && !ok) fail(field, rule, value);
  };
  if (!isUnresolved(layout.backend)) validateBackend(name('backend'), layout.backend);
  const instanceStore = layout.backend === 'instance-store';
  const fsx = layout.backend === 'fsx-lustre';

  if (fsx) {
    check('fileSystemType', layout.fileSystemType, FSX_TYPE.test(layout.fileSystemType),
      "must be an FSx for Lustre deployment and storage type such as 'PERSISTENT_2/SSD' on the fsx-lustre backend");
    const perUnit = layout.perUnitStorageThroughput;
    check('perUnitStorageThroughput', perUnit, perUnit === '' || WHOLE.test(perUnit), "must be '' or a whole number of MB/s per TiB");
    check('storageCapacityGiB', layout.storageCapacityGiB, WHOLE.test(layout.storageCapacityGiB), 'must be a whole number of GiB');
    check('subnetId', layout.subnetId, SUBNET_ID.test(layout.subnetId), "must be a subnet id such as 'subnet-0123456789abcdef0'");
  } else {
    for (const f of FSX_FIELDS) check(f, layout[f], layout[f] === '', `must be '' on the ${layout.backend} backend`);
  }

  const encryption = layout.instanceStoreEncryption;
  if (instanceStore) {
    check('instanceStoreEncryption', encryption, (INSTANCE_STORE_ENCRYPTIONS as readonly string[]).includes(encryption),
      "must be '' or 'luks2' on the instance-store backend");
  } else {
    check('instanceStoreEncryption', encryption, encryption === '', `must be '' on the ${layout.backend} backend`);
  }

  const type = layout.instanceStoreType;
  if (instanceStore) {
    check(
      'instanceStoreType',
      type,
      INSTANCE_TYPE.test(type),
      'must be an EC2 instance type such as d2.xlarge on the instance-store backend',
    );
  } else {
    check('instanceStoreType', type, type === '', `must be '' on the ${layout.backend} backend`);
  }

  if ((instanceStore || fsx) && layout.dataVolumes.length > 0) {
    fail(
      'dataVolumes',
      `must be empty on the ${layout.backend} backend`,
      layout.dataVolumes.map(dataVolumeEntry),
    );
  }
  const seen = new Set<number>();
  for (const v of layout.dataVolumes) {
    if (isUnresolved(v.index) || isUnresolved(v.sizeGiB)) {
      fail('dataVolumes', 'must hold concrete numbers (they form the layout at synth time)', 'a token');
    }
    if (!Number.isSafeInteger(v.index) || v.index < 0 || !Number.isSafeInteger(v.sizeGiB) || v.sizeGiB < 1) {
      fail(
        'dataVolumes',
        'must hold whole indexes from 0 and whole sizes of at least 1 GiB',
        dataVolumeEntry(v),
      );
    }
    const typeProblem = volumeTypeProblem(v);
    if (typeProblem !== undefined) fail('dataVolumes', typeProblem, dataVolumeEntry(v));
    if (seen.has(v.index))
      fail('dataVolumes', 'must not repeat an index', layout.dataVolumes.map(dataVolumeEntry));
    seen.add(v.index);
  }

  for (const id of layout.snapshotIds) {
    check('snapshotIds', id, SNAPSHOT_ID.test(id), "must hold snapshot ids such as 'snap-0123456789abcdef0'");
  }
  const key = layout.encryptionKey;
  check(
    'encryptionKey',
    key,
    key === (fsx ? AWS_MANAGED_FSX_KEY : AWS_MANAGED_EBS_KEY) || KMS_KEY_ARN.test(key),
    `must be '${fsx ? AWS_MANAGED_FSX_KEY : AWS_MANAGED_EBS_KEY}' or a KMS key ARN`,
  );
  const zone = layout.availabilityZone;
  check(
    'availabilityZone',
    zone,
    NO_SPACE.test(zone),
    'must be an Availability Zone name such as us-east-1a',
  );
  const image = layout.imageId;
  check(
    'imageId',
    image,
    image === '' || IMAGE_ID.test(image) || RESOLVE_SSM.test(image),
    "must be '', an image id such as ami-0123456789abcdef0, or resolve:ssm:<parameter> (resolved by EC2 at launch)",
  );
}

// The layout fields in PROP order: the order of refusals and of the canonical JSON. Taken from PROP, not from
// the policy table, so that editing the table never changes a deployed guard's PhysicalResourceId.
const LAYOUT_FIELDS = (Object.keys(PROP) as (keyof typeof PROP)[]).filter(
  (k): k is LayoutField => k !== 'acceptDataLoss',
);
const SNAPSHOT_ID = /^snap-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const IMAGE_ID = /^ami-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const RESOLVE_SSM = /^resolve:ssm:\/[A-Za-z0-9_.\/-]+(?::\d+)?$/;
const KMS_KEY_ARN = /^arn:[a-z-]+:kms:[a-z0-9-]+:\d{12}:(?:key|alias)\/\S+$/;
const INSTANCE_TYPE = /^[a-z0-9-]+\.[a-z0-9-]+$/;
const NO_SPACE = /^\S+$/;
const FSX_TYPE = /^(SCRATCH_2|PERSISTENT_1|PERSISTENT_2)\/(SSD|HDD)$/;
const WHOLE = /^[1-9]\d{0,6}$/;
const SUBNET_ID = /^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

function wireValue(layout: StorageLayout, field: LayoutField): string | string[] {
  if (field === 'dataVolumes') return layout.dataVolumes.map(dataVolumeEntry);
  if (field === 'snapshotIds') return [...layout.snapshotIds];
  return layout[field];
}

function renderField(layout: StorageLayout, field: LayoutField): string {
  const value = wireValue(layout, field);
  return Array.isArray(value) ? value.join(',') : value;
}

function displayed(value: string): string {
  return value === '' ? '(none)' : value;
}

function shorten(value: string): string {
  return value.length <= MAX_VALUE_LENGTH ? value : `${value.slice(0, MAX_VALUE_LENGTH - 3)}...`;
}
