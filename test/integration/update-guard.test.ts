import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateNetworkInterfaceCommand, CreateSubnetCommand, CreateVolumeCommand, CreateVpcCommand, EC2Client, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, FSxClient } from '@aws-sdk/client-fsx';
import { handler, type GuardContext } from '../../lambda/update-guard';
import { fileSystemActions, physicalIdIn } from '../../lambda/update-guard/aws';
import { PROP, layoutPhysicalId, parseGuardProperties } from '../../lambda/update-guard/contract';
import { STATUS_DEADLINE_MS, STATUS_MAX_ATTEMPTS, STATUS_RESERVE_MS } from '../../lambda/update-guard/status-read';
import { watchedDigest, parseWatched } from '../../lambda/update-guard/watched';
import { motoEnv, startMoto, MOTO_SETUP_TIMEOUT_MS, type Moto } from '../support/moto';
import { CFN_INTERNAL_ERROR, CFN_THROTTLED, startFaultProxy, withStackStatus, type FaultProxy, type FaultRule } from './fault-proxy';

// The update guard's two AWS questions against moto, through the handler as Lambda runs it, with the SDK reading the
// endpoint, region and credentials from the environment. At Create it asks which resources already carry the server's
// id: EC2 instances, volumes and network interfaces, and FSx file systems. Before a refusal it asks the stack's status.
// moto cannot put a stack in UPDATE_ROLLBACK_IN_PROGRESS. So a loopback fault proxy in front of it, fault-proxy.ts,
// rewrites the status DescribeStacks answers, or answers with throttling and 5xx errors, so that the handler's real SDK
// client retries over real HTTP.

let moto: Moto;
let ec2: EC2Client;
let subnetId: string;
const saved = { ...process.env };
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

