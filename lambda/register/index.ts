/**
 * onEvent handler of the registration custom resource (docs/design.md#7-the-registration-contract): writes the storage server's
 * ring record and mount config to SSM Parameter Store on Create/Update, removes them on Delete. It never writes
 * over, or removes, the records of another server registered under the same name.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error.
 * Transient errors (throttling, 5xx, timeouts) are retried by the SDK's own retry strategy.
 */
import {
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  EC2Client,
  waitUntilInstanceRunning,
  type Instance,
} from '@aws-sdk/client-ec2';
import {
  DeleteParametersCommand,
  GetParameterCommand,
  PutParameterCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
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

/**
 * Attempts per API call, the first included. After a throttling error the SDK waits a random time of up
 * to 1, 2, 4, 8, 16 s before successive retries: its default of 3 attempts rides out at most ~3 s of
 * throttling (plausible when several stacks deploy at once), 6 attempts up to ~31 s.
 */
export const MAX_ATTEMPTS = 6;
/** Longest wait for a `pending` instance; the Lambda's remaining time may shorten it (see `waitSeconds`). */
export const MAX_WAIT_SECONDS = 240;
/** Time kept back from the Lambda's remaining time for the SSM writes and their retries. */
const RESERVE_MS = 30_000;
const WAIT_MIN_DELAY_SECONDS = 2;
const WAIT_MAX_DELAY_SECONDS = 15;

// Created once per container and reused. Endpoint, region and credentials come from the environment
// (AWS_ENDPOINT_URL is honoured natively, which is how tests point the handler at an emulator).
const clientConfig = {
  maxAttempts: MAX_ATTEMPTS,
  retryMode: 'standard',
  // Bounded so a stalled connection becomes a retried timeout instead of hanging until the Lambda dies.
  requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000, throwOnRequestTimeout: true },
};
const ec2 = new EC2Client(clientConfig);
const ssm = new SSMClient(clientConfig);

