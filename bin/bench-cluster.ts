#!/usr/bin/env node
/**
 * The cluster benchmark: `npm run bench:cluster -- --stack NAME [--clients N] [--size GiB]`. Finds N running nodes
 * tagged as the stack's clients, sends them the stack's benchmark document at once (each node writes then reads
 * its share with fio: 1 MiB records, direct I/O; lib/scripts/cluster-bench.sh), collects each node's figures, and
 * prints the aggregate MB/s beside the planner's estimate (sustained and burst) with the ratio. Writes the result
 * to the SSM parameter `<the server's path>/benchmark`. Interrupted (Ctrl-C), it cancels the command, and each
 * node's script removes its files.
 *
 * The seed method moved about 1 TB from 8 nodes; the default here is smaller: each node moves twice the server's
 * memory divided by the node count (at least 1 GiB), enough to pass the server's page cache. Give --size for more.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CancelCommandCommand, GetCommandInvocationCommand, PutParameterCommand, SendCommandCommand, SSMClient,
  type GetCommandInvocationCommandOutput,
} from '@aws-sdk/client-ssm';
import { type BenchEstimate } from '../lib/bench-document';
import { takeOption } from './args';

export { type BenchEstimate };

/** What the run reads of one node's invocation (GetCommandInvocation). */
export type Invocation = Pick<GetCommandInvocationCommandOutput, 'InstanceId' | 'Status' | 'StandardOutputContent' | 'StandardErrorContent'>;

const FINAL = ['Success', 'Failed', 'Cancelled', 'TimedOut', 'Undeliverable', 'Terminated'];

/** One node's line (cluster-bench.sh). */
export interface NodeResult {
  readonly instanceId: string;
  readonly host: string;
  readonly writeBytes: number;
  readonly writeMs: number;
  readonly readBytes: number;
  readonly readMs: number;
}

/** A node that gave no figures: its invocation's status and the last line it said. */
export interface NodeFailure {
  readonly instanceId: string;
  readonly status: string;
  readonly detail: string;
}

/** The run: per node, and aggregate MB/s (10^6 bytes/s): all bytes over the slowest node's time, per phase. */
export interface BenchResult {
  readonly runId: string;
  readonly nodes: readonly NodeResult[];
  readonly failed: readonly NodeFailure[];
  readonly writeMBps: number;
  readonly readMBps: number;
  readonly estimate: BenchEstimate;
}

/** The default per-node size: twice the server's memory over the nodes, at least 1 GiB. */
export function defaultSizeGiB(estimate: BenchEstimate, clients: number): number {
  return Math.max(1, Math.ceil((2 * estimate.serverMemoryGiB) / clients));
}

/** Reads one invocation: its node's JSON line, or why there is none. */
export function parseInvocation(inv: Invocation): NodeResult | NodeFailure {
  const instanceId = inv.InstanceId ?? '?';
  const output = inv.StandardOutputContent ?? '';
  const line = output.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (inv.Status === 'Success' && line) {
    const r = JSON.parse(line) as Record<string, unknown>;
    const numbers = ['writeBytes', 'writeMs', 'readBytes', 'readMs'].map((k) => r[k]);
    if (numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n > 0) && typeof r.host === 'string') {
      const [writeBytes, writeMs, readBytes, readMs] = numbers as number[];
      return { instanceId, host: r.host, writeBytes, writeMs, readBytes, readMs };
    }
  }
  const said = (inv.StandardErrorContent ?? '').trim() || output.trim() || 'no output';
  return { instanceId, status: inv.Status ?? 'Unknown', detail: said.split('\n').pop()!.slice(0, 300) };
}

/** MB/s (10^6 bytes/s) of `bytes` moved in `ms`; 0 for no time. */
function mbPerSecond(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : 0;
}

/** Aggregates the nodes' figures. */
export function aggregate(runId: string, invocations: readonly Invocation[], estimate: BenchEstimate): BenchResult {
  const parsed = invocations.map(parseInvocation);
  const nodes = parsed.filter((p): p is NodeResult => 'host' in p);
  const failed = parsed.filter((p): p is NodeFailure => !('host' in p));
  const sum = (f: (n: NodeResult) => number): number => nodes.reduce((s, n) => s + f(n), 0);
  const slowest = (f: (n: NodeResult) => number): number => Math.max(0, ...nodes.map(f));
  return {
    runId, nodes, failed, estimate,
    writeMBps: mbPerSecond(sum((n) => n.writeBytes), slowest((n) => n.writeMs)),
    readMBps: mbPerSecond(sum((n) => n.readBytes), slowest((n) => n.readMs)),
  };
}

