import * as fs from 'fs';
import * as path from 'path';
import { App, CfnResource, Lazy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fc from 'fast-check';
import {
  fstabLine,
  mountRecord,
  mountParameterName,
  parseRegistrationProperties,
  parseRingParameterName,
  ringParameterName,
  storagePath,
  validateFsxTarget,
  validateName,
  validatePrefix,
  type FsxTarget,
} from '../../lambda/register/contract';
import { ServerRegistration, type ServerRegistrationProps } from '../../lib/registration';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';

/** An App that skips asset bundling (esbuild) for the construct assertions; one test bundles for real. */
function app(bundle = false): App {
  return new App(bundle ? {} : { context: { 'aws:cdk:bundling-stacks': [] } });
}

const ENV = { account: '123456789012', region: 'us-east-1' };

/**
 * A stack with a VPC and an instance for registrations to point at; in account 123456789012 and
 * us-east-1 unless `agnostic` (then region and account are CloudFormation pseudo parameters).
 */
function fixture(
  scope: App = app(),
  id = 'Test',
  agnostic = false,
): { stack: Stack; vpc: ec2.Vpc; instance: ec2.Instance } {
  const stack = new Stack(scope, id, agnostic ? {} : { env: ENV });
  const vpc = new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 1,
    natGateways: 0,
    subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
  });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    requireImdsv2: true,
  });
  return { stack, vpc, instance };
}

function register(
  stack: Stack,
  instance: ec2.Instance,
  id = 'Registration',
  overrides: Partial<ServerRegistrationProps> = {},
): ServerRegistration {
  return new ServerRegistration(stack, id, {
    instance,
    clusterName: 'hpc1',
    serverName: 'storage1',
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: OPTIONS,
    backend: 'ebs',
    ...overrides,
  });
}

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
          Match.objectLike({ Resource: [ssmArn('site/nfs/hpc1/ring/storage1'), ssmArn('site/nfs/hpc1/storage/storage1/mount')] }),
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
            Resource: [ssmArn('storage-server/hpc1/ring/storage1'), ssmArn('storage-server/hpc1/storage/storage1/mount')],
          },
          {
            Effect: 'Allow',
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] },
          },
          // Added by the registration of an instance (an FSx for Lustre registration calls no EC2 API).
          { Effect: 'Allow', Action: 'ec2:DescribeInstances', Resource: '*' },
        ],
      },
    });
    // No managed policies (AWSLambdaBasicExecutionRole would allow logging to any log group).
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
    // Without one: no property, and the function may not describe interfaces (the test above).
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
              ssmArn('storage-server/hpc2/ring/scratch'),
              ssmArn('storage-server/hpc2/storage/scratch/mount'),
              ssmArn('storage-server/hpc1/ring/scratch2'),
              ssmArn('storage-server/hpc1/storage/scratch2/mount'),
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

    // WHEN (two servers: one server's records in two stacks of an app are refused)
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
    // The SDK is bundled, not left to the runtime's copy (match() keeps a failure message short).
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

describe('contract', () => {
  test('parameter names and paths', () => {
    expect(ringParameterName('/storage-server', 'hpc1', 'storage1')).toBe(
      '/storage-server/hpc1/ring/storage1',
    );
    expect(mountParameterName('/storage-server', 'hpc1', 'storage1')).toBe(
      '/storage-server/hpc1/storage/storage1/mount',
    );
    expect(storagePath('/storage-server', 'hpc1')).toBe('/storage-server/hpc1/storage/');
  });

  test('the fstab line', () => {
    expect(fstabLine('10.0.1.5', '/export/data', '/data', OPTIONS)).toBe(
      `10.0.1.5:/export/data /data nfs4 ${OPTIONS} 0 0`,
    );
  });

  const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);
  const level = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/).filter((l) => !/^(aws|ssm)/i.test(l));
  const prefix = fc.array(level, { minLength: 1, maxLength: 11 }).map((levels) => `/${levels.join('/')}`);

  test('every valid name and prefix makes a ring name that parses back to them', () => {
    fc.assert(
      fc.property(prefix, name, name, (p, cluster, server) => {
        validatePrefix('prefix', p);
        validateName('cluster', cluster);
        validateName('server', server);
        expect(parseRingParameterName(ringParameterName(p, cluster, server))).toEqual({
          prefix: p,
          clusterName: cluster,
          serverName: server,
        });
      }),
    );
  });

  test('names outside the charset are rejected', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !/^[A-Za-z0-9_.-]+$/.test(s)),
        (bad) => {
          expect(() => validateName('clusterName', bad)).toThrow(/clusterName must be 1-64 characters/);
        },
      ),
    );
  });

  test('a name that is not a ring parameter name does not parse', () => {
    expect(parseRingParameterName('/storage-server/hpc1/storage/storage1/mount')).toBeUndefined();
    expect(parseRingParameterName('AWSCDK::CustomResourceProviderFramework::CREATE_FAILED')).toBeUndefined();
    expect(parseRingParameterName('/aws/hpc1/ring/storage1')).toBeUndefined();
  });
});

