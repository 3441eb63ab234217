/**
 * The update guard's policy table (docs/design.md#8-the-update-guard-contract): what each layout field may do on
 * update, per backend, as data in the manner of aws-parallelcluster's `update_policy.py`. The guard holds the
 * server's storage layout as custom resource properties; CloudFormation updates it before the instance, the
 * volumes and the registration (they depend on it), so a refused change fails the stack update before anything
 * that holds data was touched. compare.ts applies the table; the checks are data, not scattered conditions.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import type { LayoutField } from './layout';
import {
  FSX_COPY,
  FSX_REPLACED,
  KEEP_OR_SECOND_SERVER,
  LEGACY_ATTACHMENTS_HOLD_VOLUMES,
  OPENZFS_COPY,
  SECOND_SERVER,
} from './objections';
import { ALLOWED, both, onFsx, onFsxLustre, onFsxOpenZfs, perBackend, refused, refusedUnless, type UpdatePolicy } from './policy';
import { SNAPSHOT_RETENTION } from './retention-rules';
import { GROW_ONLY } from './volume-rules';

/**
 * Image, key pair and placement group: a change replaces the EC2 instance. Instance store: its disks go
 * with it. EBS: the replacement instance takes the volumes and the network interface over from the old one
 * (storage-attach, at its first boot), and clients carry on at the same address; only volumes that
 * CloudFormation attaches (`legacyVolumeAttachments`) cannot follow: a new AWS::EC2::VolumeAttachment of a
 * volume the old instance holds fails (VolumeInUse).
 */
export const INSTANCE_REPLACEMENT: UpdatePolicy = perBackend({
  ebs: refusedUnless(
    'replaceable when the server attaches its own volumes',
    (_o, n) => n.volumeAttachment === 'server',
    () => LEGACY_ATTACHMENTS_HOLD_VOLUMES,
  ),
  'instance-store': refused('it replaces the instance, and every instance-store disk with it', KEEP_OR_SECOND_SERVER),
  'fsx-lustre': ALLOWED, // no instance: always ''
  'fsx-openzfs': ALLOWED, // no instance: always ''
});

/**
 * FSx for Lustre per-unit throughput: FSx changes it in place on persistent SSD file systems (FSx for Lustre guide,
 * "Managing throughput capacity": PERSISTENT_1 SSD 50/100/200, PERSISTENT_2 125/250/500/1000); an HDD file system's
 * cannot be changed, and SCRATCH_2 has none. LUSTRE-THROUGHPUT-IN-PLACE.
 */
export const FSX_THROUGHPUT: UpdatePolicy = onFsxLustre(refusedUnless(
  'in place on persistent SSD',
  // A new type is refused by the FileSystemType row; this one judges the throughput of the same type.
  (o, n) => o.fileSystemType !== n.fileSystemType || /^PERSISTENT_[12]\/SSD$/.test(n.fileSystemType),
  (o) => ({
    why: `FSx changes the throughput per unit of storage in place only on persistent SSD file systems (this one is ${o.fileSystemType || 'unknown'})`,
    safePath: `keep the old value, or ${FSX_COPY}`,
  }),
));

/** FSx for OpenZFS's largest SSD storage capacity, GiB (OPENZFS-STORAGE-RANGE; lib/sizing/fsx-openzfs.ts holds the same). */
const OPENZFS_MAX_GIB = 524_288;

/**
 * The least SSD storage capacity, GiB, FSx for OpenZFS grows `gib` to: "a minimum of 10 percent" more (in whole
 * numbers: `gib * 1.1` is 110.00000000000001 for 100), "up to the maximum allowed value of 512 TiB".
 */
export function openZfsLeastGrowth(gib: number): number {
  return Math.min(Math.ceil((gib * 11) / 10), OPENZFS_MAX_GIB);
}

