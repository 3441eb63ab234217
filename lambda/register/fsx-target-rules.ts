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
}
