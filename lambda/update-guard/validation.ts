/**
 * The update guard's trust boundary: reading raw ResourceProperties into a typed layout, and checking a layout's values
 * and their consistency with its backend. The grammar of a backend's own fields is in its descriptor in backends/. The
 * handler checks what CloudFormation sends. The construct runs the same checks at synth time on the values that are not
 * tokens, so a bad value fails there first.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS, validateBackend } from '../register/backend';
import type { BackendField, Checks } from './backend-guard';
import { GUARD_BACKENDS } from './backends';
import {
  VOLUME_ATTACHMENTS,
  WAIVERS,
  type GuardProperties,
  type LayoutField,
  type StorageLayout,
  type VolumeAttachment,
  type Waiver,
} from './layout';
import { parseDataVolumeEntry } from './volume-types';
import { KEPT_PROP, LAYOUT_FIELDS, OMITTED_WHEN_EMPTY, PROP, WATCH_PROP, wireValue } from './wire';

const SNAPSHOT_ID = /^snap-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const IMAGE_ID = /^ami-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const RESOLVE_SSM = /^resolve:ssm:\/[A-Za-z0-9_.\/-]+(?::\d+)?$/;
const KMS_KEY_ARN = /^arn:[a-z-]+:kms:[a-z0-9-]+:\d{12}:(?:key|alias)\/\S+$/;
const NO_SPACE = /^\S+$/;

/**
 * Validates raw ResourceProperties, or OldResourceProperties as `where` names them, and returns them typed. Throws an
 * Error naming the unknown or missing properties, or the first invalid one with its value and the rule. `ServiceToken`,
 * which CloudFormation adds, is ignored. The two lists may be absent, meaning empty, since CloudFormation is not
 * documented to pass an empty list through.
 */
export function parseGuardProperties(raw: unknown, where = 'ResourceProperties'): GuardProperties {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`${where} is missing; expected the keys ${Object.values(PROP).join(', ')}`);
  }
  const props = raw as Record<string, unknown>;
  checkKeys(props, where);
  const read = propertyReader(props, where);
  const backend = read.text(PROP.backend);
  validateBackend(read.name(PROP.backend), backend);
  const acceptDataLoss = read.text(PROP.acceptDataLoss);
  if (acceptDataLoss !== 'true' && acceptDataLoss !== 'false') {
    throw new Error(
      `${read.name(PROP.acceptDataLoss)} must be 'true' or 'false', got ${JSON.stringify(acceptDataLoss)}`,
    );
  }
  const layout: StorageLayout = {
    backend,
    instanceStoreType: read.text(PROP.instanceStoreType),
    dataVolumes: read.list(PROP.dataVolumes).map((entry, i) =>
      parseDataVolumeEntry(`${read.name(PROP.dataVolumes)}[${i}]`, entry),
    ),
    snapshotIds: read.list(PROP.snapshotIds),
    encryptionKey: read.text(PROP.encryptionKey),
    availabilityZone: read.text(PROP.availabilityZone),
    imageId: read.text(PROP.imageId),
    keyPair: read.text(PROP.keyPair),
    placementGroup: read.text(PROP.placementGroup),
    volumeAttachment: volumeAttachment(read.name(PROP.volumeAttachment), props[PROP.volumeAttachment] ?? 'stack'),
    fileSystemType: read.optionalText(PROP.fileSystemType),
    perUnitStorageThroughput: read.optionalText(PROP.perUnitStorageThroughput),
    storageCapacityGiB: read.optionalText(PROP.storageCapacityGiB),
    subnetId: read.optionalText(PROP.subnetId),
    instanceStoreEncryption: read.optionalText(PROP.instanceStoreEncryption),
    throughputCapacity: read.optionalText(PROP.throughputCapacity),
    standbySubnetId: read.optionalText(PROP.standbySubnetId),
    diskIops: read.optionalText(PROP.diskIops),
    metadataIops: read.optionalText(PROP.metadataIops),
    snapshotRetain: read.optionalText(PROP.snapshotRetain),
  };
  validateLayout(layout, (field) => read.name(PROP[field]));
  return { layout, acceptDataLoss: acceptDataLoss === 'true', waivers: WAIVERS.filter((w) => waiverGiven(read, w)) };
}

/** A waiver's property: `'true'`, or `'false'` or absent for a deploy without it. */
function waiverGiven(read: ReturnType<typeof propertyReader>, waiver: Waiver): boolean {
  const value = read.optionalText(waiver);
  if (value !== '' && value !== 'true' && value !== 'false') {
    throw new Error(`${read.name(waiver)} must be 'true' or 'false', got ${JSON.stringify(value)}`);
  }
  return value === 'true';
}

