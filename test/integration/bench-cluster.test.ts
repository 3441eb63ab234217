import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { EC2Client, RunInstancesCommand, StopInstancesCommand } from '@aws-sdk/client-ec2';
import {
  CreateDocumentCommand, GetCommandInvocationCommand, GetParameterCommand, ListCommandsCommand, SendCommandCommand, SSMClient,
  type SendCommandCommandInput,
} from '@aws-sdk/client-ssm';
import { type BenchEstimate, type Invocation, aggregate, formatReport, parseArgs, runClusterBench } from '../../bin/bench-cluster';
import { renderBenchDocument } from '../../lib/bench-document';
import { startMoto, type Moto } from '../support/moto';

// npm run bench:cluster, bin/bench-cluster.ts, against moto: it finds the stack's outputs and its running tagged nodes,
// sends the benchmark document with the size and run id, waits for every node and records the result. moto runs no
// command on an instance: each invocation "succeeds" with no output. So the figures and the report are tested with
// recorded node outputs below; the node's script with real fio runs in the VM tests.

const ESTIMATE: BenchEstimate = { sustainedWriteMBps: 250, sustainedReadMBps: 250, burstWriteMBps: 500, burstReadMBps: 500, serverMemoryGiB: 64 };
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

let moto: Moto;
let aws: { cloudFormation: CloudFormationClient; ec2: EC2Client; ssm: SSMClient };
let tagged: string[];

