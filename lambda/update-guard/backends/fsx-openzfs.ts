/**
 * The update guard's descriptor of the fsx-openzfs backend: an FSx for OpenZFS file system, managed NFS. Its own fields
 * are the deployment type, the storage, the subnets, the throughput capacity, the SSD IOPS and the backups' retention.
 * MULTI_AZ_1 has two subnets, the preferred and the standby. What the resource specification says replaces the file
 * system is refused with the OpenZFS safe path: deployment type, subnets and key. What FSx changes in place passes
 * within FSx's own rules: storage growth, throughput capacity and IOPS.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { BackendGuard, Checks } from '../backend-guard';
import type { StorageLayout } from '../layout';
import { COPY_TOOL, FSX_REPLACED } from '../objections';
import { both, refused, refusedUnless, type UpdatePolicy } from '../policy';
import {
  AWS_MANAGED_FSX_KEY, STORAGE_INTERVAL, WHOLE, checkStorageAndSubnet, fewerBackups, fsxPin, growOnly, isSubnetId,
} from './fsx';

/**
 * The FSx for OpenZFS deployment types, per CreateFileSystemOpenZFSConfiguration in the Amazon FSx API Reference. This
 * Lambda-side file cannot import the planner's list in lib/backends/openzfs/sizing/options.ts, so a test holds the two
 * equal. `MULTI_AZ_1` is the one with a standby file server in a second subnet.
 */
export const OPENZFS_DEPLOYMENT_TYPES = ['SINGLE_AZ_1', 'SINGLE_AZ_2', 'SINGLE_AZ_HA_1', 'SINGLE_AZ_HA_2', 'MULTI_AZ_1'] as const;
/** The storage type of every FSx for OpenZFS file system this project makes: its `FileSystemType` suffix. */
export const OPENZFS_STORAGE_TYPE = 'SSD';
const OPENZFS_TYPE = new RegExp(`^(${OPENZFS_DEPLOYMENT_TYPES.join('|')})/${OPENZFS_STORAGE_TYPE}$`);

/**
 * The safe path: a second server makes a new file system, which takes the data by a copy over NFS. Or a new file system
 * is restored from one of the automatic backups FSx keeps of this one for `snapshots.retain` days. The FSx for OpenZFS
 * User Guide, "Working with backups", says each backup holds all that is needed to create a new file system from it;
 * the FSx API has CreateFileSystemFromBackup.
 */
const OPENZFS_COPY = 'deploy a second server with another serverName and mountPoint (a new file system) and copy the data ' +
  `into it (${COPY_TOOL}), or restore a backup of this file system into a new one, then remove the first (npm run copy ` +
  'with --switch prints how)';

/**
 * The largest SSD storage capacity, GiB: OPENZFS-STORAGE-RANGE. lib/backends/openzfs/sizing/options.ts holds the same.
 */
const OPENZFS_MAX_GIB = 524_288;

/**
 * The least SSD storage capacity, GiB, that FSx for OpenZFS grows `gib` to: "a minimum of 10 percent" more, "up to the
 * maximum allowed value of 512 TiB". It counts in whole numbers, since `gib * 1.1` is 110.00000000000001 for 100.
 */
export function openZfsLeastGrowth(gib: number): number {
  return Math.min(Math.ceil((gib * 11) / 10), OPENZFS_MAX_GIB);
}

/**
 * An increase under 10 percent passes the guard and then fails the update, since UpdateFileSystem refuses it:
 * OPENZFS-GROWTH-MIN.
 */
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

/** When the second of two updates may be asked for: AWS's wait, in a safe path's words. */
const AFTER_UPDATE = 'once FSx reports the first update done (aws fsx describe-file-systems: no AdministrativeActions ' +
  'IN_PROGRESS or PENDING) and, on MULTI_AZ_1, six hours after it was asked';

/** A layout's SSD IOPS as `fsxOpenZfs.provisionedIops` takes them: 0 for AUTOMATIC. */
function iopsOption(diskIops: string): string {
  return diskIops === 'AUTOMATIC' ? '0' : diskIops;
}

/**
 * Throughput capacity: FSx changes it in place with UpdateFileSystem. Per the FSx for OpenZFS guide, "Managing
 * throughput capacity", a Single-AZ non-HA file system is unavailable for a few minutes, and an HA one fails over and
 * back. The resource specification updates `OpenZFSConfiguration.ThroughputCapacity` without replacement. It may not
 * change in the deploy that changes the storage or the provisioned SSD IOPS, since FSx takes no throughput update while
 * either runs: OPENZFS-ONE-UPDATE and OPENZFS-IOPS-WITH-THROUGHPUT in docs/sources/fsx-rules.md.
 */
const OPENZFS_THROUGHPUT: UpdatePolicy = both(
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
);

/**
 * SSD IOPS: FSx changes them in place, since the resource specification updates
 * `OpenZFSConfiguration.DiskIopsConfiguration` without replacement. A storage change may come with them, as [STORAGE]
 * says; with a throughput change, the ThroughputCapacity row refuses.
 */
const OPENZFS_IOPS: UpdatePolicy = { name: 'in place (FSx UpdateFileSystem DiskIopsConfiguration)', objections: () => [] };

