/**
 * The update-guard contract (docs/design.md#8-the-update-guard-contract). The CDK construct, lib/update-guard.ts, and
 * the Lambda handler, lambda/update-guard/index.ts, share it so the two cannot drift.
 *
 * The guard holds the server's storage layout as custom resource properties. The instance, the volumes and the
 * registration depend on it, so CloudFormation updates it before them, and a refused change fails the stack update
 * before anything that holds data is touched. What each layout field may do on update is one table,
 * {@link UPDATE_POLICIES}, in the manner of aws-parallelcluster's `update_policy.py`: the checks are data, not
 * scattered conditions.
 *
 * This module is the contract's public face. Each concept lives in a file of its own below it, and this module names
 * them for the construct and the package's index:
 * - layout.ts: the layout's types and the values its fields may take, below every other file;
 * - wire.ts: the layout as ResourceProperties, and the PhysicalResourceId that recognises a rollback;
 * - validation.ts: the parse and checks of what crosses the trust boundary;
 * - policy.ts: what a policy, an objection and a refusal are, and how a policy is built;
 * - policies.ts, volume-rules.ts, retention-rules.ts, with volume-types.ts and objections.ts: the policy table as data.
 *   Each backend's own rows, grammar and wording are in its descriptor in backends/, with one registry, backends.ts.
 * - compare.ts: the code that applies the table;
 * - messages.ts: how a refusal is worded.
 *
 * It imports only Node's crypto, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
export {
  VOLUME_ATTACHMENTS,
  type DataVolumeLayout,
  type LayoutField,
  type StorageLayout,
} from './layout';
export { PROP, RESOURCE_TYPE, SERVER_ID_TAG, WATCH_PROP, guardProperties, layoutPhysicalId } from './wire';
export { parseGuardProperties, validateLayout } from './validation';
export { type Objection, type Refusal } from './policy';
export { UPDATE_POLICIES } from './policies';
export { VOLUME_RULES } from './volume-rules';
export { compareLayouts } from './compare';
export { MAX_MESSAGE_LENGTH, refusalMessage } from './messages';
