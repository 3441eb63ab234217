/**
 * The update guard's descriptor of the ebs backend: an EC2 server whose data lives on striped EBS volumes that it
 * attaches itself. Its own fields are the data volumes and the DLM snapshot retention. Its rows of the policy table let
 * the instance be replaced, since the new one takes the volumes and the interface over, and let the volumes only grow.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { BackendGuard, Checks } from '../backend-guard';
import type { StorageLayout } from '../layout';
import { refused, refusedUnless, type Objection, type UpdatePolicy } from '../policy';
import { ACCEPT_FEWER_SNAPSHOTS, fewerRefused } from '../retention-rules';
import { GROW_ONLY } from '../volume-rules';
import { dataVolumeEntry, volumeTypeProblem } from '../volume-types';
import { AWS_MANAGED_EBS_KEY, EC2_ZONE, ec2Pin } from './ec2';

/**
 * The instance replaced while CloudFormation attaches the data volumes, as `legacyVolumeAttachments` has it: a new
 * AWS::EC2::VolumeAttachment of a volume the old instance holds fails with VolumeInUse.
 */
const LEGACY_ATTACHMENTS_HOLD_VOLUMES: Objection = {
  why: 'it replaces the instance, and CloudFormation attaches the data volumes (legacyVolumeAttachments): ' +
    'it would attach them to the new instance while the old one holds them (VolumeInUse) and roll back',
  safePath: 'first deploy once without legacyVolumeAttachments (the server then attaches its own volumes), ' +
    'then make this change',
};

/**
 * Image, key pair and placement group: a change replaces the EC2 instance. The replacement takes the volumes and the
 * network interface over from the old one at its first boot, in storage-attach, and clients carry on at the same
 * address. Only volumes that CloudFormation attaches, under `legacyVolumeAttachments`, cannot follow.
 */
const INSTANCE_REPLACEMENT: UpdatePolicy = refusedUnless(
  'replaceable when the server attaches its own volumes',
  (_o, n) => n.volumeAttachment === 'server',
  () => LEGACY_ATTACHMENTS_HOLD_VOLUMES,
);

/**
 * A new KMS key. EBS cannot re-encrypt a volume in place, and CloudFormation does not create a volume again for one:
 * the resource specification updates an AWS::EC2::Volume's KmsKeyId without replacement. The data would stay under the
 * old key while the stack names the new one. A volume created from a snapshot takes the key it is given.
 */
const EBS_KEY = refused(
  'EBS cannot re-encrypt a volume in place, and CloudFormation does not create the volumes again for a new key: the ' +
    'data would stay under the old key',
  'keep the old key, or snapshot the volumes, deploy a second server with another serverName from the ' +
    'snapshots under the new key (EBS re-encrypts on restore), then remove the first',
);

/**
 * The snapshots the data volumes were created from: `restoreSnapshotIds`, `dataVolumeSnapshotIds`. EBS reads a snapshot
 * only when CreateVolume creates a volume; ModifyVolume changes size, type, IOPS and throughput, never the snapshot.
 * CloudFormation does not create an existing AWS::EC2::Volume again for another SnapshotId either, since the resource
 * specification updates SnapshotId without replacement; replacement-rules.ts lists it under `updates`. So the ids
 * matter once. Dropping them after the restore leaves the volumes as they are, and is allowed so that they need not be
 * carried on every later deploy. Other ids for volumes that exist would restore nothing while the deploy looks like a
 * restore, so they are refused and the message says so. Such ids are ids added to a server deployed blank, or another
 * set.
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
 * The volume attachment's upgrade path: `stack` -> `retained` -> `server`, each step one deploy. Skipping `retained`
 * would detach the volumes from the running server; going back cannot attach what is attached.
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

/** DLM keeps the newest snapshot sets and deletes the older ones at its next run; `0` removes the policy, which deletes none. */
const FEWER_SNAPSHOT_SETS = fewerRefused((was, now, keep) => {
  // No policy, no deletion: the sets it made stay, unmanaged.
  if (now === 0) return undefined;
  const gone = was - now;
  return {
    why: `DLM keeps the ${now} newest snapshot sets of the data volumes and deletes the older ones at its next run: the ` +
      `${gone} oldest of the ${was} sets kept now would be deleted`,
    safePath: `${keep}, or, to let the ${gone} oldest sets go, deploy again with ${ACCEPT_FEWER_SNAPSHOTS}`,
    waivedBy: 'AcceptFewerSnapshots',
  };
});

/** The data volumes: each concrete, whole, of a consistent type, its index unique. */
function validateDataVolumes(layout: StorageLayout, { isUnresolved, fail }: Checks): void {
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

/** The ebs backend. */
export const EBS_GUARD: BackendGuard = {
  fields: ['dataVolumes', 'snapshotRetain'],
  validate: validateDataVolumes,
  managedKey: AWS_MANAGED_EBS_KEY,
  policies: {
    dataVolumes: GROW_ONLY,
    snapshotIds: RESTORE_SNAPSHOTS,
    encryptionKey: EBS_KEY,
    availabilityZone: EC2_ZONE,
    imageId: INSTANCE_REPLACEMENT,
    keyPair: INSTANCE_REPLACEMENT,
    placementGroup: INSTANCE_REPLACEMENT,
    volumeAttachment: VOLUME_ATTACHMENT_STEPS,
    snapshotRetain: FEWER_SNAPSHOT_SETS,
  },
  replaced: {
    // The new instance takes the volumes and the interface over, unless CloudFormation still attaches the volumes.
    'AWS::EC2::Instance': (layout) => (layout.volumeAttachment === 'server' ? undefined : LEGACY_ATTACHMENTS_HOLD_VOLUMES),
  },
  shownBy: { instanceStore: false },
  pin: ec2Pin,
  restore: (found) => (found.some((r) => r.kind === 'volume')
    ? 'restore the data into the new volumes with restoreSnapshotIds (context) or dataVolumeSnapshotIds (prop) from ' +
      'snapshots of those volumes (the ebs backend)'
    : undefined),
  intervals: [],
};
