/**
 * The update guard's trust boundary: reading raw ResourceProperties into a typed layout, and checking a layout's
 * values and their consistency with its backend. The handler checks what CloudFormation sends; the construct runs
 * the same checks at synth time (on the values that are not tokens), so a bad value fails there first.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import { validateBackend, type Backend } from '../register/backend';
import {
  AWS_MANAGED_EBS_KEY,
  AWS_MANAGED_FSX_KEY,
  INSTANCE_STORE_ENCRYPTIONS,
  OPENZFS_DEPLOYMENT_TYPES,
  OPENZFS_STORAGE_TYPE,
  VOLUME_ATTACHMENTS,
  WAIVERS,
  type GuardProperties,
  type LayoutField,
  type StorageLayout,
  type VolumeAttachment,
  type Waiver,
} from './layout';
import { dataVolumeEntry, parseDataVolumeEntry, volumeTypeProblem } from './volume-types';
import { FSX_FIELDS, KEPT_PROP, OMITTED_WHEN_EMPTY, PROP, WATCH_PROP } from './wire';

const SNAPSHOT_ID = /^snap-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const IMAGE_ID = /^ami-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const RESOLVE_SSM = /^resolve:ssm:\/[A-Za-z0-9_.\/-]+(?::\d+)?$/;
const KMS_KEY_ARN = /^arn:[a-z-]+:kms:[a-z0-9-]+:\d{12}:(?:key|alias)\/\S+$/;
const INSTANCE_TYPE = /^[a-z0-9-]+\.[a-z0-9-]+$/;
const NO_SPACE = /^\S+$/;
const FSX_TYPE = /^(SCRATCH_2|PERSISTENT_1|PERSISTENT_2)\/(SSD|HDD)$/;
const OPENZFS_TYPE = new RegExp(`^(${OPENZFS_DEPLOYMENT_TYPES.join('|')})/${OPENZFS_STORAGE_TYPE}$`);
const WHOLE = /^[1-9]\d{0,6}$/;
const SUBNET_ID = /^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

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

/** A waiver's property: `'true'`, or `'false'` or absent (a deploy without it). */
function waiverGiven(read: ReturnType<typeof propertyReader>, waiver: Waiver): boolean {
  const value = read.optionalText(waiver);
  if (value !== '' && value !== 'true' && value !== 'false') {
    throw new Error(`${read.name(waiver)} must be 'true' or 'false', got ${JSON.stringify(value)}`);
  }
  return value === 'true';
}

