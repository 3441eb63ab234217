// The StorageServer across its life: taking over volumes and interface, replacement, upgrades, readiness, day-2 changes.
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';

import { appStack, serverStack } from '../support/stacks';

import { applyCommandOf, settingOf } from '../support/storage-server-template';
import { Backend } from '../../lib/backend-enum';
import { NfsExportMode } from '../../lib/backends/ec2-nfs-server-props';

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
    ['EBS, two volumes', { capacityTiB: 30, backend: Backend.EBS }, 2],
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
      // Stop and detach only an instance of this same server: the one a replacement replaces.
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
    const server = new StorageServer(stack, 'Storage', { vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1 }), capacityTiB: 5, kmsKey: key });
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
    const { template, stack, server } = serverStack({ capacityTiB: 30, backend: Backend.EBS, legacyVolumeAttachments: true });
    const attachments = template.findResources('AWS::EC2::VolumeAttachment');
    // The logical ids and properties of the attachments a server deployed before the stable address has: CloudFormation
    // changes nothing of them.
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
    for (const props of [{ capacityTiB: 30, backend: Backend.EBS }, { capacityTiB: 20, legacyVolumeAttachments: true }]) {
      const { template } = serverStack(props);
      template.resourceCountIs('AWS::EC2::VolumeAttachment', 0);
      const [guard] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
      expect(guard.Properties.VolumeAttachment).toBe('server');
    }
  });

  test('the context key reaches the construct', () => {
    const t = Template.fromStack(appStack({ capacityTiB: '5', legacyVolumeAttachments: 'true' }));
    // The logical id that a server deployed before the stable address has for the attachment, as its snapshot shows.
    expect(Object.keys(t.findResources('AWS::EC2::VolumeAttachment'))).toEqual(['StorageServerDataVolume0AttachmentE8B61998']);
  });
});

describe('readiness', () => {
  test('a State Manager association applies the settings (taking over volumes and interface); CloudFormation waits for it', () => {
    const { template, stack, server } = serverStack({ capacityTiB: 30, backend: Backend.EBS });
    const association = template.findResources('AWS::SSM::Association')[stack.getLogicalId(server.ready)];
    const [docId] = Object.entries(template.findResources('AWS::SSM::Document')).find(
      ([, d]) => d.Properties.Content.mainSteps[0].name === 'applyStorageSettings',
    )!;
    expect(association.Properties).toEqual({
      Name: { Ref: docId },
      Targets: [{ Key: 'InstanceIds', Values: [{ Ref: expect.stringMatching(/^StorageInstance/) }] }],
      WaitForSuccessTimeoutSeconds: 2 * (2 * 900 + 1200) + 60,
    });
    // The apply step is told the volumes and the interface to take over, since the settings reference both.
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
    ['export mode', { nfs: { exportMode: NfsExportMode.ASYNC } }],
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
    const { template } = serverStack({ capacityTiB: 30, backend: Backend.EBS });
    const guards = template.findResources('Custom::StorageServerUpdateGuard');
    expect(Object.keys(guards)).toHaveLength(1);
    const [[guardId, guard]] = Object.entries(guards);
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
