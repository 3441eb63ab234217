/**
 * Applies the update guard's policy table in policies.ts to an update: which changes of the layout its policies refuse.
 * The table is the data; this is the one piece of code that reads it.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { StorageLayout, Waiver } from './layout';
import { displayed } from './messages';
import { UPDATE_POLICIES } from './policies';
import type { Refusal } from './policy';
import { LAYOUT_FIELDS, PROP, renderField } from './wire';

/**
 * Every change from `oldLayout` to `newLayout` that its policy refuses, in {@link PROP} order. With
 * `acceptDataLoss`, or the waiver an objection names among `waivers`, each one is still returned, marked `accepted`, so
 * the caller can log the loss it accepts.
 */
export function compareLayouts(
  oldLayout: StorageLayout,
  newLayout: StorageLayout,
  acceptDataLoss: boolean,
  waivers: readonly Waiver[] = [],
): Refusal[] {
  const refusals: Refusal[] = [];
  for (const field of LAYOUT_FIELDS) {
    const oldValue = renderField(oldLayout, field);
    const newValue = renderField(newLayout, field);
    if (oldValue === newValue) continue;
    for (const objection of UPDATE_POLICIES[field].objections(oldLayout, newLayout)) {
      refusals.push({
        setting: PROP[field],
        oldValue: displayed(oldValue),
        newValue: displayed(newValue),
        why: objection.why,
        safePath: objection.safePath,
        accepted: acceptDataLoss || (objection.waivedBy !== undefined && waivers.includes(objection.waivedBy)),
      });
    }
  }
  return refusals;
}