beforeAll(async () => {
  moto = await startMoto();
  Object.assign(process.env, motoEnv(moto.endpoint));
  ec2 = new EC2Client({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' }));
  const subnet = await ec2.send(new CreateSubnetCommand({ VpcId: vpc.Vpc!.VpcId!, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' }));
  subnetId = subnet.Subnet!.SubnetId!;
}, MOTO_SETUP_TIMEOUT_MS);
afterAll(async () => {
  process.env = saved;
  ec2?.destroy();
  await moto?.stop();
});
beforeEach(() => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const TAG = 'storage-server:id';
const layout = (snapshotIds: string[] = []) => ({
  [PROP.backend]: 'ebs', [PROP.instanceStoreType]: '', [PROP.dataVolumes]: ['0:500'], [PROP.snapshotIds]: snapshotIds,
  [PROP.encryptionKey]: 'aws/ebs', [PROP.availabilityZone]: 'us-east-1a', [PROP.imageId]: '', [PROP.keyPair]: '',
  [PROP.placementGroup]: '', [PROP.volumeAttachment]: 'server', [PROP.acceptDataLoss]: 'false',
});
const identity = (serverId: string) => ({ StackName: serverId.split('/')[0], ClusterName: 'hpc', ServerName: serverId.split('/')[1], ServerId: serverId });
const create = (serverId: string, extra: Record<string, unknown> = {}) => handler({
  RequestType: 'Create', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1',
  RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard',
  ResourceProperties: { ServiceToken: 't', ...layout(), Identity: identity(serverId), ...extra },
} as never);

describe('Create: resources already tagged as this server', () => {
  test('nothing tagged: recorded', async () => {
    await expect(create('StorageServer-hpc-fresh/storage1')).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('a retained volume, an interface and a running instance of the same server: refused, each named, with the safe path', async () => {
    const id = 'StorageServer-hpc-old/storage1';
    const tags = (ResourceType: 'volume' | 'network-interface' | 'instance') => [{ ResourceType, Tags: [{ Key: TAG, Value: id }] }];
    const vol = await ec2.send(new CreateVolumeCommand({ AvailabilityZone: 'us-east-1a', Size: 500, VolumeType: 'st1', TagSpecifications: tags('volume') }));
    const eni = await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnetId, TagSpecifications: tags('network-interface') }));
    const run = await ec2.send(new RunInstancesCommand({ ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, SubnetId: subnetId, TagSpecifications: tags('instance') }));
    // Another server's volume is not this one's.
    await ec2.send(new CreateVolumeCommand({ AvailabilityZone: 'us-east-1a', Size: 500, TagSpecifications: [{ ResourceType: 'volume', Tags: [{ Key: TAG, Value: `${id}x` }] }] }));

    const refused = create(id);
    await expect(refused).rejects.toThrow(/^StorageServer create refused, nothing was changed: resources tagged storage-server:id=StorageServer-hpc-old\/storage1 already exist/);
    const message = await create(id).catch((e: Error) => e.message);
    expect(message).toContain(`volume ${vol.VolumeId}`);
    expect(message).toContain(`network-interface ${eni.NetworkInterface!.NetworkInterfaceId}`);
    expect(message).toContain(`instance ${run.Instances![0].InstanceId}`);
    expect(message).toContain('restoreSnapshotIds');
    expect(message).toContain('acceptDataLoss=true');
    expect(message.match(/volume /g)).toHaveLength(1);
  });

  test('a terminated instance is not counted', async () => {
    const id = 'StorageServer-hpc-gone/storage1';
    const run = await ec2.send(new RunInstancesCommand({
      ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, SubnetId: subnetId,
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: TAG, Value: id }] }],
    }));
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [run.Instances![0].InstanceId!] }));
    await expect(create(id)).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('an FSx file system of the same server: refused', async () => {
    const id = 'StorageServer-hpc-fsx/storage1';
    const fsx = new FSxClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const fs = await fsx.send(new CreateFileSystemCommand({
      FileSystemType: 'LUSTRE', StorageCapacity: 1200, SubnetIds: [subnetId], Tags: [{ Key: TAG, Value: id }],
    }));
    fsx.destroy();
    await expect(create(id)).rejects.toThrow(`file-system ${fs.FileSystem!.FileSystemId}`);
  });

  test('an FSx for OpenZFS file system of the same server: refused, for a guard of that backend', async () => {
    const id = 'StorageServer-hpc-openzfs/storage1';
    const fsx = new FSxClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const fs = await fsx.send(new CreateFileSystemCommand({
      FileSystemType: 'OPENZFS', StorageCapacity: 64, SubnetIds: [subnetId], Tags: [{ Key: TAG, Value: id }],
      OpenZFSConfiguration: { DeploymentType: 'SINGLE_AZ_2', ThroughputCapacity: 160 },
    }));
    fsx.destroy();
    const openZfs = {
      [PROP.backend]: 'fsx-openzfs', [PROP.dataVolumes]: [], [PROP.encryptionKey]: 'aws/fsx', [PROP.volumeAttachment]: 'stack',
      [PROP.fileSystemType]: 'SINGLE_AZ_2/SSD', [PROP.storageCapacityGiB]: '64', [PROP.subnetId]: subnetId, [PROP.throughputCapacity]: '160',
    };
    await expect(create(id, openZfs)).rejects.toThrow(`file-system ${fs.FileSystem!.FileSystemId}`);
  });

  test('a restore (snapshot ids) or acceptDataLoss creates beside them', async () => {
    const id = 'StorageServer-hpc-restore/storage1';
    await ec2.send(new CreateVolumeCommand({ AvailabilityZone: 'us-east-1a', Size: 500, TagSpecifications: [{ ResourceType: 'volume', Tags: [{ Key: TAG, Value: id }] }] }));
    await expect(create(id)).rejects.toThrow(/already exist/);
    await expect(create(id, { [PROP.snapshotIds]: ['snap-0123456789abcdef0'] })).resolves.toHaveProperty('PhysicalResourceId');
    await expect(create(id, { [PROP.acceptDataLoss]: 'true' })).resolves.toHaveProperty('PhysicalResourceId');
  });
});

describe('Update: the stack status read before a refusal', () => {
  test('a stack that is not rolling back: the refusal stands', async () => {
    const cfn = new CloudFormationClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const stack = await cfn.send(new CreateStackCommand({
      StackName: 'guard-status', TemplateBody: JSON.stringify({ Resources: { T: { Type: 'AWS::SNS::Topic' } } }),
    }));
    cfn.destroy();
    const old = { ServiceToken: 't', ...layout(), Identity: identity('guard-status/storage1') };
    const next = { ...old, Identity: { ...old.Identity, ClusterName: 'other' } };
    const errors: string[] = [];
    (console.error as jest.Mock).mockImplementation((line: string) => errors.push(line));
    await expect(handler({
      RequestType: 'Update', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: stack.StackId!,
      RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard', PhysicalResourceId: 'storage-layout-0',
      ResourceProperties: next, OldResourceProperties: old,
    } as never)).rejects.toThrow('Identity.ClusterName hpc -> other');
    // The status was read, and no error about it was logged.
    expect(errors.join('\n')).not.toContain('could not read the stack status');
  });
});

