import { App, CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { applyRunCommand, renderedExports } from '../support/apply';
import { agentConfigErrors } from '../support/cloudwatch-agent-schema';
import { appStack, lookedUpAppStack, serverStack } from '../support/stacks';
import { nagFindings } from '../support/nag';

/** The shell step of the server's apply document (the settings it applies), joined to one string (tokens as JSON). */
function applyCommandOf(template: Template): string {
  return JSON.stringify(applyRunCommand(template));
}

/** The update guard's recorded properties. */
function guardOf(template: Template): Record<string, unknown> {
  return Object.values(template.findResources('Custom::StorageServerUpdateGuard'))[0].Properties;
}

/** The resources cdk-nag reports under AwsSolutions-EC26 (unencrypted EBS) for a server with these props. */
function ec26(props: Partial<StorageServerProps>): string[] {
  return nagFindings((app) => {
    const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    new StorageServer(stack, 'Storage', { vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 }), ...props });
  }).filter((f) => f.ruleId === 'AwsSolutions-EC26').map((f) => f.resource);
}

/** The one settings line `KEY='value'` the server applies, from the apply document. */
function settingOf(template: Template, key: string): string {
  const line = applyCommandOf(template)
    .split('\\n')
    .find((l) => l.startsWith(`${key}=`));
  expect(line).toBeDefined();
  return line!;
}

describe('planner choice reaches the template', () => {
  test.each([
    ['2', undefined, 'm4.xlarge', [2048]],
    ['5', undefined, 'm4.2xlarge', [5120]],
    ['10', undefined, 'm4.4xlarge', [10240]],
    ['16', undefined, 'm4.10xlarge', [16384]],
    ['30', 'ebs', 'm4.16xlarge', [15360, 15360]],
  ])('capacityTiB=%s backend=%s -> %s with st1 volumes %j', (capacityTiB, backend, instanceType, sizes) => {
    // GIVEN / WHEN
    const template = Template.fromStack(appStack({ capacityTiB, ...(backend ? { backend } : {}) }));
    // THEN
    template.hasResourceProperties('AWS::EC2::Instance', { InstanceType: instanceType });
    template.resourceCountIs('AWS::EC2::Volume', sizes.length);
    // The server attaches its volumes itself (storage-attach): no VolumeAttachment a replacement would collide with.
    template.resourceCountIs('AWS::EC2::VolumeAttachment', 0);
    const volumes = Object.values(template.findResources('AWS::EC2::Volume'));
    expect(volumes.map((v) => v.Properties.Size)).toEqual(sizes);
    for (const v of volumes) expect(v.Properties).toMatchObject({ VolumeType: 'st1', Encrypted: true });
    const ephemeral = JSON.stringify(template.findResources('AWS::EC2::Instance')).match(/ephemeral\d+/g);
    expect(ephemeral).toBeNull();
  });

  test.each([
    ['20', undefined, 'd2.4xlarge', 12],
    ['40', undefined, 'd2.8xlarge', 24],
    ['3', 'instance-store', 'd2.xlarge', 3],
  ])('capacityTiB=%s backend=%s -> %s with every one of its %i disks mapped', (capacityTiB, backend, instanceType, disks) => {
    const template = Template.fromStack(appStack({ capacityTiB, ...(backend ? { backend } : {}) }));
    template.hasResourceProperties('AWS::EC2::Instance', { InstanceType: instanceType });
    template.resourceCountIs('AWS::EC2::Volume', 0);
    const mappings = Object.values(template.findResources('AWS::EC2::Instance'))[0].Properties.BlockDeviceMappings;
    const ephemeral = mappings.filter((m: { VirtualName?: string }) => m.VirtualName);
    expect(ephemeral).toEqual(
      Array.from({ length: disks }, (_, i) => ({
        DeviceName: `/dev/sd${String.fromCharCode(98 + i)}`,
        VirtualName: `ephemeral${i}`,
      })),
    );
  });
});

