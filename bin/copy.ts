#!/usr/bin/env node
/**
 * The copy: `npm run copy -- --cluster C --from SERVER --to SERVER [--verify-only] [--switch] [--allow-foreign]
 * [--streams N] [--node i-...] [--prefix /storage-server] [--timeout minutes]`.
 * - It reads both servers' mount records in SSM Parameter Store, `<prefix>/<cluster>/storage/<server>/mount`.
 * - It reads the target's stack, named by its record's owner, for the copy document and the cluster's node tag, and
 *   picks one running tagged node (or `--node`), which must have both servers mounted.
 * - It sends the document, lib/copy-document.ts, which runs lib/scripts/storage-copy.sh there, waits, and prints what
 *   the node says: the files copied and the differences a checksum dry run still lists.
 * - `--switch` prints the deploys that move the source's mount point to the target. The records belong to
 *   CloudFormation: this tool writes none, and deploys nothing.
 *
 * It is the safe path the update guard names for a change it refuses: deploy a second server, copy, then switch.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CancelCommandCommand, GetCommandInvocationCommand, GetParameterCommand, SendCommandCommand, SSMClient,
  type GetCommandInvocationCommandOutput,
} from '@aws-sdk/client-ssm';
import { DEFAULT_PARAMETER_PREFIX, mountParameterName } from '../lambda/register/contract';
import { takeOption } from './args';

const FINAL = ['Success', 'Failed', 'Cancelled', 'TimedOut', 'Undeliverable', 'Terminated'];
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** What the command line says. */
export interface CopyArgs {
  readonly cluster: string;
  readonly from: string;
  readonly to: string;
  readonly verifyOnly: boolean;
  readonly switch: boolean;
  readonly allowForeign: boolean;
  readonly streams: number;
  readonly node?: string;
  readonly prefix: string;
  readonly timeoutMinutes: number;
}

export const USAGE = 'usage: npm run copy -- --cluster NAME --from SERVER --to SERVER [--verify-only] [--switch] ' +
  '[--allow-foreign] [--streams N (8)] [--node i-...] [--prefix /storage-server] [--timeout minutes (2880)]';

/** Parses the command line; each error names the flag as it was typed. */
export function parseArgs(argv: readonly string[]): CopyArgs {
  const args = [...argv];
  const flag = (name: string): boolean => {
    const at = args.indexOf(name);
    if (at >= 0) args.splice(at, 1);
    return at >= 0;
  };
  const verifyOnly = flag('--verify-only');
  const doSwitch = flag('--switch');
  const allowForeign = flag('--allow-foreign');
  const name = (option: string): string => {
    const v = takeOption(args, option);
    if (v === undefined) throw new Error(`${option} is required; ${USAGE}`);
    if (!NAME.test(v)) throw new Error(`${option} '${v}' must be 1-64 characters of A-Z a-z 0-9 _ . -`);
    return v;
  };
  const whole = (option: string, max: number, fallback: number): number => {
    const v = takeOption(args, option);
    if (v === undefined) return fallback;
    if (!/^[1-9][0-9]*$/.test(v) || Number(v) > max) throw new Error(`${option} '${v}' must be a whole number from 1 to ${max}`);
    return Number(v);
  };
  const cluster = name('--cluster');
  const from = name('--from');
  const to = name('--to');
  const streams = whole('--streams', 99, 8);
  const timeoutMinutes = whole('--timeout', 2880, 2880);
  const node = takeOption(args, '--node');
  if (node !== undefined && !/^i-[0-9a-f]{8,17}$/.test(node)) throw new Error(`--node '${node}' must be an EC2 instance id, i-...`);
  const prefix = takeOption(args, '--prefix') ?? DEFAULT_PARAMETER_PREFIX;
  if (!/^(\/[A-Za-z0-9_.-]+)+$/.test(prefix)) throw new Error(`--prefix '${prefix}' must be a parameter path such as ${DEFAULT_PARAMETER_PREFIX}`);
  if (args.length > 0) throw new Error(`unexpected argument(s) ${args.join(' ')}; ${USAGE}`);
  if (from === to) throw new Error(`--from and --to both name '${from}': copy one server into another`);
  if (verifyOnly && allowForeign) throw new Error('--allow-foreign copies; --verify-only does not: give one of them');
  return { cluster, from, to, verifyOnly, switch: doSwitch, allowForeign, streams, node, prefix, timeoutMinutes };
}

/** One server as the copy sees it: its record's mount point and the stack that wrote the record. */
export interface CopyEnd {
  readonly server: string;
  readonly parameter: string;
  readonly mountPoint: string;
  /** The stack's name, from the record's owner; absent for a record written before owner marks. */
  readonly stackName?: string;
}

/** What the node's script printed, or why there is nothing. */
export interface CopyResult {
  readonly instanceId: string;
  readonly status: string;
  readonly mode?: string;
  readonly copied?: number;
  readonly differences?: number;
  /** false when the run copied and verified without user xattrs: a server refused NFS 4.2, or the target takes none. */
  readonly xattrs?: boolean;
  /** The node's last lines, when it failed, found differences or went without xattrs. */
  readonly detail?: string;
}

