/**
 * What the update guard says where two of its policies say the same: the safe paths and reasons that the layout's
 * policy table (policies.ts, volume-rules.ts) and the watched resources' policy (watched.ts) share, worded once.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import type { Objection } from './policy';

/** The safe path of every change that would lose data on a server: a second server, and a copy. */
export const SECOND_SERVER = 'deploy a second server with another serverName, copy the data, then remove the first';
/** {@link SECOND_SERVER}, after keeping the old value. */
export const KEEP_OR_SECOND_SERVER = `keep the old value, or ${SECOND_SERVER}`;

/** Why a change that replaces an FSx file system (Lustre, OpenZFS) is refused. */
export const FSX_REPLACED = 'CloudFormation replaces the file system, and every byte on it goes with the old one';
/** The safe path on FSx for Lustre: a second server makes a new file system. */
export const FSX_COPY = 'deploy a second server with another serverName (a new file system), copy the data, then remove the first';
/**
 * The safe path on FSx for OpenZFS: a second server makes a new file system, which takes the data by a copy over
 * NFS, or from one of the automatic backups FSx keeps of this one (`snapshots.retain` days), restored into a new file
 * system (FSx for OpenZFS User Guide, "Working with backups": each backup holds all that is needed to create a new
 * file system from it; FSx API, CreateFileSystemFromBackup).
 */
export const OPENZFS_COPY = 'deploy a second server with another serverName (a new file system), copy the data into it, or ' +
  'restore a backup of this file system into a new one, then remove the first';

/**
 * An EBS server's instance replaced while CloudFormation attaches the data volumes (`legacyVolumeAttachments`): a
 * new AWS::EC2::VolumeAttachment of a volume the old instance holds fails (VolumeInUse).
 */
export const LEGACY_ATTACHMENTS_HOLD_VOLUMES: Objection = {
  why: 'it replaces the instance, and CloudFormation attaches the data volumes (legacyVolumeAttachments): ' +
    'it would attach them to the new instance while the old one holds them (VolumeInUse) and roll back',
  safePath: 'first deploy once without legacyVolumeAttachments (the server then attaches its own volumes), ' +
    'then make this change',
};