describe('FSx for OpenZFS (backend fsx-openzfs): a file system registered as NFS by its DNS name', () => {
  const FS_ID = 'fs-0123456789abcdef0';
  const DNS = `${FS_ID}.fsx.us-east-1.amazonaws.com`;
  const target: FsxTarget = { fileSystemId: FS_ID, dnsName: DNS, mountName: '', availabilityZone: 'us-east-1a', deployment: 'SINGLE_AZ_1/64' };
  const field = (key: string) => `fileSystem.${key}`;

  test('the construct passes the file system (MountName empty), not an instance, and grants no EC2 call', () => {
    const { stack } = fixture();
    new ServerRegistration(stack, 'Zfs', {
      fileSystem: target, clusterName: 'hpc1', serverName: 'shared', exportPath: '/fsx', mountPoint: '/shared',
      mountOptions: OPTIONS, backend: 'fsx-openzfs',
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('Custom::StorageServerRegistration', {
      FileSystemId: FS_ID, DnsName: DNS, MountName: '', AvailabilityZone: 'us-east-1a', Deployment: 'SINGLE_AZ_1/64',
      ExportPath: '/fsx', Backend: 'fsx-openzfs', InstanceId: Match.absent(),
    });
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('ec2:');
  });

  test.each([
    ['a mount name', { mountName: 'abcdefgh' }, "fileSystem.MountName must be '' for fsx-openzfs (FSx for OpenZFS has no mount name), got \"abcdefgh\""],
    ['a Lustre deployment', { deployment: 'PERSISTENT_2/SSD/125' }, 'fileSystem.Deployment must be a deployment such as \'SINGLE_AZ_1/64\''],
    ['an IP for the DNS name', { dnsName: '10.0.0.5' }, "fileSystem.DnsName must be the file system's DNS name (fs-0123456789abcdef0.fsx.<region>.amazonaws.com), got \"10.0.0.5\""],
  ])('the construct refuses %s at synth time', (_what, change, message) => {
    const { stack } = fixture();
    expect(() => new ServerRegistration(stack, 'Zfs', {
      fileSystem: { ...target, ...change }, clusterName: 'hpc1', serverName: 'shared', exportPath: '/fsx', mountPoint: '/shared',
      mountOptions: OPTIONS, backend: 'fsx-openzfs',
    })).toThrow(message);
  });

  test('a file system with an EC2 backend, or an instance with fsx-openzfs, is refused', () => {
    const { stack, instance } = fixture();
    expect(() => register(stack, instance, 'A', { backend: 'fsx-openzfs' })).toThrow("backend 'fsx-openzfs' does not match the registered instance.");
    expect(() => register(stack, instance, 'B', { instance: undefined, fileSystem: target, backend: 'ebs' })).toThrow("backend 'ebs' does not match the registered file system.");
  });

  test('the mount name and the deployment follow the backend: each backend refuses the other\'s', () => {
    expect(() => validateFsxTarget(field, target, 'fsx-openzfs')).not.toThrow();
    expect(() => validateFsxTarget(field, target, 'fsx-lustre')).toThrow(/fileSystem\.MountName must be a Lustre mount name \(3-8 lower-case letters and digits\) for fsx-lustre, got ""/);
    const lustre = { ...target, mountName: 'abcdefgh', deployment: 'PERSISTENT_2/SSD/125' };
    expect(() => validateFsxTarget(field, lustre, 'fsx-lustre')).not.toThrow();
    expect(() => validateFsxTarget(field, { ...target, deployment: 'SINGLE_AZ_1/64' }, 'fsx-lustre')).toThrow(/MountName/);
    expect(() => validateFsxTarget(field, { ...lustre }, 'fsx-openzfs')).toThrow(/fileSystem\.MountName must be ''/);
    expect(() => validateFsxTarget(field, { ...target, deployment: 'SINGLE_AZ_3/64' }, 'fsx-openzfs')).toThrow(/fileSystem\.Deployment must be/);
  });

  test('the parse: the properties of an OpenZFS registration, typed; every required key named when missing', () => {
    const raw = {
      ClusterName: 'hpc1', ServerName: 'shared', ParameterPrefix: '/storage-server', ExportPath: '/fsx', MountPoint: '/shared',
      MountOptions: OPTIONS, Backend: 'fsx-openzfs', FileSystemId: FS_ID, DnsName: DNS, MountName: '', Deployment: 'SINGLE_AZ_2/160',
    };
    expect(parseRegistrationProperties(raw)).toEqual({
      instanceId: '', clusterName: 'hpc1', serverName: 'shared', parameterPrefix: '/storage-server', exportPath: '/fsx',
      mountPoint: '/shared', mountOptions: OPTIONS, backend: 'fsx-openzfs',
      fsx: { fileSystemId: FS_ID, dnsName: DNS, mountName: '', availabilityZone: '', deployment: 'SINGLE_AZ_2/160' },
    });
    expect(() => parseRegistrationProperties({ Backend: 'fsx-openzfs' })).toThrow(
      /^ResourceProperties is missing ClusterName, ServerName, ParameterPrefix, ExportPath, MountPoint, MountOptions, FileSystemId, DnsName, Deployment;/,
    );
  });

  test('the mount record: nfs4, the DNS name as the server, the backend named; the fstab line as the FSx for OpenZFS guide mounts it', () => {
    expect(fstabLine(DNS, '/fsx', '/shared', OPTIONS)).toBe(`${DNS}:/fsx /shared nfs4 ${OPTIONS} 0 0`);
    expect(mountRecord(DNS, '/fsx', '/shared', OPTIONS, 'nfs4', 'fsx-openzfs')).toEqual({
      server: DNS, exportPath: '/fsx', mountPoint: '/shared', fsType: 'nfs4', options: OPTIONS,
      fstab: `${DNS}:/fsx /shared nfs4 ${OPTIONS} 0 0`, backend: 'fsx-openzfs',
    });
    expect(mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS)).not.toHaveProperty('backend');
  });
});
