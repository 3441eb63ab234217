/**
 * The vocabulary of the update guard's policies, in the manner of aws-parallelcluster's `update_policy.py`: what a
 * policy says against a change, an objection or a refusal; what a policy is; and the few ways one is built. The
 * policies themselves are data, in policies.ts and each backend's descriptor in backends/. compare.ts is the code that
 * applies them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS, type Backend } from '../register/backend';
import type { DataVolumeLayout, StorageLayout, Waiver } from './layout';

/** What a policy says against a change: why it loses or strands data, and what to do instead. */
export interface Objection {
  /** Why the change is refused. */
  readonly why: string;
  /** What to do instead, with no trailing period. */
  readonly safePath: string;
  /**
   * The narrower opt-in that lets this change pass besides `AcceptDataLoss`: see `WAIVERS` in layout.ts.
   * @default - only AcceptDataLoss
   */
  readonly waivedBy?: Waiver;
}

/** One refused change of one setting. */
export interface Refusal extends Objection {
  /** The setting, as named in ResourceProperties, such as `DataVolumes`. */
  readonly setting: string;
  /** The old value, rendered for a message. */
  readonly oldValue: string;
  /** The new value, rendered for a message. */
  readonly newValue: string;
  /** True when `acceptDataLoss`, or the opt-in the objection names in `waivedBy`, turned the refusal into a pass. */
  readonly accepted: boolean;
}

/**
 * A named update policy: given the old and new layouts, the objections to the change of one setting; none when it is
 * allowed. It is consulted only when that setting's value changed.
 */
export interface UpdatePolicy {
  /** Short name for logs and docs. */
  readonly name: string;
  /** The objections to this change; empty when the change is allowed. */
  readonly objections: (oldLayout: StorageLayout, newLayout: StorageLayout) => readonly Objection[];
}

/** Allows any change. */
export const ALLOWED: UpdatePolicy = { name: 'allowed', objections: () => [] };

/** Refuses any change, for one reason. */
export function refused(why: string, safePath: string): UpdatePolicy {
  return { name: 'refused', objections: () => [{ why, safePath }] };
}

/**
 * A policy per backend, applied when the old and new layouts have the same backend. A backend change is
 * refused by the `backend` row itself, and the fields that depend on the backend have nothing to add.
 */
export function perBackend(policies: { readonly [B in Backend]: UpdatePolicy }): UpdatePolicy {
  return {
    name: `per backend (${BACKENDS.map((b) => `${b}: ${policies[b].name}`).join(', ')})`,
    objections: (o, n) => (o.backend === n.backend ? policies[n.backend].objections(o, n) : []),
  };
}

/**
 * One rule of the data volumes' policy in volume-rules.ts: when it applies to an old and a new volume list, and what it
 * says.
 */
export interface VolumeRule extends Objection {
  /** Short name for logs and docs. */
  readonly name: string;
  /** Whether the change from `o` to `n` breaks this rule. */
  readonly applies: (o: readonly DataVolumeLayout[], n: readonly DataVolumeLayout[]) => boolean;
}

/**
 * Refuses a change unless `allows` passes it, with one objection, worded from the layouts when it quotes them.
 */
export function refusedUnless(
  name: string,
  allows: (oldLayout: StorageLayout, newLayout: StorageLayout) => boolean,
  objection: (oldLayout: StorageLayout, newLayout: StorageLayout) => Objection,
): UpdatePolicy {
  return { name, objections: (o, n) => (allows(o, n) ? [] : [objection(o, n)]) };
}

/** Both policies: the objections of each. */
export function both(first: UpdatePolicy, second: UpdatePolicy): UpdatePolicy {
  return { name: `${first.name}; ${second.name}`, objections: (o, n) => [...first.objections(o, n), ...second.objections(o, n)] };
}
