// The StorageServer on instance store, its metrics, monitoring and public attributes.
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as sns from 'aws-cdk-lib/aws-sns';
import { StorageServer } from '../../lib/storage-server';
import { agentConfigErrors } from '../support/cloudwatch-agent-schema';
import { appStack, serverStack } from '../support/stacks';

import { applyCommandOf, ec26, guardOf, settingOf } from '../support/storage-server-template';
import { Backend } from '../../lib/backend-enum';
import { Generation } from '../../lib/sizing/enums';

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
  /** The agent configuration the apply document writes in its here-document, as written. */
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
    // The bootstrap waits for as many NVMe instance-store disks as the settings name, in
    // lib/scripts/storage-bootstrap.sh.
    expect(settingOf(t, 'STORAGE_BACKEND')).toBe("STORAGE_BACKEND='instance-store'");
    expect(settingOf(t, 'STORAGE_INSTANCE_STORE_DEVICES')).toBe("STORAGE_INSTANCE_STORE_DEVICES='/dev/sdb /dev/sdc'");
    // Encrypted by the platform with XTS-AES-256: the server adds no LUKS, and the guard records none.
    expect(settingOf(t, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(guardOf(t)).not.toHaveProperty('InstanceStoreEncryption');
    expect(guardOf(t)).toHaveProperty('InstanceStoreType', 'd3en.xlarge');
    // The agent watches the NVMe disks by their kernel names: the root volume and the 2 disks, in whatever order.
    expect(agentDisksOf(t)).toEqual(['nvme0n1', 'nvme1n1', 'nvme2n1']);
    expect(agentConfigErrors(agentConfigOf(t))).toEqual([]);
  });

  test('no acknowledgement of unencrypted disks is needed: cdk-nag EC26 is satisfied without encryptInstanceStore', () => {
    expect(ec26({ capacityTiB: 20, generation: Generation.CURRENT })).toEqual([]);
    // The same server on d2 without its LUKS is reported: the acknowledgement rests on the platform's encryption.
    expect(ec26({ capacityTiB: 20, encryptInstanceStore: false })).toHaveLength(1);
  });

  test('d3en.12xlarge (300 TiB): its 24 disks named, and nothing attached beyond the root volume and the two interfaces', () => {
    // d3.8xlarge and d3en.12xlarge allow three attachments including the root volume, per the EC2 User Guide: the root
    // volume, the primary interface and the stable one the server attaches to itself.
    const { template: t } = serverStack({ capacityTiB: 300, backend: Backend.INSTANCE_STORE, generation: Generation.CURRENT });
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
    // What the server attaches itself at boot in storage-attach: its stable interface, and no EBS volume.
    expect(settingOf(t, 'STORAGE_EBS_VOLUMES')).toBe("STORAGE_EBS_VOLUMES=''");
    expect(settingOf(t, 'STORAGE_NETWORK_INTERFACE')).toMatch(/^STORAGE_NETWORK_INTERFACE='.+'$/);
  });

  test('an instanceType override may name a d3 or d3en that holds the capacity, whichever generation planned', () => {
    const { template } = serverStack({ capacityTiB: 20, backend: Backend.INSTANCE_STORE, instanceType: new ec2.InstanceType('d3.4xlarge') });
    expect(instanceOf(template).InstanceType).toBe('d3.4xlarge');
    expect(settingOf(template, 'STORAGE_INSTANCE_STORE_DEVICES').split(' ')).toHaveLength(12);
    expect(settingOf(template, 'STORAGE_ENCRYPTION')).toBe("STORAGE_ENCRYPTION='none'");
    expect(() => serverStack({ capacityTiB: 20, instanceType: new ec2.InstanceType('d3.2xlarge') }))
      .toThrow(/^instanceType: for 20 TiB on the instance-store backend it must be one of d2\.4xlarge, d2\.8xlarge, d3\.4xlarge, d3\.8xlarge, d3en\.xlarge, .*d3en\.12xlarge, got 'd3\.2xlarge'/);
  });
});

describe('the server\'s own metrics (issue 18)', () => {
  /** The agent configuration the apply document writes in its here-document, parsed. */
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
  /** The actions of the monitoring alarms; the EBS recover alarm, which recovers the instance, is apart. */
  const actionsOf = (template: Template): unknown[] =>
    Object.entries(template.findResources('AWS::CloudWatch::Alarm'))
      .filter(([id]) => id.includes('Monitoring'))
      .map(([, a]) => a.Properties.AlarmActions);

  test('each backend gets its own alarms: EBS with a burst-bucket alarm per volume, FSx its capacity alarms', () => {
    expect(serverStack({ capacityTiB: 20, backend: Backend.EBS }).server.monitoring.alarms.map((a) => a.node.id).sort()).toEqual(
      ['BurstBalanceLow0', 'BurstBalanceLow1', 'ExportDown', 'FileSystemUsedCritical', 'FileSystemUsedWarning', 'StatusCheckFailed']);
    expect(serverStack({ capacityTiB: 12, backend: Backend.FSX_LUSTRE }).server.monitoring.alarms.map((a) => a.node.id).sort()).toEqual(
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
