import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { FsxLustreOptions } from '../sizing';

// The backend's public option group (the facade's `fsxLustre`); what it is built from is BackendInputs (./plugin.ts).

/** FSx for Lustre settings (backend `fsx-lustre`). */
export interface FsxLustreServerOptions extends FsxLustreOptions {
  /**
   * Link the file system to this S3 path (`s3://<bucket>[/<prefix>]`): its objects appear as files, and new or
   * changed files are exported back (PERSISTENT_2: a data repository association on `/`; the older types: import
   * and export path). FSx reads and writes the bucket with its service-linked role.
   * @default - no data repository
   */
  readonly dataRepositoryPath?: string;
  /**
   * Root squash: root on a client works on the file system as uid and gid 65534 (nobody), so it cannot read or
   * change other users' files; `false` leaves root as root on every client (FSx's own default). Set through the
   * FSx API by a custom resource (CloudFormation has no such property) once the file system exists.
   * @default true
   */
  readonly rootSquash?: boolean;
  /**
   * Clients whose root stays root while root squash is on (an admin node), as Lustre NIDs: `10.0.1.6@tcp`, or a
   * range such as `10.0.[2-10].[1-255]@tcp`; at most 64. NIDs that together exempt every client CIDR (or, when the
   * CIDRs are not known at synth, every address) are refused: that is `rootSquash: false`, said openly.
   * @default - none: root is squashed on every client
   */
  readonly noSquashNids?: string[];
  /**
   * Data compression on the file servers: `fsx.LustreDataCompressionType.LZ4` compresses what clients write (AWS: LZ4
   * "is optimized to deliver high levels of compression without adversely impacting file system performance", FSx
   * for Lustre guide, "Lustre data compression"), so the same storage holds more; NONE turns it off. A live change
   * (no replacement): turned on for an existing file system, only files written from then on are compressed.
   * @default - NONE, FSx's own default
   */
  readonly dataCompressionType?: fsx.LustreDataCompressionType;
  /**
   * The Lustre version, `fsx.FileSystemTypeVersion.V_2_15` for a new file system as AWS recommends ("2.15 is supported by
   * all Lustre deployment types and is recommended for all new file systems", FSx API reference, CreateFileSystem);
   * 2.10 only on PERSISTENT_1 and SCRATCH_2. Chosen at creation: CloudFormation replaces the file system for another
   * version, so the update guard refuses a change (LUSTRE-VERSION).
   * @default - FSx's default: 2.10, or 2.12 on PERSISTENT_2 (unset, so that a deployed file system is not replaced)
   */
  readonly fileSystemTypeVersion?: fsx.FileSystemTypeVersion;
  /**
   * PERSISTENT_2 (SSD) metadata performance: the Metadata IOPS to provision (USER_PROVISIONED), one of 1500, 3000, 6000,
   * 12000 or a multiple of 12000 up to 192000, or 0 for AUTOMATIC (FSx scales them with the storage). Raised in place;
   * FSx never lowers them ("downscaling Metadata IOPS is not supported"), so the update guard refuses a lower value
   * (LUSTRE-METADATA). aws-cdk-lib's LustreFileSystem has no such prop: set on its CfnFileSystem.
   * @default - no metadata configuration (FSx's default for the version)
   */
  readonly metadataIops?: number;
}