// Context keys the app parses must reach the template; parsing alone (test/unit/context.test.ts) is not enough.
describe('context reaches the template', () => {
  const instanceOf = (t: Template) => Object.values(t.findResources('AWS::EC2::Instance'))[0].Properties;

  test('throughputMBps sizes for sustained throughput: 10 TiB at 400 MB/s on ebs is one 10 TiB st1 on m4.10xlarge', () => {
    const t = Template.fromStack(appStack({ capacityTiB: '10', throughputMBps: '400', backend: 'ebs' }));
    expect(instanceOf(t).InstanceType).toBe('m4.10xlarge');
    t.resourcePropertiesCountIs('AWS::EC2::Volume', { VolumeType: 'st1', Size: 10240 }, 1);
    // Without it, the capacity rule's tier.
    expect(instanceOf(Template.fromStack(appStack({ capacityTiB: '10' }))).InstanceType).toBe('m4.4xlarge');
  });

  test('generation=current plans on Nitro: 10 TiB is one 10 TiB st1 on m6i.4xlarge, and the plan says so', () => {
    const t = Template.fromStack(appStack({ capacityTiB: '10', generation: 'current' }));
    expect(instanceOf(t).InstanceType).toBe('m6i.4xlarge');
    t.resourcePropertiesCountIs('AWS::EC2::Volume', { VolumeType: 'st1', Size: 10240 }, 1);
    expect(t.toJSON().Outputs.PlanSummary.Value).toMatch(/^ebs on m6i\.4xlarge, 1 x st1 10240 GiB/);
  });

  test('keyPair and placementGroup name the instance\'s key pair and placement group', () => {
    const t = Template.fromStack(appStack({ keyPair: 'admin-key', placementGroup: 'hpc-pg' }));
    expect(instanceOf(t).KeyName).toBe('admin-key');
    expect(instanceOf(t).PlacementGroupName).toBe('hpc-pg');
    // Without them: neither (no key pair is the secure default).
    const plain = instanceOf(Template.fromStack(appStack({})));
    expect(plain.KeyName).toBeUndefined();
    expect(plain.PlacementGroupName).toBeUndefined();
  });

  test('subnetId places the instance and its volumes in that subnet and its AZ, not in the first one', () => {
    const subnets = [
      { subnetId: 'subnet-0aaaaaaaaaaaaaaaa', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' },
      { subnetId: 'subnet-0bbbbbbbbbbbbbbbb', cidr: '10.0.1.0/24', availabilityZone: 'us-east-1b' },
    ];
    const context = { vpcId: 'vpc-0123456789abcdef0', capacityTiB: '30', backend: 'ebs' };
    const chosen = Template.fromStack(lookedUpAppStack({ ...context, subnetId: 'subnet-0bbbbbbbbbbbbbbbb' }, '10.0.0.0/16', subnets));
    expect(instanceOf(chosen).SubnetId).toBe('subnet-0bbbbbbbbbbbbbbbb');
    chosen.allResourcesProperties('AWS::EC2::Volume', { AvailabilityZone: 'us-east-1b' });
    // Without subnetId the first private subnet is taken: the test above is not passing by default.
    const first = Template.fromStack(lookedUpAppStack(context, '10.0.0.0/16', subnets));
    expect(instanceOf(first).SubnetId).toBe('subnet-0aaaaaaaaaaaaaaaa');
    first.allResourcesProperties('AWS::EC2::Volume', { AvailabilityZone: 'us-east-1a' });
  });

  test('a subnetId that is not in the looked-up VPC is refused, naming the subnet', () => {
    const subnets = [{ subnetId: 'subnet-0aaaaaaaaaaaaaaaa', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' }];
    expect(() =>
      lookedUpAppStack({ vpcId: 'vpc-0123456789abcdef0', subnetId: 'subnet-0cccccccccccccccc' }, '10.0.0.0/16', subnets),
    ).toThrow(
      'Invalid context value subnetId="subnet-0cccccccccccccccc": allowed is a subnet of vpc-0123456789abcdef0: subnet-0aaaaaaaaaaaaaaaa (us-east-1a).',
    );
  });
});

describe('secure defaults', () => {
  const { template } = serverStack({ capacityTiB: 5, clientCidrs: ['10.1.0.0/16'] });

  test('IMDSv2 is required', () => {
    template.hasResourceProperties('AWS::EC2::LaunchTemplate', {
      LaunchTemplateData: { MetadataOptions: { HttpTokens: 'required' } },
    });
    template.hasResourceProperties('AWS::EC2::Instance', { LaunchTemplate: Match.objectLike({}) });
  });

  test('root volume and data volumes are encrypted', () => {
    template.hasResourceProperties('AWS::EC2::Instance', {
      BlockDeviceMappings: Match.arrayWith([
        { DeviceName: '/dev/xvda', Ebs: Match.objectLike({ Encrypted: true, VolumeType: 'gp3' }) },
      ]),
    });
    template.allResourcesProperties('AWS::EC2::Volume', { Encrypted: true });
  });

  test('no public IP, no key pair, detailed monitoring, SSM managed instance role', () => {
    const props = Object.values(template.findResources('AWS::EC2::Instance'))[0].Properties;
    expect(props.KeyName).toBeUndefined();
    expect(props.NetworkInterfaces).toBeUndefined();
    expect(props.Monitoring).toBe(true);
    template.hasResourceProperties('AWS::IAM::Role', {
      ManagedPolicyArns: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/AmazonSSMManagedInstanceCore']] }],
    });
  });

  test('the security group admits NFSv4 (TCP 2049) from the client CIDR and nothing else', () => {
    const groups = Object.values(template.findResources('AWS::EC2::SecurityGroup'))
      .filter((g) => String(g.Properties.GroupDescription).startsWith('NFS storage server'));
    expect(groups).toHaveLength(1);
    expect(groups[0].Properties.SecurityGroupIngress).toEqual([
      { CidrIp: '10.1.0.0/16', Description: 'NFSv4 from cluster clients', FromPort: 2049, IpProtocol: 'tcp', ToPort: 2049 },
    ]);
    template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
  });

  test('the server may only call out over HTTPS (AWS APIs, package repositories)', () => {
    const group = Object.values(template.findResources('AWS::EC2::SecurityGroup'))
      .find((g) => String(g.Properties.GroupDescription).startsWith('NFS storage server'))!;
    expect(group.Properties.SecurityGroupEgress).toEqual([
      expect.objectContaining({ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443 }),
    ]);
  });

  test('a stable interface carries the server\'s address and the NFS group, which the instance carries too', () => {
    const [[ifaceId, iface]] = Object.entries(template.findResources('AWS::EC2::NetworkInterface'));
    const groups = Object.entries(template.findResources('AWS::EC2::SecurityGroup'))
      .filter(([, g]) => String(g.Properties.GroupDescription).startsWith('NFS storage server'));
    expect(groups).toHaveLength(1);
    const group = { 'Fn::GetAtt': [groups[0][0], 'GroupId'] };
    expect(iface.Properties).toEqual({
      SubnetId: { Ref: expect.stringMatching(/^VpcPrivateSubnet1Subnet/) },
      GroupSet: [group],
      Description: 'Stable address of NFS storage server storage1 of cluster cluster',
      Tags: [{ Key: 'storage-server:id', Value: { 'Fn::Join': ['', [{ Ref: 'AWS::StackName' }, '/storage1']] } }],
    });
    // The instance's own interface has the same group: clients that mounted its address before keep working.
    const [instance] = Object.values(template.findResources('AWS::EC2::Instance'));
    expect(instance.Properties.SecurityGroupIds).toEqual([group]);
    // Created before the instance, deleted after it (an attached interface cannot be deleted).
    expect(instance.DependsOn).toContain(ifaceId);
  });

  test('with clusterware, the server may also gossip with the master, and only with it', () => {
    const { template: t } = serverStack({ capacityTiB: 5, clusterware: { loginIp: '10.0.1.10' } });
    const group = Object.values(t.findResources('AWS::EC2::SecurityGroup'))
      .find((g) => String(g.Properties.GroupDescription).startsWith('NFS storage server'))!;
    expect(group.Properties.SecurityGroupEgress).toEqual(expect.arrayContaining([
      expect.objectContaining({ CidrIp: '10.0.1.10/32', IpProtocol: 'tcp', FromPort: 7946, ToPort: 7946 }),
      expect.objectContaining({ CidrIp: '10.0.1.10/32', IpProtocol: 'udp', FromPort: 7946, ToPort: 7946 }),
    ]));
    expect(group.Properties.SecurityGroupEgress).toHaveLength(3);
    expect(JSON.stringify(t.toJSON())).not.toMatch(/"SecretString"|resolve:secretsmanager/);
    // The ring join runs from the apply document after the bootstrap, never from user data (a change of the
    // ring's settings must not stop the server).
    expect(applyCommandOf(t)).toContain('clusterware');
    expect(applyCommandOf(t)).toContain("--master '10.0.1.10'");
    const [instance] = Object.values(t.findResources('AWS::EC2::Instance'));
    expect(JSON.stringify(instance.Properties.UserData)).not.toMatch(/clusterware|10\.0\.1\.10/);
  });

  // The exports line is built on the server from the settings: render it with the bootstrap's own code.
  test('the server exports the data path to the client CIDR only, root squashed, sync', () => {
    expect(settingOf(template, 'STORAGE_CLIENT_CIDRS')).toBe("STORAGE_CLIENT_CIDRS='10.1.0.0/16'");
    expect(renderedExports(template).split('\n')).toEqual([
      expect.stringMatching(/^# Managed by storage-bootstrap/),
      '/export/data 10.1.0.0/16(rw,sync,no_subtree_check,root_squash,sec=sys,mp)',
      '',
    ]);
  });

  test('several client CIDRs: one export entry each, and none for anyone else', () => {
    const { template: t } = serverStack({ capacityTiB: 30, backend: 'ebs', clientCidrs: ['10.1.0.0/16', '10.2.3.0/24'], nfs: { exportMode: 'async' } });
    expect(renderedExports(t).split('\n')[1]).toBe(
      '/export/data 10.1.0.0/16(rw,async,no_subtree_check,root_squash,sec=sys,mp) 10.2.3.0/24(rw,async,no_subtree_check,root_squash,sec=sys,mp)',
    );
  });

  test('without clients given, the VPC CIDR is the only client', () => {
    const { template: t } = serverStack({ capacityTiB: 5 });
    const group = Object.values(t.findResources('AWS::EC2::SecurityGroup'))
      .find((g) => String(g.Properties.GroupDescription).startsWith('NFS storage server'))!;
    expect(group.Properties.SecurityGroupIngress).toEqual([
      expect.objectContaining({ CidrIp: { 'Fn::GetAtt': [expect.stringMatching(/^Vpc/), 'CidrBlock'] }, FromPort: 2049 }),
    ]);
  });

  test('a client security group gets TCP 2049 and the export falls back to the VPC CIDR', () => {
    const stack = new Stack(new App(), 'Peers');
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 });
    const clients = new ec2.SecurityGroup(stack, 'Clients', { vpc });
    new StorageServer(stack, 'Storage', { vpc, clientPeers: [clients] });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      IpProtocol: 'tcp', FromPort: 2049, ToPort: 2049,
      SourceSecurityGroupId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Clients'), 'GroupId'] },
    });
    const serverGroup = Object.values(t.findResources('AWS::EC2::SecurityGroup'))
      .find((g) => String(g.Properties.GroupDescription).startsWith('NFS storage server'))!;
    expect(serverGroup.Properties.SecurityGroupIngress).toBeUndefined();
  });

  test('a customer KMS key encrypts root and data volumes', () => {
    const stack = new Stack(new App(), 'Kms');
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 });
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
    new StorageServer(stack, 'Storage', { vpc, encryptionKey: key });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::EC2::Volume', { KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Key'), 'Arn'] } });
    t.hasResourceProperties('AWS::EC2::Instance', {
      BlockDeviceMappings: Match.arrayWith([Match.objectLike({ Ebs: Match.objectLike({ KmsKeyId: Match.anyValue() }) })]),
    });
  });
});