beforeAll(async () => {
  moto = await startMoto();
  const config = { endpoint: moto.endpoint, region: 'us-east-1', credentials };
  aws = { cloudFormation: new CloudFormationClient({ ...config, maxAttempts: 1 }), ec2: new EC2Client(config), ssm: new SSMClient(config) };
  await aws.ssm.send(new CreateDocumentCommand({ Name: 'StorageBench', DocumentType: 'Command', Content: JSON.stringify(renderBenchDocument('/data')) }));
  const outputs = {
    BenchDocumentName: 'StorageBench',
    ClientTag: 'storage-server:cluster=hpc1',
    BenchEstimate: JSON.stringify(ESTIMATE),
    MountParameterName: '/storage-server/hpc1/storage/storage1/mount',
  };
  await aws.cloudFormation.send(new CreateStackCommand({
    StackName: 'StorageServer-hpc1-storage1',
    TemplateBody: JSON.stringify({
      Resources: { Placeholder: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
      Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
    }),
  }));
  const run = async (tags: { Key: string; Value: string }[]): Promise<string> => (await aws.ec2.send(new RunInstancesCommand({
    ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, InstanceType: 'c5.xlarge',
    TagSpecifications: tags.length ? [{ ResourceType: 'instance', Tags: tags }] : undefined,
  }))).Instances![0].InstanceId!;
  const node = [{ Key: 'storage-server:cluster', Value: 'hpc1' }];
  tagged = [await run(node), await run(node), await run(node)].sort();
  await run([]); // not a node of the cluster
  await run([{ Key: 'storage-server:cluster', Value: 'hpc2' }]); // another cluster's
  const stopped = await run(node);
  await aws.ec2.send(new StopInstancesCommand({ InstanceIds: [stopped] }));
}, 120_000);
afterAll(async () => {
  for (const c of Object.values(aws ?? {})) c.destroy();
  await moto?.stop();
});

const options = { stack: 'StorageServer-hpc1-storage1', runId: 'bench-20261123080000', timeoutSeconds: 30, pollMs: 50 };

/**
 * The SendCommand request the run made, captured on its way to moto, which accepted it. moto's own record of a command
 * lists instances the request did not name, since it adds every instance for an empty Targets. So the request is what
 * is checked; moto's record shows the document and parameters it took.
 */
function captureSendCommand(): () => SendCommandCommandInput {
  const inputs: SendCommandCommandInput[] = [];
  const send = aws.ssm.send.bind(aws.ssm);
  jest.spyOn(aws.ssm, 'send').mockImplementation(((command: { input: unknown }) => {
    if (command instanceof SendCommandCommand) inputs.push(command.input);
    return send(command as never);
  }) as never);
  return () => {
    expect(inputs).toHaveLength(1);
    return inputs[0];
  };
}
afterEach(() => jest.restoreAllMocks());

describe('bench:cluster against the AWS API emulator', () => {
  test('sends the document to N running nodes of the cluster, with the default size, and records the result', async () => {
    let sent = '';
    const request = captureSendCommand();
    const result = await runClusterBench(aws, { ...options, clients: 2, onSent: (id) => { sent = id; } });
    // The two first running nodes of the cluster, not the stopped one, the untagged one or hpc2's.
    expect(request().InstanceIds).toEqual(tagged.slice(0, 2));
    const [command] = (await aws.ssm.send(new ListCommandsCommand({ CommandId: sent }))).Commands!;
    expect(command.DocumentName).toBe('StorageBench');
    // Twice the server's 64 GiB over 2 nodes: 64 GiB each.
    expect(command.Parameters).toEqual({ sizeMiB: [String(64 * 1024)], runId: ['bench-20261123080000'] });
    // moto's invocations succeed with no output: no figures, each node reported as failed with why.
    expect(result.nodes).toEqual([]);
    expect(result.failed.map((f) => [f.instanceId, f.detail])).toEqual(tagged.slice(0, 2).map((id) => [id, 'no output']));
    const recorded = JSON.parse((await aws.ssm.send(new GetParameterCommand({ Name: '/storage-server/hpc1/storage/storage1/benchmark' }))).Parameter!.Value!);
    expect(recorded).toMatchObject({ runId: 'bench-20261123080000', nodes: 0, failed: 2, sizeGiBPerNode: 64, estimate: ESTIMATE });
  });

  test('--size sets the size per node', async () => {
    let sent = '';
    const request = captureSendCommand();
    await runClusterBench(aws, { ...options, clients: 3, sizeGiB: 5, onSent: (id) => { sent = id; } });
    expect(request().InstanceIds).toEqual(tagged);
    const [command] = (await aws.ssm.send(new ListCommandsCommand({ CommandId: sent }))).Commands!;
    expect(command.Parameters!.sizeMiB).toEqual(['5120']);
  });

  test("each node's ceiling counts its type as DescribeInstances gives it (c5.xlarge: not catalogued, said) and --placement-group", async () => {
    // moto runs nothing on a node: each invocation answers with a recorded line, a mount with nconnect=2.
    const line = '{"host":"n","run":"r","sizeMiB":1024,"writeBytes":1073741824,"writeMs":2000,"readBytes":1073741824,"readMs":1000,"fsType":"nfs4","nconnect":2}';
    const send = aws.ssm.send.bind(aws.ssm);
    jest.spyOn(aws.ssm, 'send').mockImplementation(((command: { input: { InstanceId?: string } }) => (command instanceof GetCommandInvocationCommand
      ? Promise.resolve({ InstanceId: command.input.InstanceId, Status: 'Success', StandardOutputContent: `${line}\n` })
      : send(command as never))) as never);
    const outside = await runClusterBench(aws, { ...options, clients: 2 });
    expect(outside.nodes.map((n) => [n.instanceId, n.instanceType, n.ceiling?.maxMBps])).toEqual(tagged.slice(0, 2).map((id) => [id, 'c5.xlarge', 2 * 625]));
    expect(outside.nodes[0].ceiling?.limitedBy).toBe(
      'nconnect=2: 2 TCP flows x 5 Gbps, outside a cluster placement group; c5.xlarge is not in the catalogue: its network is not counted');
    const inside = await runClusterBench(aws, { ...options, clients: 2, placementGroup: true });
    expect(inside.nodes.map((n) => n.ceiling?.maxMBps)).toEqual([2 * 1250, 2 * 1250]);
  });

  test('more clients than running tagged nodes: refused, naming how many there are', async () => {
    await expect(runClusterBench(aws, { ...options, clients: 4 })).rejects.toThrow(
      `--clients 4: only 3 running node(s) are tagged storage-server:cluster=hpc1 (${tagged.join(', ')}); run with --clients 3`);
  });

  test('a stack without the benchmark outputs: refused, naming the output', async () => {
    await aws.cloudFormation.send(new CreateStackCommand({
      StackName: 'Old', TemplateBody: JSON.stringify({ Resources: { P: { Type: 'AWS::CloudFormation::WaitConditionHandle' } } }),
    }));
    await expect(runClusterBench(aws, { ...options, stack: 'Old', clients: 1 })).rejects.toThrow(
      'stack Old has no output BenchDocumentName: deploy it with this version of StorageServer');
  });
});

/** Recorded outputs of cluster-bench.sh, in the shape the VM tests print, as GetCommandInvocation returns them. */
const RECORDED: Invocation[] = [
  { InstanceId: 'i-0aaaaaaaaaaaaaaa1', Status: 'Success', StandardOutputContent: '{"host":"node01","run":"r","sizeMiB":16384,"writeBytes":17179869184,"writeMs":80000,"readBytes":17179869184,"readMs":50000}\n' },
  { InstanceId: 'i-0aaaaaaaaaaaaaaa2', Status: 'Success', StandardOutputContent: 'cluster-bench: installing fio\n{"host":"node02","run":"r","sizeMiB":16384,"writeBytes":17179869184,"writeMs":100000,"readBytes":17179869184,"readMs":40000}\n' },
  { InstanceId: 'i-0aaaaaaaaaaaaaaa3', Status: 'Failed', StandardOutputContent: '', StandardErrorContent: 'cluster-bench: ERROR: /data is not a mount point: the storage is not mounted on this node\n' },
];

/**
 * The same shape with the mount each node reports, as the script prints it: NFS with nconnect=16 and with one
 * connection, and Lustre. The types are m4.xlarge, catalogued at 0.75 Gbps = 93.75 MB/s, and c5n.9xlarge, not
 * catalogued.
 */
const line = (host: string, writeMs: number, readMs: number, mount: string) =>
  `{"host":"${host}","run":"r","sizeMiB":1024,"writeBytes":1073741824,"writeMs":${writeMs},"readBytes":1073741824,"readMs":${readMs},${mount}}\n`;
const WITH_MOUNTS: Invocation[] = [
  { InstanceId: 'i-0bbbbbbbbbbbbbbb1', Status: 'Success', StandardOutputContent: line('node01', 20000, 16000, '"fsType":"nfs4","nconnect":16') },
  { InstanceId: 'i-0bbbbbbbbbbbbbbb2', Status: 'Success', StandardOutputContent: line('node02', 4000, 2000, '"fsType":"nfs4","nconnect":1') },
  { InstanceId: 'i-0bbbbbbbbbbbbbbb3', Status: 'Success', StandardOutputContent: line('node03', 4000, 2000, '"fsType":"lustre","nconnect":null') },
];
const TYPES = { 'i-0bbbbbbbbbbbbbbb1': 'm4.xlarge', 'i-0bbbbbbbbbbbbbbb2': 'c5n.9xlarge', 'i-0bbbbbbbbbbbbbbb3': 'c5n.9xlarge' };

describe("each node beside one client's ceiling", () => {
  test('the ceiling of each node: its connections, its type\'s network when catalogued, Lustre with no bound counted', () => {
    const r = aggregate('r', WITH_MOUNTS, ESTIMATE, { instanceTypes: TYPES });
    expect(r.nodes.map((n) => [n.fsType, n.nconnect, n.instanceType, n.ceiling?.maxMBps])).toEqual([
      ['nfs4', 16, 'm4.xlarge', 93.75], // its 0.75 Gbps network, under 16 x 5 Gbps
      ['nfs4', 1, 'c5n.9xlarge', 625], // one 5 Gbps flow; its network not catalogued
      ['lustre', undefined, 'c5n.9xlarge', undefined],
    ]);
    expect(r.nodes[2].ceiling?.limitedBy).toMatch(/^no bound counted: FSx for Lustre: nconnect does not apply/);
    // Inside a cluster placement group one flow counts 10 Gbps; a line without the mount, as an older script prints it,
    // gets no ceiling.
    expect(aggregate('r', WITH_MOUNTS, ESTIMATE, { instanceTypes: TYPES, placementGroup: true }).nodes[1].ceiling?.maxMBps).toBe(1250);
    expect(aggregate('r', RECORDED, ESTIMATE).nodes.map((n) => n.ceiling)).toEqual([undefined, undefined]);
  });

  test('the report: each node, its ceiling and the ratios; which bound each ceiling is; the ceilings added up against the plan', () => {
    const report = formatReport(aggregate('r', WITH_MOUNTS.slice(0, 2), ESTIMATE, { instanceTypes: TYPES }));
    // node01: 1 GiB in 20 s write = 53.7 MB/s, in 16 s read = 67.1 MB/s, against 93.75: 0.57 and 0.72.
    expect(report).toMatch(/^node +host +GiB +write MB\/s +read MB\/s +ceiling MB\/s +write \/ ceiling +read \/ ceiling$/m);
    expect(report).toMatch(/^i-0bbbbbbbbbbbbbbb1 +node01 +1\.00 +54 +67 +94 +0\.57 +0\.72$/m);
    // node02: 268.4 and 536.9 MB/s against one flow's 625: 0.43 and 0.86.
    expect(report).toMatch(/^i-0bbbbbbbbbbbbbbb2 +node02 +1\.00 +268 +537 +625 +0\.43 +0\.86$/m);
    expect(report).toContain("  i-0bbbbbbbbbbbbbbb1: the client's network baseline, m4.xlarge: 0.75 Gbps\n");
    expect(report).toContain('  i-0bbbbbbbbbbbbbbb2: nconnect=1: 1 TCP flow x 5 Gbps, outside a cluster placement group; c5n.9xlarge is not in the catalogue');
    // 93.75 + 625 = 718.75 MB/s, above the plan's sustained 250.
    expect(report).toContain("The nodes' ceilings add up to 719 MB/s, at least the plan's sustained 250 MB/s: by this bound these nodes " +
      'together can take it (the network of a type not in the catalogue is not counted).');
    expect(report).not.toMatch(/Above its ceiling/);
    // Two slow nodes against 1250 MB/s sustained: they cannot show it, and the report says so, asserting nothing.
    const short = formatReport(aggregate('r', WITH_MOUNTS.slice(0, 1), { ...ESTIMATE, sustainedReadMBps: 1250, sustainedWriteMBps: 1250 }, { instanceTypes: TYPES }));
    expect(short).toContain("The nodes' ceilings add up to 94 MB/s, less than the plan's sustained 1250 MB/s: these nodes together cannot show");
  });

  test('a node above its ceiling is named: the inputs of the bound are off', () => {
    // node02 read 536.9 MB/s: more than a node catalogued at 0.75 Gbps, 93.75 MB/s, can, were it an m4.xlarge.
    const report = formatReport(aggregate('r', WITH_MOUNTS.slice(1, 2), ESTIMATE, { instanceTypes: { 'i-0bbbbbbbbbbbbbbb2': 'm4.xlarge' } }));
    expect(report).toContain("Above its ceiling (i-0bbbbbbbbbbbbbbb2): the bound's inputs are off");
  });

  test('Lustre nodes and nodes of an older script: a dash, not a figure, and no sum', () => {
    const report = formatReport(aggregate('r', [WITH_MOUNTS[2], RECORDED[0]], ESTIMATE, { instanceTypes: TYPES }));
    expect(report).toMatch(/^i-0bbbbbbbbbbbbbbb3 +node03 +1\.00 +268 +537 +- +- +-$/m);
    expect(report).toContain("  i-0aaaaaaaaaaaaaaa1: none: the node's script did not say its mount");
    expect(report).not.toContain("ceilings add up");
  });
});

describe('the result', () => {
  test('aggregate: all bytes over the slowest node\'s time, per phase; failed nodes named with their reason', () => {
    const r = aggregate('r', RECORDED, ESTIMATE);
    // write: 2 x 17179869184 B over 100 s = 343.6 MB/s; read: over 50 s = 687.2 MB/s
    expect(r.writeMBps).toBeCloseTo(343.597, 2);
    expect(r.readMBps).toBeCloseTo(687.195, 2);
    expect(r.nodes.map((n) => n.host)).toEqual(['node01', 'node02']);
    expect(r.failed).toEqual([{ instanceId: 'i-0aaaaaaaaaaaaaaa3', status: 'Failed', detail: 'cluster-bench: ERROR: /data is not a mount point: the storage is not mounted on this node' }]);
  });

  test('the report: each node, the aggregate beside the estimate, and the ratio to the sustained figure', () => {
    const report = formatReport(aggregate('r', RECORDED, ESTIMATE));
    expect(report).toContain('Cluster benchmark r: 2 node(s)');
    expect(report).toMatch(/i-0aaaaaaaaaaaaaaa1\s+node01\s+16\.00\s+215\s+344/);
    expect(report).toMatch(/i-0aaaaaaaaaaaaaaa3\s+FAILED \(Failed\): cluster-bench: ERROR: \/data is not a mount point/);
    expect(report).toMatch(/write MB\/s\s+344\s+250\s+500\s+1\.37/);
    expect(report).toMatch(/read MB\/s\s+687\s+250\s+500\s+2\.75/);
    expect(report).not.toMatch(/lower bound/);
  });

  test('the report on a d3/d3en server says its estimate is a lower bound (per-disk throughput unpublished)', () => {
    const report = formatReport(aggregate('r', RECORDED, { ...ESTIMATE, lowerBound: true }));
    expect(report).toMatch(/The estimate is a lower bound \(per-disk throughput unpublished\): above 1 is the disks giving more than it;/);
  });

  test('arguments: defaults, and bad values named', () => {
    expect(parseArgs(['--stack', 'S'])).toEqual({ stack: 'S', clients: 8, sizeGiB: undefined, timeoutMinutes: 120, placementGroup: false });
    expect(parseArgs(['--placement-group', '--stack', 'S'])).toMatchObject({ stack: 'S', placementGroup: true });
    expect(parseArgs(['--stack', 'S', '--clients', '3', '--size', '10'])).toMatchObject({ clients: 3, sizeGiB: 10 });
    expect(() => parseArgs(['--stack', 'S', '--clients', '0'])).toThrow("--clients must be a whole number from 1 to 256, got '0'");
    expect(() => parseArgs([])).toThrow(/--stack must name a CloudFormation stack/);
    expect(() => parseArgs(['--stack', 'S', 'extra'])).toThrow(/unexpected argument\(s\) extra/);
  });
});