/**
 * Throws naming the unknown properties, then the missing ones: every layout key but the lists, `VolumeAttachment` and
 * the fields that a guard deployed before them lacks.
 */
function checkKeys(props: Record<string, unknown>, where: string): void {
  const known = new Set<string>([...Object.values(PROP), ...Object.values(WATCH_PROP), KEPT_PROP, ...WAIVERS, 'ServiceToken']);
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
}

/** Reads one property as its wire type, naming it `<where>.<key>` in the error. */
function propertyReader(props: Record<string, unknown>, where: string) {
  const name = (key: string): string => `${where}.${key}`;
  const text = (key: string): string => {
    const value = props[key];
    if (typeof value !== 'string') {
      throw new Error(`${name(key)} must be a string, got ${JSON.stringify(value)}`);
    }
    return value;
  };
  // Absent means '', as in a guard deployed before the field.
  const optionalText = (key: string): string => (props[key] === undefined ? '' : text(key));
  const list = (key: string): string[] => {
    const value = props[key] ?? [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      throw new Error(`${name(key)} must be a list of strings, got ${JSON.stringify(value)}`);
    }
    return value as string[];
  };
  return { name, text, optionalText, list };
}

/** A `VolumeAttachment` value; absent, as in a guard deployed before the field, means `stack`. */
function volumeAttachment(field: string, value: unknown): VolumeAttachment {
  if (!(VOLUME_ATTACHMENTS as readonly unknown[]).includes(value)) {
    throw new Error(`${field} must be one of ${VOLUME_ATTACHMENTS.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as VolumeAttachment;
}

/**
 * The fields some backend owns by its descriptor's `fields`, in PROP order: `''`, or an empty list, on every backend
 * that does not own them.
 */
const OWNED_FIELDS: readonly BackendField[] = LAYOUT_FIELDS.filter(
  (f): f is BackendField => BACKENDS.some((b) => (GUARD_BACKENDS[b].fields as readonly LayoutField[]).includes(f)),
);

/**
 * Checks a layout's values and their consistency with the backend. `name` turns a field into the name a message uses.
 * `isUnresolved` lets the construct skip values that are tokens at synth time. A backend that is a token leaves the
 * backend's own checks to the handler.
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
  const checks: Checks = { isUnresolved, fail, check };
  if (!isUnresolved(layout.backend)) validateBackend(name('backend'), layout.backend);
  const guard = isUnresolved(layout.backend) ? undefined : GUARD_BACKENDS[layout.backend];
  if (guard !== undefined) {
    for (const f of OWNED_FIELDS.filter((field) => !guard.fields.includes(field))) {
      const value = layout[f];
      if (typeof value === 'string') check(f, value, value === '', `must be '' on the ${layout.backend} backend`);
      else if (value.length > 0) fail(f, `must be empty on the ${layout.backend} backend`, wireValue(layout, f));
    }
    guard.validate(layout, checks);
  }
  validateLocation(layout, guard?.managedKey, checks);
  validateRetention(layout, checks);
}

/** The snapshot retention: `''` when not recorded or for a backend without snapshots, or a whole number up to 1000. */
function validateRetention(layout: StorageLayout, { check }: Checks): void {
  const value = layout.snapshotRetain;
  check('snapshotRetain', value, value === '' || (/^\d{1,4}$/.test(value) && Number(value) <= 1000),
    "must be '' or a whole number of snapshots (EBS) or days (FSx) from 0 to 1000");
}

/**
 * Where the data is and what opens it: snapshots, the encryption key, the Availability Zone and the image. The key is
 * its backend's AWS managed key, `managedKey`, or a KMS key ARN.
 */
function validateLocation(layout: StorageLayout, managedKey: string | undefined, { check }: Checks): void {
  for (const id of layout.snapshotIds) {
    check('snapshotIds', id, SNAPSHOT_ID.test(id), "must hold snapshot ids such as 'snap-0123456789abcdef0'");
  }
  const key = layout.encryptionKey;
  if (managedKey !== undefined) {
    check('encryptionKey', key, key === managedKey || KMS_KEY_ARN.test(key), `must be '${managedKey}' or a KMS key ARN`);
  }
  const zone = layout.availabilityZone;
  check('availabilityZone', zone, NO_SPACE.test(zone), 'must be an Availability Zone name such as us-east-1a');
  const image = layout.imageId;
  check(
    'imageId',
    image,
    image === '' || IMAGE_ID.test(image) || RESOLVE_SSM.test(image),
    "must be '', an image id such as ami-0123456789abcdef0, or resolve:ssm:<parameter> (resolved by EC2 at launch)",
  );
}