/** The AWS clients the copy uses, with endpoints from the environment as the SDK reads them. */
export interface CopyClients {
  readonly cloudFormation: CloudFormationClient;
  readonly ec2: EC2Client;
  readonly ssm: SSMClient;
}

/** Reads one server's mount record; the error names the flag that named the server. */
export async function readEnd(ssm: SSMClient, args: CopyArgs, option: '--from' | '--to'): Promise<CopyEnd> {
  const server = option === '--from' ? args.from : args.to;
  const parameter = mountParameterName(args.prefix, args.cluster, server);
  let value: string | undefined;
  try {
    value = (await ssm.send(new GetParameterCommand({ Name: parameter }))).Parameter?.Value;
  } catch (e) {
    if ((e as Error).name !== 'ParameterNotFound') throw e;
  }
  if (value === undefined) {
    throw new Error(`${option} ${server}: cluster ${args.cluster} has no server ${server} (no parameter ${parameter}); ` +
      `deploy it first${option === '--to' ? ' (a second server with another serverName and another mountPoint)' : ''}`);
  }
  const record = JSON.parse(value) as { mountPoint?: unknown; owner?: { stackId?: unknown } };
  if (typeof record.mountPoint !== 'string' || !/^(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/.test(record.mountPoint)) {
    throw new Error(`${option} ${server}: ${parameter} holds no mount point this tool can use`);
  }
  const stackId = record.owner?.stackId;
  const stackName = typeof stackId === 'string' ? /:stack\/([A-Za-z][A-Za-z0-9-]{0,127})\//.exec(stackId)?.[1] : undefined;
  return { server, parameter, mountPoint: record.mountPoint, stackName };
}

/** The steps that move the source's mount point to the target, printed, never run. */
export function switchSteps(args: CopyArgs, from: CopyEnd, to: CopyEnd): string {
  const fromStack = from.stackName ?? `<the stack of ${from.server}>`;
  const toStack = to.stackName ?? `<the stack of ${to.server}>`;
  return [
    `Switch: ${from.mountPoint} moves from ${from.server} to ${to.server} (cluster ${args.cluster}). The records belong to`,
    'CloudFormation: this tool writes none and deploys nothing; run these yourself, in this order.',
    `1. Stop the writers on ${from.mountPoint}, then catch up and verify (a second run copies only what changed):`,
    `     npm run copy -- --cluster ${args.cluster} --from ${from.server} --to ${to.server}`,
    `2. Free ${from.mountPoint}: no two servers of a cluster share a mount point. Remove ${from.server}`,
    `     npx cdk destroy ${fromStack}`,
    '   (what it keeps of the data: README, "What cdk destroy does"), or deploy it again with the keys it was',
    `   deployed with and -c mountPoint=<another directory> to keep it mounted elsewhere for a while.`,
    `3. Move ${to.server} to ${from.mountPoint}, with the keys it was deployed with and this one changed:`,
    `     npx cdk deploy ${toStack} -c clusterName=${args.cluster} -c serverName=${to.server} -c mountPoint=${from.mountPoint} ...`,
    `   The nodes mount it there at their next State Manager run, or at once by the stack's ClientMountDocumentName.`,
  ].join('\n');
}

/** Reads the node's invocation: the script's JSON line, or why there is none. */
export function parseInvocation(inv: Pick<GetCommandInvocationCommandOutput, 'InstanceId' | 'Status' | 'StandardOutputContent' | 'StandardErrorContent'>): CopyResult {
  const instanceId = inv.InstanceId ?? '?';
  const status = inv.Status ?? 'Unknown';
  const out = inv.StandardOutputContent ?? '';
  const err = (inv.StandardErrorContent ?? '').trim();
  const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  const detail = (err || out.trim() || 'no output').split('\n').slice(-21).join('\n');
  if (line) {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r.copied === 'number' && typeof r.differences === 'number' && typeof r.mode === 'string') {
      const noXattrs = r.xattrs === false ? { xattrs: false } : {};
      return { instanceId, status, mode: r.mode, copied: r.copied, differences: r.differences, ...noXattrs,
        ...(r.differences > 0 || r.xattrs === false ? { detail } : {}) };
    }
  }
  return { instanceId, status, detail };
}

/** The report of one run. */
export function formatResult(args: CopyArgs, from: CopyEnd, to: CopyEnd, r: CopyResult): string {
  const what = `${args.cluster}: ${from.server} (${from.mountPoint}) -> ${to.server} (${to.mountPoint}) on ${r.instanceId}`;
  if (r.differences === undefined) return `${what}: FAILED (${r.status})\n${r.detail ?? ''}`;
  const copied = r.mode === 'copy' ? `${r.copied} file(s) copied, ` : '';
  if (r.differences > 0) {
    return `${what}: ${copied}${r.differences} difference(s) left by rsync --checksum -n (first ones):\n${r.detail ?? ''}\n` +
      'Run the copy again; files written during a copy differ until a run after the writers stopped.';
  }
  const verified = `${what}: ${copied}verified, rsync --checksum -n lists no difference`;
  // The node's warning says which server refused NFS 4.2, or that the target takes no xattr.
  return r.xattrs === false ? `${verified}, but without user extended attributes:\n${r.detail ?? ''}` : verified;
}

