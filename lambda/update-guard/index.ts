/**
 * onEvent handler of the update-guard custom resource (DESIGN.md, "Day 2"): refuses a stack update that would
 * lose or strand the server's data, before CloudFormation touches the instance or the volumes.
 *
 * No AWS call and no state: everything it needs is in the event. Errors are thrown, never returned: the
 * Provider framework reports FAILED only for a thrown error, and a FAILED update is what stops the stack.
 */
import type {
  CdkCustomResourceEvent,
  CdkCustomResourceResponse,
  CloudFormationCustomResourceUpdateEvent,
} from 'aws-lambda';
import {
  compareLayouts,
  layoutPhysicalId,
  parseGuardProperties,
  refusalMessage,
  type Refusal,
} from './contract';

type Event = CdkCustomResourceEvent;

/**
 * Create records the layout, Update refuses what its policy table refuses (unless the new properties accept
 * data loss), Delete always succeeds. Returns the layout id as PhysicalResourceId.
 */
export async function handler(event: Event): Promise<CdkCustomResourceResponse> {
  const requestType = event?.RequestType;
  try {
    switch (event?.RequestType) {
      case 'Create':
        return create(event);
      case 'Update':
        return update(event);
      case 'Delete':
        // The guard holds nothing: there is nothing to remove, and a stack must always be deletable.
        return { PhysicalResourceId: event.PhysicalResourceId };
      default:
        throw new Error(`RequestType must be Create, Update or Delete, got ${JSON.stringify(requestType)}`);
    }
  } catch (err) {
    log('error', 'update guard request failed', {
      requestType,
      logicalResourceId: event?.LogicalResourceId,
      reason: err instanceof Error ? err.message : String(err),
    });
    throw err;
  }
}

function create(event: Event): CdkCustomResourceResponse {
  const { layout } = parseGuardProperties(event.ResourceProperties);
  const physicalResourceId = layoutPhysicalId(layout);
  log('info', 'storage layout recorded', { requestType: 'Create', physicalResourceId, layout });
  return { PhysicalResourceId: physicalResourceId };
}

function update(event: CloudFormationCustomResourceUpdateEvent): CdkCustomResourceResponse {
  const next = parseGuardProperties(event.ResourceProperties);
  const physicalResourceId = layoutPhysicalId(next.layout);

  // The PhysicalResourceId is the hash of the last layout this guard accepted. A new layout with that hash is
  // a return to it: the rollback of an update the guard refused (refusing that would leave the stack in
  // UPDATE_ROLLBACK_FAILED), or an update that changed nothing of the layout. Either way nothing to compare.
  if (physicalResourceId === event.PhysicalResourceId) {
    log('info', 'storage layout is the last accepted one (a rollback, or no layout change)', {
      requestType: 'Update',
      physicalResourceId,
    });
    return { PhysicalResourceId: physicalResourceId };
  }

  const previous = parseGuardProperties(event.OldResourceProperties, 'OldResourceProperties');
  const refusals = compareLayouts(previous.layout, next.layout, next.acceptDataLoss);
  const refused = refusals.filter((r) => !r.accepted);
  if (refused.length > 0) {
    // Every refusal in full: the message may have to shorten values or leave refusals out.
    for (const r of refused) log('error', 'storage layout change refused', refusalFields(r));
    throw new Error(refusalMessage(refused));
  }
  for (const r of refusals) {
    console.warn(
      JSON.stringify({ level: 'warn', msg: 'data loss accepted (AcceptDataLoss=true)', ...refusalFields(r) }),
    );
  }
  log('info', 'storage layout change accepted', {
    requestType: 'Update',
    physicalResourceId,
    previousPhysicalResourceId: event.PhysicalResourceId,
    acceptedLosses: refusals.length,
  });
  // A new PhysicalResourceId makes CloudFormation send a Delete for the old one at cleanup: harmless here.
  return { PhysicalResourceId: physicalResourceId };
}

function refusalFields(r: Refusal): Record<string, unknown> {
  return { setting: r.setting, oldValue: r.oldValue, newValue: r.newValue, why: r.why, safePath: r.safePath };
}

/**
 * One JSON object per line, which Lambda forwards to CloudWatch Logs. Callers pass layout values and ids
 * only, never the event: it carries the presigned ResponseURL.
 */
function log(level: 'info' | 'error', msg: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}
