/**
 * How the update guard words a refusal: the one-line message CloudFormation shows for a refused update, and the
 * one for a Create over the resources of a server that already exists. What a policy says (its objections) is
 * the policy's own (policies.ts, objections.ts); this file composes it into a message that fits.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import type { TaggedResource } from './wire';
import type { Refusal } from './policy';

/**
 * Longest refusal message. CloudFormation keeps about 4 KB of a custom resource's reason, and the Provider
 * framework appends the function's log group and a stack trace to the message: 3000 leaves room for both.
 */
export const MAX_MESSAGE_LENGTH = 3000;

const MESSAGE_HEAD = 'StorageServer update refused, nothing was changed:';
const MESSAGE_TAIL =
  'To accept the loss (scratch data only), deploy again with acceptDataLoss=true (context) or ' +
  'acceptDataLoss: true (prop).';
const MAX_VALUE_LENGTH = 120;

/**
 * The one-line message of a refused update: each refusal as `<Setting> <old> -> <new>: <why>. Safe path:
 * <path>.`, then how to accept the loss. One line, because the Provider framework repeats every line after
 * the first in the stack trace it appends. Values are shortened and, past {@link MAX_MESSAGE_LENGTH},
 * the last refusals are counted instead of listed (the handler logs all of them).
 */
export function refusalMessage(refusals: readonly Refusal[]): string {
  const lines = refusals.map(
    (r) =>
      `${r.setting} ${shorten(r.oldValue)} -> ${shorten(r.newValue)}: ${r.why}. Safe path: ${r.safePath}.`,
  );
  const compose = (shown: number): string => {
    const rest = lines.length - shown;
    const more = rest > 0 ? [`And ${rest} more refusal(s), listed in the log of the guard function.`] : [];
    return [MESSAGE_HEAD, ...lines.slice(0, shown), ...more, MESSAGE_TAIL].join(' ');
  };
  let shown = lines.length;
  let message = compose(shown);
  while (message.length > MAX_MESSAGE_LENGTH && shown > 0) message = compose(--shown);
  return message;
}

/**
 * Why a Create is refused: resources tagged `<tag>=<serverId>` already exist (`found`, the first twelve listed), and
 * what to do instead.
 */
export function existingMessage(tag: string, serverId: string, found: readonly TaggedResource[]): string {
  const listed = found.slice(0, 12).map((r) => `${r.kind} ${r.id}`).join(', ') + (found.length > 12 ? `, and ${found.length - 12} more` : '');
  return `StorageServer create refused, nothing was changed: resources tagged ${tag}=${serverId} already exist ` +
    `(${listed}). A renamed or moved construct would replace them with new, empty storage, and a server deployed again ` +
    'under the same stack and server name would leave the volumes an earlier deployment retained. Safe path: keep ' +
    "the construct's old id and place; or restore the data with restoreSnapshotIds (context) or dataVolumeSnapshotIds " +
    '(prop) from snapshots of those volumes; or remove those resources if their data is not wanted. To create ' +
    'beside them anyway, deploy again with acceptDataLoss=true (context) or acceptDataLoss: true (prop).';
}

/** A value in a refusal: `(none)` for the empty value. */
export function displayed(value: string): string {
  // A value the caller did not have (undefined at run time, whatever its type says) reads as none too.
  return value === '' || value === undefined ? '(none)' : value;
}

function shorten(value: string): string {
  return value.length <= MAX_VALUE_LENGTH ? value : `${value.slice(0, MAX_VALUE_LENGTH - 3)}...`;
}
