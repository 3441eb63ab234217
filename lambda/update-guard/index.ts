/**
 * onEvent handler of the update-guard custom resource (docs/design.md#8-the-update-guard-contract). It refuses a stack
 * update that would lose or strand the server's data, before CloudFormation touches the instance or the volumes.
 *
 * It keeps no state: what it judges is in the event and in CloudFormation's record. It asks AWS three things, in
 * aws.ts:
 * - what the stack and its nested stacks hold now, and which of those resources are a server's: held.ts refuses what
 *   is held and not kept by this deploy's template, whatever the names;
 * - at Create, whether resources tagged as this server's exist outside the stack, as when a server is deployed again
 *   over the volumes an earlier one retained;
 * - before a refusal, whether the stack is rolling back, since a rollback always passes.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error, and a FAILED update
 * is what stops the stack.
 */
import type {
  CdkCustomResourceEvent,
  CdkCustomResourceResponse,
  CloudFormationCustomResourceUpdateEvent,
} from 'aws-lambda';
import { ROLLBACK_STATUS, describeHeld, fileSystemActions, findServerResources, heldResources, physicalIdIn, stackStatus } from './aws';
import { GUARD_BACKENDS, guardsSharing } from './backends';
import { compareLayouts } from './compare';
import { KEPT_PROP, type HeldResource, type Kept, lostStateRefusal, parseKept, unkept, unkeptRefusals } from './held';
import { existingMessage, refusalMessage, unreadStatusMessage } from './messages';
import type { Refusal } from './policy';
import type { StorageLayout } from './layout';
import { statusDeadlineMs } from './status-read';
import { parseGuardProperties } from './validation';
import { compareWatched, parseWatched, watchedDigest } from './watched';
import { SERVER_ID_TAG, layoutPhysicalId } from './wire';

type Event = CdkCustomResourceEvent;

/** The part of Lambda's context the guard reads: how long the function has left. */
export interface GuardContext {
  getRemainingTimeInMillis(): number;
}

/**
 * Create records the layout. Update refuses what its policy table refuses, unless the new properties accept data loss.
 * Delete always succeeds. Returns the layout id as PhysicalResourceId.
 */