/** The SDK's default attempts per call; the status read must be configured to go beyond it. */
const SDK_DEFAULT_MAX_ATTEMPTS = 3;

describe('Update: a rollback and a user\'s revert send the same Update; the stack status tells them apart', () => {
  let proxy: FaultProxy;
  let stackId: string;
  let errors: string[];
  beforeAll(async () => {
    proxy = await startFaultProxy(moto.endpoint);
    const cfn = new CloudFormationClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const stack = await cfn.send(new CreateStackCommand({
      StackName: 'guard-rollback', TemplateBody: JSON.stringify({ Resources: { T: { Type: 'AWS::SNS::Topic' } } }),
    }));
    cfn.destroy();
    stackId = stack.StackId!;
  });
  afterAll(async () => {
    process.env.AWS_ENDPOINT_URL = moto.endpoint;
    await proxy?.stop();
  });
  beforeEach(() => {
    // The handler's clients go through the proxy; the test's own clients above talk to moto directly.
    process.env.AWS_ENDPOINT_URL = proxy.endpoint;
    errors = [];
    (console.error as jest.Mock).mockImplementation((line: string) => errors.push(line));
  });

  // The guard accepted growth, 0:500 -> 0:800. The Update back to 0:500 is CloudFormation's rollback when a later
  // resource failed, or a user's revert, which would shrink the volume: the event is the same either way.
  const before = { ServiceToken: 't', ...layout(), Identity: identity('guard-rollback/storage1') };
  const grown = { ...before, [PROP.dataVolumes]: ['0:800'] };
  const idOf = (props: Record<string, unknown>) =>
    layoutPhysicalId(parseGuardProperties(props).layout, watchedDigest(parseWatched(props, 'ResourceProperties')));
  const back = (context?: GuardContext) => handler({
    RequestType: 'Update', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: stackId,
    RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: 'Custom::StorageServerUpdateGuard', PhysicalResourceId: idOf(grown),
    ResourceProperties: before, OldResourceProperties: grown,
  } as never, context);
  const describes = () => proxy.operations.filter((o) => o === 'DescribeStacks').length;
  /** The first `throttled` DescribeStacks calls throttled, the rest answered with the stack in `status`. */
  const statusAfter = (throttled: number, status: string): FaultRule => {
    let seen = 0;
    return (op) => {
      if (op !== 'DescribeStacks') return undefined;
      seen += 1;
      return seen <= throttled ? { respond: CFN_THROTTLED } : { rewrite: withStackStatus(status) };
    };
  };

  test('the status read: the rollback passes; the same Update as a user\'s update, which shrinks a volume, is refused', async () => {
    proxy.reset(statusAfter(0, 'UPDATE_ROLLBACK_IN_PROGRESS'));
    await expect(back()).resolves.toEqual({ PhysicalResourceId: idOf(before) });
    proxy.reset(statusAfter(0, 'UPDATE_IN_PROGRESS'));
    const message = await back().catch((e: Error) => e.message);
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: DataVolumes 0:800 -> 0:500: EBS cannot shrink a volume/);
    expect(message).not.toContain('continue-update-rollback');
    expect(describes()).toBe(1);
  });

  test('the client is configured for more attempts than the SDK default', () => {
    expect(STATUS_MAX_ATTEMPTS).toBeGreaterThan(SDK_DEFAULT_MAX_ATTEMPTS);
  });

  test('DescribeStacks throttled more often than the SDK default would retry, then answered: the rollback passes', async () => {
    proxy.reset(statusAfter(SDK_DEFAULT_MAX_ATTEMPTS, 'UPDATE_ROLLBACK_IN_PROGRESS'));
    await expect(back()).resolves.toEqual({ PhysicalResourceId: idOf(before) });
    expect(describes()).toBe(SDK_DEFAULT_MAX_ATTEMPTS + 1);
  });

  test('DescribeStacks throttled on every attempt: the rollback is refused with the way to continue it, naming the stack', async () => {
    proxy.reset((op) => (op === 'DescribeStacks' ? { respond: CFN_THROTTLED } : undefined));
    const started = Date.now();
    const message = await back().catch((e: Error) => e.message);
    expect(Date.now() - started).toBeLessThan(STATUS_DEADLINE_MS + 1_000);
    expect(message).toMatch(/^StorageServer update refused: the update guard could not read its stack's status \(DescribeStacks: Throttling: Rate exceeded\)/);
    expect(message).toContain('aws cloudformation continue-update-rollback --stack-name guard-rollback ');
    expect(message).toContain('https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-updating-stacks-continueupdaterollback.html');
    expect(message).toContain('DataVolumes 0:800 -> 0:500: EBS cannot shrink a volume');
    // Retried by the SDK, up to its configured attempts; the deadline stops it sooner only if every wait is near its
    // longest.
    expect(describes()).toBeGreaterThan(SDK_DEFAULT_MAX_ATTEMPTS);
    expect(describes()).toBeLessThanOrEqual(STATUS_MAX_ATTEMPTS);
    expect(errors.join('\n')).toContain('could not read the stack status');
  });

  test('DescribeStacks failing with a 5xx on every attempt: a user\'s revert is refused the same way, after every attempt', async () => {
    proxy.reset((op) => (op === 'DescribeStacks' ? { respond: CFN_INTERNAL_ERROR } : undefined));
    const message = await back().catch((e: Error) => e.message);
    expect(message).toMatch(/^StorageServer update refused: the update guard could not read its stack's status \(DescribeStacks: InternalFailure: We encountered an internal error\.\)/);
    expect(message).toContain('aws cloudformation continue-update-rollback --stack-name guard-rollback ');
    expect(message).toContain('If it was an update, nothing was changed, and these refusals stand: DataVolumes 0:800 -> 0:500');
    expect(describes()).toBe(STATUS_MAX_ATTEMPTS);
  });

  test('DescribeStacks never answering: the read stops at its deadline, before the time the function keeps, and refuses the same way', async () => {
    proxy.reset((op) => (op === 'DescribeStacks' ? { stall: true } : undefined));
    // A function with 7 s to spare beyond what the guard keeps for the refusal: the read's deadline is those 7 s, room
    // for one request timeout (5 s, STATUS_CLIENT_CONFIG) and its retry.
    const remaining = STATUS_RESERVE_MS + 7_000;
    const started = Date.now();
    const message = await back({ getRemainingTimeInMillis: () => remaining - (Date.now() - started) }).catch((e: Error) => e.message);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(7_000 - 100);
    expect(elapsed).toBeLessThan(remaining - STATUS_RESERVE_MS + 2_000);
    expect(message).toContain('(DescribeStacks: no answer within the 7 s the guard gives the read)');
    expect(message).toContain('aws cloudformation continue-update-rollback --stack-name guard-rollback ');
    // Each stalled attempt ended by the request timeout and retried, until the deadline.
    expect(describes()).toBeGreaterThan(1);
  });
});

describe('Update: the two calls of the 6-hour growth interval (OPENZFS-GROWTH-INTERVAL), against moto', () => {
  test('the physical id of a logical id of the guard\'s stack; none for another', async () => {
    const cfn = new CloudFormationClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const stack = await cfn.send(new CreateStackCommand({
      StackName: 'guard-growth', TemplateBody: JSON.stringify({ Resources: { FileSystem: { Type: 'AWS::SNS::Topic' } } }),
    }));
    cfn.destroy();
    await expect(physicalIdIn(stack.StackId!, 'FileSystem')).resolves.toMatch(/^arn:aws:sns:us-east-1:\d{12}:guard-growth-FileSystem-/);
    await expect(physicalIdIn(stack.StackId!, 'Other')).resolves.toBeUndefined();
  });

  test('a file system FSx knows: its actions (moto lists none); one it does not know: none, not an error', async () => {
    const fsx = new FSxClient({ endpoint: moto.endpoint, region: 'us-east-1', credentials });
    const fs = await fsx.send(new CreateFileSystemCommand({
      FileSystemType: 'OPENZFS', StorageCapacity: 64, SubnetIds: [subnetId], OpenZFSConfiguration: { DeploymentType: 'SINGLE_AZ_2', ThroughputCapacity: 160 },
    }));
    fsx.destroy();
    await expect(fileSystemActions(fs.FileSystem!.FileSystemId!)).resolves.toEqual([]);
    await expect(fileSystemActions('fs-0123456789abcdef0')).resolves.toEqual([]);
  });
});