/** What the handler uses of the Lambda context. */
export interface HandlerContext {
  getRemainingTimeInMillis(): number;
}

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
  await putJson(mountName, mountRecord(privateIp, props.exportPath, props.mountPoint, props.mountOptions));
  log('info', 'registered storage server', { requestType: event.RequestType, ...names, privateIp });

  // A changed name (renamed cluster/server/prefix) changes the PhysicalResourceId, so CloudFormation
  // follows up with a Delete of the old id, which removes the old records.
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
 * An FSx for Lustre file system: CloudFormation created it (AVAILABLE) before this resource, whose properties
 * name it, so the records are written from them alone, with no AWS call but the two writes. Clients reach it by
 * its DNS name (the ring record's `privateIp` stays empty).
 */
async function registerFileSystem(
  event: Event,
  props: RegistrationProperties,
  fsx: FsxTarget,
  ringName: string,
  mountName: string,
): Promise<CdkCustomResourceResponse> {
  const names = { fileSystemId: fsx.fileSystemId, ringParameterName: ringName, mountParameterName: mountName };
  log('info', 'registering FSx for Lustre file system', { requestType: event.RequestType, ...names });
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
  await putJson(mountName, mountRecord(fsx.dnsName, props.exportPath, props.mountPoint, props.mountOptions, 'lustre'));
  log('info', 'registered FSx for Lustre file system', { requestType: event.RequestType, ...names, dnsName: fsx.dnsName });
  return {
    PhysicalResourceId: ringName,
    Data: {
      [DATA.ringParameterName]: ringName,
      [DATA.mountParameterName]: mountName,
      [DATA.privateIp]: '',
    },
  };
}

/**
 * The address of the server's stable interface, which must be attached to the instance: the server attaches it
 * to itself while it takes over its storage, before it reports ready, so an interface held elsewhere (or by
 * nobody) means the server has not taken its address and must not be registered.
 */
async function interfaceAddress(
  networkInterfaceId: string,
  instanceId: string,
): Promise<{ privateIp?: string; privateDnsName?: string }> {
  const out = await ec2.send(new DescribeNetworkInterfacesCommand({ NetworkInterfaceIds: [networkInterfaceId] }));
  const iface = out.NetworkInterfaces?.[0];
  if (!iface) throw new Error(`network interface ${networkInterfaceId} does not exist; cannot register the server's address`);
  const holder = iface.Attachment?.InstanceId;
  if (holder !== instanceId || iface.Status !== 'in-use') {
    throw new Error(
      `network interface ${networkInterfaceId} is not attached to instance ${instanceId} ` +
        `(${holder ? `it is attached to ${holder}` : `it is ${iface.Status ?? 'in an unknown state'}`}): ` +
        'the server has not taken its stable address, so clients must not be pointed at it yet',
    );
  }
  return { privateIp: iface.PrivateIpAddress, privateDnsName: iface.PrivateDnsName };
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
  // instance id, or a file system id for FSx for Lustre.
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

  // DeleteParameters reports names that do not exist in InvalidParameters instead of failing, so a
  // repeated Delete, or one after a partial Create, succeeds.
  const out = await ssm.send(new DeleteParametersCommand({ Names: [ringName, mountName] }));
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
 * system id for FSx for Lustre). This registration owns records that name the instance or file system it registers
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

/**
 * The instance id (or FSx file system id) recorded in the ring record, or undefined when there is no (readable)
 * record.
 */
async function ringOwner(ringName: string): Promise<string | undefined> {
  try {
    const out = await ssm.send(new GetParameterCommand({ Name: ringName }));
    const record = JSON.parse(out.Parameter?.Value ?? '') as Partial<Ec2RingRecord & FsxRingRecord>;
    const owner = record.instanceId ?? record.fileSystemId;
    return typeof owner === 'string' ? owner : undefined;
  } catch (err) {
    if (errorName(err) === 'ParameterNotFound' || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Describes the instance; waits (bounded) while it is pending; fails clearly for any other state. */
async function runningInstance(instanceId: string, maxWaitSeconds: number): Promise<Instance> {
  const instance = await describeInstance(instanceId);
  const state = instance.State?.Name;
  if (state === 'running') return instance;
  if (state !== 'pending') {
    throw new Error(
      `instance ${instanceId} is ${state ?? 'in an unknown state'}; it must be running to be registered`,
    );
  }
  if (maxWaitSeconds <= WAIT_MIN_DELAY_SECONDS) {
    throw new Error(`instance ${instanceId} is pending and too little Lambda time is left to wait for it`);
  }
  log('info', 'instance is pending; waiting for running', { instanceId, maxWaitSeconds });
  try {
    const result = await waitUntilInstanceRunning(
      {
        client: ec2,
        minDelay: WAIT_MIN_DELAY_SECONDS,
        maxDelay: WAIT_MAX_DELAY_SECONDS,
        maxWaitTime: maxWaitSeconds,
      },
      { InstanceIds: [instanceId] },
    );
    const running = result.reason?.Reservations?.[0]?.Instances?.[0];
    if (running) return running;
  } catch (err) {
    const why =
      errorName(err) === 'TimeoutError'
        ? `within ${maxWaitSeconds} s`
        : 'it went to a stopping or terminated state';
    throw new Error(`instance ${instanceId} did not reach running: ${why}`);
  }
  return describeInstance(instanceId);
}

async function describeInstance(instanceId: string): Promise<Instance> {
  try {
    const out = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
    const instance = out.Reservations?.[0]?.Instances?.[0];
    if (instance) return instance;
  } catch (err) {
    if (errorName(err) !== 'InvalidInstanceID.NotFound') throw err;
  }
  throw new Error(
    `${PROP.instanceId} ${instanceId} does not exist in region ${process.env.AWS_REGION ?? '(unset)'} ` +
      '(InvalidInstanceID.NotFound); it must be the id of the storage server instance',
  );
}

/** Seconds the waiter may use: MAX_WAIT_SECONDS, shortened so the Lambda keeps RESERVE_MS for the writes. */
function waitSeconds(context?: HandlerContext): number {
  if (!context) return MAX_WAIT_SECONDS;
  return Math.min(MAX_WAIT_SECONDS, Math.floor((context.getRemainingTimeInMillis() - RESERVE_MS) / 1000));
}

async function putJson(name: string, value: object): Promise<void> {
  await ssm.send(
    new PutParameterCommand({ Name: name, Value: JSON.stringify(value), Type: 'String', Overwrite: true }),
  );
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}

/**
 * One JSON object per line on stdout, which Lambda forwards to CloudWatch Logs unchanged. Callers pass
 * names and ids only, never the event: it carries the presigned ResponseURL.
 */
function log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
}