export async function handler(event: Event, context?: GuardContext): Promise<CdkCustomResourceResponse> {
  const requestType = event?.RequestType;
  // When the function must end, so that the status read leaves time for the refusal to reach CloudFormation.
  const remaining = context?.getRemainingTimeInMillis?.();
  const endsAt = typeof remaining === 'number' ? Date.now() + remaining : undefined;
  try {
    switch (event?.RequestType) {
      case 'Create':
        return await create(event);
      case 'Update':
        return await update(event, endsAt);
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

async function create(event: Event): Promise<CdkCustomResourceResponse> {
  const { layout, acceptDataLoss } = parseGuardProperties(event.ResourceProperties);
  const watched = parseWatched(event.ResourceProperties, 'ResourceProperties');
  const kept = parseKept(event.ResourceProperties[KEPT_PROP], `ResourceProperties.${KEPT_PROP}`);
  const physicalResourceId = layoutPhysicalId(layout, watchedDigest(watched));
  let held: HeldResource[] = [];
  if (kept) {
    // A Create is never part of a rollback: an error here fails the deploy before anything of the server exists.
    held = await heldResources(event.StackId);
    const refusals = await heldRefusals(held, kept, acceptDataLoss, layout.backend);
    const ownIds = Object.values(watched.watched ?? {}).map((w) => w.logicalId);
    const lost = lostStateRefusal(held, kept, ownIds, `${kept.stack}${event.LogicalResourceId}`, acceptDataLoss);
    if (lost) refusals.push(lost);
    const refused = refusals.filter((r) => !r.accepted);
    if (refused.length > 0) {
      for (const r of refused) log('error', 'storage layout change refused', refusalFields(r));
      throw new Error(refusalMessage(refused));
    }
    warnAccepted(refusals);
  }
  // What the stack holds is judged above; the tag search is for what lies outside it, retained by an earlier stack.
  const inStack = new Set(held.map((h) => h.physicalId));
  if (watched.identity) await refuseOverExisting(watched.identity.serverId, layout.snapshotIds.length > 0, acceptDataLoss, inStack);
  log('info', 'storage layout recorded', { requestType: 'Create', physicalResourceId, layout });
  return { PhysicalResourceId: physicalResourceId };
}

/** The refusals of what the stack holds and this deploy's template does not keep: see held.ts. */
async function heldRefusals(
  held: readonly HeldResource[], kept: Kept, acceptDataLoss: boolean, backend?: string,
): Promise<Refusal[]> {
  const gone = unkept(held, kept);
  if (gone.length === 0) return [];
  return unkeptRefusals(gone, await describeHeld(gone), acceptDataLoss, backend);
}

/** What the stack holds could not be read: refused like a loss. A rollback still passes, by refuseUnlessRollingBack. */
function unreadable(err: unknown, acceptDataLoss: boolean): Refusal {
  return {
    setting: 'Resources held by the stack',
    oldValue: '(unknown)',
    newValue: '(unknown)',
    why: `CloudFormation's or EC2's answer could not be read (${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}), ` +
      'so a resource this deploy drops could not be seen',
    safePath: 'deploy again once the API answers (the guard function\'s log has the error)',
    accepted: acceptDataLoss,
  };
}

function warnAccepted(refusals: readonly Refusal[]): void {
  for (const r of refusals) {
    console.warn(JSON.stringify({ level: 'warn', msg: 'data loss accepted (AcceptDataLoss=true)', ...refusalFields(r) }));
  }
}

/**
 * A new guard of a server whose resources already exist. Either the construct was renamed or moved, and CloudFormation
 * would create new resources and delete the old ones; or the server is deployed again over the volumes an earlier
 * deployment retained. Either way new, empty storage would take the name of the old. Refused, unless the deploy
 * restores from snapshots or accepts the loss, which is then logged.
 */
async function refuseOverExisting(
  serverId: string, restores: boolean, acceptDataLoss: boolean, inStack: ReadonlySet<string>,
): Promise<void> {
  const found = (await findServerResources(serverId)).filter((r) => !inStack.has(r.id));
  if (found.length > 0 && !restores && !acceptDataLoss) {
    log('error', 'resources of this server already exist', { requestType: 'Create', serverId, found });
    throw new Error(existingMessage(SERVER_ID_TAG, serverId, found));
  }
  if (found.length > 0) {
    console.warn(JSON.stringify({
      level: 'warn',
      msg: restores ? 'existing resources of this server left alone: the deploy restores from snapshots' : 'existing resources of this server left alone (AcceptDataLoss=true)',
      serverId,
      found,
    }));
  }
}

async function update(event: CloudFormationCustomResourceUpdateEvent, endsAt?: number): Promise<CdkCustomResourceResponse> {
  const next = parseGuardProperties(event.ResourceProperties);
  const nextWatched = parseWatched(event.ResourceProperties, 'ResourceProperties');
  const physicalResourceId = layoutPhysicalId(next.layout, watchedDigest(nextWatched));

  // What the stack holds and this template drops is judged on every update, before the shortcut below: dropping
  // another server's resources changes no layout.
  const kept = parseKept(event.ResourceProperties[KEPT_PROP], `ResourceProperties.${KEPT_PROP}`);
  // No backend here: an Update's own backend change is the layout's Backend row below.
  const dropped = kept === undefined ? [] : await heldRefusals(await heldResources(event.StackId), kept, next.acceptDataLoss)
    .catch((err: unknown) => [unreadable(err, next.acceptDataLoss)]);

  // The PhysicalResourceId is the hash of the last layout this guard accepted. A new layout with that hash is a return
  // to it: the rollback of an update the guard refused, or an update that changed nothing of the layout. Refusing the
  // rollback would leave the stack in UPDATE_ROLLBACK_FAILED. Either way there is nothing to compare.
  if (physicalResourceId === event.PhysicalResourceId) {
    const refusedDrops = dropped.filter((r) => !r.accepted);
    if (refusedDrops.length > 0) return refuseUnlessRollingBack(event, refusedDrops, physicalResourceId, endsAt);
    warnAccepted(dropped);
    log('info', 'storage layout is the last accepted one (a rollback, or no layout change)', {
      requestType: 'Update',
      physicalResourceId,
    });
    return { PhysicalResourceId: physicalResourceId };
  }

  const previous = parseGuardProperties(event.OldResourceProperties, 'OldResourceProperties');
  const previousWatched = parseWatched(event.OldResourceProperties, 'OldResourceProperties');
  // The layout's own refusals first: they name the setting the user changed, such as a backend to pin or a volume
  // shrunk.
  const refusals = [
    ...compareLayouts(previous.layout, next.layout, next.acceptDataLoss, next.waivers),
    ...compareWatched(previousWatched, nextWatched, next.layout, next.acceptDataLoss),
    ...dropped,
    ...await growthInterval(event.StackId, previous.layout, next.layout, nextWatched.watched?.FileSystem?.logicalId, next.acceptDataLoss),
  ];
  const refused = refusals.filter((r) => !r.accepted);
  if (refused.length > 0) return refuseUnlessRollingBack(event, refused, physicalResourceId, endsAt);
  warnAccepted(refusals);
  log('info', 'storage layout change accepted', {
    requestType: 'Update',
    physicalResourceId,
    previousPhysicalResourceId: event.PhysicalResourceId,
    acceptedLosses: refusals.length,
  });
  // A new PhysicalResourceId makes CloudFormation send a Delete for the old one at cleanup: harmless here.
  return { PhysicalResourceId: physicalResourceId };
}

/**
 * OPENZFS-GROWTH-INTERVAL: an FSx storage increase within 6 hours of the last one asked for is refused, and so is a
 * Lustre Metadata IOPS increase within 6 hours of the last. The backend's `intervals` say which: see growth-interval.ts
 * and backends/. When FSx cannot be asked, the deploy goes on with a warning: FSx refuses a too-early increase itself,
 * and the update rolls back with nothing lost.
 */
async function growthInterval(
  stackId: string, o: StorageLayout, n: StorageLayout, logicalId: string | undefined, acceptDataLoss: boolean,
): Promise<Refusal[]> {
  const rules = o.backend === n.backend ? GUARD_BACKENDS[n.backend].intervals.filter((r) => r.applies(o, n)) : [];
  if (logicalId === undefined || rules.length === 0) return [];
  try {
    const fileSystemId = await physicalIdIn(stackId, logicalId);
    if (fileSystemId === undefined) return [];
    const actions = await fileSystemActions(fileSystemId);
    const now = Date.now();
    return rules
      .map((r) => r.refusal(o, n, actions, now, acceptDataLoss, guardsSharing((g) => g.intervals.includes(r))))
      .filter((r): r is Refusal => r !== undefined);
  } catch (err) {
    console.warn(JSON.stringify({ level: 'warn', msg: 'could not read the last storage increase; FSx judges the interval itself', error: String((err as Error)?.message ?? err) }));
    return [];
  }
}

/**
 * Refuses the update, throwing every refusal as one message, unless the stack is rolling back. A rollback puts back
 * what was there, and refusing it would leave the stack in UPDATE_ROLLBACK_FAILED. The layout id recognises the
 * rollback of an update this guard refused. An update it accepted and a later resource failed is rolled back with the
 * stack's status saying so. When DescribeStacks fails after its retries, the status is unknown, and a rollback cannot
 * be told from a user's update back to the same properties. The guard then refuses, since UPDATE_ROLLBACK_FAILED can be
 * continued and lost data cannot be brought back, and the message says how to continue the rollback.
 */
async function refuseUnlessRollingBack(
  event: CloudFormationCustomResourceUpdateEvent,
  refused: readonly Refusal[],
  physicalResourceId: string,
  endsAt?: number,
): Promise<CdkCustomResourceResponse> {
  const stack = await stackStatus(event.StackId, statusDeadlineMs(endsAt === undefined ? undefined : endsAt - Date.now()));
  if (stack.status === ROLLBACK_STATUS) {
    log('info', 'rollback accepted: the stack is rolling back to these properties', {
      requestType: 'Update', physicalResourceId, previousPhysicalResourceId: event.PhysicalResourceId, changes: refused.length,
    });
    return { PhysicalResourceId: physicalResourceId };
  }
  // Every refusal in full: the message may have to shorten values or leave refusals out.
  for (const r of refused) log('error', 'storage layout change refused', refusalFields(r));
  if (stack.status === undefined) {
    const reason = stack.error ?? 'no status';
    log('error', 'could not read the stack status: refused, with the way to continue a rollback', {
      stackId: event.StackId, error: reason, attempts: stack.attempts, elapsedMs: stack.elapsedMs,
    });
    throw new Error(unreadStatusMessage(refused, event.StackId, reason));
  }
  throw new Error(refusalMessage(refused));
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