/**
 * Throws naming the unknown properties, then the missing ones: every layout key but the lists, `VolumeAttachment`
 * and the fields a guard deployed before them lacks.
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
  // Absent (a guard deployed before the field) means ''.
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

/** A `VolumeAttachment` value; absent (a guard deployed before the field existed) means `stack`. */
function volumeAttachment(field: string, value: unknown): VolumeAttachment {
  if (!(VOLUME_ATTACHMENTS as readonly unknown[]).includes(value)) {
    throw new Error(`${field} must be one of ${VOLUME_ATTACHMENTS.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as VolumeAttachment;
}

/** How one check reports: `fail` throws naming the field, `check` skips a value that is a token at synth time. */
interface Checks {
  readonly isUnresolved: (value: unknown) => boolean;
  readonly fail: (field: LayoutField, rule: string, value: unknown) => never;
  readonly check: (field: LayoutField, value: string, ok: boolean, rule: string) => void;
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
  const checks: Checks = { isUnresolved, fail, check };
  if (!isUnresolved(layout.backend)) validateBackend(name('backend'), layout.backend);
  validateFsxFields(layout, checks);
  validateInstanceStoreFields(layout, checks);
  validateDataVolumes(layout, checks);
  validateLocation(layout, checks);
  validateRetention(layout, checks);
}

/** The snapshot retention: `''` on instance store (no snapshots), else `''` (not recorded) or a whole number up to 1000. */
function validateRetention(layout: StorageLayout, { check }: Checks): void {
  const value = layout.snapshotRetain;
  if (layout.backend === 'instance-store') {
    check('snapshotRetain', value, value === '', "must be '' on the instance-store backend");
    return;
  }
  check('snapshotRetain', value, value === '' || (/^\d{1,4}$/.test(value) && Number(value) <= 1000),
    "must be '' or a whole number of snapshots (EBS) or days (FSx) from 0 to 1000");
}

/** Per backend, the FSx fields it may set; every other FSx field is `''` there (on the EC2 backends, all of them). */
const FSX_FIELDS_OF: { readonly [B in Backend]: readonly LayoutField[] } = {
  ebs: [],
  'instance-store': [],
  'fsx-lustre': ['fileSystemType', 'perUnitStorageThroughput', 'storageCapacityGiB', 'subnetId', 'metadataIops'],
  'fsx-openzfs': ['fileSystemType', 'storageCapacityGiB', 'subnetId', 'throughputCapacity', 'standbySubnetId', 'diskIops'],
};

/** The FSx fields: `''` where the backend has none of them, their grammar on the backend that sets them. */
function validateFsxFields(layout: StorageLayout, checks: Checks): void {
  const own = FSX_FIELDS_OF[layout.backend] ?? [];
  for (const f of FSX_FIELDS.filter((field) => !own.includes(field))) {
    checks.check(f, layout[f], layout[f] === '', `must be '' on the ${layout.backend} backend`);
  }
  if (layout.backend === 'fsx-lustre') validateLustreFields(layout, checks);
  if (layout.backend === 'fsx-openzfs') validateOpenZfsFields(layout, checks);
}

/** The FSx for Lustre fields' grammar. */
function validateLustreFields(layout: StorageLayout, { check }: Checks): void {
  check('fileSystemType', layout.fileSystemType, FSX_TYPE.test(layout.fileSystemType),
    "must be an FSx for Lustre deployment and storage type such as 'PERSISTENT_2/SSD' on the fsx-lustre backend");
  const perUnit = layout.perUnitStorageThroughput;
  check('perUnitStorageThroughput', perUnit, perUnit === '' || WHOLE.test(perUnit), "must be '' or a whole number of MB/s per TiB");
  check('storageCapacityGiB', layout.storageCapacityGiB, WHOLE.test(layout.storageCapacityGiB), 'must be a whole number of GiB');
  check('subnetId', layout.subnetId, SUBNET_ID.test(layout.subnetId), "must be a subnet id such as 'subnet-0123456789abcdef0'");
  const metadata = layout.metadataIops;
  check('metadataIops', metadata, metadata === '' || metadata === 'AUTOMATIC' || WHOLE.test(metadata),
    "must be '', 'AUTOMATIC' or a whole number of Metadata IOPS on the fsx-lustre backend");
}

/** The FSx for OpenZFS fields' grammar: a standby subnet on MULTI_AZ_1 only, not the preferred one. */
function validateOpenZfsFields(layout: StorageLayout, { isUnresolved, check }: Checks): void {
  const type = layout.fileSystemType;
  check('fileSystemType', type, OPENZFS_TYPE.test(type),
    `must be an FSx for OpenZFS deployment type and storage type such as 'SINGLE_AZ_2/${OPENZFS_STORAGE_TYPE}' on the ` +
    `fsx-openzfs backend (deployment types ${OPENZFS_DEPLOYMENT_TYPES.join(', ')}; storage type ${OPENZFS_STORAGE_TYPE})`);
  check('storageCapacityGiB', layout.storageCapacityGiB, WHOLE.test(layout.storageCapacityGiB), 'must be a whole number of GiB');
  check('subnetId', layout.subnetId, SUBNET_ID.test(layout.subnetId), "must be a subnet id such as 'subnet-0123456789abcdef0'");
  check('throughputCapacity', layout.throughputCapacity, WHOLE.test(layout.throughputCapacity),
    'must be a whole number of MB/s on the fsx-openzfs backend');
  // '' in a layout recorded before the field.
  check('diskIops', layout.diskIops, layout.diskIops === '' || layout.diskIops === 'AUTOMATIC' || WHOLE.test(layout.diskIops),
    "must be '', 'AUTOMATIC' or a whole number of SSD IOPS on the fsx-openzfs backend");
  if (isUnresolved(type)) return;
  const standby = layout.standbySubnetId;
  if (type.startsWith('MULTI_AZ_1/')) {
    check('standbySubnetId', standby, SUBNET_ID.test(standby) && standby !== layout.subnetId,
      "must be the standby file server's subnet id on MULTI_AZ_1, not subnetId's");
  } else {
    check('standbySubnetId', standby, standby === '', "must be '' unless the deployment type is MULTI_AZ_1");
  }
}

/** The instance-store fields (encryption, then type): set on the instance-store backend, `''` on the others. */
function validateInstanceStoreFields(layout: StorageLayout, { check }: Checks): void {
  const encryption = layout.instanceStoreEncryption;
  const type = layout.instanceStoreType;
  if (layout.backend !== 'instance-store') {
    check('instanceStoreEncryption', encryption, encryption === '', `must be '' on the ${layout.backend} backend`);
    check('instanceStoreType', type, type === '', `must be '' on the ${layout.backend} backend`);
    return;
  }
  check('instanceStoreEncryption', encryption, (INSTANCE_STORE_ENCRYPTIONS as readonly string[]).includes(encryption),
    "must be '' or 'luks2' on the instance-store backend");
  check('instanceStoreType', type, INSTANCE_TYPE.test(type), 'must be an EC2 instance type such as d2.xlarge on the instance-store backend');
}

/** The EBS data volumes: none but on the ebs backend; each concrete, whole, of a consistent type, its index unique. */
function validateDataVolumes(layout: StorageLayout, { isUnresolved, fail }: Checks): void {
  const withoutVolumes: readonly string[] = ['instance-store', 'fsx-lustre', 'fsx-openzfs'];
  if (withoutVolumes.includes(layout.backend) && layout.dataVolumes.length > 0) {
    fail('dataVolumes', `must be empty on the ${layout.backend} backend`, layout.dataVolumes.map(dataVolumeEntry));
  }
  const seen = new Set<number>();
  for (const v of layout.dataVolumes) {
    if (isUnresolved(v.index) || isUnresolved(v.sizeGiB)) {
      fail('dataVolumes', 'must hold concrete numbers (they form the layout at synth time)', 'a token');
    }
    if (!Number.isSafeInteger(v.index) || v.index < 0 || !Number.isSafeInteger(v.sizeGiB) || v.sizeGiB < 1) {
      fail('dataVolumes', 'must hold whole indexes from 0 and whole sizes of at least 1 GiB', dataVolumeEntry(v));
    }
    const typeProblem = volumeTypeProblem(v);
    if (typeProblem !== undefined) fail('dataVolumes', typeProblem, dataVolumeEntry(v));
    if (seen.has(v.index)) fail('dataVolumes', 'must not repeat an index', layout.dataVolumes.map(dataVolumeEntry));
    seen.add(v.index);
  }
}

/** Where the data is and what opens it: snapshots, the encryption key, the Availability Zone, the image. */
function validateLocation(layout: StorageLayout, { check }: Checks): void {
  for (const id of layout.snapshotIds) {
    check('snapshotIds', id, SNAPSHOT_ID.test(id), "must hold snapshot ids such as 'snap-0123456789abcdef0'");
  }
  const managedKey = layout.backend === 'fsx-lustre' || layout.backend === 'fsx-openzfs' ? AWS_MANAGED_FSX_KEY : AWS_MANAGED_EBS_KEY;
  const key = layout.encryptionKey;
  check('encryptionKey', key, key === managedKey || KMS_KEY_ARN.test(key), `must be '${managedKey}' or a KMS key ARN`);
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