/** An FSx for OpenZFS increase under 10 percent fails the update (UpdateFileSystem refuses it) after the guard passed. */
const OPENZFS_GROWTH_MIN: UpdatePolicy = refusedUnless(
  'grown by 10 percent or more',
  (o, n) => Number(n.storageCapacityGiB) <= Number(o.storageCapacityGiB) || Number(n.storageCapacityGiB) >= openZfsLeastGrowth(Number(o.storageCapacityGiB)),
  (o, n) => {
    const least = openZfsLeastGrowth(Number(o.storageCapacityGiB));
    return {
      why: `FSx for OpenZFS grows SSD storage by at least 10 percent of the current capacity at a time ("Each SSD storage ` +
        `capacity increase must be a minimum of 10 percent", FSx for OpenZFS User Guide); ${o.storageCapacityGiB} GiB to ` +
        `${n.storageCapacityGiB} GiB is less, and FSx would refuse the update`,
      safePath: `grow to ${least} GiB or more (capacityTiB ${(Math.ceil((least / 1024) * 100) / 100).toFixed(2)} or more), or keep ` +
        `${o.storageCapacityGiB} GiB; increases must also be 6 hours apart`,
    };
  },
);

/**
 * FSx storage capacity: FSx grows it in place (Lustre within its type's steps; OpenZFS SSD by at least 10 percent, at
 * least 6 hours after the last increase, FSx for OpenZFS guide, "Modifying provisioned SSD storage capacity and IOPS":
 * OPENZFS-GROWTH-MIN in docs/sources/fsx-rules.md); neither ever shrinks.
 */
export const FSX_CAPACITY: UpdatePolicy = onFsx({
  lustre: growOnly('FSx for Lustre', FSX_COPY),
  openZfs: both(growOnly('FSx for OpenZFS', OPENZFS_COPY), OPENZFS_GROWTH_MIN),
});

/** LUSTRE-NO-SHRINK, OPENZFS-NO-SHRINK: storage grows, never shrinks. */
function growOnly(service: string, copy: string): UpdatePolicy {
  return refusedUnless(
    'grow only',
    (o, n) => Number(n.storageCapacityGiB) >= Number(o.storageCapacityGiB),
    () => ({
      why: `${service} cannot shrink a file system's storage capacity`,
      safePath: `keep capacityTiB at least its old value; to shrink, ${copy}`,
    }),
  );
}

/**
 * FSx for OpenZFS throughput capacity: FSx changes it in place (UpdateFileSystem; the FSx for OpenZFS guide,
 * "Managing throughput capacity": a Single-AZ non-HA file system is unavailable for a few minutes, an HA one fails
 * over and back). The resource specification updates `OpenZFSConfiguration.ThroughputCapacity` without replacement.
 * Not in the deploy that changes the storage or the provisioned SSD IOPS: FSx takes no throughput update while either
 * runs (OPENZFS-ONE-UPDATE, OPENZFS-IOPS-WITH-THROUGHPUT in docs/sources/fsx-rules.md).
 */
export const OPENZFS_THROUGHPUT: UpdatePolicy = onFsxOpenZfs(both(
  refusedUnless(
    'in place (FSx UpdateFileSystem ThroughputCapacity), not with a storage change',
    (o, n) => o.storageCapacityGiB === n.storageCapacityGiB,
    (o, n) => ({
      why: 'FSx for OpenZFS takes no throughput capacity update while an SSD storage capacity update is under way ("you ' +
        "can't request a throughput capacity update if there is an ongoing SSD storage capacity or provisioned SSD IOPS " +
        'update", FSx for OpenZFS User Guide: OPENZFS-ONE-UPDATE in docs/sources/fsx-rules.md), and this deploy asks for both',
      safePath: `change one at a time: first capacityTiB with fsxOpenZfs.throughputCapacityMBps: ${o.throughputCapacity} ` +
        `(-c openZfsThroughputCapacityMBps=${o.throughputCapacity}), then, ${AFTER_UPDATE}, throughput capacity ${n.throughputCapacity} MB/s`,
    }),
  ),
  refusedUnless(
    'not with a provisioned SSD IOPS change',
    // '' is a layout recorded before the field: its IOPS are not known, and the deploy is judged as before.
    (o, n) => o.diskIops === n.diskIops || o.diskIops === '' || n.diskIops === '' || o.storageCapacityGiB !== n.storageCapacityGiB,
    (o, n) => ({
      why: `FSx for OpenZFS takes no throughput capacity update while a provisioned SSD IOPS update is under way ("You must ` +
        'wait until the SSD storage capacity or provisioned SSD IOPS update has completed before requesting a throughput ' +
        `capacity update", FSx for OpenZFS User Guide: OPENZFS-IOPS-WITH-THROUGHPUT in docs/sources/fsx-rules.md), and this ` +
        `deploy changes both: throughput capacity ${o.throughputCapacity} to ${n.throughputCapacity} MB/s, SSD IOPS ` +
        `${o.diskIops} to ${n.diskIops} (the plan provisions the tier's IOPS)`,
      safePath: `change one at a time: first the throughput capacity with the old IOPS, fsxOpenZfs.provisionedIops: ` +
        `${iopsOption(o.diskIops)} (-c openZfsProvisionedIops=${iopsOption(o.diskIops)}), then, ${AFTER_UPDATE}, the IOPS ` +
        `${n.diskIops} (fsxOpenZfs.provisionedIops removed, or set to ${iopsOption(n.diskIops)})`,
    }),
  ),
));

