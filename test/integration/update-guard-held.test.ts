import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateTagsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { handler } from '../../lambda/update-guard';
import { describeHeld, heldResources } from '../../lambda/update-guard/aws';
import { PROP } from '../../lambda/update-guard/contract';
import { HELD_TYPES, KEPT_PROP } from '../../lambda/update-guard/held';
import { motoEnv, startMoto, MOTO_SETUP_TIMEOUT_MS, type Moto } from '../support/moto';

// What the stack holds, read as the guard reads it in Lambda, against stacks moto created from templates. That is
// CloudFormation's ListStackResources over the root stack and its nested stacks, and EC2's Describe calls for each
// resource's tag and instance type. moto names a nested stack by its logical id and gives no RootId. So the guard's
// walk from a nested stack up to its root is shown with a recorded response in test/unit/update-guard-held.test.ts.

let moto: Moto;
let cfn: CloudFormationClient;
let ec2: EC2Client;
let stackId: string;
const saved = { ...process.env };
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const TAG = 'storage-server:id';

const volume = { Type: 'AWS::EC2::Volume', Properties: { AvailabilityZone: 'us-east-1a', Size: 500 } };
const instance = (type: string) => ({ Type: 'AWS::EC2::Instance', Properties: { ImageId: 'ami-12c6146b', InstanceType: type } });

