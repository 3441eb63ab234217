/**
 * The registration handler against moto behind a loopback fault proxy: throttling and 5xx answers, and a
 * pending instance, arrive over real HTTP at the handler's real SDK clients. This proves the SDK retry
 * configuration of the clients, and the bounded wait for a pending instance.
 */
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { MOTO_SETUP_TIMEOUT_MS, startMoto, motoEnv, type Moto } from '../support/moto';
import {
  EC2_THROTTLED,
  SSM_INTERNAL_ERROR,
  SSM_NOT_FOUND,
  SSM_THROTTLED,
  asPending,
  firstN,
  startFaultProxy,
  type FaultProxy,
} from './fault-proxy';
import { OTHER_STACK_ID, captureStdout, createEvent, createSubnet, launchInstance, ownerMark, props } from './fixtures';

type HandlerModule = typeof import('../../lambda/register');

/** The SDK's default attempts per call; the handler must be configured to go beyond it. */
const SDK_DEFAULT_MAX_ATTEMPTS = 3;

let moto: Moto;
let proxy: FaultProxy;
let register: HandlerModule;
let ec2Direct: EC2Client;
let ssm: SSMClient;
let server: Instance;
let stdout: ReturnType<typeof captureStdout>;

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startFaultProxy(moto.endpoint);
  Object.assign(process.env, motoEnv(proxy.endpoint));
  register = await import('../../lambda/register');
  // The test's own clients talk to moto directly, past the faults.
  ec2Direct = new EC2Client({ endpoint: moto.endpoint });
  ssm = new SSMClient({ endpoint: moto.endpoint });
  server = await launchInstance(ec2Direct, await createSubnet(ec2Direct));
}, MOTO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await proxy?.stop();
  await moto?.stop();
});

beforeEach(() => {
  stdout = captureStdout();
});

afterEach(() => {
  stdout.restore();
});

function count(operation: string): number {
  return proxy.operations.filter((o) => o === operation).length;
}

async function ringInstanceId(prefix: string): Promise<unknown> {
  const out = await ssm.send(new GetParameterCommand({ Name: `${prefix}/hpc1/ring/storage1` }));
  return JSON.parse(out.Parameter?.Value ?? '{}').instanceId;
}

test('the client is configured for more attempts than the SDK default', () => {
  expect(register.MAX_ATTEMPTS).toBeGreaterThan(SDK_DEFAULT_MAX_ATTEMPTS);
});

test('SSM throttling is retried by the SDK, then the registration succeeds', async () => {
  // GIVEN SSM answers the first 3 PutParameter calls with ThrottlingException, where the SDK default would give up
  proxy.reset(firstN('PutParameter', SDK_DEFAULT_MAX_ATTEMPTS, { respond: SSM_THROTTLED }));

  // WHEN
  const result = await register.handler(
    createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/throttle-ssm' })),
  );

  // THEN 3 throttled + 1 successful attempt for the first record, 1 for the second
  expect(result.PhysicalResourceId).toBe('/throttle-ssm/hpc1/ring/storage1');
  expect(count('PutParameter')).toBe(SDK_DEFAULT_MAX_ATTEMPTS + 2);
  expect(await ringInstanceId('/throttle-ssm')).toBe(server.InstanceId);
});

test('EC2 RequestLimitExceeded is retried by the SDK, then the registration succeeds', async () => {
  // GIVEN
  proxy.reset(firstN('DescribeInstances', SDK_DEFAULT_MAX_ATTEMPTS, { respond: EC2_THROTTLED }));

  // WHEN
  await register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/throttle-ec2' })));

  // THEN
  expect(count('DescribeInstances')).toBe(SDK_DEFAULT_MAX_ATTEMPTS + 1);
  expect(await ringInstanceId('/throttle-ec2')).toBe(server.InstanceId);
});

test('a persistent 5xx fails after exactly MAX_ATTEMPTS attempts with the service error', async () => {
  // GIVEN
  proxy.reset((op) => (op === 'PutParameter' ? { respond: SSM_INTERNAL_ERROR } : undefined));

  // WHEN / THEN
  await expect(
    register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/internal-error' }))),
  ).rejects.toThrow('We encountered an internal error.');
  expect(count('PutParameter')).toBe(register.MAX_ATTEMPTS);
});

test('a pending instance is waited for, then registered', async () => {
  // GIVEN the first two descriptions say pending: the handler's own, and the waiter's first poll
  proxy.reset(firstN('DescribeInstances', 2, { rewrite: asPending }));

  // WHEN
  const started = Date.now();
  await register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/pending' })));

  // THEN the waiter polled again after its minimum delay and saw running
  expect(count('DescribeInstances')).toBe(3);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  expect(await ringInstanceId('/pending')).toBe(server.InstanceId);
  expect(stdout.lines().map((l) => JSON.parse(l).msg)).toContain('instance is pending; waiting for running');
});

test('an instance that stays pending fails within the time the Lambda has left', async () => {
  // GIVEN the instance never leaves pending, and the Lambda has 33 s left, of which 30 s are kept for the writes
  proxy.reset((op) => (op === 'DescribeInstances' ? { rewrite: asPending } : undefined));
  const context = { getRemainingTimeInMillis: () => 33_000 };

  // WHEN / THEN
  const started = Date.now();
  await expect(
    register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/stuck' })), context),
  ).rejects.toThrow(`instance ${server.InstanceId} did not reach running: within 3 s`);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(count('PutParameter')).toBe(0);
});

describe('a name that fills while the registration checks it', () => {
  test("another stack's record written meanwhile is refused, not written over", async () => {
    // GIVEN another stack's ring record, which the registration's reads do not see, since they come before it
    const ring = '/meanwhile/hpc1/ring/storage1';
    const theirs = JSON.stringify({ name: 'storage1', role: 'storage', instanceId: 'i-0cccccccccccccccc', owner: ownerMark('ring', 'hpc1', 'storage1', OTHER_STACK_ID) });
    await ssm.send(new PutParameterCommand({ Name: ring, Value: theirs, Type: 'String' }));
    proxy.reset(firstN('GetParameter', 2, { respond: SSM_NOT_FOUND }));

    // WHEN / THEN the write finds the name taken, reads it again and refuses
    const registration = register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/meanwhile' })));
    await expect(registration).rejects.toThrow(`${ring} belongs to Registration of stack ${OTHER_STACK_ID}`);
    await expect(registration).rejects.toThrow(/\(it was written while this registration was checking it\)$/);
    const out = await ssm.send(new GetParameterCommand({ Name: ring }));
    expect(out.Parameter?.Value).toBe(theirs);
  });

  test('its own write whose answer was lost, repeated by the SDK, is taken as its own', async () => {
    // GIVEN the first PutParameter reaches SSM, but its answer is a 500, so the SDK sends it again
    proxy.reset(firstN('PutParameter', 1, { forwardThen: SSM_INTERNAL_ERROR }));

    // WHEN
    await register.handler(createEvent(props(server.InstanceId ?? '', { ParameterPrefix: '/lost-answer' })));

    // THEN the repeat met ParameterAlreadyExists, the record read as its own was written over
    expect(await ringInstanceId('/lost-answer')).toBe(server.InstanceId);
    expect(count('PutParameter')).toBe(4);
  });
});
