/**
 * onEvent handler of the registration custom resource (docs/design.md#7-the-registration-contract). On Create and
 * Update it writes the storage server's ring record and mount config to SSM Parameter Store; on Delete it removes them.
 * It writes over and removes only records it wrote, as owner.ts decides: never another server's, nor anything else its
 * names hold.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error. The SDK's own retry
 * strategy retries transient errors: throttling, 5xx and timeouts.
 */
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from 'aws-lambda';
import {
  DATA,
  FSX_PROP,
  FSX_TARGETS,
  PROP,
  holding,
  isTombstoneOf,
  mountParameterName,
  mountRecord,
  parseRegistrationProperties,
  parseRingParameterName,
  refusal,
  ringParameterName,
  tombstoneParameterName,
  type Claimant,
  type Ec2RingRecord,
  type FsxBackend,
  type FsxRingRecord,
  type FsxTarget,
  type MountRecord,
  RecordKind,
  type RecordOwner,
  type RegistrationProperties,
  type RingRecord,
  type Tombstone,
} from './contract';
import {
  MAX_ATTEMPTS,
  MAX_WAIT_SECONDS,
  deleteRecords,
  interfaceAddress,
  putJson,
  readParameter,
  runningInstance,
  waitSeconds,
  type HandlerContext,
} from './aws';
import { errorName, log } from './log';
import { checkExisting, recordFsType } from './existing/check';
import { refuseExistingValues } from './existing/record-values';
import * as describers from './existing/describe';
import { EXISTING_PROP, type ExistingTarget } from './existing/target';

// The AWS layer, aws.ts, owns the retry and wait bounds and what the handler uses of the Lambda context.
export { MAX_ATTEMPTS, MAX_WAIT_SECONDS, type HandlerContext };

type Event = CdkCustomResourceEvent;

export async function handler(event: Event, context?: HandlerContext): Promise<CdkCustomResourceResponse> {
  const requestType = event?.RequestType;
  try {
    switch (requestType) {
      case 'Create':
      case 'Update':
        return await register(event, context);
      case 'Delete':
        return await deregister(event);
      default:
        throw new Error(`RequestType must be Create, Update or Delete, got ${JSON.stringify(requestType)}`);
    }
  } catch (err) {
    log('error', 'registration request failed', {
      requestType,
      logicalResourceId: event?.LogicalResourceId,
      error: errorName(err),
      reason: err instanceof Error ? err.message : String(err),
    });
    throw err;
  }
}

async function register(event: Event, context?: HandlerContext): Promise<CdkCustomResourceResponse> {
  const props = parseRegistrationProperties(event.ResourceProperties);
  const ringName = ringParameterName(props.parameterPrefix, props.clusterName, props.serverName);
  const mountName = mountParameterName(props.parameterPrefix, props.clusterName, props.serverName);
  if (props.fsx) return registerFileSystem(event, props, props.fsx, ringName, mountName);
  if (props.existing) return registerExisting(event, props, props.existing, ringName, mountName);
  const names = { instanceId: props.instanceId, ringParameterName: ringName, mountParameterName: mountName };
  log('info', 'registering storage server', { requestType: event.RequestType, ...names });

  const held = await claimRecords(event, props, ringName, mountName, props.instanceId);
  const instance = await runningInstance(props.instanceId, waitSeconds(context));
  const address = props.networkInterfaceId
    ? await interfaceAddress(props.networkInterfaceId, props.instanceId)
    : { privateIp: instance.PrivateIpAddress, privateDnsName: instance.PrivateDnsName };
  const privateIp = address.privateIp;
  if (!privateIp) {
    throw new Error(
      `instance ${props.instanceId} is running but has no private IP address; cannot register it`,
    );
  }
  const ring: Ec2RingRecord = {
    name: props.serverName,
    role: 'storage',
    instanceId: props.instanceId,
    privateIp,
    privateDnsName: address.privateDnsName ?? '',
    availabilityZone: instance.Placement?.AvailabilityZone ?? '',
    instanceType: instance.InstanceType ?? '',
    backend: props.backend,
    registeredAt: new Date().toISOString(),
  };
  // Ring first: a client that finds the mount config can always find the ring member too.
  const mount = mountRecord(privateIp, props.exportPath, props.mountPoint, props.mountOptions, 'nfs4', props.backend);
  await writeRecords(held, ring, mount, props);
  log('info', 'registered storage server', { requestType: event.RequestType, ...names, privateIp });

  // A renamed cluster, server or prefix changes the PhysicalResourceId, so CloudFormation follows up with a Delete of
  // the old id, which removes the old records.
  return registered(ringName, mountName, privateIp);
}