/** The report: each node, the aggregate beside the estimate, the ratio. */
export function formatReport(result: BenchResult): string {
  const mbps = (bytes: number, ms: number): string => mbPerSecond(bytes, ms).toFixed(0);
  const e = result.estimate;
  const lines = [
    `Cluster benchmark ${result.runId}: ${result.nodes.length} node(s), fio sequential 1 MiB, direct I/O`,
    '',
    'node                 host                     GiB   write MB/s  read MB/s',
    ...result.nodes.map((n) => `${n.instanceId.padEnd(20)} ${n.host.padEnd(20)} ${(n.writeBytes / 2 ** 30).toFixed(2).padStart(7)}` +
      `   ${mbps(n.writeBytes, n.writeMs).padStart(10)} ${mbps(n.readBytes, n.readMs).padStart(10)}`),
    ...result.failed.map((f) => `${f.instanceId.padEnd(20)} FAILED (${f.status}): ${f.detail}`),
    '',
    '            aggregate   estimate sustained   estimate burst   aggregate / sustained',
    `write MB/s  ${result.writeMBps.toFixed(0).padStart(9)}   ${e.sustainedWriteMBps.toFixed(0).padStart(18)}   ` +
      `${e.burstWriteMBps.toFixed(0).padStart(14)}   ${ratio(result.writeMBps, e.sustainedWriteMBps).padStart(21)}`,
    `read MB/s   ${result.readMBps.toFixed(0).padStart(9)}   ${e.sustainedReadMBps.toFixed(0).padStart(18)}   ` +
      `${e.burstReadMBps.toFixed(0).padStart(14)}   ${ratio(result.readMBps, e.sustainedReadMBps).padStart(21)}`,
    '',
    'Aggregate: all bytes over the slowest node\'s time. Above 1: the run fit in burst credits or caches (make it',
    'larger); well below 1: a limit the planner does not model (client network, NFS settings, a busy server).',
    ...(e.lowerBound
      ? ['The estimate is a lower bound (per-disk throughput unpublished): above 1 is the disks giving more than it;',
        'a run past the server\'s page cache measures the real figure.']
      : []),
  ];
  return lines.join('\n');
}

function ratio(measured: number, estimate: number): string {
  return estimate > 0 ? (measured / estimate).toFixed(2) : 'n/a';
}

/** The AWS clients the run uses (endpoints from the environment, as the SDK reads them). */
export interface BenchClients {
  readonly cloudFormation: CloudFormationClient;
  readonly ec2: EC2Client;
  readonly ssm: SSMClient;
}

/** Options of {@link runClusterBench}. */
export interface BenchOptions {
  readonly stack: string;
  readonly clients: number;
  readonly sizeGiB?: number;
  readonly runId: string;
  /** How long to wait for the nodes, seconds. */
  readonly timeoutSeconds: number;
  /** Between polls, milliseconds. */
  readonly pollMs: number;
  /** Called with the command id once sent (the CLI cancels it on Ctrl-C). */
  readonly onSent?: (commandId: string) => void;
}

