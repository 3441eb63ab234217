/**
 * The registration's FSx backends: one set of rules per backend of `FSX_BACKENDS`; fsx-target-rules.ts says what one
 * holds. validation.ts reaches a backend's rules through this table alone, and an FSx backend without a line here fails
 * to compile.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { FsxBackend } from './backend';
import { FSX_LUSTRE_TARGET } from './backends/fsx-lustre';
import { FSX_OPENZFS_TARGET } from './backends/fsx-openzfs';
import type { FsxTargetRules } from './fsx-target-rules';

/** The registration rules of each FSx backend. */
export const FSX_TARGETS: { readonly [B in FsxBackend]: FsxTargetRules } = {
  'fsx-lustre': FSX_LUSTRE_TARGET,
  'fsx-openzfs': FSX_OPENZFS_TARGET,
};
