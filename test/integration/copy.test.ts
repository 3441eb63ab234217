import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import {
  CreateDocumentCommand, GetCommandInvocationCommand, ListCommandsCommand, PutParameterCommand, SendCommandCommand, SSMClient,
  type SendCommandCommandInput,
} from '@aws-sdk/client-ssm';
import { type CopyArgs, formatResult, parseArgs, parseInvocation, runCopy, switchSteps } from '../../bin/copy';
import { renderCopyDocument } from '../../lib/copy-document';
import { startMoto, type Moto } from '../support/moto';

// npm run copy, bin/copy.ts, against moto: it reads both mount records, the target's stack outputs and its running
// tagged nodes, sends the copy document to one node and waits. moto runs no command on an instance: its invocations
// "succeed" with no output, so the node's line is a recorded one below; the node's script runs in
// test/unit/copy-document.test.ts with real rsync.

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: Moto;
let aws: { cloudFormation: CloudFormationClient; ec2: EC2Client; ssm: SSMClient };
let nodes: string[];
let ssmWrites: string[];

async function record(server: string, mountPoint: string, stackId?: string): Promise<void> {
  await aws.ssm.send(new PutParameterCommand({
    Name: `/storage-server/hpc1/storage/${server}/mount`, Type: 'String', Overwrite: true,
    Value: JSON.stringify({ server: '10.0.0.5', exportPath: '/export', mountPoint, fsType: 'nfs4', options: 'hard', fstab: 'x',
      ...(stackId ? { owner: { stackId, logicalResourceId: 'Registration', record: 'mount', clusterName: 'hpc1', serverName: server } } : {}) }),
  }));
}

beforeAll(async () => {
  moto = await startMoto();
  const config = { endpoint: moto.endpoint, region: 'us-east-1', credentials };
  aws = { cloudFormation: new CloudFormationClient({ ...config, maxAttempts: 1 }), ec2: new EC2Client(config), ssm: new SSMClient(config) };
  await aws.ssm.send(new CreateDocumentCommand({ Name: 'StorageCopy', DocumentType: 'Command', Content: JSON.stringify(renderCopyDocument()) }));
  const stack = async (name: string, outputs: Record<string, string>): Promise<string> => (await aws.cloudFormation.send(new CreateStackCommand({
    StackName: name,
    TemplateBody: JSON.stringify({
      Resources: { Placeholder: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
      Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
    }),
  }))).StackId!;
  const oldId = await stack('StorageServer-hpc1-old', { CopyDocumentName: 'StorageCopy', ClientTag: 'cluster=hpc1' });
  const newId = await stack('StorageServer-hpc1-new', { CopyDocumentName: 'StorageCopy', ClientTag: 'cluster=hpc1' });
  const olderId = await stack('StorageServer-hpc1-older', { BenchDocumentName: 'x', ClientTag: 'cluster=hpc1' });
  await record('old', '/data', oldId);
  await record('new', '/data2', newId);
  await record('older', '/data3', olderId);
  await record('unmarked', '/data4');
  await record('same', '/data', newId);
  const run = async (value: string): Promise<string> => (await aws.ec2.send(new RunInstancesCommand({
    ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, InstanceType: 'c5.xlarge',
    TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'cluster', Value: value }] }],
  }))).Instances![0].InstanceId!;
  nodes = [await run('hpc1'), await run('hpc1')].sort();
  await run('hpc2');
}, 120_000);
afterAll(async () => {
  for (const c of Object.values(aws ?? {})) c.destroy();
  await moto?.stop();
});

/** Captures SendCommand requests, answers GetCommandInvocation with `stdout`, and records every SSM write. */
function intercept(stdout?: string, stderr = ''): () => SendCommandCommandInput[] {
  jest.restoreAllMocks();
  const inputs: SendCommandCommandInput[] = [];
  ssmWrites = [];
  const send = aws.ssm.send.bind(aws.ssm);
  jest.spyOn(aws.ssm, 'send').mockImplementation(((command: { input: { InstanceId?: string } }) => {
    const name = command.constructor.name;
    if (/^(Put|Delete|Label|AddTags)/.test(name)) ssmWrites.push(name);
    if (command instanceof SendCommandCommand) inputs.push(command.input as SendCommandCommandInput);
    if (stdout !== undefined && command instanceof GetCommandInvocationCommand) {
      return Promise.resolve({ InstanceId: command.input.InstanceId, Status: stderr ? 'Failed' : 'Success', StandardOutputContent: stdout, StandardErrorContent: stderr });
    }
    return send(command as never);
  }) as never);
  return () => inputs;
}
afterEach(() => jest.restoreAllMocks());

const args = (extra: string[] = []): CopyArgs => parseArgs(['--cluster', 'hpc1', '--from', 'old', '--to', 'new', ...extra]);
const LINE = '{"mode":"copy","from":"hpc1/old","source":"/data","target":"/data2","streams":8,"copied":12,"differences":0}';