/** Finds the stack's outputs and nodes, sends the document, waits, aggregates, and records the result. */
export async function runClusterBench(aws: BenchClients, o: BenchOptions): Promise<BenchResult> {
  const stacks = await aws.cloudFormation.send(new DescribeStacksCommand({ StackName: o.stack }));
  const outputs = Object.fromEntries((stacks.Stacks?.[0]?.Outputs ?? []).map((x) => [x.OutputKey, x.OutputValue]));
  const need = (key: string): string => {
    const v = outputs[key];
    if (!v) throw new Error(`stack ${o.stack} has no output ${key}: deploy it with this version of StorageServer`);
    return v;
  };
  const documentName = need('BenchDocumentName');
  const [tagKey, tagValue] = need('ClientTag').split('=');
  const estimate = JSON.parse(need('BenchEstimate')) as BenchEstimate;
  const resultParameter = need('MountParameterName').replace(/\/[^/]+$/, '/benchmark');

  const reservations = await aws.ec2.send(new DescribeInstancesCommand({
    Filters: [{ Name: `tag:${tagKey}`, Values: [tagValue] }, { Name: 'instance-state-name', Values: ['running'] }],
  }));
  const ids = (reservations.Reservations ?? []).flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId!).sort();
  if (ids.length < o.clients) {
    throw new Error(`--clients ${o.clients}: only ${ids.length} running node(s) are tagged ${tagKey}=${tagValue}` +
      `${ids.length > 0 ? ` (${ids.join(', ')}); run with --clients ${ids.length}` : ''}`);
  }
  const nodes = ids.slice(0, o.clients);
  const sizeGiB = o.sizeGiB ?? defaultSizeGiB(estimate, o.clients);
  const sent = await aws.ssm.send(new SendCommandCommand({
    DocumentName: documentName,
    InstanceIds: nodes,
    Parameters: { sizeMiB: [String(sizeGiB * 1024)], runId: [o.runId] },
    Comment: `StorageServer cluster benchmark ${o.runId}: ${sizeGiB} GiB per node`.slice(0, 100),
    TimeoutSeconds: 600,
  }));
  const commandId = sent.Command!.CommandId!;
  o.onSent?.(commandId);

  const deadline = Date.now() + o.timeoutSeconds * 1000;
  let invocations: Invocation[] = [];
  for (;;) {
    invocations = await Promise.all(nodes.map(async (InstanceId): Promise<Invocation> => {
      try {
        return await aws.ssm.send(new GetCommandInvocationCommand({ CommandId: commandId, InstanceId }));
      } catch (e) {
        // Right after SendCommand a node's invocation may not exist yet.
        if ((e as Error).name === 'InvocationDoesNotExist') return { InstanceId, Status: 'Pending' };
        throw e;
      }
    }));
    if (invocations.every((i) => FINAL.includes(i.Status ?? ''))) break;
    if (Date.now() > deadline) {
      await aws.ssm.send(new CancelCommandCommand({ CommandId: commandId }));
      throw new Error(`the nodes did not finish within ${o.timeoutSeconds} s: command ${commandId} cancelled (each node removes its files)`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
  const result = aggregate(o.runId, invocations, estimate);
  await aws.ssm.send(new PutParameterCommand({
    Name: resultParameter,
    Type: 'String',
    Overwrite: true,
    Description: 'StorageServer cluster benchmark: the last run (npm run bench:cluster)',
    Value: JSON.stringify({
      runId: result.runId, time: new Date().toISOString(), nodes: result.nodes.length, failed: result.failed.length,
      sizeGiBPerNode: sizeGiB, writeMBps: Math.round(result.writeMBps), readMBps: Math.round(result.readMBps), estimate,
    }),
  }));
  return result;
}

const USAGE = 'usage: npm run bench:cluster -- --stack NAME [--clients N (8)] [--size GiB per node] [--timeout minutes (120)]';

/** Parses the command line. */
export function parseArgs(argv: readonly string[]): { stack: string; clients: number; sizeGiB?: number; timeoutMinutes: number } {
  const args = [...argv];
  const take = (name: string): string | undefined => takeOption(args, name);
  const whole = (name: string, text: string | undefined, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^[1-9][0-9]*$/.test(text) || Number(text) > max) throw new Error(`${name} must be a whole number from 1 to ${max}, got '${text}'`);
    return Number(text);
  };
  const stack = take('--stack');
  const clients = whole('--clients', take('--clients'), 256) ?? 8;
  const sizeGiB = whole('--size', take('--size'), 97656);
  const timeoutMinutes = whole('--timeout', take('--timeout'), 2880) ?? 120;
  if (args.length > 0) throw new Error(`unexpected argument(s) ${args.join(' ')}; ${USAGE}`);
  if (!stack || !/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(stack)) throw new Error(`--stack must name a CloudFormation stack; ${USAGE}`);
  return { stack, clients, sizeGiB, timeoutMinutes };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const aws = { cloudFormation: new CloudFormationClient({}), ec2: new EC2Client({}), ssm: new SSMClient({}) };
  const runId = `bench-${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`;
  let commandId: string | undefined;
  process.on('SIGINT', () => {
    console.error('\ninterrupted: cancelling the command (each node removes its files)');
    const cancel = commandId ? aws.ssm.send(new CancelCommandCommand({ CommandId: commandId })) : Promise.resolve();
    void cancel.finally(() => process.exit(130));
  });
  console.error(`${runId}: sending the benchmark to ${args.clients} node(s) of stack ${args.stack}...`);
  const result = await runClusterBench(aws, {
    stack: args.stack, clients: args.clients, sizeGiB: args.sizeGiB, runId,
    timeoutSeconds: args.timeoutMinutes * 60, pollMs: 10_000, onSent: (id) => { commandId = id; },
  });
  console.log(formatReport(result));
  if (result.failed.length > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((e: Error) => {
    console.error(`Error: ${e.message}`);
    process.exit(1);
  });
}