describe('EBS data volumes', () => {
  test('st1 volumes are separate resources, RETAIN by default, tagged as this server\'s, with stable ids', () => {
    const { template } = serverStack({ capacityTiB: 30, backend: 'ebs' });
    const volumes = template.findResources('AWS::EC2::Volume');
    expect(Object.keys(volumes).map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(['StorageDataVolume0', 'StorageDataVolume1']);
    for (const v of Object.values(volumes)) {
      expect(v.DeletionPolicy).toBe('RetainExceptOnCreate');
      expect(v.UpdateReplacePolicy).toBe('Retain');
      expect(v.Properties.Tags).toContainEqual({ Key: 'storage-server:id', Value: { 'Fn::Join': ['', [{ Ref: 'AWS::StackName' }, '/storage1']] } });
    }
    // No attachment resource: the server attaches them (the apply step's storage-attach); the instance is
    // created after them and deleted before them.
    template.resourceCountIs('AWS::EC2::VolumeAttachment', 0);
    const [instance] = Object.values(template.findResources('AWS::EC2::Instance'));
    expect(instance.DependsOn).toEqual(expect.arrayContaining(Object.keys(volumes)));
    expect(instance.Properties.Tags).toContainEqual({ Key: 'storage-server:id', Value: { 'Fn::Join': ['', [{ Ref: 'AWS::StackName' }, '/storage1']] } });
  });

  test('the volumes are in the instance subnet\'s availability zone', () => {
    const { template } = serverStack({ capacityTiB: 5 });
    const instance = Object.values(template.findResources('AWS::EC2::Instance'))[0];
    const volume = Object.values(template.findResources('AWS::EC2::Volume'))[0];
    expect(volume.Properties.AvailabilityZone).toBe(instance.Properties.AvailabilityZone);
    expect(volume.Properties.AvailabilityZone).toEqual(expect.any(String));
    expect(JSON.stringify(instance.Properties.SubnetId)).toContain('PrivateSubnet1');
  });

  // DESTROY deletes the data: synth refuses it without deleteDataOnDestroy (test/unit/destroy.test.ts).
  test.each([
    [RemovalPolicy.SNAPSHOT, 'Snapshot'],
    [RemovalPolicy.DESTROY, 'Delete'],
  ])('dataVolumeRemovalPolicy %s gives DeletionPolicy %s', (policy, expected) => {
    const { template } = serverStack({ capacityTiB: 5, dataVolumeRemovalPolicy: policy, deleteDataOnDestroy: policy === RemovalPolicy.DESTROY });
    for (const v of Object.values(template.findResources('AWS::EC2::Volume'))) expect(v.DeletionPolicy).toBe(expected);
  });

  test('the bootstrap is told every volume id with its attachment device and size, in stripe order', () => {
    const { template } = serverStack({ capacityTiB: 30, backend: 'ebs' });
    const [a, b] = Object.keys(template.findResources('AWS::EC2::Volume'));
    expect(settingOf(template, 'STORAGE_EBS_VOLUMES')).toBe(
      `STORAGE_EBS_VOLUMES='",{"Ref":"${a}"},":/dev/sdf:15360 ",{"Ref":"${b}"},":/dev/sdg:15360'`,
    );
  });
});

describe('least privilege of the server', () => {
  test('parameter reads are denied outside the server\'s own path, over the managed SSM policy', () => {
    const { template } = serverStack({ clusterName: 'hpc1', serverName: 'home' });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Sid: 'ParameterReadsOnlyOwnPath',
            Effect: 'Deny',
            Action: ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:GetParametersByPath', 'ssm:GetParameterHistory'],
            NotResource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:us-east-1:123456789012:parameter/storage-server/hpc1/storage/home/*']],
            },
          },
        ]),
      },
    });
    // No statement of the server's own policies allows reading parameters or secrets beyond that.
    const text = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(text).not.toMatch(/"Effect":"Allow","Action":\[?"ssm:GetParameter/);
  });
});

describe('taking over volumes and interface: what the instance role may do in EC2, and nothing more', () => {
  const ec2Statements = (template: Template, roleId: string) =>
    Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .filter((st) => [st.Action].flat().some((a) => a.startsWith('ec2:')));
  const arn = (resource: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ec2:us-east-1:123456789012:${resource}`]] });
  const refArn = (type: string, id: string) => ({
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ec2:us-east-1:123456789012:${type}/`, { Ref: id }]],
  });

  test.each([
    ['EBS, two volumes', { capacityTiB: 30, backend: 'ebs' as const }, 2],
    ['instance store: the interface only', { capacityTiB: 20 }, 0],
  ])('%s', (_name, props, volumeCount) => {
    const { template, stack, server } = serverStack(props);
    const roleId = stack.getLogicalId(server.instance!.role.node.defaultChild as CfnResource);
    const volumes = Object.keys(template.findResources('AWS::EC2::Volume'));
    expect(volumes).toHaveLength(volumeCount);
    const [iface] = Object.keys(template.findResources('AWS::EC2::NetworkInterface'));
    const identity = { 'Fn::Join': ['', [{ Ref: 'AWS::StackName' }, '/storage1']] };
    const ebs = volumeCount > 0;
    const attach = [...(ebs ? ['ec2:AttachVolume'] : []), 'ec2:AttachNetworkInterface'];
    const detach = [...(ebs ? ['ec2:DetachVolume'] : []), 'ec2:DetachNetworkInterface'];
    const one = <T>(list: T[]): T | T[] => (list.length === 1 ? list[0] : list);
    expect(ec2Statements(template, roleId)).toEqual([
      // Attach only to the calling instance itself.
      {
        Sid: 'AttachToSelfOnly',
        Effect: 'Allow',
        Action: one(attach),
        Resource: arn('instance/*'),
        Condition: { ArnLike: { 'ec2:SourceInstanceARN': arn('instance/${ec2:InstanceId}') } },
      },
      // Stop and detach only an instance of this same server (the one a replacement replaces).
      {
        Sid: 'ReleaseFromPreviousInstanceOfThisServer',
        Effect: 'Allow',
        Action: ['ec2:StopInstances', ...detach],
        Resource: arn('instance/*'),
        Condition: { StringEquals: { 'aws:ResourceTag/storage-server:id': identity } },
      },
      // Only its own interface and volumes, by ARN.
      {
        Sid: 'OwnVolumesAndInterface',
        Effect: 'Allow',
        Action: [...attach, ...detach],
        Resource: one([refArn('network-interface', iface), ...volumes.map((v) => refArn('volume', v))]),
      },
      {
        Sid: 'DescribeWhatItTakesOver',
        Effect: 'Allow',
        Action: [...(ebs ? ['ec2:DescribeVolumes'] : []), 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstances'],
        Resource: '*',
      },
    ]);
  });

  test('a customer managed key: the role may let EC2 create grants on it, for AWS resources only', () => {
    const stack = new Stack(new App(), 'Kms', { env: { account: '123456789012', region: 'us-east-1' } });
    const key = new kms.Key(stack, 'Key');
    const server = new StorageServer(stack, 'Storage', { vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 }), capacityTiB: 5, encryptionKey: key });
    const roleId = stack.getLogicalId(server.instance!.role.node.defaultChild as CfnResource);
    const statements = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .filter((st) => [st.Action].flat().some((a) => a.startsWith('kms:')));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:CreateGrant',
        Resource: { 'Fn::GetAtt': [stack.getLogicalId(key.node.defaultChild as CfnResource), 'Arn'] },
        Condition: { Bool: { 'kms:GrantIsForAWSResource': true } },
      },
    ]);
  });
});

describe('replacement: the server\'s identity lives outside the instance', () => {
  test('a changed image id (which replaces the instance) keeps the volumes and the interface as they are', () => {
    const before = appStack({ capacityTiB: '30', backend: 'ebs' });
    const after = appStack({ capacityTiB: '30', backend: 'ebs', machineImageId: 'ami-0123456789abcdef0' });
    const [a, b] = [Template.fromStack(before), Template.fromStack(after)];
    for (const type of ['AWS::EC2::Volume', 'AWS::EC2::NetworkInterface']) {
      // The same logical ids with the same properties: CloudFormation neither replaces nor updates them.
      expect(a.findResources(type)).toEqual(b.findResources(type));
      expect(Object.keys(a.findResources(type)).length).toBeGreaterThan(0);
    }
    // The instance is what changes, and nothing the new instance would have to attach collides with the old.
    expect(Object.values(a.findResources('AWS::EC2::Instance'))[0].Properties.ImageId)
      .not.toEqual(Object.values(b.findResources('AWS::EC2::Instance'))[0].Properties.ImageId);
    b.resourceCountIs('AWS::EC2::VolumeAttachment', 0);
    b.resourceCountIs('AWS::EC2::NetworkInterfaceAttachment', 0);
    // Clients keep the address: the outputs and the registration name the interface's, not the instance's.
    const ifaceId = Object.keys(b.findResources('AWS::EC2::NetworkInterface'))[0];
    expect(b.findOutputs('PrivateIp').PrivateIp.Value).toEqual({ 'Fn::GetAtt': [ifaceId, 'PrimaryPrivateIpAddress'] });
    const [registration] = Object.values(b.findResources('Custom::StorageServerRegistration'));
    expect(registration.Properties.NetworkInterfaceId).toEqual({ Ref: ifaceId });
  });
});

describe('upgrading an EBS server deployed before the stable address (legacyVolumeAttachments)', () => {
  test('step 1 keeps the attachments as the old version made them, retained, and tells the guard so', () => {
    const { template, stack, server } = serverStack({ capacityTiB: 30, backend: 'ebs', legacyVolumeAttachments: true });
    const attachments = template.findResources('AWS::EC2::VolumeAttachment');
    // The logical ids and properties of the old version's attachments: CloudFormation changes nothing of them.
    expect(Object.keys(attachments).map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'StorageDataVolume0Attachment',
      'StorageDataVolume1Attachment',
    ]);
    const volumes = Object.keys(template.findResources('AWS::EC2::Volume'));
    Object.values(attachments).forEach((a, i) => {
      expect(a.Properties).toEqual({
        Device: `/dev/sd${'fg'[i]}`,
        InstanceId: { Ref: stack.getLogicalId(server.instance!.instance) },
        VolumeId: { Ref: volumes[i] },
      });
      // Retained: the next deploy removes them from the stack without detaching the volumes.
      expect([a.DeletionPolicy, a.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    });
    const [guard] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
    expect(guard.Properties.VolumeAttachment).toBe('retained');
  });

  test('off (the default), and on an instance-store server: no attachments, the server attaches', () => {
    for (const props of [{ capacityTiB: 30, backend: 'ebs' as const }, { capacityTiB: 20, legacyVolumeAttachments: true }]) {
      const { template } = serverStack(props);
      template.resourceCountIs('AWS::EC2::VolumeAttachment', 0);
      const [guard] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
      expect(guard.Properties.VolumeAttachment).toBe('server');
    }
  });

  test('the context key reaches the construct', () => {
    const t = Template.fromStack(appStack({ capacityTiB: '5', legacyVolumeAttachments: 'true' }));
    // The very logical id the versions before the stable address gave the attachment (their snapshot).
    expect(Object.keys(t.findResources('AWS::EC2::VolumeAttachment'))).toEqual(['StorageServerDataVolume0AttachmentE8B61998']);
  });
});

describe('readiness', () => {
  test('a State Manager association applies the settings (taking over volumes and interface); CloudFormation waits for it', () => {
    const { template, stack, server } = serverStack({ capacityTiB: 30, backend: 'ebs' });
    const association = template.findResources('AWS::SSM::Association')[stack.getLogicalId(server.ready)];
    const [docId] = Object.entries(template.findResources('AWS::SSM::Document')).find(
      ([, d]) => d.Properties.Content.mainSteps[0].name === 'applyStorageSettings',
    )!;
    expect(association.Properties).toEqual({
      Name: { Ref: docId },
      Targets: [{ Key: 'InstanceIds', Values: [{ Ref: expect.stringMatching(/^StorageInstance/) }] }],
      WaitForSuccessTimeoutSeconds: 2 * (2 * 900 + 1200) + 60,
    });
    // The apply step is told the volumes and the interface to take over (the settings reference both).
    expect(settingOf(template, 'STORAGE_NETWORK_INTERFACE')).toMatch(/^STORAGE_NETWORK_INTERFACE='",\{"Ref":"StorageInterface[0-9A-F]{8}"\},"'$/);
    // The registration points clients at the server only once the export is live.
    const [registration] = Object.values(template.findResources('Custom::StorageServerRegistration'));
    expect(registration.DependsOn).toContain(stack.getLogicalId(server.ready));
    template.resourceCountIs('AWS::CloudFormation::WaitCondition', 0);
    expect(JSON.stringify(template.toJSON())).not.toContain('cloudformation:SignalResource');
  });
});

describe('day 2: a setting change never touches the image or the user data', () => {
  const instanceOf = (template: Template) => {
    const instances = Object.values(template.findResources('AWS::EC2::Instance'));
    expect(instances).toHaveLength(1);
    return instances[0].Properties;
  };
  const documentOf = (template: Template) => applyCommandOf(template);

  test.each<[string, Record<string, string>, Record<string, string>]>([
    ['client CIDRs', {}, { clientCidrs: '10.1.0.0/16' }],
    ['snapshot retention', {}, { snapshotRetain: '3' }],
    ['capacityTiB 5 -> 8 (EBS growth)', {}, { capacityTiB: '8' }],
    ['capacityTiB=20 with a changed client CIDR', { capacityTiB: '20' }, { capacityTiB: '20', clientCidrs: '10.1.0.0/16' }],
  ])('%s: ImageId and UserData are byte-identical', (_name, before, after) => {
    const a = instanceOf(Template.fromStack(appStack(before)));
    const b = instanceOf(Template.fromStack(appStack({ ...before, ...after })));
    expect(JSON.stringify(b.ImageId)).toBe(JSON.stringify(a.ImageId));
    expect(JSON.stringify(b.UserData)).toBe(JSON.stringify(a.UserData));
  });

  test.each<[string, Partial<StorageServerProps>]>([
    ['nfsd threads', { nfs: { threads: 64 } }],
    ['export mode', { nfs: { exportMode: 'async' } }],
    ['client CIDRs', { clientCidrs: ['10.9.0.0/16'] }],
  ])('%s: ImageId and UserData are byte-identical, and the apply document carries the change', (_name, change) => {
    const a = serverStack({ capacityTiB: 5 }).template;
    const b = serverStack({ capacityTiB: 5, ...change }).template;
    expect(JSON.stringify(instanceOf(b).ImageId)).toBe(JSON.stringify(instanceOf(a).ImageId));
    expect(JSON.stringify(instanceOf(b).UserData)).toBe(JSON.stringify(instanceOf(a).UserData));
    expect(documentOf(b)).not.toBe(documentOf(a));
  });

  test('growth: the volume grows in place and the apply document carries the new size', () => {
    const a = appStack({});
    const b = appStack({ capacityTiB: '8' });
    const volumes = (s: Stack) => Template.fromStack(s).findResources('AWS::EC2::Volume');
    expect(Object.keys(volumes(b))).toEqual(Object.keys(volumes(a)));
    expect(Object.values(volumes(b)).map((v) => v.Properties.Size)).toEqual([8192]);
    expect(settingOf(Template.fromStack(b), 'STORAGE_EBS_VOLUMES')).toMatch(/:\/dev\/sdf:8192'$/);
    // m4.2xlarge -> m4.4xlarge: a stop/start, which EBS data survives.
    expect(instanceOf(Template.fromStack(b)).InstanceType).toBe('m4.4xlarge');
  });

  test('the image id is resolved by EC2 at launch, never a template parameter CloudFormation re-resolves', () => {
    const template = Template.fromStack(appStack({}));
    expect(instanceOf(template).ImageId).toBe(
      'resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64',
    );
    expect(JSON.stringify(template.toJSON().Parameters ?? {})).not.toMatch(/AWS::EC2::Image::Id|ami-amazon-linux/);
  });

  test('an instanceType override the catalogue knows gets its own estimate and cost; another is warned about', () => {
    const { server } = serverStack({ capacityTiB: 5, instanceType: new ec2.InstanceType('m6i.2xlarge') });
    expect(server.plan).toMatchObject({ instanceType: 'm6i.2xlarge', monthlyCostUsd: 510.72 });
    const { stack, server: other } = serverStack({ capacityTiB: 5, instanceType: new ec2.InstanceType('m5.2xlarge') });
    expect(other.plan.instanceType).toBe('m4.2xlarge');
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp("instanceType m5.2xlarge is not in the planner's catalogue"));
  });

  test.each([
    ['m7g.2xlarge', 'arm64'],
    ['m6g.xlarge', 'arm64'],
    ['m6i.2xlarge', 'x86_64'],
  ])('the default image follows the instance type: %s gets the %s Amazon Linux 2023', (type, arch) => {
    const { template } = serverStack({ capacityTiB: 5, instanceType: new ec2.InstanceType(type) });
    expect(instanceOf(template)).toMatchObject({
      InstanceType: type,
      ImageId: `resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-${arch}`,
    });
  });

  test('the update guard holds the layout, and the instance, every volume, the interface, the settings and the registration depend on it', () => {
    const { template, stack, server } = serverStack({ capacityTiB: 30, backend: 'ebs' });
    const guardId = stack.getLogicalId(server.updateGuard.resource.node.defaultChild as CfnResource);
    const guard = template.findResources('Custom::StorageServerUpdateGuard')[guardId];
    expect(guard.Properties).toEqual(expect.objectContaining({
      Backend: 'ebs',
      InstanceStoreType: '',
      DataVolumes: ['0:15360', '1:15360'],
      SnapshotIds: [],
      EncryptionKey: 'aws/ebs',
      ImageId: 'resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64',
      KeyPair: '',
      PlacementGroup: '',
      VolumeAttachment: 'server',
      AcceptDataLoss: 'false',
    }));
    const dependents = [
      ...Object.entries(template.findResources('AWS::EC2::Instance')),
      ...Object.entries(template.findResources('AWS::EC2::Volume')),
      ...Object.entries(template.findResources('AWS::EC2::NetworkInterface')),
      ...Object.entries(template.findResources('AWS::SSM::Association')),
      ...Object.entries(template.findResources('Custom::StorageServerRegistration')),
    ];
    expect(dependents.length).toBe(1 + 2 + 1 + 1 + 1);
    for (const [id, resource] of dependents) {
      expect([id, resource.DependsOn]).toEqual([id, expect.arrayContaining([guardId])]);
    }
  });

  test('acceptDataLoss reaches the guard', () => {
    const { template } = serverStack({ acceptDataLoss: true });
    template.hasResourceProperties('Custom::StorageServerUpdateGuard', { AcceptDataLoss: 'true' });
  });

  test('machineImageId is the deliberate change, and a bad id is refused naming the prop', () => {
    const { template } = serverStack({ machineImageId: 'ami-0123456789abcdef0' });
    expect(instanceOf(template).ImageId).toBe('ami-0123456789abcdef0');
    expect(() => serverStack({ machineImageId: 'ami-XYZ' })).toThrow(/machineImageId must be an image id .*got 'ami-XYZ'/);
    expect(() =>
      serverStack({ machineImageId: 'ami-0123456789abcdef0', machineImage: ec2.MachineImage.latestAmazonLinux2023() }),
    ).toThrow(/mutually exclusive/);
  });
});

describe('instance store', () => {
  test('warns at synth time that the data is lost on stop or terminate, and protects against termination', () => {
    const { stack, template } = serverStack({ capacityTiB: 20 });
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('data is lost when the instance stops, terminates'));
    template.hasResourceProperties('AWS::EC2::Instance', { DisableApiTermination: true });
  });

  test('EBS backend has no such warning and no termination protection by default', () => {
    const { stack, template } = serverStack({ capacityTiB: 5 });
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('data is lost'));
    template.hasResourceProperties('AWS::EC2::Instance', { DisableApiTermination: false });
  });

  test('an instance-type override must be a d2 large enough, and maps all of its disks', () => {
    const { template } = serverStack({ capacityTiB: 20, instanceType: new ec2.InstanceType('d2.8xlarge') });
    const mappings = Object.values(template.findResources('AWS::EC2::Instance'))[0].Properties.BlockDeviceMappings;
    expect(mappings.filter((m: { VirtualName?: string }) => m.VirtualName)).toHaveLength(24);
    expect(() => serverStack({ capacityTiB: 20, instanceType: new ec2.InstanceType('d2.2xlarge') }))
      .toThrow(/instanceType: for 20 TiB on the instance-store backend it must be one of d2.4xlarge, d2.8xlarge, d3.4xlarge, .*, got 'd2.2xlarge'/);
  });
});

describe('instance-store encryption (LUKS2 on the array, d2 by default)', () => {

  test('d2 is encrypted by default: the server applies luks2, the guard records it, cdk-nag EC26 is satisfied', () => {
    const { template } = serverStack({ capacityTiB: 20 });
    expect(settingOf(template, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='luks2'");
    expect(guardOf(template)).toHaveProperty('InstanceStoreEncryption', 'luks2');
    expect(ec26({ capacityTiB: 20 })).toEqual([]);
  });

  test('encryptInstanceStore: false leaves it unencrypted: none applied, no guard field, and cdk-nag reports EC26', () => {
    const { template } = serverStack({ capacityTiB: 20, encryptInstanceStore: false });
    expect(settingOf(template, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(guardOf(template)).not.toHaveProperty('InstanceStoreEncryption');
    expect(ec26({ capacityTiB: 20, encryptInstanceStore: false })).toEqual([expect.stringMatching(/Storage\/Default\/Instance/)]);
  });

  test('EBS is encrypted by EBS: none applied, no guard field; encryptInstanceStore: true there is refused by name', () => {
    const { template } = serverStack({ capacityTiB: 5 });
    expect(settingOf(template, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(guardOf(template)).not.toHaveProperty('InstanceStoreEncryption');
    expect(() => serverStack({ capacityTiB: 5, encryptInstanceStore: true })).toThrow(
      /encryptInstanceStore: true applies to the instance-store backend only \(this server's backend is ebs, whose volumes EBS encrypts\)/);
  });

  test('the context key reaches the server', () => {
    const stack = appStack({ capacityTiB: '20', encryptInstanceStore: 'false' });
    expect(settingOf(Template.fromStack(stack), 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
  });
});

describe('instance store, generation current (d3, d3en: NVMe HDDs the platform encrypts)', () => {
  const instanceOf = (t: Template) => Object.values(t.findResources('AWS::EC2::Instance'))[0].Properties;
  /** The agent configuration the apply document writes (its here-document), as written. */
  const agentConfigOf = (t: Template): string => {
    const command = applyCommandOf(t).split('\\n');
    const end = command.findIndex((l) => l.includes('/etc/storage-server/cloudwatch-agent.json') && l.startsWith('chmod'));
    const start = command.lastIndexOf("cat >\\\"$tmp\\\" <<'STORAGE_BOOTSTRAP_EOF'", end);
    return command.slice(start + 1, end - 1).join('\n').replace(/\\"/g, '"');
  };
  const agentDisksOf = (t: Template): string[] => JSON.parse(agentConfigOf(t)).metrics.metrics_collected.diskio.resources;

  test('-c generation=current -c capacityTiB=20: a d3en.xlarge, its 2 disks counted for the bootstrap, no dm-crypt', () => {
    const t = Template.fromStack(appStack({ generation: 'current', capacityTiB: '20' }));
    expect(instanceOf(t).InstanceType).toBe('d3en.xlarge');
    t.resourceCountIs('AWS::EC2::Volume', 0);
    // The bootstrap waits for as many NVMe instance-store disks as the settings name (lib/scripts/storage-bootstrap.sh).
    expect(settingOf(t, 'STORAGE_BACKEND')).toBe("STORAGE_BACKEND='instance-store'");
    expect(settingOf(t, 'STORAGE_INSTANCE_STORE_DEVICES')).toBe("STORAGE_INSTANCE_STORE_DEVICES='/dev/sdb /dev/sdc'");
    // Encrypted by the platform (XTS-AES-256): the server adds no LUKS, the guard records none.
    expect(settingOf(t, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(guardOf(t)).not.toHaveProperty('InstanceStoreEncryption');
    expect(guardOf(t)).toHaveProperty('InstanceStoreType', 'd3en.xlarge');
    // The agent watches the NVMe disks by their kernel names: the root volume and the 2 disks, in whatever order.
    expect(agentDisksOf(t)).toEqual(['nvme0n1', 'nvme1n1', 'nvme2n1']);
    expect(agentConfigErrors(agentConfigOf(t))).toEqual([]);
  });

  test('no acknowledgement of unencrypted disks is needed: cdk-nag EC26 is satisfied without encryptInstanceStore', () => {
    expect(ec26({ capacityTiB: 20, generation: 'current' })).toEqual([]);
    // The same server on d2 without its LUKS is reported: the acknowledgement rests on the platform's encryption.
    expect(ec26({ capacityTiB: 20, encryptInstanceStore: false })).toHaveLength(1);
  });

  test('d3en.12xlarge (300 TiB): its 24 disks named, and nothing attached beyond the root volume and the two interfaces', () => {
    // d3.8xlarge and d3en.12xlarge allow three attachments including the root volume (EC2 User Guide): the root volume,
    // the primary interface and the stable one the server attaches to itself.
    const { template: t } = serverStack({ capacityTiB: 300, backend: 'instance-store', generation: 'current' });
    const instance = instanceOf(t);
    expect(instance.InstanceType).toBe('d3en.12xlarge');
    const mappings: { Ebs?: unknown; VirtualName?: string }[] = instance.BlockDeviceMappings;
    expect(mappings.filter((m) => m.Ebs)).toHaveLength(1);
    expect(mappings.filter((m) => m.VirtualName)).toHaveLength(24);
    expect(instance).not.toHaveProperty('NetworkInterfaces');
    t.resourceCountIs('AWS::EC2::NetworkInterface', 1);
    for (const type of ['AWS::EC2::Volume', 'AWS::EC2::VolumeAttachment', 'AWS::EC2::NetworkInterfaceAttachment']) t.resourceCountIs(type, 0);
    expect(settingOf(t, 'STORAGE_INSTANCE_STORE_DEVICES').split(' ')).toHaveLength(24);
    expect(settingOf(t, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    // What the server attaches itself at boot (storage-attach): its stable interface, and no EBS volume.
    expect(settingOf(t, 'STORAGE_EBS_VOLUMES')).toBe("STORAGE_EBS_VOLUMES=''");
    expect(settingOf(t, 'STORAGE_NETWORK_INTERFACE')).toMatch(/^STORAGE_NETWORK_INTERFACE='.+'$/);
  });

  test('an instanceType override may name a d3 or d3en that holds the capacity, whichever generation planned', () => {
    const { template } = serverStack({ capacityTiB: 20, backend: 'instance-store', instanceType: new ec2.InstanceType('d3.4xlarge') });
    expect(instanceOf(template).InstanceType).toBe('d3.4xlarge');
    expect(settingOf(template, 'STORAGE_INSTANCE_STORE_DEVICES').split(' ')).toHaveLength(12);
    expect(settingOf(template, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(() => serverStack({ capacityTiB: 20, instanceType: new ec2.InstanceType('d3.2xlarge') }))
      .toThrow(/^instanceType: for 20 TiB on the instance-store backend it must be one of d2\.4xlarge, d2\.8xlarge, d3\.4xlarge, d3\.8xlarge, d3en\.xlarge, .*d3en\.12xlarge, got 'd3\.2xlarge'/);
  });
});

describe('the server\'s own metrics (issue 18)', () => {
  /** The agent configuration the apply document writes (its here-document), parsed. */
  const agentConfigOf = (template: Template): { metrics: { namespace: string; metrics_collected: Record<string, unknown> } } => {
    const command = applyCommandOf(template).split('\\n');
    const end = command.findIndex((l) => l.includes('/etc/storage-server/cloudwatch-agent.json') && l.startsWith('chmod'));
    const start = command.lastIndexOf("cat >\\\"$tmp\\\" <<'STORAGE_BOOTSTRAP_EOF'", end);
    return JSON.parse(command.slice(start + 1, end - 1).join('\n').replace(/\\"/g, '"'));
  };

  test("the role may publish metrics in its own server's namespace only", () => {
    const { template } = serverStack({ capacityTiB: 5 });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([{
        Sid: 'PublishOwnMetricsOnly', Effect: 'Allow', Action: 'cloudwatch:PutMetricData', Resource: '*',
        Condition: { StringEquals: { 'cloudwatch:namespace': 'StorageServer/cluster/storage1' } },
      }]) },
    });
  });

  test('the settings name the cluster and server; the agent collects the d2 disks\' I/O by their Xen names, none on EBS', () => {
    const is = serverStack({ capacityTiB: 20, clusterName: 'hpc1', serverName: 'home' }).template;
    expect(settingOf(is, 'STORAGE_METRICS_CLUSTER')).toBe("STORAGE_METRICS_CLUSTER='hpc1'");
    expect(settingOf(is, 'STORAGE_METRICS_SERVER')).toBe("STORAGE_METRICS_SERVER='home'");
    const config = agentConfigOf(is);
    expect(config.metrics.namespace).toBe('StorageServer/hpc1/home');
    expect((config.metrics.metrics_collected.diskio as { resources: string[] }).resources)
      .toEqual(Array.from({ length: 12 }, (_, i) => `xvd${String.fromCharCode(98 + i)}`));
    expect(agentConfigOf(serverStack({ capacityTiB: 5 }).template).metrics.metrics_collected).not.toHaveProperty('diskio');
  });

  test('the configuration the apply document writes is one the agent takes (its schema\'s rules), on both backends', () => {
    for (const capacityTiB of [20, 5]) {
      expect(agentConfigErrors(JSON.stringify(agentConfigOf(serverStack({ capacityTiB }).template)))).toEqual([]);
    }
  });
});

describe('monitoring wired to the backend, and where alarms go', () => {
  /** The actions of the monitoring alarms (the EBS recover alarm, which recovers the instance, is apart). */
  const actionsOf = (template: Template): unknown[] =>
    Object.entries(template.findResources('AWS::CloudWatch::Alarm'))
      .filter(([id]) => id.includes('Monitoring'))
      .map(([, a]) => a.Properties.AlarmActions);

  test('each backend gets its own alarms: EBS with a burst-bucket alarm per volume, FSx its capacity alarms', () => {
    expect(serverStack({ capacityTiB: 20, backend: 'ebs' }).server.monitoring.alarms.map((a) => a.node.id).sort()).toEqual(
      ['BurstBalanceLow0', 'BurstBalanceLow1', 'ExportDown', 'FileSystemUsedCritical', 'FileSystemUsedWarning', 'StatusCheckFailed']);
    expect(serverStack({ capacityTiB: 12, backend: 'fsx-lustre' }).server.monitoring.alarms.map((a) => a.node.id).sort()).toEqual(
      ['FileSystemUsedCritical', 'FileSystemUsedWarning']);
  });

  test('alarmEmail: the encrypted, TLS-only alarm topic with that subscription, which every alarm notifies', () => {
    const { template } = serverStack({ capacityTiB: 5, alarmEmail: 'ops@example.com' });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Sid: 'CloudWatchAlarmsOfThisAccount', Principal: { Service: 'cloudwatch.amazonaws.com' } })]) },
    });
    const actions = actionsOf(template);
    expect(actions).toHaveLength(5);
    for (const a of actions) expect(a).toEqual([{ Ref: expect.stringMatching(/^StorageAlarmTopic/) }]);
  });

  test('without alarmEmail the topic has no subscription but still takes every alarm; both props is refused; a bad address too', () => {
    const { template } = serverStack({ capacityTiB: 5 });
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    for (const a of actionsOf(template)) expect(a).toEqual([{ Ref: expect.stringMatching(/^StorageAlarmTopic/) }]);
    const stack = new Stack();
    const topic = sns.Topic.fromTopicArn(stack, 'T', 'arn:aws:sns:us-east-1:123456789012:ops');
    expect(() => serverStack({ capacityTiB: 5, alarmTopic: topic, alarmEmail: 'ops@example.com' })).toThrow(/alarmTopic and alarmEmail: give one/);
    expect(() => serverStack({ capacityTiB: 5, alarmEmail: 'ops@example.com, dev@example.com' })).toThrow(
      /alarmEmail must be one e-mail address such as ops@example.com: .*, got 'ops@example.com, dev@example.com'/);
  });

  test('context: alarmTopicArn notifies that topic; alarmEmail makes the topic; bad values are refused naming the key', () => {
    const byArn = Template.fromStack(appStack({ alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:storage-alarms' }));
    for (const a of actionsOf(byArn)) expect(a).toEqual(['arn:aws:sns:us-east-1:123456789012:storage-alarms']);
    byArn.resourceCountIs('AWS::SNS::Topic', 0);
    byArn.hasOutput('AlarmTopicArn', { Value: 'arn:aws:sns:us-east-1:123456789012:storage-alarms' });
    Template.fromStack(appStack({ alarmEmail: 'ops@example.com' })).hasResourceProperties('AWS::SNS::Subscription', { Endpoint: 'ops@example.com' });
    expect(() => appStack({ alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:alarms.fifo' })).toThrow(/alarmTopicArn.*the ARN of a standard SNS topic/);
    expect(() => appStack({ alarmEmail: 'ops' })).toThrow(/alarmEmail.*one e-mail address/);
  });
});

describe('public attributes', () => {
  test('plan, exportPath, mountOptions, privateIp, connections default port', () => {
    const { server, stack } = serverStack({ capacityTiB: 10 });
    expect(server.plan.instanceType).toBe('m4.4xlarge');
    expect(server.exportPath).toBe('/export/data');
    expect(server.mountPoint).toBe('/data');
    expect(server.mountOptions).toBe('nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev,nosuid,nodev');
    expect(stack.resolve(server.privateIp)).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^StorageInterface/), 'PrimaryPrivateIpAddress'] });
    expect(stack.resolve(server.networkInterfaceId)).toEqual({ Ref: expect.stringMatching(/^StorageInterface/) });
    expect(server.connections.defaultPort?.toString()).toBe('2049');
    expect(server.instance).toBeInstanceOf(ec2.Instance);
  });

  test('allowDefaultPortFrom opens TCP 2049 to the given peer', () => {
    const stack = new Stack(new App(), 'Conn');
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 });
    const server = new StorageServer(stack, 'Storage', { vpc });
    const compute = new ec2.SecurityGroup(stack, 'Compute', { vpc });
    server.connections.allowDefaultPortFrom(compute);
    Template.fromStack(stack).hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: 2049, ToPort: 2049, SourceSecurityGroupId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Compute'), 'GroupId'] },
    });
  });
});