describe('npm run copy against the AWS API emulator', () => {
  test('sends the target stack\'s document to the first running node of the cluster with both mount points; writes no record', async () => {
    const sent = intercept(`${LINE}\n`);
    let id = '';
    const { from, to, result } = await runCopy(aws, args(), { pollMs: 10, onSent: (c) => { id = c; } });
    expect(sent()).toHaveLength(1);
    expect(sent()[0].InstanceIds).toEqual([nodes[0]]);
    expect(sent()[0].Parameters).toEqual({
      source: ['/data'], target: ['/data2'], from: ['hpc1/old'], mode: ['copy'], streams: ['8'], allowForeign: ['no'],
    });
    const [command] = (await aws.ssm.send(new ListCommandsCommand({ CommandId: id }))).Commands!;
    expect(command.DocumentName).toBe('StorageCopy');
    expect(result).toEqual({ instanceId: nodes[0], status: 'Success', mode: 'copy', copied: 12, differences: 0 });
    expect(formatResult(args(), from, to, result)).toBe(
      `hpc1: old (/data) -> new (/data2) on ${nodes[0]}: 12 file(s) copied, verified, rsync --checksum -n lists no difference`);
    expect(ssmWrites).toEqual([]);
  });

  test('--verify-only, --streams, --allow-foreign and --node reach the node', async () => {
    const sent = intercept(`${LINE}\n`);
    await runCopy(aws, args(['--verify-only', '--streams', '3', '--node', nodes[1]]), { pollMs: 10 });
    expect(sent()[0].InstanceIds).toEqual([nodes[1]]);
    expect(sent()[0].Parameters).toMatchObject({ mode: ['verify'], streams: ['3'], allowForeign: ['no'] });
    const again = intercept(`${LINE}\n`);
    await runCopy(aws, args(['--allow-foreign']), { pollMs: 10 });
    expect(again()[0].Parameters).toMatchObject({ mode: ['copy'], allowForeign: ['yes'] });
  });

  test('moto\'s empty invocation, a failed node, and differences are reported as such', async () => {
    const { result } = await runCopy(aws, args(), { pollMs: 10 });
    expect(result).toEqual({ instanceId: nodes[0], status: 'Success', detail: 'no output' });
    intercept('', 'storage-copy: ERROR: /data2 is not a mount point: the target server is not mounted on this node');
    const failed = await runCopy(aws, args(), { pollMs: 10 });
    expect(formatResult(args(), failed.from, failed.to, failed.result)).toContain('FAILED (Failed)\nstorage-copy: ERROR: /data2 is not a mount point');
    const differs = parseInvocation({ InstanceId: 'i-1', Status: 'Failed', StandardOutputContent: LINE.replace('"differences":0', '"differences":2'),
      StandardErrorContent: '>fcs....... a\n>fcs....... b' });
    expect(differs).toMatchObject({ differences: 2, detail: '>fcs....... a\n>fcs....... b' });
    // A server that refused NFS 4.2: verified, but the report says without xattrs, in the node's words.
    const warning = 'storage-copy: WARNING: 10.0.0.6:/export/data refuses an NFS 4.2 mount (mount.nfs: Protocol not supported)';
    const noXattrs = parseInvocation({ InstanceId: 'i-1', Status: 'Success', StandardOutputContent: LINE.replace('}', ',"xattrs":false}'),
      StandardErrorContent: warning });
    expect(noXattrs).toMatchObject({ differences: 0, xattrs: false, detail: warning });
    expect(formatResult(args(), failed.from, failed.to, noXattrs)).toMatch(/verified, rsync --checksum -n lists no difference, but without user extended attributes:\nstorage-copy: WARNING: 10\.0\.0\.6/);
  });

  test.each([
    [['--to', 'nope'], "--to nope: cluster hpc1 has no server nope (no parameter /storage-server/hpc1/storage/nope/mount); deploy it first"],
    [['--from', 'nope'], '--from nope: cluster hpc1 has no server nope'],
    [['--to', 'same'], '--from old and --to same both mount on /data: no node can have both mounted'],
    [['--to', 'unmarked'], '--to unmarked: /storage-server/hpc1/storage/unmarked/mount names no stack'],
    [['--to', 'older'], '--to older: stack StorageServer-hpc1-older has no CopyDocumentName or ClientTag output'],
    [['--node', 'i-0123456789abcdef0'], '--node i-0123456789abcdef0 is not a running node tagged cluster=hpc1'],
  ])('refused, naming the flag: %j', async (extra, message) => {
    const base = ['--cluster', 'hpc1', '--from', 'old', '--to', 'new'];
    for (const option of ['--from', '--to']) {
      const at = extra.indexOf(option);
      if (at >= 0) base.splice(base.indexOf(option), 2);
    }
    await expect(runCopy(aws, parseArgs([...base, ...extra]), { pollMs: 10 })).rejects.toThrow(message);
  });
});

describe('npm run copy: its command line and --switch', () => {
  test.each([
    [[], '--cluster is required'],
    [['--cluster', 'hpc1', '--from', 'a b', '--to', 'new'], "--from 'a b' must be 1-64 characters"],
    [['--cluster', 'hpc1', '--from', 'old'], '--to is required'],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'old'], "--from and --to both name 'old'"],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'new', '--streams', '100'], "--streams '100' must be a whole number from 1 to 99"],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'new', '--node', 'host1'], "--node 'host1' must be an EC2 instance id"],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'new', '--prefix', 'x'], "--prefix 'x' must be a parameter path"],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'new', '--swich'], 'unexpected argument(s) --swich'],
    [['--cluster', 'hpc1', '--from', 'old', '--to', 'new', '--verify-only', '--allow-foreign'], '--allow-foreign copies; --verify-only does not'],
  ])('%j: refused', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  test('--switch prints the destroy and the deploy, with both stacks, and runs neither', () => {
    const a = args(['--switch']);
    expect(a.switch).toBe(true);
    const text = switchSteps(a, { server: 'old', parameter: 'p', mountPoint: '/data', stackName: 'StorageServer-hpc1-old' },
      { server: 'new', parameter: 'q', mountPoint: '/data2', stackName: 'StorageServer-hpc1-new' });
    expect(text).toContain('npm run copy -- --cluster hpc1 --from old --to new');
    expect(text).toContain('npx cdk destroy StorageServer-hpc1-old');
    expect(text).toContain('npx cdk deploy StorageServer-hpc1-new -c clusterName=hpc1 -c serverName=new -c mountPoint=/data ...');
    expect(text).toContain('this tool writes none and deploys nothing');
  });
});
