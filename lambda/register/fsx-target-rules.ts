/**
 * What the registration knows of one FSx backend beyond what every FSx file system shares: the deployment its ring
 * record holds, its mount name, the path it exports, and how clients mount it. Each FSx backend's rules live in
 * backends/, and the registry in fsx-targets.ts holds one per FSx backend. validation.ts and the handler read the
 * registry alone and name no backend.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { FsType } from './records';

/** One FSx backend's registration rules. Each `rule` completes a message `<field> must be <rule>, got <value>`. */
export interface FsxTargetRules {
  /** The deployment the ring record's `instanceType` holds; the message adds `for <backend>` to the rule. */
  readonly deployment: { readonly grammar: RegExp; readonly rule: string };
  /** Its mount name, and whether `MountName` may be absent for it. */
  readonly mountName: { readonly optional: boolean; readonly valid: (mountName: string) => boolean; readonly rule: string };
  /** The path it exports, which may follow from the mount name. */
  readonly exportPath: {
    readonly valid: (exportPath: string, mountName: string) => boolean;
    readonly rule: (mountName: string) => string;
  };
  /** The file system type its mount config gives clients. */
  readonly fsType: FsType;
  /** How a file system of the backend that exists already is read and reached (`ExistingStorage`). */
  readonly existing: ExistingFsxRules;
}

/** The clients an existing file system must serve: CIDRs, and security groups whose members' addresses are unknown. */
export interface ExistingClientsOf {
  readonly cidrs: readonly string[];
  readonly groupIds: readonly string[];
}

/** A TCP port range, inclusive. */
export interface PortRange {
  readonly from: number;
  readonly to: number;
}

/** What existing/check.ts knows of an existing file system of one FSx backend. */
export interface ExistingFsxRules {
  /** The backend's `FileSystemType`, as FSx's DescribeFileSystems names it. */
  readonly fileSystemType: string;
  /** The TCP ports its network interfaces must admit the clients on: a cited row of docs/sources/fsx-rules.md. */
  readonly clientPorts: readonly PortRange[];
  /** Why a path the user gave (undefined: the default) is not one this backend mounts, or undefined. */
  readonly pathProblem: (path: string | undefined) => string | undefined;
  /**
   * Why the volume mounted does not serve the clients, from FSx's DescribeVolumes answer for the file system (read as
   * untrusted), or nothing; absent where the backend exports no volumes, and then nothing is asked.
   */
  readonly volumeProblems?: (volumes: readonly unknown[], exportPath: string, clients: ExistingClientsOf) => string[];
  /** The TCP ports its interfaces' groups must let it send to the clients on: a cited row, or none. */
  readonly clientEgressPorts: readonly PortRange[];
  /**
   * Its record's fields from FSx's description of it (a FileSystem of DescribeFileSystems, read as untrusted) and the
   * export path the user gave; or, as a string, the rule the path or the description breaks.
   */
  readonly fields: (described: unknown, exportPath: string) => ExistingFsxFields | string;
}

/** The fields of an existing FSx file system's records that its backend decides. */
export interface ExistingFsxFields {
  readonly mountName: string;
  /** The ring record's `instanceType`, as for a deployed file system: see {@link FsxTargetRules.deployment}. */
  readonly deployment: string;
  /** The export the mount record names. */
  readonly exportPath: string;
}