describe('validation', () => {
  test.each<[string, object, RegExp]>([
    ['clusterName', { clusterName: 'bad name' }, /clusterName must be 1-64 characters .* got 'bad name'/],
    ['serverName', { serverName: '' }, /serverName must be 1-64 characters .* got ''/],
    ['clientCidrs', { clientCidrs: ['10.0.0.0/33'] }, /clientCidrs: each entry must be .*, got '10.0.0.0\/33': the prefix length must be 1-32/],
    ['clientCidrs /0', { clientCidrs: ['0.0.0.0/0'] }, /clientCidrs: .*refused/],
    ['nfs.threads', { nfs: { threads: 0 } }, /nfs.threads must be a whole number from 1 to 1024, got 0/],
    ['exportPath', { exportPath: 'data' }, /exportPath must be an absolute directory path .* got 'data'/],
    ['mountPoint', { mountPoint: '/a/../etc' }, /mountPoint must be an absolute directory path .* got '\/a\/..\/etc'/],
    ['capacityTiB', { capacityTiB: -1 }, /capacityTiB/],
  ])('%s is validated before anything is created', (_name, props, message) => {
    expect(() => serverStack(props)).toThrow(message);
  });
});

describe('durability wiring (EBS snapshots, recovery)', () => {
  test.each([
    ['5', undefined],
    ['30', 'ebs'],
  ])('EBS capacityTiB=%s backend=%s: exactly one DLM policy targeting this instance, and a recovery alarm', (capacityTiB, backend) => {
    const stack = appStack({ capacityTiB, ...(backend ? { backend } : {}) });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 1);
    const policy = Object.values(template.findResources('AWS::DLM::LifecyclePolicy'))[0].Properties;
    expect(policy.PolicyDetails.ResourceTypes).toEqual(['INSTANCE']);
    expect(policy.PolicyDetails.Parameters).toEqual(expect.objectContaining({ ExcludeBootVolume: true }));
    expect(policy.PolicyDetails.Schedules[0].RetainRule).toEqual({ Count: 7 });
    expect(policy.PolicyDetails.Schedules[0].CreateRule.Scripts.map((s: { Stages: string[] }) => s.Stages)).toEqual([['PRE', 'POST']]);
    // The target tag is on the storage instance and on nothing else that DLM could snapshot.
    const [target] = policy.PolicyDetails.TargetTags;
    const instance = Object.values(template.findResources('AWS::EC2::Instance'))[0];
    expect(instance.Properties.Tags).toEqual(expect.arrayContaining([target]));
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'StatusCheckFailed_System',
      AlarmActions: [{ 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':automate:'), ':ec2:recover'])] }],
    });
  });

  test('every data volume is tagged with its stripe position, so a snapshot says what it restores', () => {
    const template = Template.fromStack(appStack({ backend: 'ebs', capacityTiB: '30' }));
    const tags = Object.values(template.findResources('AWS::EC2::Volume')).map((v) =>
      v.Properties.Tags.find((t: { Key: string }) => t.Key === 'storage-server:data-volume')?.Value);
    expect(tags).toEqual(['0', '1']);
  });

  test.each(['20', '40'])('instance store capacityTiB=%s: no DLM policy, no recovery alarm', (capacityTiB) => {
    const template = Template.fromStack(appStack({ capacityTiB }));
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 0);
    // The only SSM document is the client mount one; no fsfreeze document for DLM.
    const documents = Object.values(template.findResources('AWS::SSM::Document'));
    expect(documents.filter((d) => JSON.stringify(d).includes('fsfreeze'))).toEqual([]);
    // No recover alarm (EC2 cannot recover an instance with instance store); the monitoring alarms only.
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.filter((a) => JSON.stringify(a.Properties.AlarmActions ?? []).includes(':recover'))).toEqual([]);
    const metricOf = (p: { MetricName?: string; Metrics?: { MetricStat: { Metric: { MetricName: string } } }[] }) =>
      p.MetricName ?? p.Metrics![0].MetricStat.Metric.MetricName;
    expect(alarms.map((a) => metricOf(a.Properties)).sort()).toEqual(['StatusCheckFailed', 'disk_used_percent', 'disk_used_percent', 'export_live']);
  });

  test('snapshotRetain=0 disables snapshots; snapshotRetain=14 keeps 14', () => {
    Template.fromStack(appStack({ snapshotRetain: '0' })).resourceCountIs('AWS::DLM::LifecyclePolicy', 0);
    Template.fromStack(appStack({ snapshotRetain: '14' })).hasResourceProperties('AWS::DLM::LifecyclePolicy', {
      PolicyDetails: Match.objectLike({ Schedules: [Match.objectLike({ RetainRule: { Count: 14 } })] }),
    });
  });

  test('cross-region copy renders when set', () => {
    const { template } = serverStack({ snapshots: { crossRegionCopy: { targetRegion: 'eu-west-1', retainDays: 30 } } });
    template.hasResourceProperties('AWS::DLM::LifecyclePolicy', {
      PolicyDetails: Match.objectLike({
        Schedules: [Match.objectLike({ CrossRegionCopyRules: [Match.objectLike({ Target: 'eu-west-1', Encrypted: true, RetainRule: { Interval: 30, IntervalUnit: 'DAYS' } })] })],
      }),
    });
  });

  test('restore: volumes are created from the snapshot set, one per stripe member', () => {
    const template = Template.fromStack(appStack({ backend: 'ebs', capacityTiB: '30', restoreSnapshotIds: 'snap-0123456789abcdef0,snap-0123456789abcdef1' }));
    const volumes = Object.values(template.findResources('AWS::EC2::Volume'));
    expect(volumes.map((v) => v.Properties.SnapshotId)).toEqual(['snap-0123456789abcdef0', 'snap-0123456789abcdef1']);
    expect(volumes.map((v) => v.Properties.Size)).toEqual([15360, 15360]);
  });

  test.each<[object, RegExp]>([
    [{ capacityTiB: 5, dataVolumeSnapshotIds: ['snap-01234567', 'snap-89abcdef'] }, /the plan has 1 data volume\(s\), so give exactly 1 snapshot id\(s\) in stripe order, got 2/],
    [{ capacityTiB: 5, dataVolumeSnapshotIds: ['vol-01234567'] }, /snapshot id such as 'snap-0123456789abcdef0', got 'vol-01234567'/],
    [{ capacityTiB: 20, dataVolumeSnapshotIds: ['snap-01234567'] }, /only the EBS backend has data volumes, but the plan is instance-store/],
  ])('dataVolumeSnapshotIds is validated: %j', (props, message) => {
    expect(() => serverStack(props)).toThrow(message);
  });
});

