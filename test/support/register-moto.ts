/**
 * The registration handler of lambda/register against moto, a real AWS API emulator over HTTP, as each test file of
 * test/integration/register-*.test.ts sets it up. The handler's own SDK clients find moto through AWS_ENDPOINT_URL,
 * exactly as they would find AWS, and each test's log lines are captured.
 */
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { DeleteParametersCommand, GetParameterCommand, GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { captureStdout, createSubnet, launchInstance } from '../integration/fixtures';
import { MOTO_SETUP_TIMEOUT_MS, motoEnv, startMoto, type Moto } from './moto';

export type Handler = typeof import('../../lambda/register').handler;

/** What a test file reaches of its moto: the members are set once the file's beforeAll has run. */
export interface RegisterMoto {
  /** The handler, imported once moto's endpoint is in the environment, since it creates its clients at module load. */
  readonly handler: Handler;
  readonly ec2: EC2Client;
  readonly ssm: SSMClient;
  /** A subnet in moto, and a running instance in it: the server the tests register, unless `launch` is false. */
  readonly subnetId: string;
  readonly server: Instance;
  /** What the handler writes to stdout during the running test. */
  readonly stdout: ReturnType<typeof captureStdout>;
  /** A prefix of its own for each test, so tests share one moto without seeing each other's records. */
  freshPrefix(): string;
  /** The value of a parameter, parsed as JSON. */
  value(name: string): Promise<unknown>;
  /** The names of the parameters under `path`, sorted. */
  namesUnder(path: string): Promise<string[]>;
  /** What an operator does to free a server's name in cluster hpc1: removes its two records. */
  removeRecords(prefix: string, serverName: string): Promise<void>;
}

/**
 * Starts moto before the calling file's tests and stops it after them. `stem` makes the file's prefixes,
 * `/<stem><n>/storage-server`. `launch: false` is for a file that registers only file systems, which calls no EC2 API.
 */
export function registerAgainstMoto(stem: string, { launch = true } = {}): RegisterMoto {
  let moto: Moto | undefined;
  let prefixCount = 0;
  // The handler, the clients, the server and stdout are set by the hooks below, before any test reads them.
  const rig = {
    freshPrefix: () => {
      prefixCount += 1;
      return `/${stem}${prefixCount}/storage-server`;
    },
    value: async (name) => {
      const out = await rig.ssm.send(new GetParameterCommand({ Name: name }));
      return JSON.parse(out.Parameter?.Value ?? 'null');
    },
    namesUnder: async (path) => {
      const names: string[] = [];
      let NextToken: string | undefined;
      do {
        const out = await rig.ssm.send(new GetParametersByPathCommand({ Path: path, Recursive: true, NextToken }));
        names.push(...(out.Parameters ?? []).map((p) => p.Name ?? ''));
        NextToken = out.NextToken;
      } while (NextToken);
      return names.sort();
    },
    removeRecords: async (prefix, serverName) => {
      await rig.ssm.send(new DeleteParametersCommand({
        Names: [`${prefix}/hpc1/ring/${serverName}`, `${prefix}/hpc1/storage/${serverName}/mount`],
      }));
    },
  } as { -readonly [K in keyof RegisterMoto]: RegisterMoto[K] };

  beforeAll(async () => {
    moto = await startMoto();
    Object.assign(process.env, motoEnv(moto.endpoint));
    ({ handler: rig.handler } = await import('../../lambda/register'));
    rig.ec2 = new EC2Client({});
    rig.ssm = new SSMClient({});
    if (launch) {
      rig.subnetId = await createSubnet(rig.ec2);
      rig.server = await launchInstance(rig.ec2, rig.subnetId);
    }
  }, MOTO_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await moto?.stop();
  });

  beforeEach(() => {
    rig.stdout = captureStdout();
  });

  afterEach(() => {
    rig.stdout.restore();
  });

  return rig;
}
