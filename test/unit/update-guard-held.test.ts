import { App, CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { heldResources } from '../../lambda/update-guard/aws';
import { HELD_TYPES, KEPT_PROP, lostStateRefusal, parseKept, unkept, unkeptRefusals } from '../../lambda/update-guard/held';
import { RESOURCE_TYPE } from '../../lambda/update-guard/contract';
import { WATCHED_TYPES } from '../../lambda/update-guard/watched-types';
import { StorageServer } from '../../lib/storage-server';
import { Backend } from '../../lib/backend-enum';

const ACCOUNT = '123456789012';
const ROOT = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/Cluster/11111111-1111-4111-8111-111111111111`;
const NESTED = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/Cluster-DataNestedStackResource-1ABC/22222222-2222-4222-8222-222222222222`;

describe('the Kept property: what the deploy keeps, rendered at synth from the construct tree', () => {
  // GIVEN a server in a nested stack, and a volume of the consumer's own in the root stack
  const app = new App({ context: { '@aws-cdk/core:stackResourceLimit': 0 } });
  const root = new Stack(app, 'Cluster', { env: { account: ACCOUNT, region: 'us-east-1' } });
  const vpc = new ec2.Vpc(root, 'Vpc', { maxAzs: 1, natGateways: 1 });
  new ec2.CfnVolume(root, 'Scratch', { availabilityZone: 'us-east-1a', size: 10 }).overrideLogicalId('ScratchVolume');
  const nested = new NestedStack(root, 'Data');
  new StorageServer(nested, 'Storage', { vpc, clusterName: 'hpc', serverName: 'home', backend: Backend.EBS, capacityTiB: 2 });
  // WHEN
  const template = Template.fromStack(nested);
  const [guard] = Object.values(template.findResources(RESOURCE_TYPE));
  const kept = parseKept(guard.Properties[KEPT_PROP], KEPT_PROP)!;
  const nestedId = root.resolve((nested.nestedStackResource as CfnResource).logicalId) as string;

  test('the guard knows its own stack as the nested stack\'s logical id', () => {
    expect(kept.stack).toBe(`${nestedId}/`);
  });

  test('every volume, interface and instance of the root and the nested stack, by path from the root (overrides included)', () => {
    const volumes = Object.keys(template.findResources('AWS::EC2::Volume')).map((id) => `${nestedId}/${id}`);
    expect(kept.resources['AWS::EC2::Volume']).toEqual([...volumes, 'ScratchVolume'].sort());
    expect(kept.resources['AWS::EC2::NetworkInterface']).toEqual(Object.keys(template.findResources('AWS::EC2::NetworkInterface')).map((id) => `${nestedId}/${id}`));
    expect(kept.resources['AWS::EC2::Instance']).toEqual(Object.keys(template.findResources('AWS::EC2::Instance')).map((id) => `${nestedId}/${id}`));
    expect(kept.resources[RESOURCE_TYPE]).toEqual(Object.keys(template.findResources(RESOURCE_TYPE)).map((id) => `${nestedId}/${id}`));
  });
});

describe('parseKept: the property crosses a trust boundary', () => {
  test.each([
    [[], /must be an object/],
    [{ Stack: '', Resources: {}, More: 1 }, /unknown keys More/],
    [{ Stack: 'a/b', Resources: {} }, /Stack must be '' or nested stack logical ids each followed by \//],
    [{ Stack: '', Resources: { 'AWS::S3::Bucket': [] } }, /unknown types AWS::S3::Bucket/],
    [{ Stack: '', Resources: { 'AWS::EC2::Volume': ['../x'] } }, /must be a list of resource paths/],
    [{ Stack: '', Resources: { 'AWS::EC2::Volume': 'Vol' } }, /must be a list of resource paths/],
  ])('%j refused', (raw, message) => {
    expect(() => parseKept(raw, 'Kept')).toThrow(message);
  });

  test('absent (a guard deployed before it): no check', () => {
    expect(parseKept(undefined, 'Kept')).toBeUndefined();
  });
});

describe('a lost guard state: the server\'s resources are held under the paths it keeps, and its guard is new', () => {
  const kept = parseKept({ Stack: '', Resources: { 'AWS::EC2::Volume': ['Vol'], [RESOURCE_TYPE]: ['NewGuard'] } }, 'Kept')!;
  const held = [
    { path: 'Vol', type: 'AWS::EC2::Volume' as const, physicalId: 'vol-0123456789abcdef0' },
    { path: 'OldGuard', type: RESOURCE_TYPE as typeof RESOURCE_TYPE, physicalId: 'storage-layout-0123456789abcdef' },
  ];

  test('refused, naming the guard\'s old logical id as the safe path', () => {
    const r = lostStateRefusal(held, kept, ['Vol'], 'NewGuard', false);
    expect(r).toEqual(expect.objectContaining({ oldValue: 'OldGuard', newValue: 'NewGuard', accepted: false }));
    expect(r?.safePath).toContain('give the guard its logical id OldGuard back');
  });

  test('a new server (its resources not held yet): no refusal', () => {
    expect(lostStateRefusal(held, kept, ['OtherVol'], 'NewGuard', false)).toBeUndefined();
  });

  test('the old guard is held and not kept; the kept volume is not', () => {
    expect(unkept(held, kept).map((h) => h.path)).toEqual(['OldGuard']);
  });
});

describe('heldResources from a nested stack: the walk starts at the root', () => {
  // moto gives no RootId and names nested stacks by logical id, so these responses stand in for CloudFormation's, in
  // the shapes of the AWS CloudFormation API Reference's DescribeStacks, Stack, ListStackResources and
  // StackResourceSummary. DescribeStacks' Stack.RootId is "For nested stacks, the stack ID of the top-level stack to
  // which the nested stack ultimately belongs"; ListStackResources gives StackResourceSummaries and NextToken.
  const responses: Record<string, unknown> = {
    [`DescribeStacks ${NESTED}`]: { Stacks: [{ StackId: NESTED, StackName: 'Cluster-DataNestedStackResource-1ABC', RootId: ROOT, ParentId: ROOT, StackStatus: 'UPDATE_IN_PROGRESS' }] },
    [`ListStackResources ${ROOT} -`]: {
      StackResourceSummaries: [
        { LogicalResourceId: 'ScratchVolume', PhysicalResourceId: 'vol-0aaaaaaaaaaaaaaa1', ResourceType: 'AWS::EC2::Volume', ResourceStatus: 'CREATE_COMPLETE' },
        { LogicalResourceId: 'Vpc8378EB38', PhysicalResourceId: 'vpc-0aaaaaaaaaaaaaaa1', ResourceType: 'AWS::EC2::VPC', ResourceStatus: 'CREATE_COMPLETE' },
      ],
      NextToken: 'page2',
    },
    [`ListStackResources ${ROOT} page2`]: {
      StackResourceSummaries: [
        { LogicalResourceId: 'DataNestedStackResource', PhysicalResourceId: NESTED, ResourceType: 'AWS::CloudFormation::Stack', ResourceStatus: 'UPDATE_IN_PROGRESS' },
        { LogicalResourceId: 'GoneVolume', PhysicalResourceId: 'vol-0aaaaaaaaaaaaaaa2', ResourceType: 'AWS::EC2::Volume', ResourceStatus: 'DELETE_COMPLETE' },
        { LogicalResourceId: 'NewVolume', ResourceType: 'AWS::EC2::Volume', ResourceStatus: 'CREATE_IN_PROGRESS' },
      ],
    },
    [`ListStackResources ${NESTED} -`]: {
      StackResourceSummaries: [
        { LogicalResourceId: 'StorageDataVolume0', PhysicalResourceId: 'vol-0bbbbbbbbbbbbbbb1', ResourceType: 'AWS::EC2::Volume', ResourceStatus: 'UPDATE_COMPLETE' },
        { LogicalResourceId: 'StorageGuard', PhysicalResourceId: 'storage-layout-0123456789abcdef', ResourceType: RESOURCE_TYPE, ResourceStatus: 'CREATE_COMPLETE' },
      ],
    },
  };

  test('the root\'s resources, then the nested stack\'s under its logical id; deleted and not-yet-created ones left out', async () => {
    const send = jest.spyOn(CloudFormationClient.prototype, 'send').mockImplementation((async (sent: unknown) => {
      const command = sent as { constructor: { name: string }; input: Record<string, string> };
      const name = command.constructor.name.replace(/Command$/, '');
      const key = name === 'DescribeStacks' ? `${name} ${command.input.StackName}` : `${name} ${command.input.StackName} ${command.input.NextToken ?? '-'}`;
      if (!(key in responses)) throw new Error(`no recorded response for ${key}`);
      return responses[key];
    }) as never);
    try {
      await expect(heldResources(NESTED)).resolves.toEqual([
        { path: 'ScratchVolume', type: 'AWS::EC2::Volume', physicalId: 'vol-0aaaaaaaaaaaaaaa1' },
        { path: 'DataNestedStackResource/StorageDataVolume0', type: 'AWS::EC2::Volume', physicalId: 'vol-0bbbbbbbbbbbbbbb1' },
        { path: 'DataNestedStackResource/StorageGuard', type: RESOURCE_TYPE, physicalId: 'storage-layout-0123456789abcdef' },
      ]);
    } finally {
      send.mockRestore();
    }
  });
});

describe('every refusal of a dropped resource names a safe path besides acceptDataLoss', () => {
  const types = ['AWS::EC2::Volume', 'AWS::EC2::NetworkInterface', 'AWS::FSx::FileSystem', 'AWS::EC2::Instance'] as const;
  test.each(types)('%s', (type) => {
    const gone = [{ path: 'Nested/Res', type, physicalId: 'x-1' }];
    const described = [{ physicalId: 'x-1', serverId: 'Stack/home', instanceStore: true, fileSystemType: 'LUSTRE' }];
    const refusals = unkeptRefusals(gone, described, false, 'ebs');
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) {
      const besides = r.safePath.replace(/[^;]*acceptDataLoss[^;]*/g, '').trim();
      expect({ setting: r.setting, besides: besides.length > 20 }).toEqual({ setting: r.setting, besides: true });
    }
  });
});

test('every type the guard watches is a type it asks CloudFormation about (a new watched type cannot be left off)', () => {
  expect(WATCHED_TYPES.filter((t) => !(HELD_TYPES as readonly string[]).includes(t))).toEqual([]);
});