/** When the second of two updates may be asked for: AWS's wait, in a safe path's words. */
const AFTER_UPDATE = 'once FSx reports the first update done (aws fsx describe-file-systems: no AdministrativeActions ' +
  'IN_PROGRESS or PENDING) and, on MULTI_AZ_1, six hours after it was asked';

/** A layout's SSD IOPS as `fsxOpenZfs.provisionedIops` takes them: 0 for AUTOMATIC. */
function iopsOption(diskIops: string): string {
  return diskIops === 'AUTOMATIC' ? '0' : diskIops;
}

/**
 * FSx for OpenZFS SSD IOPS: FSx changes them in place (the resource specification updates
 * `OpenZFSConfiguration.DiskIopsConfiguration` without replacement), with a storage change too ([STORAGE]); with a
 * throughput change the ThroughputCapacity row refuses.
 */
const OPENZFS_IOPS: UpdatePolicy = { name: 'in place (FSx UpdateFileSystem DiskIopsConfiguration)', objections: () => [] };

/**
 * FSx for Lustre PERSISTENT_2 Metadata IOPS (LUSTRE-METADATA): FSx raises them in place (the resource specification
 * updates `LustreConfiguration.MetadataConfiguration` without replacement), only on a file system created with a
 * metadata configuration, and never lowers them: a configuration added later, a lower number, or the configuration
 * taken out would fail after the guard. `''` is a file system without one: this project set none before the option.
 * To AUTOMATIC FSx accepts while the number is no more than its automatic default for the storage, which AWS gives in
 * no table read here: passed, FSx judges it.
 */
