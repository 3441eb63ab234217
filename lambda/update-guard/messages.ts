/**
 * How the update guard words a refusal: the one-line message CloudFormation shows for a refused update, and the one for
 * a Create over the resources of a server that already exists. What a policy says, its objections, is the policy's own,
 * in policies.ts, objections.ts and the backends' descriptors. This file composes it into a message that fits.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { BACKENDS } from '../register/backend';
import type { BackendGuard, FoundSentence } from './backend-guard';
import { GUARD_BACKENDS, guardsSharing } from './backends';
import { SECOND_SERVER } from './objections';
import type { Refusal } from './policy';
import type { TaggedResource } from './wire';

/**
 * Longest refusal message. CloudFormation keeps about 4 KB of a custom resource's reason, and the Provider framework
 * appends the function's log group and a stack trace to the message: 3000 leaves room for both.
 */
export const MAX_MESSAGE_LENGTH = 3000;

const MESSAGE_HEAD = 'StorageServer update refused, nothing was changed:';
const MESSAGE_TAIL =
  'To accept the loss (scratch data only), deploy again with acceptDataLoss=true (context) or ' +
  'acceptDataLoss: true (prop).';
const MAX_VALUE_LENGTH = 120;
/** Longest error quoted from a failed status read; an AccessDenied names the role and the stack. */
const MAX_REASON_LENGTH = 400;

/**
 * The one-line message of a refused update: each refusal as `<Setting> <old> -> <new>: <why>. Safe path: <path>.`, then
 * how to accept the loss. It is one line because the Provider framework repeats every line after the first in the stack
 * trace it appends. Values are shortened. Past {@link MAX_MESSAGE_LENGTH} the last refusals are counted instead of
 * listed, and the handler logs all of them.
 */
export function refusalMessage(refusals: readonly Refusal[]): string {
  return composed(MESSAGE_HEAD, refusals, MESSAGE_TAIL);
}

/**
 * AWS's page on going on from UPDATE_ROLLBACK_FAILED: AWS CloudFormation User Guide, "Continue rolling back an update".
 */
export const CONTINUE_ROLLBACK_GUIDE =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-updating-stacks-continueupdaterollback.html';

/**
 * The message of a refusal made without the stack's status, when DescribeStacks failed after its retries with `reason`.
 * The guard cannot tell CloudFormation's rollback from a user's update back to the same properties, and refuses. If it
 * was the rollback, the stack stops in UPDATE_ROLLBACK_FAILED, which can be continued. The message says how, naming the
 * stack from `stackId`, the event's StackId. Then come the refusals, as {@link refusalMessage} words them.
 */
export function unreadStatusMessage(refusals: readonly Refusal[], stackId: string, reason: string): string {
  const head = 'StorageServer update refused: the update guard could not read its stack\'s status ' +
    `(DescribeStacks: ${shorten(reason, MAX_REASON_LENGTH)}), so it cannot tell CloudFormation's rollback from an update, and refused it ` +
    'as an update. If the stack was rolling back, it is now UPDATE_ROLLBACK_FAILED, which can be continued, and the ' +
    'resources that hold data are as they were: once DescribeStacks answers again, run aws cloudformation ' +
    `continue-update-rollback --stack-name ${stackNameOf(stackId)} (AWS CloudFormation User Guide, "Continue rolling ` +
    `back an update", ${CONTINUE_ROLLBACK_GUIDE}); the guard reads the status again and lets the rollback pass. If it ` +
    'was an update, nothing was changed, and these refusals stand:';
  return composed(head, refusals, MESSAGE_TAIL);
}

/**
 * The stack's name in a StackId, `arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<id>`, which
 * `--stack-name` takes. The StackId itself when it is not of that form, since `--stack-name` takes a stack's id too.
 */
export function stackNameOf(stackId: string): string {
  const m = /^arn:[^:]+:cloudformation:[^:]*:[^:]*:stack\/([^/]+)\/[^/]+$/.exec(stackId);
  return m ? m[1] : stackId;
}

/** `head`, each refusal, `tail`: one line of at most {@link MAX_MESSAGE_LENGTH}, the last refusals counted if need be. */
function composed(head: string, refusals: readonly Refusal[], tail: string): string {
  const lines = refusals.map(
    (r) =>
      `${r.setting} ${shorten(r.oldValue)} -> ${shorten(r.newValue)}: ${r.why}. Safe path: ${r.safePath}.`,
  );
  const compose = (shown: number): string => {
    const rest = lines.length - shown;
    const more = rest > 0 ? [`And ${rest} more refusal(s), listed in the log of the guard function.`] : [];
    return [head, ...lines.slice(0, shown), ...more, tail].join(' ');
  };
  let shown = lines.length;
  let message = compose(shown);
  while (message.length > MAX_MESSAGE_LENGTH && shown > 0) message = compose(--shown);
  return message;
}

/**
 * Why a Create is refused, and what to do instead: resources tagged `<tag>=<serverId>` already exist. `found` lists
 * them, the first twelve shown. The likeliest cause comes first. With backend auto, the default, the planner chooses on
 * every synth, and a backend of another construct is a new guard, so its Create is what meets the old backend's
 * resources. EC2 and FSx are other constructs, and so are Lustre and OpenZFS. The Create has the new layout only. So
 * the message names what the resources found say of the old backend, and the way to tell the rest: their kinds tell an
 * EC2 server from an FSx file system, not more.
 */
export function existingMessage(tag: string, serverId: string, found: readonly TaggedResource[]): string {
  const listed = found.slice(0, 12).map((r) => `${r.kind} ${r.id}`).join(', ') + (found.length > 12 ? `, and ${found.length - 12} more` : '');
  const paths = [
    ...backendSays(found, (g) => g.pin),
    "if the construct was renamed or moved, keep the construct's old id and place",
    ...backendSays(found, (g) => g.restore),
    `to have both, ${SECOND_SERVER}`,
    'or remove those resources if their data is not wanted',
  ];
  return `StorageServer create refused, nothing was changed: resources tagged ${tag}=${serverId} already exist ` +
    `(${listed}). The deploy would make new, empty storage beside them and take them out of the stack: a changed ` +
    'backend or a renamed or moved construct does, and a server deployed again under the same stack and server name ' +
    `would leave the volumes an earlier deployment retained. Safe path: ${paths.join('; ')}. To create beside them ` +
    'anyway, deploy again with acceptDataLoss=true (context) or acceptDataLoss: true (prop).';
}

/**
 * What the backends' descriptors say of the resources found, such as the backend to pin or a restore, in the registry's
 * order and each sentence once. The backends the tags cannot tell apart, EC2's two and FSx's two, share one sentence,
 * which is given the backends that share it.
 */
function backendSays(found: readonly TaggedResource[], said: (guard: BackendGuard) => FoundSentence | undefined): string[] {
  const sentences = BACKENDS.map((b) => {
    const sentence = said(GUARD_BACKENDS[b]);
    return sentence?.(found, guardsSharing((g) => said(g) === sentence));
  }).filter((s): s is string => s !== undefined);
  return [...new Set(sentences)];
}

/** A value in a refusal: `(none)` for the empty value. */
export function displayed(value: string): string {
  // A value the caller did not have reads as none too: undefined at run time, whatever its type says.
  return value === '' || value === undefined ? '(none)' : value;
}

function shorten(value: string, max = MAX_VALUE_LENGTH): string {
  return value.length <= max ? value : `${value.slice(0, max - 3)}...`;
}
