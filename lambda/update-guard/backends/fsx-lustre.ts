/**
 * The update guard's descriptor of the fsx-lustre backend: an FSx for Lustre file system. Its own fields are the
 * deployment and storage type, the per-unit throughput, the storage, the subnet, the Metadata IOPS and the backups'
 * retention. What replaces the file system is refused; what FSx changes in place passes within FSx's own rules.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { BackendGuard, Checks, IntervalRule } from '../backend-guard';
import { latestRequest, tooSoon, type AdministrativeActionView } from '../growth-interval';
import type { StorageLayout } from '../layout';
import { COPY_THEN_REMOVE, FSX_COPY, FSX_REPLACED } from '../objections';
import { both, refused, refusedUnless, type Refusal, type UpdatePolicy } from '../policy';
import {
  AWS_MANAGED_FSX_KEY, STORAGE_INTERVAL, WHOLE, checkStorageAndSubnet, fewerBackups, fsxPin, growOnly,
} from './fsx';

const LUSTRE_TYPE = /^(SCRATCH_2|PERSISTENT_1|PERSISTENT_2)\/(SSD|HDD)$/;

/**
 * Per-unit throughput: FSx changes it in place on persistent SSD file systems, PERSISTENT_1 SSD at 50, 100 or 200 and
 * PERSISTENT_2 at 125, 250, 500 or 1000, per the FSx for Lustre guide, "Managing throughput capacity". An HDD file
 * system's cannot be changed, and SCRATCH_2 has none. LUSTRE-THROUGHPUT-IN-PLACE.
 */
const LUSTRE_THROUGHPUT: UpdatePolicy = refusedUnless(
  'in place on persistent SSD',
  // A new type is refused by the FileSystemType row; this one judges the throughput of the same type.
  (o, n) => o.fileSystemType !== n.fileSystemType || /^PERSISTENT_[12]\/SSD$/.test(n.fileSystemType),
  (o) => ({
    why: `FSx changes the throughput per unit of storage in place only on persistent SSD file systems (this one is ${o.fileSystemType || 'unknown'})`,
    safePath: `keep the old value, or ${FSX_COPY}`,
  }),
);

/**
 * PERSISTENT_2 Metadata IOPS, LUSTRE-METADATA. FSx raises them in place, since the resource specification updates
 * `LustreConfiguration.MetadataConfiguration` without replacement. It does so only on a file system created with a
 * metadata configuration, and never lowers them. So a configuration added later, a lower number, or the configuration
 * taken out would fail after the guard. `''` is a file system without one, as those made before the option are. FSx
 * accepts a change to AUTOMATIC while the number is no more than its automatic default for the storage. AWS gives that
 * default in no table read here, so the change passes and FSx judges it.
 */
const LUSTRE_METADATA: UpdatePolicy = both(
  refusedUnless(
    'only on a file system created with a metadata configuration',
    (o, n) => o.metadataIops !== '' || n.metadataIops === '',
    (_o, n) => ({
      why: 'FSx for Lustre changes Metadata IOPS only on a file system created with a metadata configuration ("You can ' +
        'increase metadata performance only on FSx for Lustre file systems created with the Persistent_2 deployment type ' +
        'and a metadata configuration specified", FSx for Lustre User Guide: LUSTRE-METADATA in docs/sources/fsx-rules.md), ' +
        `and this one was created without: this deploy asks for ${n.metadataIops}`,
      safePath: `leave fsxLustre.metadataIops out for this file system (-c fsxMetadataIops unset); for metadata IOPS, deploy a second server with another serverName, another mountPoint and fsxMetadataIops set (a new file system, made with one), ${COPY_THEN_REMOVE}`,
    }),
  ),
  refusedUnless(
    'raised only (FSx UpdateFileSystem MetadataConfiguration)',
    (o, n) => o.metadataIops === '' || n.metadataIops === 'AUTOMATIC' ||
      (n.metadataIops !== '' && (o.metadataIops === 'AUTOMATIC' || Number(n.metadataIops) >= Number(o.metadataIops))),
    (o, n) => ({
      why: `FSx for Lustre never lowers a file system's Metadata IOPS ("downscaling Metadata IOPS is not supported", FSx API ` +
        `reference, UpdateFileSystemLustreMetadataConfiguration: LUSTRE-METADATA in docs/sources/fsx-rules.md), and this deploy asks for ` +
        (n.metadataIops === '' ? `no metadata configuration after ${o.metadataIops}` : `${n.metadataIops} after ${o.metadataIops}`),
      safePath: `keep fsxLustre.metadataIops at ${o.metadataIops} or more (-c fsxMetadataIops=${o.metadataIops}), or 0 (AUTOMATIC) once ` +
        `the storage's automatic Metadata IOPS reach ${o.metadataIops}; for fewer, ${FSX_COPY}`,
    }),
  ),
);