/**
 * MULTI_AZ_1 standby subnet: it is in `SubnetIds`, which replaces the file system. The FileSystemType row refuses a new
 * deployment type, to or from MULTI_AZ_1; this row judges the subnet of the same type.
 */
const OPENZFS_STANDBY_SUBNET: UpdatePolicy = refusedUnless(
  'same subnets',
  (o, n) => o.fileSystemType !== n.fileSystemType,
  () => ({ why: `a new standby subnet (SubnetIds): ${FSX_REPLACED}`, safePath: `keep the old subnet, or ${OPENZFS_COPY}` }),
);

/** The type, storage, subnet, throughput capacity and IOPS; a standby subnet on MULTI_AZ_1 only, not the preferred one. */
function validateOpenZfs(layout: StorageLayout, checks: Checks): void {
  const { isUnresolved, check } = checks;
  const type = layout.fileSystemType;
  check('fileSystemType', type, OPENZFS_TYPE.test(type),
    `must be an FSx for OpenZFS deployment type and storage type such as 'SINGLE_AZ_2/${OPENZFS_STORAGE_TYPE}' on the ` +
    `fsx-openzfs backend (deployment types ${OPENZFS_DEPLOYMENT_TYPES.join(', ')}; storage type ${OPENZFS_STORAGE_TYPE})`);
  checkStorageAndSubnet(layout, checks);
  check('throughputCapacity', layout.throughputCapacity, WHOLE.test(layout.throughputCapacity),
    'must be a whole number of MB/s on the fsx-openzfs backend');
  // '' in a layout recorded before the field.
  check('diskIops', layout.diskIops, layout.diskIops === '' || layout.diskIops === 'AUTOMATIC' || WHOLE.test(layout.diskIops),
    "must be '', 'AUTOMATIC' or a whole number of SSD IOPS on the fsx-openzfs backend");
  if (isUnresolved(type)) return;
  const standby = layout.standbySubnetId;
  if (type.startsWith('MULTI_AZ_1/')) {
    check('standbySubnetId', standby, isSubnetId(standby) && standby !== layout.subnetId,
      "must be the standby file server's subnet id on MULTI_AZ_1, not subnetId's");
  } else {
    check('standbySubnetId', standby, standby === '', "must be '' unless the deployment type is MULTI_AZ_1");
  }
}

/** The fsx-openzfs backend. */
export const FSX_OPENZFS_GUARD: BackendGuard = {
  fields: ['fileSystemType', 'storageCapacityGiB', 'subnetId', 'throughputCapacity', 'standbySubnetId', 'diskIops', 'snapshotRetain'],
  validate: validateOpenZfs,
  managedKey: AWS_MANAGED_FSX_KEY,
  policies: {
    encryptionKey: refused(`a new key (KmsKeyId): ${FSX_REPLACED}`, `keep the old key, or ${OPENZFS_COPY}`),
    fileSystemType: refused(
      `a new deployment type (OpenZFSConfiguration.DeploymentType): ${FSX_REPLACED}`,
      `keep the old type, or ${OPENZFS_COPY}`,
    ),
    // Grow only, by 10 percent or more, per the FSx for OpenZFS guide, "Modifying provisioned SSD storage capacity and
    // IOPS". `intervals` holds increases 6 hours apart.
    storageCapacityGiB: both(growOnly('FSx for OpenZFS', OPENZFS_COPY), OPENZFS_GROWTH_MIN),
    subnetId: refused(
      `a new subnet (SubnetIds; MULTI_AZ_1: OpenZFSConfiguration.PreferredSubnetId): ${FSX_REPLACED}`,
      `keep the old subnet, or ${OPENZFS_COPY}`,
    ),
    throughputCapacity: OPENZFS_THROUGHPUT,
    standbySubnetId: OPENZFS_STANDBY_SUBNET,
    diskIops: OPENZFS_IOPS,
    snapshotRetain: fewerBackups('FSx for OpenZFS'),
  },
  replaced: {
    'AWS::FSx::FileSystem': () => ({ why: FSX_REPLACED, safePath: `keep the old value, or ${OPENZFS_COPY}` }),
  },
  causes: {
    'OpenZFSConfiguration.DeploymentType': 'openZfsDeploymentType',
    'OpenZFSConfiguration.PreferredSubnetId': 'subnetId, vpcId or a rebuilt VPC',
    // The template's export of the root volume is the VPC's CIDR only. UpdateVolume, in
    // lib/backends/openzfs/export-resource.ts, applies the clients and root squash, so they change nothing here.
    'OpenZFSConfiguration.RootVolumeConfiguration.NfsExports': "vpcId, vpcFrom or a rebuilt VPC (the VPC's CIDR)",
  },
  shownBy: { fileSystemType: 'OPENZFS' },
  pin: fsxPin,
  intervals: [STORAGE_INTERVAL],
  sources: {
    storageInterval: '"You can\'t make further SSD storage capacity increases on a file system until 6 hours after the last ' +
      'increase was requested": OPENZFS-GROWTH-INTERVAL in docs/sources/fsx-rules.md',
  },
};
