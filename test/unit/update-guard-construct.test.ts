// The UpdateGuard construct: the resource it adds, its properties, and the templates it makes.

import * as fs from 'fs';
import * as path from 'path';
import { App, Lazy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { parseGuardProperties, type StorageLayout } from '../../lambda/update-guard/contract';
import { STATUS_DEADLINE_MS, statusDeadlineMs } from '../../lambda/update-guard/status-read';

jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-aws-quiet').quietAwsModule());
import { UpdateGuard, type UpdateGuardProps } from '../../lib/update-guard';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';
import { stagedApp } from '../support/staged-app';

beforeEach(() => {
  for (const stream of ['log', 'warn', 'error'] as const) jest.spyOn(console, stream).mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
});

function app(bundle = false): App {
  return bundle ? stagedApp() : new App({ context: { 'aws:cdk:bundling-stacks': [] } });
}

const LAYOUT: StorageLayout = {
  backend: 'ebs',
  instanceStoreType: '',
  dataVolumes: [
    { index: 0, sizeGiB: 8192 },
    { index: 1, sizeGiB: 8192 },
  ],
  snapshotIds: [],
  encryptionKey: 'aws/ebs',
  availabilityZone: 'us-east-1a',
  imageId: 'ami-0123456789abcdef0',
  keyPair: '',
  placementGroup: '',
  volumeAttachment: 'server',
  fileSystemType: '',
  perUnitStorageThroughput: '',
  storageCapacityGiB: '',
  subnetId: '',
  instanceStoreEncryption: '',
  throughputCapacity: '',
  standbySubnetId: '',
  diskIops: '',
  metadataIops: '',
  snapshotRetain: '',
};

function guard(stack: Stack, id = 'Guard', props: Partial<UpdateGuardProps> = {}): UpdateGuard {
  return new UpdateGuard(stack, id, { layout: LAYOUT, ...props });
}

function stackIn(scope: App = app(), id = 'Test'): Stack {
  return new Stack(scope, id, { env: { account: '123456789012', region: 'us-east-1' } });
}

describe('UpdateGuard', () => {
  test('one custom resource with the layout as properties, in the form the handler reads', () => {
    // GIVEN
    const stack = stackIn();

    // WHEN
    guard(stack);

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('Custom::StorageServerUpdateGuard', 1);
    template.hasResourceProperties('Custom::StorageServerUpdateGuard', {
      ServiceToken: Match.anyValue(),
      Backend: 'ebs',
      InstanceStoreType: '',
      DataVolumes: ['0:8192', '1:8192'],
      SnapshotIds: [],
      EncryptionKey: 'aws/ebs',
      AvailabilityZone: 'us-east-1a',
      ImageId: 'ami-0123456789abcdef0',
      KeyPair: '',
      PlacementGroup: '',
      AcceptDataLoss: 'false',
    });
    const [resource] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
    const { layout } = parseGuardProperties({ ...resource.Properties, ServiceToken: 'resolved' });
    expect(layout).toEqual(LAYOUT);
  });

  test('acceptDataLoss: true is passed as the string "true"', () => {
    const stack = stackIn();
    guard(stack, 'Guard', { acceptDataLoss: true });
    Template.fromStack(stack).hasResourceProperties('Custom::StorageServerUpdateGuard', {
      AcceptDataLoss: 'true',
    });
  });

  test('takes tokens (a KMS key ARN, the subnet AZ) and passes them for CloudFormation to resolve', () => {
    // GIVEN
    const stack = stackIn();
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
    const zone = Lazy.string({ produce: () => 'us-east-1a' });

    // WHEN
    guard(stack, 'Guard', { layout: { ...LAYOUT, encryptionKey: key.keyArn, availabilityZone: zone } });

    // THEN
    Template.fromStack(stack).hasResourceProperties('Custom::StorageServerUpdateGuard', {
      EncryptionKey: { 'Fn::GetAtt': [stack.getLogicalId(key.node.defaultChild as kms.CfnKey), 'Arn'] },
      AvailabilityZone: 'us-east-1a',
    });
  });

  test('other resources can depend on it, so CloudFormation updates the guard first', () => {
    const stack = stackIn();
    const g = guard(stack);
    const queue = new sqs.Queue(stack, 'DependsOnGuard');
    queue.node.addDependency(g.resource);
    const template = Template.fromStack(stack);
    const [guardId] = Object.keys(template.findResources('Custom::StorageServerUpdateGuard'));
    template.hasResource('AWS::SQS::Queue', { DependsOn: [guardId] });
  });

  test('the provider function: pinned Node.js 22, logs kept for a year; permissions: describe, its own stack, its own logs', () => {
    // GIVEN
    const stack = stackIn();

    // WHEN
    guard(stack);

    // THEN
    const template = Template.fromStack(stack);
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    const handlerLogs = Object.keys(logGroups).find((id) => id.includes('UpdateGuardProviderLogs'));
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      Timeout: 60,
      LoggingConfig: { LogGroup: { Ref: handlerLogs } },
    });
    for (const group of Object.values(logGroups)) expect(group.Properties.RetentionInDays).toBe(365);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Sid: 'DescribeServerResources',
            Effect: 'Allow',
            Action: [
              'ec2:DescribeInstances', 'ec2:DescribeVolumes', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes',
              'fsx:DescribeFileSystems',
            ],
            Resource: '*',
          },
          { Sid: 'ReadOwnStackStatus', Effect: 'Allow', Action: 'cloudformation:DescribeStacks', Resource: { Ref: 'AWS::StackId' } },
          // Which stacks exactly: the IAM simulator's claims in test/unit/iam-claims.test.ts.
          { Sid: 'ListResourcesOfRootStack', Effect: 'Allow', Action: 'cloudformation:ListStackResources', Resource: Match.anyValue() },
          {
            Effect: 'Allow',
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Resource: { 'Fn::GetAtt': [handlerLogs, 'Arn'] },
          },
        ],
      },
    });
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  test('the function\'s timeout leaves the status read its full deadline and the reserve after it', () => {
    // GIVEN
    const stack = stackIn();

    // WHEN
    guard(stack);

    // THEN
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function', { Properties: { Handler: 'index.handler' } });
    const timeouts = Object.values(functions).map((f) => f.Properties.Timeout as number);
    expect(timeouts).toHaveLength(1);
    expect(statusDeadlineMs(timeouts[0] * 1000)).toBe(STATUS_DEADLINE_MS);
  });

  test('two guards in a stack share one function and one provider; each stack has its own', () => {
    // GIVEN
    const scope = app();
    const one = stackIn(scope, 'One');
    const two = stackIn(scope, 'Two');

    // WHEN
    guard(one, 'A');
    guard(one, 'B', {
      layout: { ...LAYOUT, backend: 'instance-store', instanceStoreType: 'd2.xlarge', dataVolumes: [] },
    });
    guard(two, 'C');

    // THEN
    const template = Template.fromStack(one);
    template.resourceCountIs('Custom::StorageServerUpdateGuard', 2);
    template.resourceCountIs('AWS::Lambda::Function', 2); // the handler and the Provider framework's function
    const tokens = Object.values(template.findResources('Custom::StorageServerUpdateGuard')).map((r) =>
      JSON.stringify(r.Properties.ServiceToken),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(one.node.tryFindChild('StorageServerUpdateGuardProvider')).toBeDefined();
    Template.fromStack(two).resourceCountIs('AWS::Lambda::Function', 2);
  });

  test.each([
    ['backend', { backend: 'zfs' as never }, /layout.backend must be one of ebs, instance-store, fsx-lustre, fsx-openzfs, got "zfs"/],
    [
      'instanceStoreType',
      { instanceStoreType: 'd2.xlarge' },
      /layout.instanceStoreType must be '' on the ebs backend/,
    ],
    [
      'dataVolumes',
      { dataVolumes: [{ index: 0, sizeGiB: 0.5 }] },
      /layout.dataVolumes must hold whole indexes/,
    ],
    ['snapshotIds', { snapshotIds: ['snap-1'] }, /layout.snapshotIds must hold snapshot ids/],
    [
      'encryptionKey',
      { encryptionKey: 'alias/mine' },
      /layout.encryptionKey must be 'aws\/ebs' or a KMS key ARN/,
    ],
    ['imageId', { imageId: 'latest' }, /layout.imageId must be '', an image id/],
  ])('rejects a bad %s at synth', (_field, change, message) => {
    expect(() => guard(stackIn(), 'Guard', { layout: { ...LAYOUT, ...change } })).toThrow(message);
  });

  test('cdk-nag AwsSolutions: no unacknowledged finding', () => {
    const findings = nagFindings((a) => {
      const stack = new Stack(a, 'Test');
      guard(stack, 'A');
      guard(stack, 'B');
    });
    expect(findings).toEqual([]);
  });

  test('cfn-lint: no finding', () => {
    const stack = new Stack(app(), 'Test');
    guard(stack, 'A');
    guard(stack, 'B');
    expect(cfnLint(Template.fromStack(stack).toJSON())).toEqual([]);
  });

  test('bundles the handler with esbuild: small, minified, with a source map', () => {
    // GIVEN
    const scope = app(true);
    const stack = stackIn(scope);

    // WHEN
    guard(stack);
    const assembly = scope.synth();

    // THEN
    const template = Template.fromStack(stack);
    const fn = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Runtime === 'nodejs22.x',
    );
    const key = String(fn?.Properties.Code.S3Key);
    const dir = path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
    expect(fs.readdirSync(dir).sort()).toEqual(['index.js', 'index.js.map']);
    const code = fs.readFileSync(path.join(dir, 'index.js'), 'utf8');
    expect(code).toContain('StorageServer update refused, nothing was changed:');
    // The SDK is bundled, the lockfile's version rather than the runtime's. The only require left is the optional CRT
    // signer, which the SDK loads inside a try and does without.
    expect([...new Set(code.match(/require\("@aws-sdk[^"]*"\)/g))]).toEqual(['require("@aws-sdk/signature-v4-crt")']);
    expect(code).toContain('DescribeFileSystems');
    expect(code.length).toBeLessThan(1_500_000);
    const map = JSON.parse(fs.readFileSync(path.join(dir, 'index.js.map'), 'utf8'));
    expect(map.sources.some((s: string) => s.endsWith('lambda/update-guard/index.ts'))).toBe(true);
    expect(map.sourcesContent).toBeUndefined();
  });
});
