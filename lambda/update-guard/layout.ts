/**
 * The storage layout the update guard holds (docs/design.md#8-the-update-guard-contract): everything about a server
 * whose change can lose data or strand it, as types, and the values of the fields every backend shares. The values of a
 * backend's own fields are in its descriptor in backends/. Every other file of the guard shares these types, so this
 * file sits below all of them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { Backend } from '../register/backend';

/** The EBS type of a data volume: Throughput Optimized HDD or General Purpose SSD. */
export type DataVolumeType = 'st1' | 'gp3';

/**
 * Who attaches the EBS data volumes to the instance:
 * - `stack`: an AWS::EC2::VolumeAttachment per volume, as on servers deployed without the stable address. A guard's
 *   properties without `VolumeAttachment` mean this.
 * - `retained`: those attachments kept with DeletionPolicy Retain, the first step of the upgrade.
 * - `server`: the server attaches them itself, in lib/scripts/storage-attach.sh.
 */
export const VOLUME_ATTACHMENTS = ['stack', 'retained', 'server'] as const;
/** A value of {@link VOLUME_ATTACHMENTS}. */
export type VolumeAttachment = (typeof VOLUME_ATTACHMENTS)[number];

/** One EBS data volume of the layout. */
export interface DataVolumeLayout {
  /** The volume's own number: `DataVolume<index>` in the stack and its stripe-member tag. Never reused. */
  readonly index: number;
  /** Size in whole GiB. */
  readonly sizeGiB: number;
  /**
   * EBS volume type: see volume-types.ts.
   * @default 'st1' - the type of every volume recorded without one
   */
  readonly volumeType?: DataVolumeType;
  /**
   * gp3 only: provisioned IOPS.
   * @default - none, as on st1
   */
  readonly iops?: number;
  /**
   * gp3 only: provisioned throughput, MiB/s.
   * @default - none, as on st1
   */
  readonly throughputMiBps?: number;
}

/**
 * Everything about a server whose change can lose data or strand it. Strings stay strings so CloudFormation passes them
 * unchanged. Any of them may be a token at synth time, resolved before the handler sees it.
 */
export interface StorageLayout {
  /** Where the data lives. */
  readonly backend: Backend;
  /** The instance type when the backend is `instance-store`, whose disks are the data; `''` for EBS. */
  readonly instanceStoreType: string;
  /** The EBS data volumes in stripe order; empty for instance store. */
  readonly dataVolumes: DataVolumeLayout[];
  /** The snapshots the data volumes were created from, in stripe order; empty when they started blank. */
  readonly snapshotIds: string[];
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
  /**
   * FSx: the deployment and storage type, e.g. `PERSISTENT_2/SSD` on Lustre or `SINGLE_AZ_2/SSD` on OpenZFS; `''` on
   * the EC2 backends.
   */
  readonly fileSystemType: string;
  /** FSx for Lustre: MB/s per TiB; `''` for SCRATCH_2, which has none, and on the other backends. */
  readonly perUnitStorageThroughput: string;
  /** FSx: the storage capacity, whole GiB; `''` on the EC2 backends. */
  readonly storageCapacityGiB: string;
  /**
   * FSx: the file system's subnet, and on OpenZFS MULTI_AZ_1 the preferred file server's; a new one replaces the file
   * system. `''` on the EC2 backends.
   */
  readonly subnetId: string;
  /**
   * Instance store: `luks2` when the bootstrap encrypts the array with dm-crypt, `''` when it does not and on the other
   * backends. An array keeps the layout it was made with.
   */
  readonly instanceStoreEncryption: string;
  /**
   * FSx for OpenZFS: the throughput capacity in whole MB/s, which FSx changes in place. `''` on the other backends and
   * in a layout recorded before the field.
   */
  readonly throughputCapacity: string;
  /**
   * FSx for OpenZFS MULTI_AZ_1: the standby file server's subnet; a new one replaces the file system. `''` on the other
   * deployment types, the other backends and in a layout recorded before the field.
   */
  readonly standbySubnetId: string;
  /**
   * FSx for OpenZFS: the SSD IOPS, `AUTOMATIC` or the provisioned number. FSx changes them in place, but takes no
   * throughput update while they change. `''` on the other backends and in a layout recorded before the field.
   */
  readonly diskIops: string;
  /**
   * FSx for Lustre PERSISTENT_2: the Metadata IOPS, `AUTOMATIC` or the provisioned number, raised in place and never
   * lowered. `''` without a metadata configuration, on the other backends and in a layout recorded before the field.
   */
  readonly metadataIops: string;
  /**
   * How many scheduled snapshots are kept, as a whole number. On EBS it is the DLM policy's snapshot sets, `0` for no
   * policy; on FSx the automatic backups' retention in days, `0` for off. `''` on instance store and in a layout
   * recorded before the field. A lower value deletes the older sets or backups: see retention-rules.ts.
   */
  readonly snapshotRetain: string;
}

/** A field of {@link StorageLayout}. */
export type LayoutField = keyof StorageLayout;

/**
 * The narrower opt-ins, each a ResourceProperties key outside the layout and its hash, present only when `'true'`. Each
 * lets the refusals of one policy pass, and an objection names it in `waivedBy`; `AcceptDataLoss` lets every one pass.
 */
export const WAIVERS = ['AcceptFewerSnapshots'] as const;
/** One of {@link WAIVERS}. */
export type Waiver = (typeof WAIVERS)[number];

/** Validated ResourceProperties: the layout and the opt-ins. */
export interface GuardProperties {
  /** The layout. */
  readonly layout: StorageLayout;
  /** Whether refused changes pass anyway, for scratch data only. */
  readonly acceptDataLoss: boolean;
  /** The narrower opt-ins this deploy gives. */
  readonly waivers: readonly Waiver[];
}
