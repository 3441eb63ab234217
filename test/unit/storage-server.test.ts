// The StorageServer construct: the plan and the context in its template, its secure defaults, its EBS volumes and its least privilege.
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { StorageServer } from '../../lib/storage-server';
import { renderedExports } from '../support/apply';

import { appStack, lookedUpAppStack, serverStack } from '../support/stacks';

import { applyCommandOf, settingOf } from '../support/storage-server-template';
import { NfsExportMode } from '../../lib/backends/ec2-nfs-server-props';
import { Backend } from '../../lib/backend-enum';

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
    // The server attaches its volumes itself in storage-attach: no VolumeAttachment for a replacement to collide with.
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

// Context keys the app parses must reach the template; parsing alone, as test/unit/context.test.ts checks it, is not
// enough.
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
    // Without them: neither, since no key pair is the secure default.
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
    // Created before the instance and deleted after it, since an attached interface cannot be deleted.
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
    // The ring join runs from the apply document after the bootstrap, never from user data, since a change of the
    // ring's settings must not stop the server.
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
    const { template: t } = serverStack({ capacityTiB: 30, backend: Backend.EBS, clientCidrs: ['10.1.0.0/16', '10.2.3.0/24'], nfs: { exportMode: NfsExportMode.ASYNC } });
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
    new StorageServer(stack, 'Storage', { vpc, kmsKey: key });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::EC2::Volume', { KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Key'), 'Arn'] } });
    t.hasResourceProperties('AWS::EC2::Instance', {
      BlockDeviceMappings: Match.arrayWith([Match.objectLike({ Ebs: Match.objectLike({ KmsKeyId: Match.anyValue() }) })]),
    });
  });
});

describe('EBS data volumes', () => {
  test('st1 volumes are separate resources, RETAIN by default, tagged as this server\'s, with stable ids', () => {
    const { template } = serverStack({ capacityTiB: 30, backend: Backend.EBS });
    const volumes = template.findResources('AWS::EC2::Volume');
    expect(Object.keys(volumes).map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(['StorageDataVolume0', 'StorageDataVolume1']);
    for (const v of Object.values(volumes)) {
      expect(v.DeletionPolicy).toBe('RetainExceptOnCreate');
      expect(v.UpdateReplacePolicy).toBe('Retain');
      expect(v.Properties.Tags).toContainEqual({ Key: 'storage-server:id', Value: { 'Fn::Join': ['', [{ Ref: 'AWS::StackName' }, '/storage1']] } });
    }
    // No attachment resource: the server attaches them in the apply step's storage-attach. The instance is created
    // after them and deleted before them.
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

  // DESTROY deletes the data, so synth refuses it without deleteDataOnDestroy: see test/unit/destroy.test.ts.
  test.each([
    [RemovalPolicy.SNAPSHOT, 'Snapshot'],
    [RemovalPolicy.DESTROY, 'Delete'],
  ])('removalPolicy %s gives DeletionPolicy %s', (policy, expected) => {
    const { template } = serverStack({ capacityTiB: 5, removalPolicy: policy, deleteDataOnDestroy: policy === RemovalPolicy.DESTROY });
    for (const v of Object.values(template.findResources('AWS::EC2::Volume'))) expect(v.DeletionPolicy).toBe(expected);
  });

  test('the bootstrap is told every volume id with its attachment device and size, in stripe order', () => {
    const { template } = serverStack({ capacityTiB: 30, backend: Backend.EBS });
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