const LUSTRE_METADATA: UpdatePolicy = onFsxLustre(both(
  refusedUnless(
    'only on a file system created with a metadata configuration',
    (o, n) => o.metadataIops !== '' || n.metadataIops === '',
    (_o, n) => ({
      why: 'FSx for Lustre changes Metadata IOPS only on a file system created with a metadata configuration ("You can ' +
        'increase metadata performance only on FSx for Lustre file systems created with the Persistent_2 deployment type ' +
        'and a metadata configuration specified", FSx for Lustre User Guide: LUSTRE-METADATA in docs/sources/fsx-rules.md), ' +
        `and this one was created without: this deploy asks for ${n.metadataIops}`,
      safePath: `leave fsxLustre.metadataIops out for this file system (-c fsxMetadataIops unset); for metadata IOPS, deploy a second server with another serverName and fsxMetadataIops set (a new file system, made with one), copy the data, then remove the first`,
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
));

/**
 * FSx for OpenZFS MULTI_AZ_1 standby subnet: in `SubnetIds`, which replaces the file system. A new deployment type
 * (to or from MULTI_AZ_1) is refused by the FileSystemType row; this one judges the subnet of the same type.
 */
const OPENZFS_STANDBY_SUBNET: UpdatePolicy = onFsxOpenZfs(refusedUnless(
  'same subnets',
  (o, n) => o.fileSystemType !== n.fileSystemType,
  () => ({ why: `a new standby subnet (SubnetIds): ${FSX_REPLACED}`, safePath: `keep the old subnet, or ${OPENZFS_COPY}` }),
));

/**
 * A new KMS key on EBS. EBS cannot re-encrypt a volume in place, and CloudFormation does not create a volume again
 * for one (the resource specification updates an AWS::EC2::Volume's KmsKeyId without replacement): the data would stay
 * under the old key while the stack names the new one. A volume created from a snapshot takes the key it is given.
 */
const EBS_KEY = refused(
  'EBS cannot re-encrypt a volume in place, and CloudFormation does not create the volumes again for a new key: the ' +
    'data would stay under the old key',
  'keep the old key, or snapshot the volumes, deploy a second server with another serverName from the ' +
    'snapshots under the new key (EBS re-encrypts on restore), then remove the first',
);
/**
 * A new KMS key on instance store: it encrypts the instance's root volume (its BlockDeviceMappings), whose change
 * replaces the instance or stops and starts it; the instance-store disks go with either. No snapshot holds their data.
 */
const INSTANCE_STORE_KEY = refused(
  "a new key changes the instance's root volume (BlockDeviceMappings), which replaces the instance or stops and " +
    'starts it, and every instance-store disk goes with it',
  `keep the old key, or ${SECOND_SERVER}`,
);
const FSX_KEY = refused(`a new key (KmsKeyId): ${FSX_REPLACED}`, `keep the old key, or ${FSX_COPY}`);
const OPENZFS_KEY = refused(`a new key (KmsKeyId): ${FSX_REPLACED}`, `keep the old key, or ${OPENZFS_COPY}`);
const EC2_ZONE = refused(
  'EBS volumes live in one Availability Zone, and the instance store dies with its host',
  'keep the old subnet, or deploy a second server with another serverName in the new subnet (EBS: ' +
    'from snapshots of the volumes; instance store: copy the data), then remove the first',
);

/**
 * The snapshots the data volumes were created from (`restoreSnapshotIds`, `dataVolumeSnapshotIds`). EBS reads a
 * snapshot only when it creates a volume (CreateVolume; ModifyVolume changes size, type, IOPS and throughput, never
 * the snapshot), and CloudFormation does not create an existing AWS::EC2::Volume again for another SnapshotId: the
 * resource specification updates SnapshotId without replacement (replacement-rules.ts lists it under `updates`). So
 * the ids matter once. Dropping them after the restore leaves the volumes as they are: allowed, so that they need not
 * be carried on every later deploy. Other ids for volumes that exist (ids added to a server deployed blank, or another
 * set) would restore nothing while the deploy looks like a restore: refused, and said so.
 */
const RESTORE_SNAPSHOTS: UpdatePolicy = refusedUnless(
  'read when the volumes are created: dropped after a restore, allowed; other ids, refused',
  (_o, n) => n.snapshotIds.length === 0,
  (o) => ({
    why: `${o.snapshotIds.length > 0 ? 'the volumes were created from the old snapshots and exist: ' : 'the volumes exist: '}` +
      'CloudFormation does not create a volume again for another SnapshotId, and EBS reads a snapshot only when it ' +
      'creates a volume, so nothing would be restored and the volumes would keep the data they hold',
    safePath: `${o.snapshotIds.length > 0 ? 'keep the old snapshot ids, or leave' : 'leave'} restoreSnapshotIds ` +
      '(dataVolumeSnapshotIds) out; to restore a snapshot set, deploy a second server with another serverName from ' +
      'those snapshots (README, "Restoring from a snapshot set"), then remove the first',
  }),
);

/**
 * The volume attachment's upgrade path on EBS: `stack` -> `retained` -> `server`, each step one deploy. Skipping
 * `retained` would detach the volumes from the running server; going back cannot attach what is attached.
 */
const VOLUME_ATTACHMENT_STEPS: UpdatePolicy = {
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
};

/**
 * The update policy of every layout field: the one table to read or edit. `AcceptDataLoss` is not part of
 * the layout: changing it is always allowed.
 */
export const UPDATE_POLICIES: { readonly [F in LayoutField]: UpdatePolicy } = {
  // With backend auto the planner chooses on every synth: a new version's catalogue (FSx for OpenZFS weighed when a
  // throughput is asked) or a new throughputMBps can choose another backend for the same capacity.
  backend: {
    name: 'refused',
    objections: (o) => [{
      why: 'the data cannot move between backends in place',
      safePath: `keep backend '${o.backend}' (-c backend=${o.backend}, prop backend: with backend auto the planner ` +
        `chooses again on every synth, and a new catalogue or throughputMBps can choose another), or ${SECOND_SERVER}`,
    }],
  },
  instanceStoreType: perBackend({
    ebs: ALLOWED, // always '' on EBS: an EBS server's instance type is a stop/start the data survives
    'instance-store': refused(
      'a type change is a stop/start: every instance-store byte is lost',
      `keep the old instance type, or ${SECOND_SERVER}`,
    ),
    'fsx-lustre': ALLOWED, // always ''
    'fsx-openzfs': ALLOWED, // always ''
  }),
  dataVolumes: perBackend({ ebs: GROW_ONLY, 'instance-store': ALLOWED, 'fsx-lustre': ALLOWED, 'fsx-openzfs': ALLOWED }),
  snapshotIds: perBackend({
    ebs: RESTORE_SNAPSHOTS,
    'instance-store': ALLOWED, // always []: synth takes snapshot ids on the ebs backend only (no data volumes elsewhere)
    'fsx-lustre': ALLOWED, // always []
    'fsx-openzfs': ALLOWED, // always []
  }),
  encryptionKey: perBackend({ ebs: EBS_KEY, 'instance-store': INSTANCE_STORE_KEY, 'fsx-lustre': FSX_KEY, 'fsx-openzfs': OPENZFS_KEY }),
  // On FSx a new zone is a new subnet, which the SubnetId row refuses.
  availabilityZone: perBackend({ ebs: EC2_ZONE, 'instance-store': EC2_ZONE, 'fsx-lustre': ALLOWED, 'fsx-openzfs': ALLOWED }),
  imageId: INSTANCE_REPLACEMENT,
  keyPair: INSTANCE_REPLACEMENT,
  placementGroup: INSTANCE_REPLACEMENT,
  volumeAttachment: perBackend({
    ebs: VOLUME_ATTACHMENT_STEPS,
    'instance-store': ALLOWED, // no data volumes
    'fsx-lustre': ALLOWED, // no data volumes
    'fsx-openzfs': ALLOWED, // no data volumes
  }),
  fileSystemType: onFsx({
    lustre: refused(`a new deployment or storage type: ${FSX_REPLACED}`, `keep the old type, or ${FSX_COPY}`),
    openZfs: refused(
      `a new deployment type (OpenZFSConfiguration.DeploymentType): ${FSX_REPLACED}`,
      `keep the old type, or ${OPENZFS_COPY}`,
    ),
  }),
  perUnitStorageThroughput: FSX_THROUGHPUT,
  storageCapacityGiB: FSX_CAPACITY,
  // On EBS and instance store the AvailabilityZone row guards the subnet.
  subnetId: onFsx({
    lustre: refused(`a new subnet (SubnetIds): ${FSX_REPLACED}`, `keep the old subnet, or ${FSX_COPY}`),
    openZfs: refused(
      `a new subnet (SubnetIds; MULTI_AZ_1: OpenZFSConfiguration.PreferredSubnetId): ${FSX_REPLACED}`,
      `keep the old subnet, or ${OPENZFS_COPY}`,
    ),
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
    'fsx-openzfs': ALLOWED, // always ''
  }),
  throughputCapacity: OPENZFS_THROUGHPUT,
  standbySubnetId: OPENZFS_STANDBY_SUBNET,
  diskIops: OPENZFS_IOPS,
  metadataIops: LUSTRE_METADATA,
  snapshotRetain: SNAPSHOT_RETENTION,
};
