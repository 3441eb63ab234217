import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { EC2Client, RunInstancesCommand, StopInstancesCommand } from '@aws-sdk/client-ec2';
import {
  CreateDocumentCommand, GetParameterCommand, ListCommandsCommand, SendCommandCommand, SSMClient, type SendCommandCommandInput,
} from '@aws-sdk/client-ssm';
import { type BenchEstimate, type Invocation, aggregate, formatReport, parseArgs, runClusterBench } from '../../bin/bench-cluster';
import { renderBenchDocument } from '../../lib/bench-document';
import { startMoto, type Moto } from '../support/moto';

// npm run bench:cluster (bin/bench-cluster.ts) against moto: it finds the stack's outputs and its running tagged
// nodes, sends the benchmark document with the size and run id, waits for every node and records the result.
// moto runs no command on an instance (each invocation "succeeds" with no output), so the figures and the report
// are tested with recorded node outputs below; the node's script with real fio runs in the VM tests.

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
 * The SendCommand request the run made (captured on its way to moto, which accepted it). moto's own record of a
 * command lists instances the request did not name (it adds every instance for an empty Targets), so the request
 * is what is checked; moto's record shows the document and parameters it took.
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
    // The two first running nodes of the cluster (not the stopped one, the untagged one or hpc2's).
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

/** Recorded outputs of cluster-bench.sh (the shape the VM tests print), as GetCommandInvocation returns them. */
const RECORDED: Invocation[] = [
  { InstanceId: 'i-0aaaaaaaaaaaaaaa1', Status: 'Success', StandardOutputContent: '{"host":"node01","run":"r","sizeMiB":16384,"writeBytes":17179869184,"writeMs":80000,"readBytes":17179869184,"readMs":50000}\n' },
  { InstanceId: 'i-0aaaaaaaaaaaaaaa2', Status: 'Success', StandardOutputContent: 'cluster-bench: installing fio\n{"host":"node02","run":"r","sizeMiB":16384,"writeBytes":17179869184,"writeMs":100000,"readBytes":17179869184,"readMs":40000}\n' },
  { InstanceId: 'i-0aaaaaaaaaaaaaaa3', Status: 'Failed', StandardOutputContent: '', StandardErrorContent: 'cluster-bench: ERROR: /data is not a mount point: the storage is not mounted on this node\n' },
];

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
    expect(parseArgs(['--stack', 'S'])).toEqual({ stack: 'S', clients: 8, sizeGiB: undefined, timeoutMinutes: 120 });
    expect(parseArgs(['--stack', 'S', '--clients', '3', '--size', '10'])).toMatchObject({ clients: 3, sizeGiB: 10 });
    expect(() => parseArgs(['--stack', 'S', '--clients', '0'])).toThrow("--clients must be a whole number from 1 to 256, got '0'");
    expect(() => parseArgs([])).toThrow(/--stack must name a CloudFormation stack/);
    expect(() => parseArgs(['--stack', 'S', 'extra'])).toThrow(/unexpected argument\(s\) extra/);
  });
});
