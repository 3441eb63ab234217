/** ServerRegistration: its custom resource, function and provider, their privileges, the gates, the props it refuses. */
import * as fs from 'fs';
import * as path from 'path';
import { CfnResource, Lazy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';
import { app, fixture, register } from '../support/registration-stack';
import { OPTIONS } from '../integration/fixtures';

function ssmArn(resourceName: string): unknown {
  return {
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, `:ssm:us-east-1:123456789012:parameter/${resourceName}`],
    ],
  };
}

describe('ServerRegistration', () => {
  test('passes the contract properties, the instance id included, to one custom resource', () => {
    // GIVEN
    const { stack, instance } = fixture();

    // WHEN
    const registration = register(stack, instance);

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('Custom::StorageServerRegistration', 1);
    template.hasResourceProperties('Custom::StorageServerRegistration', {
      ServiceToken: Match.anyValue(),
      InstanceId: { Ref: stack.getLogicalId(instance.instance) },
      ClusterName: 'hpc1',
      ServerName: 'storage1',
      ParameterPrefix: '/storage-server',
      ExportPath: '/export/data',
      MountPoint: '/data',
      MountOptions: OPTIONS,
      Backend: 'ebs',
    });
    expect(registration.ringParameterName).toBe('/storage-server/hpc1/ring/storage1');
    expect(registration.mountParameterName).toBe('/storage-server/hpc1/storage/storage1/mount');
  });

  test('depends on the instance through its InstanceId reference, without a redundant DependsOn', () => {
    // GIVEN
    const { stack, instance } = fixture();

    // WHEN
    register(stack, instance);

    // THEN
    const template = Template.fromStack(stack);
    const [resource] = Object.values(template.findResources('Custom::StorageServerRegistration'));
    expect(resource.Properties.InstanceId).toEqual({ Ref: stack.getLogicalId(instance.instance) });
    expect(resource.DependsOn ?? []).not.toContain(stack.getLogicalId(instance.instance));
  });

  test('a custom prefix is used for the names, the property and the policy', () => {
    // GIVEN
    const { stack, instance } = fixture();

    // WHEN
    const registration = register(stack, instance, 'Registration', { parameterPrefix: '/site/nfs' });

    // THEN
    expect(registration.ringParameterName).toBe('/site/nfs/hpc1/ring/storage1');
    expect(registration.mountParameterName).toBe('/site/nfs/hpc1/storage/storage1/mount');
    const template = Template.fromStack(stack);
    template.hasResourceProperties('Custom::StorageServerRegistration', { ParameterPrefix: '/site/nfs' });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Resource: [ssmArn('site/nfs/hpc1/ring/storage1'), ssmArn('site/nfs/hpc1/storage/storage1/mount'), ssmArn('site/nfs/hpc1/removed/storage1')] }),
        ]),
      },
    });
  });

  test('the function has least privilege: its server\'s two records in SSM, DescribeInstances, its own log group', () => {
    // GIVEN
    const { stack, instance } = fixture();

    // WHEN
    register(stack, instance);

    // THEN
    const template = Template.fromStack(stack);
    const logGroup = Object.keys(template.findResources('AWS::Logs::LogGroup')).find((id) =>
      id.includes('RegistrationProviderLogs'),
    );
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: ['ssm:PutParameter', 'ssm:GetParameter', 'ssm:DeleteParameters'],
            Resource: [ssmArn('storage-server/hpc1/ring/storage1'), ssmArn('storage-server/hpc1/storage/storage1/mount'), ssmArn('storage-server/hpc1/removed/storage1')],
          },
          {
            Effect: 'Allow',
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] },
          },
          // Added by the registration of an instance; an FSx for Lustre registration calls no EC2 API.
          { Effect: 'Allow', Action: 'ec2:DescribeInstances', Resource: '*' },
        ],
      },
    });
    // No managed policies, since AWSLambdaBasicExecutionRole would allow logging to any log group.
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  test('a stable interface: passed as NetworkInterfaceId, and only then may the function describe interfaces', () => {
    const { stack, instance } = fixture();
    const eni = new ec2.CfnNetworkInterface(stack, 'Interface', { subnetId: 'subnet-0123456789abcdef0' });
    const registration = register(stack, instance, 'Registration', { networkInterfaceId: eni.ref });
    const template = Template.fromStack(stack);
    expect(template.findResources('Custom::StorageServerRegistration')[stack.getLogicalId(registration.resource.node.defaultChild as CfnResource)]
      .Properties.NetworkInterfaceId).toEqual({ Ref: stack.getLogicalId(eni) });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([
        { Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeNetworkInterfaces'], Resource: '*' },
      ]) },
    });
    // Without one: no property, and the function may not describe interfaces, as the test above shows.
    const plain = fixture();
    const other = register(plain.stack, plain.instance);
    expect(Template.fromStack(plain.stack).findResources('Custom::StorageServerRegistration')[
      plain.stack.getLogicalId(other.resource.node.defaultChild as CfnResource)].Properties.NetworkInterfaceId).toBeUndefined();
  });

  test('the function: pinned Node.js 22, source maps enabled, a 5 minute timeout, logs kept for a year', () => {
    // GIVEN
    const { stack, instance } = fixture();

    // WHEN
    register(stack, instance);

    // THEN
    const template = Template.fromStack(stack);
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    const handlerLogs = Object.keys(logGroups).find((id) => id.includes('RegistrationProviderLogs'));
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      Timeout: 300,
      Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      LoggingConfig: { LogGroup: { Ref: handlerLogs } },
    });
    expect(Object.keys(logGroups)).toHaveLength(2); // the handler's and the Provider framework's
    for (const group of Object.values(logGroups)) expect(group.Properties.RetentionInDays).toBe(365);
  });

  test('two servers in two clusters share one function and one provider; the policy names each server\'s records', () => {
    // GIVEN
    const { stack, vpc, instance } = fixture();
    const second = new ec2.Instance(stack, 'Server2', {
      vpc,
      instanceType: new ec2.InstanceType('d2.xlarge'),
      machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });

    // WHEN
    register(stack, instance, 'A');
    register(stack, second, 'B', { clusterName: 'hpc2', serverName: 'scratch', backend: 'instance-store' });
    register(stack, second, 'C', { serverName: 'scratch2' }); // same cluster as A: its own two records

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('Custom::StorageServerRegistration', 3);
    template.resourceCountIs('AWS::Lambda::Function', 2); // the handler and the Provider framework's function
    const tokens = Object.values(template.findResources('Custom::StorageServerRegistration')).map((r) =>
      JSON.stringify(r.Properties.ServiceToken),
    );
    expect(new Set(tokens).size).toBe(1);
    template.resourceCountIs('AWS::IAM::Policy', 2); // the handler's and the framework role's
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['ssm:PutParameter', 'ssm:GetParameter', 'ssm:DeleteParameters'],
            Resource: [
              ssmArn('storage-server/hpc1/ring/storage1'),
              ssmArn('storage-server/hpc1/storage/storage1/mount'),
              ssmArn('storage-server/hpc1/removed/storage1'),
              ssmArn('storage-server/hpc2/ring/scratch'),
              ssmArn('storage-server/hpc2/storage/scratch/mount'),
              ssmArn('storage-server/hpc2/removed/scratch'),
              ssmArn('storage-server/hpc1/ring/scratch2'),
              ssmArn('storage-server/hpc1/storage/scratch2/mount'),
              ssmArn('storage-server/hpc1/removed/scratch2'),
            ],
          }),
        ]),
      },
    });
  });

  test('each stack gets its own provider', () => {
    // GIVEN
    const scope = app();
    const one = fixture(scope, 'One');
    const two = fixture(scope, 'Two');

    // WHEN two servers register, one in each stack, since one server's records in two stacks of an app are refused
    register(one.stack, one.instance);
    register(two.stack, two.instance, 'Registration', { serverName: 'storage2' });

    // THEN
    Template.fromStack(one.stack).resourceCountIs('AWS::Lambda::Function', 2);
    Template.fromStack(two.stack).resourceCountIs('AWS::Lambda::Function', 2);
  });

  test.each([
    ['in a given account and region', false],
    ['environment-agnostic', true],
  ])(
    'cdk-nag AwsSolutions: no unacknowledged finding on the registrations or their provider, %s',
    (_env, agnostic) => {
      const findings = nagFindings((a) => {
        const { stack, instance } = fixture(a, 'Test', agnostic);
        register(stack, instance, 'A');
        register(stack, instance, 'B', { clusterName: 'hpc2', parameterPrefix: '/site' });
      });
      const ours = findings.filter((f) =>
        /^Test\/(A|B|StorageServerRegistrationProvider)\//.test(f.resource),
      );
      expect(ours).toEqual([]);
      // The filter is not what makes this pass: the fixture's own VPC and instance do have findings.
      expect(findings.length).toBeGreaterThan(0);
    },
  );

  test('cfn-lint: no finding', () => {
    const { stack, instance } = fixture(app(), 'Test', true);
    register(stack, instance, 'A');
    register(stack, instance, 'B', { clusterName: 'hpc2' });
    expect(cfnLint(Template.fromStack(stack).toJSON())).toEqual([]);
  });

  test('bundles the handler with esbuild, AWS SDK included, minified with a source map', () => {
    // GIVEN
    const scope = app(true);
    const { stack, instance } = fixture(scope);

    // WHEN
    register(stack, instance);
    const assembly = scope.synth();

    // THEN
    const template = Template.fromStack(stack);
    const fn = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Runtime === 'nodejs22.x',
    );
    const key = String(fn?.Properties.Code.S3Key); // <asset hash>.zip
    const dir = path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
    expect(fs.readdirSync(dir).sort()).toEqual(['index.js', 'index.js.map']);
    const code = fs.readFileSync(path.join(dir, 'index.js'), 'utf8');
    // The SDK is bundled, not left to the runtime's copy; match() keeps a failure message short.
    expect(code.match(/require\("@(aws-sdk\/client-[a-z0-9]+|smithy\/[a-z-]+)"\)/)).toBeNull();
    expect(code.length).toBeGreaterThan(300_000); // the handler alone is a few kB
    expect(code.includes('DescribeInstances') && code.includes('PutParameter')).toBe(true);
    expect(code.length / code.split('\n').length).toBeGreaterThan(5_000); // minified: long lines, few of them
    const map = JSON.parse(fs.readFileSync(path.join(dir, 'index.js.map'), 'utf8'));
    expect(map.sources.some((s: string) => s.endsWith('lambda/register/index.ts'))).toBe(true);
    expect(map.sourcesContent).toBeUndefined();
  });
});