describe('home and scratch: several servers of one cluster in one app', () => {
  const twoServers = (second: Partial<StorageServerProps>, secondStack = false) => {
    const app = new App();
    const env = { account: '123456789012', region: 'us-east-1' };
    const stack = new Stack(app, 'Home', { env });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const home = new StorageServer(stack, 'Home', { vpc, clusterName: 'hpc1', serverName: 'home', mountPoint: '/home', allowHomeMountPoint: true });
    const scope = secondStack ? new Stack(app, 'Scratch', { env }) : stack;
    const scratchVpc = secondStack ? new ec2.Vpc(scope, 'Vpc', { maxAzs: 1, natGateways: 1 }) : vpc;
    const scratch = new StorageServer(scope, 'Scratch', { vpc: scratchVpc, clusterName: 'hpc1', ...second });
    return { stack, home, scratch };
  };

  test('durable home on EBS beside d2 scratch: distinct mount points, mount configs and servers', () => {
    const { stack, home, scratch } = twoServers({ serverName: 'scratch', mountPoint: '/scratch', capacityTiB: 20 });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::EC2::Instance', 2);
    expect([home.plan.backend, scratch.plan.backend]).toEqual(['ebs', 'instance-store']);
    expect(home.mountParameterName).not.toEqual(scratch.mountParameterName);
    const registrations = Object.values(template.findResources('Custom::StorageServerRegistration'))
      .map((r) => (r.Properties as { MountPoint: string }).MountPoint).sort();
    expect(registrations).toEqual(['/home', '/scratch']);
  });

  test.each([false, true])('the same mount point twice in one cluster is refused at synth (second stack: %p)', (secondStack) => {
    expect(() => twoServers({ serverName: 'scratch', mountPoint: '/home', allowHomeMountPoint: true }, secondStack)).toThrow(
      /mountPoint '\/home' is taken in cluster 'hpc1' by Home\/Home \(server 'home'\): give server 'scratch' another mountPoint, e\.g\. '\/scratch'/,
    );
  });

  test.each([false, true])('a mount point below another server\'s of the cluster is refused at synth (second stack: %p)', (secondStack) => {
    const nested = "mountPoint '/home/lab' (server 'lab', Scratch/Scratch) lies below mountPoint '/home' (server 'home', Home/Home) in " +
      "cluster 'hpc1': every node mounts every server of its cluster, and the outer mount would hide the inner one";
    expect(() => twoServers({ serverName: 'lab', mountPoint: '/home/lab', allowHomeMountPoint: true }, secondStack)).toThrow(
      secondStack ? nested : nested.replace('Scratch/Scratch', 'Home/Scratch'));
    // A sibling whose name starts alike is not below.
    expect(() => twoServers({ serverName: 'lab', mountPoint: '/homework', mountRoots: ['/homework'] }, secondStack)).not.toThrow();
  });

  test('the same serverName twice in one cluster is refused at synth', () => {
    expect(() => twoServers({ serverName: 'home', mountPoint: '/scratch' })).toThrow(
      "serverName 'home' is taken in cluster 'hpc1' by Home/Home: give each server of a cluster its own serverName",
    );
  });

  test('another cluster may use the same names and mount point (in one stack, one of the two without a dashboard)', () => {
    const same = { clusterName: 'hpc2', serverName: 'home', mountPoint: '/home', allowHomeMountPoint: true };
    expect(() => twoServers(same, true)).not.toThrow();
    expect(() => twoServers({ ...same, monitoring: { dashboard: false } })).not.toThrow();
    // Both with a dashboard in one stack: one name for two dashboards (test/unit/bad-input.test.ts).
    expect(() => twoServers(same)).toThrow(/the dashboard name 'StorageServer-Home-home' is taken in this stack/);
  });
});