/**
 * An FSx file system. CloudFormation created it, AVAILABLE, before this resource, whose properties name it. So the
 * records are written from the properties alone, with no AWS call but the two writes. Clients reach the file system by
 * its DNS name, and the ring record's `privateIp` stays empty. They mount it with the fsType its backend's rules give
 * (fsx-targets.ts): FSx for Lustre with the Lustre client, FSx for OpenZFS over NFS.
 */
async function registerFileSystem(
  event: Event,
  props: RegistrationProperties,
  fsx: FsxTarget,
  ringName: string,
  mountName: string,
): Promise<CdkCustomResourceResponse> {
  const names = { backend: props.backend, fileSystemId: fsx.fileSystemId, ringParameterName: ringName, mountParameterName: mountName };
  log('info', 'registering FSx file system', { requestType: event.RequestType, ...names });
  const held = await claimRecords(event, props, ringName, mountName, fsx.fileSystemId);
  const ring: FsxRingRecord = {
    name: props.serverName,
    role: 'storage',
    fileSystemId: fsx.fileSystemId,
    privateIp: '',
    privateDnsName: fsx.dnsName,
    availabilityZone: fsx.availabilityZone,
    instanceType: fsx.deployment,
    backend: props.backend,
    registeredAt: new Date().toISOString(),
  };
  // Validation gives `fsx` to an FSx backend alone.
  const { fsType } = FSX_TARGETS[props.backend as FsxBackend];
  const mount = mountRecord(fsx.dnsName, props.exportPath, props.mountPoint, props.mountOptions, fsType, props.backend);
  await writeRecords(held, ring, mount, props);
  log('info', 'registered FSx file system', { requestType: event.RequestType, ...names, dnsName: fsx.dnsName, fsType });
  return registered(ringName, mountName, '');
}

/**
 * Storage that exists already: described and checked first (existing/check.ts), so that a file system the clients
 * could not mount is refused with its reasons before any record is written. Its records have the form of a deployed
 * server's of the same backend, or for an NFS server an address ring record with neither id.
 */
async function registerExisting(
  event: Event,
  props: RegistrationProperties,
  target: ExistingTarget,
  ringName: string,
  mountName: string,
): Promise<CdkCustomResourceResponse> {
  const id = target.kind === 'nfs' ? target.address : target.fileSystemId;
  const names = { backend: props.backend, id, ringParameterName: ringName, mountParameterName: mountName };
  log('info', 'registering existing storage', { requestType: event.RequestType, ...names });
  const region = process.env.AWS_REGION ?? '';
  // Tokens have resolved: their values meet the rules literal ones met at synth, before anything is described.
  refuseExistingValues(target.kind, props, (key) => `ResourceProperties.${PROP[key]}`);
  const f = await checkExisting(target, props.exportPath, region, describers);
  const held = await claimRecords(event, props, ringName, mountName, id);
  const ring: RingRecord = {
    name: props.serverName,
    role: 'storage',
    ...(f.fileSystemId === undefined ? {} : { fileSystemId: f.fileSystemId }),
    privateIp: f.privateIp,
    privateDnsName: f.privateDnsName,
    availabilityZone: f.availabilityZone,
    instanceType: f.instanceType,
    backend: props.backend,
    registeredAt: new Date().toISOString(),
  };
  const fsType = recordFsType(f, props.backend, props.mountOptions);
  const mount = mountRecord(f.server, f.exportPath, props.mountPoint, props.mountOptions, fsType, props.backend);
  await writeRecords(held, ring, mount, props);
  log('info', 'registered existing storage', { requestType: event.RequestType, ...names, server: f.server, fsType });
  return registered(ringName, mountName, f.privateIp);
}

/** A registration's response: the ring parameter name is the PhysicalResourceId; the names and address are `Data`. */
function registered(ringName: string, mountName: string, privateIp: string): CdkCustomResourceResponse {
  return {
    PhysicalResourceId: ringName,
    Data: {
      [DATA.ringParameterName]: ringName,
      [DATA.mountParameterName]: mountName,
      [DATA.privateIp]: privateIp,
    },
  };
}