/** Options of {@link runCopy} beside the command line. */
export interface RunOptions {
  /** Between polls, milliseconds. */
  readonly pollMs: number;
  /** Called with the command id once sent, so that the CLI cancels it on Ctrl-C. */
  readonly onSent?: (commandId: string) => void;
}

/** Reads both records, the target's stack and its nodes, sends the document to one node, and waits for it. */
export async function runCopy(aws: CopyClients, args: CopyArgs, o: RunOptions): Promise<{ from: CopyEnd; to: CopyEnd; result: CopyResult }> {
  const from = await readEnd(aws.ssm, args, '--from');
  const to = await readEnd(aws.ssm, args, '--to');
  if (from.mountPoint === to.mountPoint) {
    throw new Error(`--from ${from.server} and --to ${to.server} both mount on ${from.mountPoint}: no node can have both ` +
      'mounted; deploy the second server with another mountPoint, copy, then --switch');
  }
  if (!to.stackName) throw new Error(`--to ${to.server}: ${to.parameter} names no stack (a record of an older version): deploy it again with this one`);
  const stacks = await aws.cloudFormation.send(new DescribeStacksCommand({ StackName: to.stackName }));
  const outputs = Object.fromEntries((stacks.Stacks?.[0]?.Outputs ?? []).map((x) => [x.OutputKey, x.OutputValue]));
  const documentName = outputs.CopyDocumentName;
  const clientTag = outputs.ClientTag;
  if (!documentName || !clientTag) {
    throw new Error(`--to ${to.server}: stack ${to.stackName} has no CopyDocumentName or ClientTag output: deploy it with this version of StorageServer`);
  }
  const [tagKey, tagValue] = clientTag.split('=');
  const reservations = await aws.ec2.send(new DescribeInstancesCommand({
    Filters: [{ Name: `tag:${tagKey}`, Values: [tagValue] }, { Name: 'instance-state-name', Values: ['running'] }],
  }));
  const ids = (reservations.Reservations ?? []).flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId!).sort();
  if (args.node !== undefined && !ids.includes(args.node)) {
    throw new Error(`--node ${args.node} is not a running node tagged ${clientTag}${ids.length ? ` (those are: ${ids.join(', ')})` : ''}`);
  }
  const node = args.node ?? ids[0];
  if (node === undefined) throw new Error(`--cluster ${args.cluster}: no running node is tagged ${clientTag}; the copy runs on one`);

  const sent = await aws.ssm.send(new SendCommandCommand({
    DocumentName: documentName,
    InstanceIds: [node],
    Parameters: {
      source: [from.mountPoint], target: [to.mountPoint], from: [`${args.cluster}/${from.server}`],
      mode: [args.verifyOnly ? 'verify' : 'copy'], streams: [String(args.streams)], allowForeign: [args.allowForeign ? 'yes' : 'no'],
    },
    Comment: `StorageServer copy ${args.cluster}: ${from.server} -> ${to.server}`.slice(0, 100),
    TimeoutSeconds: 600,
  }));
  const commandId = sent.Command!.CommandId!;
  o.onSent?.(commandId);
  const deadline = Date.now() + args.timeoutMinutes * 60_000;
  for (;;) {
    let inv: Parameters<typeof parseInvocation>[0];
    try {
      inv = await aws.ssm.send(new GetCommandInvocationCommand({ CommandId: commandId, InstanceId: node }));
    } catch (e) {
      // Right after SendCommand the invocation may not exist yet.
      if ((e as Error).name !== 'InvocationDoesNotExist') throw e;
      inv = { InstanceId: node, Status: 'Pending' };
    }
    if (FINAL.includes(inv.Status ?? '')) return { from, to, result: parseInvocation(inv) };
    if (Date.now() > deadline) {
      await aws.ssm.send(new CancelCommandCommand({ CommandId: commandId }));
      throw new Error(`--timeout ${args.timeoutMinutes}: the node did not finish; command ${commandId} cancelled (run again to catch up)`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const aws = { cloudFormation: new CloudFormationClient({}), ec2: new EC2Client({}), ssm: new SSMClient({}) };
  let commandId: string | undefined;
  process.on('SIGINT', () => {
    console.error('\ninterrupted: cancelling the command (a run again catches up)');
    const cancel = commandId ? aws.ssm.send(new CancelCommandCommand({ CommandId: commandId })) : Promise.resolve();
    void cancel.finally(() => process.exit(130));
  });
  const { from, to, result } = await runCopy(aws, args, { pollMs: 10_000, onSent: (id) => { commandId = id; } });
  console.log(formatResult(args, from, to, result));
  if (result.differences !== 0) process.exitCode = 1;
  else if (args.switch) console.log(`\n${switchSteps(args, from, to)}`);
}

if (require.main === module) {
  main().catch((e: Error) => {
    console.error(`Error: ${e.message}`);
    process.exit(1);
  });
}
