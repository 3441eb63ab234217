/**
 * The update-guard contract (docs/design.md#8-the-update-guard-contract), shared by the CDK construct (lib/update-guard.ts) and the
 * Lambda handler (lambda/update-guard/index.ts) so the two cannot drift.
 *
 * The guard holds the server's storage layout as custom resource properties. CloudFormation updates it
 * before the instance, the volumes and the registration (they depend on it), so a refused change fails the
 * stack update before anything that holds data was touched. What each layout field may do on update is
 * one table, {@link UPDATE_POLICIES}, in the manner of aws-parallelcluster's `update_policy.py`: the checks
 * are data, not scattered conditions.
 *
 * The contract's public face: each concept lives in a file of its own, below this one, and this module names
 * them for the construct and the package's index.
 * - layout.ts: the layout's types and the values its fields may take (below every other file);
 * - wire.ts: the layout as ResourceProperties, and the PhysicalResourceId that recognises a rollback;
 * - validation.ts: the parse and checks of what crosses the trust boundary;
 * - policy.ts: what a policy, an objection and a refusal are, and how a policy is built;
 * - policies.ts, volume-rules.ts, retention-rules.ts (volume-types.ts, objections.ts): the policy table, as data, each
 *   backend's own rows, grammar and wording in its descriptor (backends/, one registry: backends.ts);
 * - compare.ts: the code that applies the table;
 * - messages.ts: how a refusal is worded.
 *
 * Dependency-free on purpose (Node's crypto only): it is bundled into the Lambda and imported by the
 * construct at synth time.
 */
export {
  VOLUME_ATTACHMENTS,
  type DataVolumeLayout,
  type LayoutField,
  type StorageLayout,
  type VolumeAttachment,
} from './layout';
export { PROP, RESOURCE_TYPE, SERVER_ID_TAG, WATCH_PROP, guardProperties, layoutPhysicalId } from './wire';
export { parseGuardProperties, validateLayout } from './validation';
export { type Objection, type Refusal } from './policy';
export { UPDATE_POLICIES } from './policies';
export { VOLUME_RULES } from './volume-rules';
export { compareLayouts } from './compare';
export { MAX_MESSAGE_LENGTH, refusalMessage } from './messages';
