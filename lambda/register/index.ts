/**
 * onEvent handler of the registration custom resource (docs/design.md#7-the-registration-contract): writes the storage server's
 * ring record and mount config to SSM Parameter Store on Create/Update, removes them on Delete. It never writes
 * over, or removes, the records of another server registered under the same name.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error.
 * Transient errors (throttling, 5xx, timeouts) are retried by the SDK's own retry strategy.
 */
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from 'aws-lambda';
import {
  DATA,
  FSX_PROP,
  PROP,
  mountParameterName,
  mountRecord,
  parseRegistrationProperties,
  parseRingParameterName,
  ringParameterName,
  type Ec2RingRecord,
  type FsxRingRecord,
  type FsxTarget,
  type RegistrationProperties,
} from './contract';
import {
  MAX_ATTEMPTS,
  MAX_WAIT_SECONDS,
  deleteRecords,
  interfaceAddress,
  putJson,
  ringOwner,
  runningInstance,
  waitSeconds,
  type HandlerContext,
} from './aws';
import { errorName, log } from './log';

// The retry and wait bounds, and what the handler uses of the Lambda context, are the AWS layer's (aws.ts).
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
  const names = { instanceId: props.instanceId, ringParameterName: ringName, mountParameterName: mountName };
  log('info', 'registering storage server', { requestType: event.RequestType, ...names });

  await refuseForeignRecords(event, ringName, props.instanceId);
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
  await putJson(ringName, ring);
  await putJson(mountName, mountRecord(privateIp, props.exportPath, props.mountPoint, props.mountOptions, 'nfs4', props.backend));
  log('info', 'registered storage server', { requestType: event.RequestType, ...names, privateIp });

  // A changed name (renamed cluster/server/prefix) changes the PhysicalResourceId, so CloudFormation
  // follows up with a Delete of the old id, which removes the old records.
  return registered(ringName, mountName, privateIp);
}

/**
 * An FSx file system (FSx for Lustre, or FSx for OpenZFS): CloudFormation created it (AVAILABLE) before this
 * resource, whose properties name it, so the records are written from them alone, with no AWS call but the two
 * writes. Clients reach it by its DNS name (the ring record's `privateIp` stays empty): with the Lustre client for
 * FSx for Lustre (fsType `lustre`), over NFS for FSx for OpenZFS (fsType `nfs4`).
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
  await refuseForeignRecords(event, ringName, fsx.fileSystemId);
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
  await putJson(ringName, ring);
  const fsType = props.backend === 'fsx-lustre' ? 'lustre' : 'nfs4';
  await putJson(mountName, mountRecord(fsx.dnsName, props.exportPath, props.mountPoint, props.mountOptions, fsType, props.backend));
  log('info', 'registered FSx file system', { requestType: event.RequestType, ...names, dnsName: fsx.dnsName, fsType });
  return registered(ringName, mountName, '');
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
 * Delete works from the PhysicalResourceId (the ring parameter name Create/Update returned), not from
 * ResourceProperties, so it removes exactly what this resource wrote, also after a rename, and a stack
 * whose properties no longer validate can still be deleted.
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
  const names = { ringParameterName: ringName, mountParameterName: mountName };

  // Another registration may have taken these names over since (a second stack with the same cluster and
  // server names, or two servers that swapped names): its records are not ours to delete. The owner is an
  // instance id, or a file system id for FSx.
  const ourInstance = event.ResourceProperties?.[PROP.instanceId] ?? event.ResourceProperties?.[FSX_PROP.fileSystemId];
  const owner = await ringOwner(ringName);
  if (typeof ourInstance === 'string' && owner !== undefined && owner !== ourInstance) {
    log('warn', 'records now belong to another instance; left in place', {
      requestType: 'Delete',
      ...names,
      instanceId: ourInstance,
      ownerInstanceId: owner,
    });
    return { PhysicalResourceId: ringName };
  }

  // Names that do not exist are reported, not failed (aws.ts): a repeated Delete, or one after a partial Create, succeeds.
  const out = await deleteRecords(ringName, mountName);
  log('info', 'deregistered storage server', {
    requestType: 'Delete',
    ...names,
    deleted: out.DeletedParameters ?? [],
    alreadyAbsent: out.InvalidParameters ?? [],
  });
  return { PhysicalResourceId: ringName };
}

/**
 * Refuses to write over the records of another server: the ring record names its owner (an instance id, or a file
 * system id for FSx). This registration owns records that name the instance or file system it registers
 * or, on an Update, the one it registered before (a replaced instance or file system of the same server). Records
 * that name no owner (none yet, or not a ring record) are free. Another server of the cluster registered under the
 * same name (a second stack with the same cluster and server names) is refused, not overwritten.
 */
async function refuseForeignRecords(event: Event, ringName: string, ours: string): Promise<void> {
  const old = event.RequestType === 'Update' ? event.OldResourceProperties : undefined;
  const previous = old?.[PROP.instanceId] ?? old?.[FSX_PROP.fileSystemId];
  const owner = await ringOwner(ringName);
  if (owner === undefined || owner === ours || owner === previous) return;
  throw new Error(
    `${ringName} belongs to ${owner}, not to ${ours}` +
      `${typeof previous === 'string' && previous !== ours ? ` (or to ${previous}, which it replaces)` : ''}: ` +
      'another server of the cluster is registered under this name. Give this server another serverName, or, ' +
      `if ${owner} is gone, delete its records (${ringName} and its mount config) and deploy again`,
  );
}