beforeAll(async () => {
  moto = await startMoto();
  Object.assign(process.env, motoEnv(moto.endpoint));
  const client = { endpoint: moto.endpoint, region: 'us-east-1', credentials };
  cfn = new CloudFormationClient(client);
  ec2 = new EC2Client(client);
  // The nested template in moto's S3, path style; moto does not check signatures, and the project has no S3 client.
  for (const [url, body] of [[`${moto.endpoint}/templates`, ''], [`${moto.endpoint}/templates/nested.json`,
    JSON.stringify({ Resources: { NestedVolume: volume, NestedInstance: instance('d2.xlarge') } })]]) {
    const put = await fetch(url, { method: 'PUT', body });
    if (!put.ok) throw new Error(`moto S3 PUT ${url}: ${put.status}`);
  }
  const stack = await cfn.send(new CreateStackCommand({
    StackName: 'StorageServer-hpc-home',
    TemplateBody: JSON.stringify({
      Resources: {
        HomeVolume: volume,
        OtherVolume: volume,
        HomeInstance: instance('m4.xlarge'),
        Data: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://s3.amazonaws.com/templates/nested.json' } },
      },
    }),
  }));
  stackId = stack.StackId!;
  // CloudFormation applies a resource's Tags; moto's CloudFormation does not: tag them as the template would.
  const held = await heldResources(stackId);
  const byPath = new Map(held.map((h) => [h.path, h.physicalId]));
  const tag = (path: string, value: string) => ec2.send(new CreateTagsCommand({ Resources: [byPath.get(path)!], Tags: [{ Key: TAG, Value: value }] }));
  await tag('HomeVolume', 'StorageServer-hpc-home/home');
  await tag('HomeInstance', 'StorageServer-hpc-home/home');
  await tag('Data/NestedVolume', 'StorageServer-hpc-home/scratch');
  await tag('Data/NestedInstance', 'StorageServer-hpc-home/scratch');
}, MOTO_SETUP_TIMEOUT_MS);
afterAll(async () => {
  process.env = saved;
  cfn?.destroy();
  ec2?.destroy();
  await moto?.stop();
});
beforeEach(() => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const ALL = ['HomeVolume', 'OtherVolume', 'HomeInstance', 'Data/NestedVolume', 'Data/NestedInstance'];
const kept = (paths: readonly string[]) => ({
  Stack: '',
  Resources: Object.fromEntries(HELD_TYPES.map((t) => [t, paths.filter((p) => (t === 'AWS::EC2::Volume') === p.endsWith('Volume') &&
    (t === 'AWS::EC2::Instance') === p.endsWith('Instance'))])),
});
const layout = {
  [PROP.backend]: 'ebs', [PROP.instanceStoreType]: '', [PROP.dataVolumes]: ['0:500'], [PROP.snapshotIds]: [],
  [PROP.encryptionKey]: 'aws/ebs', [PROP.availabilityZone]: 'us-east-1a', [PROP.imageId]: '', [PROP.keyPair]: '',
  [PROP.placementGroup]: '', [PROP.volumeAttachment]: 'server', [PROP.acceptDataLoss]: 'false',
};
const create = (keep: readonly string[], acceptDataLoss = 'false') => handler({
  RequestType: 'Create', ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: stackId,
  RequestId: 'r', LogicalResourceId: 'WorkGuard', ResourceType: 'Custom::StorageServerUpdateGuard',
  ResourceProperties: { ServiceToken: 't', ...layout, [PROP.acceptDataLoss]: acceptDataLoss, [KEPT_PROP]: kept(keep) },
} as never);

describe('what the stack holds, from CloudFormation and EC2', () => {
  test('every volume and instance of the root stack and its nested stack, by path from the root', async () => {
    const held = await heldResources(stackId);
    expect(held.map((h) => `${h.path} ${h.type}`).sort()).toEqual([
      'Data/NestedInstance AWS::EC2::Instance', 'Data/NestedVolume AWS::EC2::Volume', 'HomeInstance AWS::EC2::Instance',
      'HomeVolume AWS::EC2::Volume', 'OtherVolume AWS::EC2::Volume',
    ]);
    expect(held.every((h) => /^(vol|i)-[0-9a-f]+$/.test(h.physicalId))).toBe(true);
  });

  test('each resource\'s server tag, and whether an instance\'s type has instance store (DescribeInstanceTypes)', async () => {
    const held = await heldResources(stackId);
    const described = await describeHeld(held);
    const of = (path: string) => described.find((d) => d.physicalId === held.find((h) => h.path === path)!.physicalId);
    expect(of('HomeVolume')).toEqual({ physicalId: expect.any(String), serverId: 'StorageServer-hpc-home/home' });
    expect(of('OtherVolume')).toEqual({ physicalId: expect.any(String), serverId: undefined });
    expect(of('HomeInstance')).toEqual(expect.objectContaining({ serverId: 'StorageServer-hpc-home/home', instanceStore: false }));
    expect(of('Data/NestedInstance')).toEqual(expect.objectContaining({ serverId: 'StorageServer-hpc-home/scratch', instanceStore: true }));
  });
});

describe('a deploy that drops what the stack holds', () => {
  test('everything kept (a redeploy, or a second server added beside the first): accepted', async () => {
    await expect(create(ALL)).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('a server\'s volume dropped (a rename of its construct, whatever its serverName): refused, naming the path and the volume', async () => {
    const message = await create(ALL.filter((p) => p !== 'HomeVolume')).catch((e: Error) => e.message);
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: Resource HomeVolume AWS::EC2::Volume vol-[0-9a-f]+ \(storage-server:id=StorageServer-hpc-home\/home\) -> \(not in the template\)/);
    expect(message).toContain('deploy the server that made it under its old construct id and place, nested stack and serverName ("home")');
  });

  test('a nested stack\'s instance-store instance dropped (the server moved out of the nested stack): refused', async () => {
    await expect(create(ALL.filter((p) => p !== 'Data/NestedInstance'))).rejects.toThrow(/Resource Data\/NestedInstance AWS::EC2::Instance i-[0-9a-f]+ .*its instance-store disks hold the data/);
  });

  test('an EBS server\'s instance dropped: accepted (its volumes hold the data, and they are kept)', async () => {
    await expect(create(ALL.filter((p) => p !== 'HomeInstance'))).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('a volume no server is tagged with dropped: accepted (not the guard\'s to judge)', async () => {
    await expect(create(ALL.filter((p) => p !== 'OtherVolume'))).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('with acceptDataLoss: accepted, and the loss logged', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(create(ALL.filter((p) => p !== 'HomeVolume'), 'true')).resolves.toHaveProperty('PhysicalResourceId');
    expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toContain('"setting":"Resource HomeVolume"');
  });
});