/** When the last Metadata IOPS change was asked for: a FILE_SYSTEM_UPDATE whose target names a metadata configuration. */
export function lastMetadataRequest(actions: readonly AdministrativeActionView[]): number | undefined {
  return latestRequest(actions, (a) => a.AdministrativeActionType === 'FILE_SYSTEM_UPDATE' &&
    (a.TargetFileSystemValues?.LustreConfiguration as { readonly MetadataConfiguration?: unknown } | undefined)?.MetadataConfiguration !== undefined);
}

/**
 * Whether the deploy raises a Lustre file system's provisioned Metadata IOPS: a number above the old number, or
 * AUTOMATIC.
 */
function raisesMetadataIops(o: StorageLayout, n: StorageLayout): boolean {
  return o.backend === 'fsx-lustre' && n.backend === 'fsx-lustre' && o.metadataIops !== '' && /^\d+$/.test(n.metadataIops) &&
    (o.metadataIops === 'AUTOMATIC' || Number(n.metadataIops) > Number(o.metadataIops));
}

/**
 * LUSTRE-METADATA: "as long as metadata performance increase requests are at least 6 hours apart", per the FSx for
 * Lustre guide, "Managing metadata performance". The refusal of a Metadata IOPS increase asked for within 6 hours of
 * the last metadata change, or undefined.
 */
export function metadataIntervalRefusal(
  o: StorageLayout, n: StorageLayout, lastRequestMs: number | undefined, nowMs: number, acceptDataLoss: boolean,
): Refusal | undefined {
  if (!raisesMetadataIops(o, n)) return undefined;
  return tooSoon({ setting: 'MetadataIops', oldValue: o.metadataIops, newValue: n.metadataIops, accepted: acceptDataLoss }, lastRequestMs, nowMs,
    (last) => `FSx for Lustre takes the next Metadata IOPS increase 6 hours after the last was asked for ("as long as metadata ` +
      `performance increase requests are at least 6 hours apart": LUSTRE-METADATA in docs/sources/fsx-rules.md), and the last ` +
      `was asked for at ${last}`,
    (next) => `deploy these Metadata IOPS again at ${next} or later, or keep ${o.metadataIops} until then`);
}

const METADATA_INTERVAL: IntervalRule = {
  applies: raisesMetadataIops,
  refusal: (o, n, actions, nowMs, acceptDataLoss) => metadataIntervalRefusal(o, n, lastMetadataRequest(actions), nowMs, acceptDataLoss),
};

/** The type, per-unit throughput, storage, subnet and Metadata IOPS. */
function validateLustre(layout: StorageLayout, checks: Checks): void {
  const { check } = checks;
  check('fileSystemType', layout.fileSystemType, LUSTRE_TYPE.test(layout.fileSystemType),
    "must be an FSx for Lustre deployment and storage type such as 'PERSISTENT_2/SSD' on the fsx-lustre backend");
  const perUnit = layout.perUnitStorageThroughput;
  check('perUnitStorageThroughput', perUnit, perUnit === '' || WHOLE.test(perUnit), "must be '' or a whole number of MB/s per TiB");
  checkStorageAndSubnet(layout, checks);
  const metadata = layout.metadataIops;
  check('metadataIops', metadata, metadata === '' || metadata === 'AUTOMATIC' || WHOLE.test(metadata),
    "must be '', 'AUTOMATIC' or a whole number of Metadata IOPS on the fsx-lustre backend");
}

/** The fsx-lustre backend. */
export const FSX_LUSTRE_GUARD: BackendGuard = {
  fields: ['fileSystemType', 'perUnitStorageThroughput', 'storageCapacityGiB', 'subnetId', 'metadataIops', 'snapshotRetain'],
  validate: validateLustre,
  managedKey: AWS_MANAGED_FSX_KEY,
  policies: {
    encryptionKey: refused(`a new key (KmsKeyId): ${FSX_REPLACED}`, `keep the old key, or ${FSX_COPY}`),
    // On FSx a new zone is a new subnet, which the SubnetId row refuses.
    fileSystemType: refused(`a new deployment or storage type: ${FSX_REPLACED}`, `keep the old type, or ${FSX_COPY}`),
    perUnitStorageThroughput: LUSTRE_THROUGHPUT,
    // FSx grows it in place within the type's steps; increases 6 hours apart are `intervals`'.
    storageCapacityGiB: growOnly('FSx for Lustre', FSX_COPY),
    subnetId: refused(`a new subnet (SubnetIds): ${FSX_REPLACED}`, `keep the old subnet, or ${FSX_COPY}`),
    metadataIops: LUSTRE_METADATA,
    snapshotRetain: fewerBackups('FSx for Lustre'),
  },
  // The file system: watched.ts's own wording, of a new file system and a copy, is this backend's.
  replaced: {},
  shownBy: { fileSystemType: 'LUSTRE' },
  pin: fsxPin,
  intervals: [STORAGE_INTERVAL, METADATA_INTERVAL],
};
