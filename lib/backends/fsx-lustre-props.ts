import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { FsxLustreOptions } from './fsx/sizing/lustre';

// The backend's public option group, the facade's `fsxLustre`; BackendInputs in ./plugin.ts is what it is built from.

/** FSx for Lustre settings, for backend `fsx-lustre`. */
export interface FsxLustreServerOptions extends FsxLustreOptions {
  /**
   * Link the file system to this S3 path, `s3://<bucket>[/<prefix>]`: its objects appear as files, and new or changed
   * files are exported back. On PERSISTENT_2 this is a data repository association on `/`; the older types take an
   * import and export path. FSx reads and writes the bucket with its service-linked role.
   * @default - no data repository
   */
  readonly dataRepositoryPath?: string;
  /**
   * Root squash: root on a client works on the file system as uid and gid 65534, nobody, so it cannot read or change
   * other users' files. `false` leaves root as root on every client, FSx's own default. CloudFormation has no such
   * property, so a custom resource sets it through the FSx API once the file system exists.
   * @default true
   */
  readonly rootSquash?: boolean;
  /**
   * Clients whose root stays root while root squash is on, such as an admin node, as Lustre NIDs: `10.0.1.6@tcp`, or a
   * range such as `10.0.[2-10].[1-255]@tcp`; at most 64. NIDs that together exempt every client CIDR are refused, or
   * every address when the CIDRs are not known at synth: that is `rootSquash: false`, said openly.
   * @default - none: root is squashed on every client
   */
  readonly noSquashNids?: string[];
  /**
   * Data compression on the file servers. `fsx.LustreDataCompressionType.LZ4` compresses what clients write, so the
   * same storage holds more; per the FSx for Lustre guide's "Lustre data compression", LZ4 "is optimized to deliver
   * high levels of compression without adversely impacting file system performance". NONE turns it off. It is a live
   * change, with no replacement: turned on for an existing file system, only files written from then on are compressed.
   * @default - NONE, FSx's own default
   */
  readonly dataCompressionType?: fsx.LustreDataCompressionType;
  /**
   * The Lustre version. AWS recommends `fsx.FileSystemTypeVersion.V_2_15` for a new file system: "2.15 is supported by
   * all Lustre deployment types and is recommended for all new file systems", per CreateFileSystem in the FSx API
   * reference. 2.10 is only for PERSISTENT_1 and SCRATCH_2. It is chosen at creation: CloudFormation replaces the file
   * system for another version, so the update guard refuses a change, LUSTRE-VERSION.
   * @default - FSx's default, 2.10, or 2.12 on PERSISTENT_2; unset, so that a deployed file system is not replaced
   */
  readonly fileSystemTypeVersion?: fsx.FileSystemTypeVersion;
  /**
   * PERSISTENT_2 SSD metadata performance: the Metadata IOPS to provision as USER_PROVISIONED, one of 1500, 3000, 6000,
   * 12000 or a multiple of 12000 up to 192000, or 0 for AUTOMATIC, where FSx scales them with the storage. They are
   * raised in place. FSx never lowers them, "downscaling Metadata IOPS is not supported", so the update guard refuses a
   * lower value: LUSTRE-METADATA. aws-cdk-lib's LustreFileSystem has no such prop, so it is set on its CfnFileSystem.
   * @default - no metadata configuration, FSx's default for the version
   */
  readonly metadataIops?: number;
}