/**
 * Delete works from the PhysicalResourceId, the ring parameter name that Create or Update returned, not from
 * ResourceProperties. So it removes exactly what this resource wrote, also after a rename, and a stack whose properties
 * fail validation can still be deleted.
 */
async function deregister(
  event: Event & { PhysicalResourceId?: string },
): Promise<CdkCustomResourceResponse> {
  const ringName = event.PhysicalResourceId ?? '';
  const parsed = parseRingParameterName(ringName);
  if (!parsed) {
    log('warn', 'PhysicalResourceId is not a ring parameter name; nothing of ours to delete', {
      requestType: 'Delete',
      physicalResourceId: ringName,
    });
    return { PhysicalResourceId: ringName };
  }
  const mountName = mountParameterName(parsed.prefix, parsed.clusterName, parsed.serverName);

  // Names that do not exist are reported, not failed, in aws.ts: a repeated Delete, or one after a partial Create,
  // succeeds.
  const { ours, absent } = await ownRecords(event, parsed, ringName, mountName);
  const out = ours.length > 0 ? await deleteRecords(ours) : undefined;
  if (ours.length > 0) await leaveTombstone(event, parsed);
  log('info', 'deregistered storage server', {
    requestType: 'Delete',
    ringParameterName: ringName,
    mountParameterName: mountName,
    deleted: out?.DeletedParameters ?? [],
    alreadyAbsent: [...absent, ...(out?.InvalidParameters ?? [])],
  });
  return { PhysicalResourceId: ringName };
}

/**
 * After deleting its records, a registration says the server was removed: the tombstone that clients unmount by
 * (records.ts). A replacement's Create wrote records of its own before this Delete, which then deleted nothing and
 * leaves none. A name that holds anything but a tombstone of this server is left alone.
 */
async function leaveTombstone(event: Event, names: { prefix: string; clusterName: string; serverName: string }): Promise<void> {
  const name = tombstoneParameterName(names.prefix, names.clusterName, names.serverName);
  const tombstone: Tombstone = { name: names.serverName, removedAt: new Date().toISOString(), removedBy: writer(event) };
  if (await putJson(name, tombstone, false)) return;
  const held = await readParameter(name);
  if (held === undefined || isTombstoneOf(held, names.serverName)) await putJson(name, tombstone, true);
  else log('warn', 'the tombstone name holds something else; left in place', { requestType: 'Delete', parameterName: name });
}

/** A registration of a server's name takes back its removal: deletes the tombstone of that name, and nothing else. */
async function clearTombstone(props: RegistrationProperties): Promise<void> {
  const name = tombstoneParameterName(props.parameterPrefix, props.clusterName, props.serverName);
  const held = await readParameter(name);
  if (held !== undefined && isTombstoneOf(held, props.serverName)) await deleteRecords([name]);
}

/**
 * Which of the two names a Delete removes: only what this resource wrote, as owner.ts decides. Another registration may
 * hold them since, such as a second stack with the same cluster and server names or another resource of this stack. A
 * name may also hold a record of another kind. Those are left, and logged. The instance or file system id of the
 * properties recognises records written before owner marks.
 */
async function ownRecords(
  event: Event,
  names: { clusterName: string; serverName: string },
  ringName: string,
  mountName: string,
): Promise<{ ours: string[]; absent: string[] }> {
  const raw = event.ResourceProperties ?? {};
  const ids = [raw[PROP.instanceId], raw[FSX_PROP.fileSystemId], raw[EXISTING_PROP.fileSystemId], raw[EXISTING_PROP.address]]
    .filter((v): v is string => typeof v === 'string' && v !== '');
  const claim = (record: RecordKind, ringIsOurs: boolean) => ({
    owner: { ...writer(event), record, clusterName: names.clusterName, serverName: names.serverName },
    ids,
    ringIsOurs,
    deleting: true,
  });
  const [ring, mount] = await Promise.all([readParameter(ringName), readParameter(mountName)]);
  const ringWhy = ring === undefined ? undefined : refusal(ringName, holding(ring), claim(RecordKind.RING, false));
  const mountWhy = mount === undefined ? undefined : refusal(mountName, holding(mount), claim(RecordKind.MOUNT, ring !== undefined && ringWhy === undefined));
  const ours: string[] = [];
  const absent: string[] = [];
  for (const [name, value, why] of [[ringName, ring, ringWhy], [mountName, mount, mountWhy]] as const) {
    if (value === undefined) absent.push(name);
    else if (why === undefined) ours.push(name);
    else log('warn', 'record not written by this registration; left in place', { requestType: 'Delete', parameterName: name, reason: why });
  }
  return { ours, absent };
}