describe('ServerRegistration validation', () => {
  test.each([
    ['clusterName', { clusterName: 'hpc/1' }, /clusterName must be 1-64 characters of A-Z, a-z, 0-9/],
    ['clusterName', { clusterName: '' }, /clusterName must be 1-64 characters/],
    ['serverName', { serverName: 's'.repeat(65) }, /serverName must be 1-64 characters/],
    [
      'parameterPrefix',
      { parameterPrefix: 'storage' },
      /parameterPrefix must start with '\/', got "storage"/,
    ],
    ['parameterPrefix', { parameterPrefix: '/ssm/x' }, /parameterPrefix must not start with 'aws' or 'ssm'/],
    ['exportPath', { exportPath: 'data' }, /exportPath must be an absolute path without whitespace/],
    ['mountPoint', { mountPoint: '/my data' }, /mountPoint must be an absolute path without whitespace/],
    ['mountOptions', { mountOptions: '' }, /mountOptions must be a non-empty comma-separated option list/],
    ['backend', { backend: 'nvme' as never }, /backend must be one of ebs, instance-store, fsx-lustre, fsx-openzfs, got "nvme"/],
    ['instance', { instance: undefined }, /^ServerRegistration needs exactly one of instance \(an EC2 NFS server\), fileSystem \(an FSx file system\) and existing \(storage that exists already\)\.$/],
  ])('rejects a bad %s: %j', (_prop, overrides, message) => {
    const { stack, instance } = fixture();
    expect(() => register(stack, instance, 'Registration', overrides)).toThrow(message);
  });

  test('rejects a token as cluster name: the names must be known at synth time', () => {
    const { stack, instance } = fixture();
    const clusterName = Lazy.string({ produce: () => 'hpc1' });
    expect(() => register(stack, instance, 'Registration', { clusterName })).toThrow(
      /clusterName must be a concrete string, not a token/,
    );
  });

  test('accepts tokens for the export path, mount point and options (checked by the handler at deploy time)', () => {
    const { stack, instance } = fixture();
    const token = Lazy.string({ produce: () => '/data' });
    expect(() =>
      register(stack, instance, 'Registration', {
        exportPath: token,
        mountPoint: token,
        mountOptions: token,
      }),
    ).not.toThrow();
  });
});
