#!/usr/bin/env node
/**
 * The cluster benchmark: `npm run bench:cluster -- --stack NAME [--clients N] [--size GiB] [--placement-group]`.
 * - It finds N running nodes tagged as the stack's clients and sends them the stack's benchmark document at once.
 * - Each node writes then reads its share with fio, 1 MiB records and direct I/O, by lib/scripts/cluster-bench.sh.
 * - It prints each node's figures beside its ceiling, what one client can reach: the node's NFS connections as its
 *   mount shows them, EC2's per-flow limit and the node type's network, by lib/sizing/client-ceiling.ts.
 * - It prints the aggregate MB/s beside the planner's sustained and burst estimate, with the ratio.
 * - It writes the result to the SSM parameter `<the server's path>/benchmark`.
 *
 * It prints figures; it asserts no target. Interrupted by Ctrl-C, it cancels the command, and each node's script
 * removes its files.
 *
 * The seed method moved about 1 TB from 8 nodes; the default here is smaller. Each node moves twice the server's
 * memory divided by the node count, at least 1 GiB, enough to pass the server's page cache. Give --size for more.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CancelCommandCommand, GetCommandInvocationCommand, PutParameterCommand, SendCommandCommand, SSMClient,
  type GetCommandInvocationCommandOutput,
} from '@aws-sdk/client-ssm';
import { type BenchEstimate } from '../lib/bench-document';
import { clientCeiling, knownInstanceType } from '../lib/sizing';
import { NFS_MAX_NCONNECT } from '../lib/sizing/nfs-client';
import { takeOption } from './args';

export { type BenchEstimate };

/** What the run reads of one node's invocation, from GetCommandInvocation. */
export type Invocation = Pick<GetCommandInvocationCommandOutput, 'InstanceId' | 'Status' | 'StandardOutputContent' | 'StandardErrorContent'>;

const FINAL = ['Success', 'Failed', 'Cancelled', 'TimedOut', 'Undeliverable', 'Terminated'];

/** One node's line, as cluster-bench.sh prints it. */
export interface NodeResult {
  readonly instanceId: string;
  readonly host: string;
  readonly writeBytes: number;
  readonly writeMs: number;
  readonly readBytes: number;
  readonly readMs: number;
  /**
   * The node's mount as its script saw it: the file system type, `nfs4` or `lustre`, or `unknown` when findmnt could
   * not tell. For NFS it holds the connections, nconnect, 1 when the mount shows none. An older script's line has none.
   */
  readonly fsType?: string;
  readonly nconnect?: number;
  /** The node's EC2 instance type, from DescribeInstances. */
  readonly instanceType?: string;
  /**
   * What one client like this node can reach, MB/s, absent when no bound is known, and why. The whole is absent when
   * the node did not say its mount.
   */
  readonly ceiling?: { readonly maxMBps?: number; readonly limitedBy: string };
}

/** What the run knows of its nodes beside their own lines. */
export interface NodeContext {
  /** Each node's instance type, by instance id. */
  readonly instanceTypes?: Readonly<Record<string, string>>;
  /** The nodes and the NFS server share one cluster placement group, by `--placement-group`: a flow reaches 10 Gbps. */
  readonly placementGroup?: boolean;
}

/** A node that gave no figures: its invocation's status and the last line it said. */
export interface NodeFailure {
  readonly instanceId: string;
  readonly status: string;
  readonly detail: string;
}

/** The run: per node, and aggregate MB/s of 10^6 bytes/s, all bytes over the slowest node's time, per phase. */
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
      const fsType = typeof r.fsType === 'string' ? r.fsType : undefined;
      const n = r.nconnect;
      const nconnect = typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= NFS_MAX_NCONNECT ? n : undefined;
      return { instanceId, host: r.host, writeBytes, writeMs, readBytes, readMs, ...(fsType === undefined ? {} : { fsType, nconnect }) };
    }
  }
  const said = (inv.StandardErrorContent ?? '').trim() || output.trim() || 'no output';
  return { instanceId, status: inv.Status ?? 'Unknown', detail: said.split('\n').pop()!.slice(0, 300) };
}

/** MB/s, 10^6 bytes/s, of `bytes` moved in `ms`; 0 for no time. */
function mbPerSecond(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : 0;
}

/**
 * One client's ceiling for a node, by lib/sizing/client-ceiling.ts. NFS counts the connections its mount shows, Lustre
 * none. The node type's network counts when the catalogue knows it; the report says when it does not.
 */
