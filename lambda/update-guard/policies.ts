/**
 * The update guard's policy table (docs/design.md#8-the-update-guard-contract): what each layout field may do on
 * update, per backend, as data in the manner of aws-parallelcluster's `update_policy.py`. The guard holds the server's
 * storage layout as custom resource properties. The instance, the volumes and the registration depend on it, so
 * CloudFormation updates it before them, and a refused change fails the stack update before anything that holds data is
 * touched. compare.ts applies the table; the checks are data, not scattered conditions.
 *
 * The `backend` row holds on every backend and is here. Every other row is per backend, each backend's part in its
 * descriptor in backends/, reached through the registry in backends.ts.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS, type Backend } from '../register/backend';
import type { BackendField } from './backend-guard';
import { GUARD_BACKENDS } from './backends';
import type { LayoutField } from './layout';
import { SECOND_SERVER } from './objections';
import { ALLOWED, perBackend, type UpdatePolicy } from './policy';
import { LAYOUT_FIELDS } from './wire';

// With backend auto the planner chooses on every synth. A new version's catalogue, such as FSx for OpenZFS weighed when
// a throughput is asked, or a new throughputMBps can choose another backend for the same capacity.
const BACKEND_ROW: UpdatePolicy = {
  name: 'refused',
  objections: (o) => [{
    why: 'the data cannot move between backends in place',
    safePath: `keep backend '${o.backend}' (-c backend=${o.backend}, prop backend: with backend auto the planner ` +
      `chooses again on every synth, and a new catalogue or throughputMBps can choose another), or ${SECOND_SERVER}`,
  }],
};

/** A field's row: each backend's own policy, allowed where a backend has none. */
function perBackendRow(field: BackendField): UpdatePolicy {
  const policies = Object.fromEntries(BACKENDS.map((b) => [b, GUARD_BACKENDS[b].policies[field] ?? ALLOWED]));
  return perBackend(policies as { readonly [B in Backend]: UpdatePolicy });
}

/**
 * The update policy of every layout field: the one table to read. `AcceptDataLoss` is not part of the layout:
 * changing it is always allowed.
 */
export const UPDATE_POLICIES: { readonly [F in LayoutField]: UpdatePolicy } = Object.fromEntries(
  LAYOUT_FIELDS.map((f) => [f, f === 'backend' ? BACKEND_ROW : perBackendRow(f)]),
) as { readonly [F in LayoutField]: UpdatePolicy };
