/**
 * The layout on the wire: the update-guard custom resource's ResourceProperties and its PhysicalResourceId. The
 * properties are the names, which fields a guard deployed before them may lack, and the values as CloudFormation passes
 * them. The PhysicalResourceId is the hash of the layout that recognises a rollback. A deployed guard's properties and
 * id depend on this file, so a change here is an update of every deployed guard.
 *
 * It imports only Node's crypto, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { createHash } from 'crypto';
import type { LayoutField, StorageLayout, Waiver } from './layout';
import { dataVolumeEntry } from './volume-types';

/**
 * The tag that names a server's resources, `<stack name>/<server name>`: its instance, data volumes and interface, or
 * its FSx file system. Every backend in lib/backends tags with it, and aws.ts finds a server's resources by it, so one
 * name holds on both sides of the deploy.
 */
export const SERVER_ID_TAG = 'storage-server:id';

/** A resource tagged as one server's: what aws.ts finds and messages.ts names. */
export interface TaggedResource {
  readonly kind: 'instance' | 'volume' | 'network-interface' | 'file-system';
  readonly id: string;
}

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
  throughputCapacity: 'ThroughputCapacity',
  standbySubnetId: 'StandbySubnetId',
  diskIops: 'DiskIops',
  metadataIops: 'MetadataIops',
  snapshotRetain: 'SnapshotRetain',
  acceptDataLoss: 'AcceptDataLoss',
} as const;

/**
 * ResourceProperties keys outside the layout: the resources watched by CloudFormation's replacement rules, and the
 * server's identity, both read by watched.ts. A guard deployed before them lacks them.
 */
export const WATCH_PROP = { watched: 'Watched', identity: 'Identity' } as const;

/**
 * The ResourceProperties key of what the deploy keeps, read by held.ts. It is outside the PhysicalResourceId's hash, so
 * adding or removing another resource never changes a guard's id. A guard deployed before it lacks it.
 */
export const KEPT_PROP = 'Kept';

/**
 * The FSx fields of Lustre and OpenZFS: `''` on the EC2 backends, and the fields of one FSx backend `''` on the other.
 * There they are left out of the PhysicalResourceId's hash and may be absent from the properties, so that a guard
 * deployed before FSx, or before OpenZFS, keeps its id.
 */
const FSX_FIELDS = [
  'fileSystemType', 'perUnitStorageThroughput', 'storageCapacityGiB', 'subnetId', 'throughputCapacity', 'standbySubnetId',
  'diskIops', 'metadataIops',
] as const;
/**
 * The fields added after the first guards were deployed, left out of the properties and the PhysicalResourceId's hash
 * when `''`. A guard deployed before them keeps its properties and its id: no update, and a recognised rollback.
 */
export const OMITTED_WHEN_EMPTY: readonly LayoutField[] = [...FSX_FIELDS, 'instanceStoreEncryption', 'snapshotRetain'];

/** The CloudFormation type of the guard's custom resource. */
export const RESOURCE_TYPE = 'Custom::StorageServerUpdateGuard';
/** What the PhysicalResourceId starts with; 16 hex digits of the layout's hash follow. */
export const PHYSICAL_ID_PREFIX = 'storage-layout-';

/**
 * The layout fields in PROP order: the order of refusals and of the canonical JSON. Taken from PROP, not from
 * the policy table, so that editing the table never changes a deployed guard's PhysicalResourceId.
 */
export const LAYOUT_FIELDS = (Object.keys(PROP) as (keyof typeof PROP)[]).filter(
  (k): k is LayoutField => k !== 'acceptDataLoss',
);

/**
 * `storage-layout-` and the first 16 hex digits of the SHA-256 of the layout's canonical JSON: the ResourceProperties
 * values in {@link PROP} order, `AcceptDataLoss` left out, and `VolumeAttachment` left out when it is `stack`. Create
 * and every accepted Update return it as the PhysicalResourceId. So an Update whose new layout hashes to the current
 * PhysicalResourceId is a return to the last accepted layout: a rollback or a no-op.
 */
export function layoutPhysicalId(layout: StorageLayout, watchedDigest = ''): string {
  // VolumeAttachment `stack` is what a layout without the field means, and is left out. A guard deployed before the
  // field keeps its id, so the rollback of an update it refused is still recognised as one. The FSx fields are left out
  // when empty, as on the EC2 backends, for the same reason.
  const fields = LAYOUT_FIELDS.filter((f) => (f !== 'volumeAttachment' || layout.volumeAttachment !== 'stack') &&
    !(OMITTED_WHEN_EMPTY.includes(f) && layout[f] === ''));
  const canonical = JSON.stringify(Object.fromEntries(fields.map((f) => [PROP[f], wireValue(layout, f)])));
  // The watched half of watched.ts counts when present, as its own digest. When it is absent, the id is the layout's
  // alone, so a layout recorded without it keeps its id.
  const text = watchedDigest === '' ? canonical : `${canonical}\n${watchedDigest}`;
  return PHYSICAL_ID_PREFIX + createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The ResourceProperties of a layout, without the ServiceToken. Each of `waivers` is `'true'`, and absent otherwise, so
 * a deploy without them keeps the properties a guard had before them.
 */
export function guardProperties(
  layout: StorageLayout,
  acceptDataLoss: boolean,
  waivers: readonly Waiver[] = [],
): Record<string, string | string[]> {
  const props: Record<string, string | string[]> = {};
  for (const field of LAYOUT_FIELDS) {
    // Empty late fields are left out, so a server's guard keeps the properties it had before them: no update.
    if (OMITTED_WHEN_EMPTY.includes(field) && layout[field] === '') continue;
    props[PROP[field]] = wireValue(layout, field);
  }
  props[PROP.acceptDataLoss] = String(acceptDataLoss);
  for (const waiver of waivers) props[waiver] = 'true';
  return props;
}

/** A field's value as ResourceProperties carry it: a string, or a list of strings. */
export function wireValue(layout: StorageLayout, field: LayoutField): string | string[] {
  if (field === 'dataVolumes') return layout.dataVolumes.map(dataVolumeEntry);
  if (field === 'snapshotIds') return [...layout.snapshotIds];
  return layout[field];
}

/** A field's value as one string, to compare two layouts and to quote in a refusal. */
export function renderField(layout: StorageLayout, field: LayoutField): string {
  const value = wireValue(layout, field);
  return Array.isArray(value) ? value.join(',') : value;
}
