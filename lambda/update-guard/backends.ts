/**
 * The update guard's backends: one descriptor per backend the records know; backend-guard.ts says what one holds. The
 * guard's shared files reach a backend through this table alone, and a backend of `BACKENDS` without a line here fails
 * to compile. The library's backend guards in lib/backends/ import their descriptor's constants from backends/, never
 * the other way, so that the handler's bundle stays free of the library.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS, type Backend } from '../register/backend';
import type { BackendGuard, GuardEntry } from './backend-guard';
import { EBS_GUARD } from './backends/ebs';
import { FSX_LUSTRE_GUARD } from './backends/fsx-lustre';
import { FSX_OPENZFS_GUARD } from './backends/fsx-openzfs';
import { INSTANCE_STORE_GUARD } from './backends/instance-store';

/** The guard descriptor of each backend. */
export const GUARD_BACKENDS: { readonly [B in Backend]: BackendGuard } = {
  'ebs': EBS_GUARD,
  'instance-store': INSTANCE_STORE_GUARD,
  'fsx-lustre': FSX_LUSTRE_GUARD,
  'fsx-openzfs': FSX_OPENZFS_GUARD,
};

/** The backends whose descriptors `shares` picks, in the registry's order: those that share a rule or a sentence. */
export function guardsSharing(shares: (guard: BackendGuard) => boolean): GuardEntry[] {
  return BACKENDS.filter((b) => shares(GUARD_BACKENDS[b])).map((backend) => ({ backend, guard: GUARD_BACKENDS[backend] }));
}