export function nodeCeiling(node: NodeResult, context: NodeContext = {}): NodeResult['ceiling'] {
  if (node.fsType === undefined) return undefined;
  const protocol = node.fsType === 'lustre' ? 'lustre' : node.fsType === 'nfs' || node.fsType === 'nfs4' ? 'nfs' : undefined;
  if (protocol === undefined) return { limitedBy: `no bound counted: the node could not tell its mount's type (${node.fsType})` };
  const type = node.instanceType;
  const known = type !== undefined && knownInstanceType(type);
  const c = clientCeiling({
    instanceType: known ? type : undefined,
    nconnect: protocol === 'nfs' ? node.nconnect : undefined,
    placementGroup: protocol === 'nfs' && context.placementGroup ? true : undefined,
  }, protocol);
  const unknownType = type !== undefined && !known ? `; ${type} is not in the catalogue: its network is not counted` : '';
  return { maxMBps: c.maxMBps, limitedBy: `${c.limitedBy}${unknownType}` };
}

/** Aggregates the nodes' figures; each node gets its ceiling from `nodeCeiling`. */
export function aggregate(runId: string, invocations: readonly Invocation[], estimate: BenchEstimate, context: NodeContext = {}): BenchResult {
  const parsed = invocations.map(parseInvocation);
  const nodes = parsed.filter((p): p is NodeResult => 'host' in p).map((n) => {
    const instanceType = context.instanceTypes?.[n.instanceId];
    const node = instanceType === undefined ? n : { ...n, instanceType };
    const ceiling = nodeCeiling(node, context);
    return ceiling === undefined ? node : { ...node, ceiling };
  });
  const failed = parsed.filter((p): p is NodeFailure => !('host' in p));
  const sum = (f: (n: NodeResult) => number): number => nodes.reduce((s, n) => s + f(n), 0);
  const slowest = (f: (n: NodeResult) => number): number => Math.max(0, ...nodes.map(f));
  return {
    runId, nodes, failed, estimate,
    writeMBps: mbPerSecond(sum((n) => n.writeBytes), slowest((n) => n.writeMs)),
    readMBps: mbPerSecond(sum((n) => n.readBytes), slowest((n) => n.readMs)),
  };
}

/**
 * The report: each node beside its ceiling, what one client can reach, with the ratios; the aggregate beside the
 * estimate with the ratio; and whether the nodes' ceilings together reach the plan's sustained figure.
 */
export function formatReport(result: BenchResult): string {
  const mbps = (bytes: number, ms: number): string => mbPerSecond(bytes, ms).toFixed(0);
  const e = result.estimate;
  const ceilingOf = (n: NodeResult): string => (n.ceiling?.maxMBps === undefined ? '-' : n.ceiling.maxMBps.toFixed(0));
  const perCeiling = (n: NodeResult, bytes: number, ms: number): string =>
    n.ceiling?.maxMBps === undefined ? '-' : ratio(mbPerSecond(bytes, ms), n.ceiling.maxMBps);
  const lines = [
    `Cluster benchmark ${result.runId}: ${result.nodes.length} node(s), fio sequential 1 MiB, direct I/O`,
    '',
    'node                 host                     GiB   write MB/s  read MB/s  ceiling MB/s  write / ceiling  read / ceiling',
    ...result.nodes.map((n) => `${n.instanceId.padEnd(20)} ${n.host.padEnd(20)} ${(n.writeBytes / 2 ** 30).toFixed(2).padStart(7)}` +
      `   ${mbps(n.writeBytes, n.writeMs).padStart(10)} ${mbps(n.readBytes, n.readMs).padStart(10)}` +
      `  ${ceilingOf(n).padStart(12)}  ${perCeiling(n, n.writeBytes, n.writeMs).padStart(15)}  ${perCeiling(n, n.readBytes, n.readMs).padStart(14)}`),
    ...result.failed.map((f) => `${f.instanceId.padEnd(20)} FAILED (${f.status}): ${f.detail}`),
    '',
    ...ceilingNotes(result.nodes),
    '            aggregate   estimate sustained   estimate burst   aggregate / sustained',
    `write MB/s  ${result.writeMBps.toFixed(0).padStart(9)}   ${e.sustainedWriteMBps.toFixed(0).padStart(18)}   ` +
      `${e.burstWriteMBps.toFixed(0).padStart(14)}   ${ratio(result.writeMBps, e.sustainedWriteMBps).padStart(21)}`,
    `read MB/s   ${result.readMBps.toFixed(0).padStart(9)}   ${e.sustainedReadMBps.toFixed(0).padStart(18)}   ` +
      `${e.burstReadMBps.toFixed(0).padStart(14)}   ${ratio(result.readMBps, e.sustainedReadMBps).padStart(21)}`,
    '',
    ...ceilingsTogether(result),
    'Aggregate: all bytes over the slowest node\'s time. Above 1: the run fit in burst credits or caches (make it',
    'larger); well below 1: the nodes\' ceilings first, then a limit the planner does not model (nfsd threads, a busy server).',
    ...(e.lowerBound
      ? ['The estimate is a lower bound (per-disk throughput unpublished): above 1 is the disks giving more than it;',
        'a run past the server\'s page cache measures the real figure.']
      : []),
  ];
  return lines.join('\n');
}