/** The two names of a registration, what each held when it looked, and how it claims them: see owner.ts. */
interface Claimed {
  readonly names: { readonly ring: string; readonly mount: string };
  readonly held: { readonly ring: boolean; readonly mount: boolean };
  readonly claim: (record: RecordKind) => Claimant;
}

/**
 * Reads what the two names hold and, before anything is written, refuses where either holds what this registration did
 * not write: a record marked by another stack, a record of the other kind, or anything else. A ring record written
 * before marks is refused when it names another instance or file system; this one's, or on an Update the one it
 * replaces, are its own. owner.ts decides each case.
 */
async function claimRecords(
  event: Event,
  props: RegistrationProperties,
  ringName: string,
  mountName: string,
  ours: string,
): Promise<Claimed> {
  const old = event.RequestType === 'Update' ? event.OldResourceProperties : undefined;
  const previous = old?.[PROP.instanceId] ?? old?.[FSX_PROP.fileSystemId] ?? old?.[EXISTING_PROP.fileSystemId] ?? old?.[EXISTING_PROP.address];
  const ids = typeof previous === 'string' ? [ours, previous] : [ours];
  const [ring, mount] = await Promise.all([readParameter(ringName), readParameter(mountName)]);
  // The mount record is judged only once the ring record is absent or this registration's.
  const claim = (record: RecordKind, ringIsOurs = ring !== undefined): Claimant =>
    ({ owner: ownerMark(event, props, record), ids, ringIsOurs, deleting: false });
  const why = (ring === undefined ? undefined : refusal(ringName, holding(ring), claim(RecordKind.RING))) ??
    (mount === undefined ? undefined : refusal(mountName, holding(mount), claim(RecordKind.MOUNT)));
  if (why !== undefined) throw new Error(why);
  return {
    names: { ring: ringName, mount: mountName },
    held: { ring: ring !== undefined, mount: mount !== undefined },
    claim: (record) => claim(record, true),
  };
}

/** Writes the ring record, then the mount record, each with its owner mark; then takes back a removal of the name. */
async function writeRecords(c: Claimed, ring: RingRecord, mount: MountRecord, props: RegistrationProperties): Promise<void> {
  await writeRecord(c, RecordKind.RING, ring);
  await writeRecord(c, RecordKind.MOUNT, mount);
  await clearTombstone(props);
}

/**
 * Writes one record with its owner mark. Where the name held this registration's own record when it looked, it writes
 * over it; where the name held nothing, it writes only while the name holds nothing. A name that holds something since
 * is judged again. The registration's own write whose answer was lost, because the SDK retried it, is written over;
 * another registration's write that came meanwhile is refused.
 */
async function writeRecord(c: Claimed, record: RecordKind, value: RingRecord | MountRecord): Promise<void> {
  const name = c.names[record];
  const claim = c.claim(record);
  const marked = { ...value, owner: claim.owner };
  if (await putJson(name, marked, c.held[record])) return;
  const now = await readParameter(name);
  const why = now === undefined ? undefined : refusal(name, holding(now), claim);
  if (why !== undefined) throw new Error(`${why} (it was written while this registration was checking it)`);
  await putJson(name, marked, true);
}

/** The owner mark of one of the records this event writes. */
function ownerMark(event: Event, props: RegistrationProperties, record: RecordKind): RecordOwner {
  const w = writer(event);
  if (w.stackId === '' || w.logicalResourceId === '') {
    throw new Error(
      'the event names no StackId or LogicalResourceId, which mark the records as this registration\'s; got ' +
        `${JSON.stringify(event.StackId)} and ${JSON.stringify(event.LogicalResourceId)}`,
    );
  }
  return { ...w, record, clusterName: props.clusterName, serverName: props.serverName };
}

/** The registration the event is for, as CloudFormation names it; '' where the event lacks a name. */
function writer(event: Event): { stackId: string; logicalResourceId: string } {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { stackId: text(event.StackId), logicalResourceId: text(event.LogicalResourceId) };
}
