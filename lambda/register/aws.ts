/**
 * The registration handler's calls to AWS. EC2 gives the server's address: its instance, waited for while pending, or
 * its stable network interface. SSM Parameter Store holds the records, read, written and deleted here. The clients'
 * retries and timeouts are set here, once.
 *
 * The SDK's own retry strategy retries transient errors: throttling, 5xx and timeouts.
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
  type DeleteParametersCommandOutput,
} from '@aws-sdk/client-ssm';
import { PROP } from './properties';
import { errorName, log } from './log';

/**
 * Attempts per API call, the first included. After a throttling error the SDK waits a random time of up to 1, 2, 4, 8,
 * 16 s before successive retries. Its default of 3 attempts rides out at most ~3 s of throttling, which several stacks
 * deploying at once can exceed; 6 attempts ride out up to ~31 s.
 */
export const MAX_ATTEMPTS = 6;
/** Longest wait for a `pending` instance; the Lambda's remaining time may shorten it: see `waitSeconds`. */
export const MAX_WAIT_SECONDS = 240;
/** Time kept back from the Lambda's remaining time for the SSM writes and their retries. */
const RESERVE_MS = 30_000;
const WAIT_MIN_DELAY_SECONDS = 2;
const WAIT_MAX_DELAY_SECONDS = 15;

// Each client is created once per container and reused, with these settings (existing/describe.ts's too). Endpoint,
// region and credentials come from the environment. The SDK honours AWS_ENDPOINT_URL itself, which is how tests point
// the handler at an emulator.
export const CLIENT_CONFIG = {
  maxAttempts: MAX_ATTEMPTS,
  retryMode: 'standard',
  // Bounded so a stalled connection becomes a retried timeout instead of hanging until the Lambda dies.
  requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000, throwOnRequestTimeout: true },
};
const ec2 = new EC2Client(CLIENT_CONFIG);
const ssm = new SSMClient(CLIENT_CONFIG);

/** What the handler uses of the Lambda context. */
export interface HandlerContext {
  getRemainingTimeInMillis(): number;
}

/**
 * The address of the server's stable interface, which must be attached to the instance. The server attaches it to
 * itself while it takes over its storage, before it reports ready. An interface held elsewhere or by nobody means the
 * server has not taken its address, so it must not be registered.
 */
export async function interfaceAddress(
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

/** The value of a parameter, or undefined when there is none. */
export async function readParameter(name: string): Promise<string | undefined> {
  try {
    const out = await ssm.send(new GetParameterCommand({ Name: name }));
    return out.Parameter?.Value;
  } catch (err) {
    if (errorName(err) === 'ParameterNotFound') return undefined;
    throw err;
  }
}

/** Describes the instance, waits a bounded time while it is pending, and fails clearly for any other state. */
export async function runningInstance(instanceId: string, maxWaitSeconds: number): Promise<Instance> {
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
export function waitSeconds(context?: HandlerContext): number {
  if (!context) return MAX_WAIT_SECONDS;
  return Math.min(MAX_WAIT_SECONDS, Math.floor((context.getRemainingTimeInMillis() - RESERVE_MS) / 1000));
}

/**
 * Writes a record. With `overwrite` it writes over what the name holds. Without, it writes only where the name holds
 * nothing, and returns false, having written nothing, where it holds something.
 */
export async function putJson(name: string, value: object, overwrite: boolean): Promise<boolean> {
  try {
    await ssm.send(
      new PutParameterCommand({ Name: name, Value: JSON.stringify(value), Type: 'String', Overwrite: overwrite }),
    );
    return true;
  } catch (err) {
    if (!overwrite && errorName(err) === 'ParameterAlreadyExists') return false;
    throw err;
  }
}

/**
 * Deletes records. DeleteParameters reports names that do not exist in InvalidParameters instead of failing, so a
 * repeated Delete, or one after a partial Create, succeeds.
 */
export async function deleteRecords(names: string[]): Promise<DeleteParametersCommandOutput> {
  return ssm.send(new DeleteParametersCommand({ Names: names }));
}