/** Which bound each node's ceiling is, nodes with the same one on one line; a node above its ceiling says what that means. */
function ceilingNotes(nodes: readonly NodeResult[]): string[] {
  if (nodes.length === 0) return [];
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    const why = n.ceiling?.limitedBy ?? 'none: the node\'s script did not say its mount (a stack of an older version)';
    groups.set(why, [...(groups.get(why) ?? []), n.instanceId]);
  }
  const above = nodes.filter((n) => n.ceiling?.maxMBps !== undefined &&
    Math.max(mbPerSecond(n.writeBytes, n.writeMs), mbPerSecond(n.readBytes, n.readMs)) > n.ceiling.maxMBps);
  return [
    'Ceiling: what one client can reach, a bound derived from EC2\'s per-flow limit (5 Gbps a flow, 10 in a cluster',
    'placement group) x the node\'s NFS connections, and the node type\'s network (lib/sizing/client-ceiling.ts):',
    ...[...groups].map(([why, ids]) => `  ${ids.join(', ')}: ${why}`),
    ...(above.length > 0
      ? [`  Above its ceiling (${above.map((n) => n.instanceId).join(', ')}): the bound's inputs are off (--placement-group, the node's type).`]
      : []),
    '',
  ];
}

/** The nodes' ceilings added up, beside the plan's sustained figure: can these nodes together show it? */
function ceilingsTogether(result: BenchResult): string[] {
  const ceilings = result.nodes.map((n) => n.ceiling?.maxMBps);
  if (ceilings.length === 0 || ceilings.some((c) => c === undefined)) return [];
  const sum = (ceilings as number[]).reduce((a, b) => a + b, 0);
  const sustained = Math.min(result.estimate.sustainedReadMBps, result.estimate.sustainedWriteMBps);
  const uncounted = result.nodes.some((n) => n.instanceType === undefined || !knownInstanceType(n.instanceType));
  return [
    sum < sustained
      ? `The nodes' ceilings add up to ${sum.toFixed(0)} MB/s, less than the plan's sustained ${sustained.toFixed(0)} MB/s: these nodes ` +
        'together cannot show what the server sustains (use more nodes, or nodes with more network).'
      : `The nodes' ceilings add up to ${sum.toFixed(0)} MB/s, at least the plan's sustained ${sustained.toFixed(0)} MB/s: by this bound ` +
        `these nodes together can take it${uncounted ? ' (the network of a type not in the catalogue is not counted)' : ''}.`,
    '',
  ];
}

function ratio(measured: number, estimate: number): string {
  return estimate > 0 ? (measured / estimate).toFixed(2) : 'n/a';
}

/** The AWS clients the run uses, with endpoints from the environment as the SDK reads them. */
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
  /** Called with the command id once sent, so that the CLI cancels it on Ctrl-C. */
  readonly onSent?: (commandId: string) => void;
  /** The nodes and the NFS server share one cluster placement group: their ceilings count 10 Gbps a flow. */
  readonly placementGroup?: boolean;
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
  const instances = (reservations.Reservations ?? []).flatMap((r) => r.Instances ?? []);
  const ids = instances.map((i) => i.InstanceId!).sort();
  const instanceTypes = Object.fromEntries(instances.filter((i) => i.InstanceType).map((i) => [i.InstanceId!, String(i.InstanceType)]));
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
  const result = aggregate(o.runId, invocations, estimate, { instanceTypes, placementGroup: o.placementGroup });
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

const USAGE = 'usage: npm run bench:cluster -- --stack NAME [--clients N (8)] [--size GiB per node] [--timeout minutes (120)] ' +
  '[--placement-group]';

/** Parses the command line. */
export function parseArgs(argv: readonly string[]): { stack: string; clients: number; sizeGiB?: number; timeoutMinutes: number; placementGroup: boolean } {
  const args = [...argv];
  const flag = args.indexOf('--placement-group');
  const placementGroup = flag >= 0;
  if (placementGroup) args.splice(flag, 1);
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
  return { stack, clients, sizeGiB, timeoutMinutes, placementGroup };
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
    stack: args.stack, clients: args.clients, sizeGiB: args.sizeGiB, runId, placementGroup: args.placementGroup,
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
