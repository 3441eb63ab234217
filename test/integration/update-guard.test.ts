import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateNetworkInterfaceCommand, CreateSubnetCommand, CreateVolumeCommand, CreateVpcCommand, EC2Client, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, FSxClient } from '@aws-sdk/client-fsx';
import { handler } from '../../lambda/update-guard';
import { PROP } from '../../lambda/update-guard/contract';
import { motoEnv, startMoto, MOTO_SETUP_TIMEOUT_MS, type Moto } from '../support/moto';

// The update guard's two AWS questions against moto, through the handler as Lambda runs it (the SDK reads the
// endpoint, region and credentials from the environment): at Create, which resources already carry the server's
// id (EC2 instances, volumes, network interfaces; FSx file systems), and before a refusal, the stack's status.
// moto cannot put a stack in UPDATE_ROLLBACK_IN_PROGRESS: that branch is shown with a stand-in in
// test/unit/update-guard-watched.test.ts.

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
    // The status was read (no error logged about it).
    expect(errors.join('\n')).not.toContain('could not read the stack status');
  });
});
