/**
 * onEvent handler of the deploy-time value check (docs/design.md, section 4). On Create and Update it checks the values
 * a synth could not see, resolved at last, by the rules the construct holds their literal forms to. It fails the deploy
 * naming each bad one. Every resource that carries one of the values depends on this one, as lib/deploy-check.ts wires
 * it, so nothing of a bad value is created or changed. Delete checks nothing.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error.
 */
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from 'aws-lambda';
import { checkValues, parseValueCheckProperties } from './contract';

/** One physical id for the life of the check: a changed value is an update, never a replacement. */
export const PHYSICAL_ID = 'storage-server-value-check';

export async function handler(event: CdkCustomResourceEvent): Promise<CdkCustomResourceResponse> {
  const requestType = event?.RequestType;
  if (requestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  if (requestType !== 'Create' && requestType !== 'Update') {
    throw new Error(`RequestType must be Create, Update or Delete, got ${JSON.stringify(requestType)}`);
  }
  const props = parseValueCheckProperties(event.ResourceProperties);
  const problems = checkValues(props);
  // Names and the values' verdicts only: the event carries the presigned ResponseURL.
  process.stdout.write(`${JSON.stringify({ level: problems.length ? 'error' : 'info', msg: 'value check', checked: props.checks.map((c) => c.name), problems })}\n`);
  if (problems.length > 0) throw new Error(`Refused before any resource carrying these values changes: ${problems.join(' ')}`);
  return { PhysicalResourceId: PHYSICAL_ID };
}
