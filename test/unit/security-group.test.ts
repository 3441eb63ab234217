import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';
import { Backend } from '../../lib/backend-enum';

// The `securityGroup` prop: the backend puts its rules on the given group and makes none of its own.

const ENV = { account: '123456789012', region: 'us-east-1' };
const BACKENDS: { backend: Backend; capacityTiB: number; port: number }[] = [
  { backend: Backend.EBS, capacityTiB: 5, port: 2049 },
  { backend: Backend.INSTANCE_STORE, capacityTiB: 3, port: 2049 },
  { backend: Backend.FSX_LUSTRE, capacityTiB: 12, port: 988 },
  { backend: Backend.FSX_OPENZFS, capacityTiB: 4, port: 2049 },
];

function build(backend: Backend, capacityTiB: number, group: (stack: Stack, vpc: ec2.IVpc) => ec2.ISecurityGroup, more: Partial<StorageServerProps> = {}) {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: ENV });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1 });
  const securityGroup = group(stack, vpc);
  const server = new StorageServer(stack, 'Storage', { vpc, backend, capacityTiB, clientCidrs: ['10.0.0.0/16'], securityGroup, ...more });
  return { stack, server, securityGroup, template: Template.fromStack(stack) };
}

const imported = (mutable: boolean, allowAllOutbound = true) => (stack: Stack) =>
  ec2.SecurityGroup.fromSecurityGroupId(stack, 'Given', 'sg-0123456789abcdef0', { mutable, allowAllOutbound });

describe.each(BACKENDS)('$backend', ({ backend, capacityTiB, port }) => {
  test('an imported group: no group is made, the client rule lands on it, connections is it', () => {
    // GIVEN / WHEN
    const { server, securityGroup, template } = build(backend, capacityTiB, imported(true));
    // THEN
    template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
    template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      GroupId: 'sg-0123456789abcdef0', CidrIp: '10.0.0.0/16', FromPort: port,
    });
    expect(server.connections.securityGroups).toEqual([securityGroup]);
    Annotations.fromStack(server.node.scope as Stack).hasNoWarning('*', Match.stringLikeRegexp('securityGroup'));
  });

  test('an imported group with mutable: false takes no rule, and synth warns with the rules it needs', () => {
    const { stack, template } = build(backend, capacityTiB, imported(false));
    template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
    template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('securityGroup Test/Given takes no rules .*must already allow: .*in from the clients'));
  });
});

test('the EC2 server: the stable interface carries the given group, which gets HTTPS out', () => {
  const { template } = build(Backend.EBS, 5, imported(true, false));
  template.hasResourceProperties('AWS::EC2::NetworkInterface', { GroupSet: ['sg-0123456789abcdef0'] });
  template.hasResourceProperties('AWS::EC2::SecurityGroupEgress', { GroupId: 'sg-0123456789abcdef0', FromPort: 443, ToPort: 443 });
});

test('FSx for Lustre: the rules among the servers land on the given group, and a destroy keeps them, not the group', () => {
  const { template } = build(Backend.FSX_LUSTRE, 12, imported(true, false));
  template.hasResource('AWS::EC2::SecurityGroupEgress', {
    Properties: { GroupId: 'sg-0123456789abcdef0', DestinationSecurityGroupId: 'sg-0123456789abcdef0', FromPort: 988 },
    DeletionPolicy: 'RetainExceptOnCreate',
  });
  template.hasResourceProperties('AWS::FSx::FileSystem', { SecurityGroupIds: ['sg-0123456789abcdef0'] });
});

test('a group of the same stack is the user\'s: the destroy check refuses it while it would go from under a kept file system', () => {
  const make = (stack: Stack, vpc: ec2.IVpc) => new ec2.SecurityGroup(stack, 'Given', { vpc });
  expect(() => build(Backend.FSX_OPENZFS, 4, make)).toThrow(/AWS::EC2::SecurityGroup Given.* cdk destroy would delete it while the FSx for OpenZFS file system/);
  const kept = build(Backend.FSX_OPENZFS, 4, (stack, vpc) => {
    const group = make(stack, vpc);
    group.applyRemovalPolicy(RemovalPolicy.RETAIN);
    return group;
  });
  kept.template.hasResource('AWS::EC2::SecurityGroup', { DeletionPolicy: 'Retain' });
  kept.template.resourceCountIs('AWS::EC2::SecurityGroup', 1);
  // The rule is inline in the user's group; no acknowledgement is made on it.
  expect(JSON.stringify(kept.template.toJSON())).not.toContain('EC2RestrictedSSH');
});

test('a group of another stack: nothing there is retained by this stack', () => {
  const app = new App();
  const network = new Stack(app, 'Network', { env: ENV });
  const vpc = new ec2.Vpc(network, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const securityGroup = new ec2.SecurityGroup(network, 'Given', { vpc, allowAllOutbound: false });
  const stack = new Stack(app, 'Storage', { env: ENV });
  new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_LUSTRE, capacityTiB: 12, clientCidrs: ['10.0.0.0/16'], securityGroup });
  const theirs = Template.fromStack(network).toJSON().Resources as Record<string, { DeletionPolicy?: string; Type: string }>;
  expect(Object.values(theirs).filter((r) => r.DeletionPolicy !== undefined && r.Type.startsWith('AWS::EC2::Security'))).toEqual([]);
  Template.fromStack(stack).resourceCountIs('AWS::EC2::SecurityGroup', 0);
});

test('a security group of the wrong kind is refused naming the prop', () => {
  const stack = new Stack(new App(), 'Bad', { env: ENV });
  const vpc = new ec2.Vpc(stack, 'Vpc');
  expect(() => new StorageServer(stack, 'S', { vpc, securityGroup: 'sg-0123456789abcdef0' } as unknown as StorageServerProps))
    .toThrow(/^securityGroup must be an ec2.ISecurityGroup such as ec2.SecurityGroup.fromSecurityGroupId\(...\), got 'sg-0123456789abcdef0'/);
});

test('a mutable import that allows all outbound needs no outbound rule, and with no clients nothing is asked of it', () => {
  const { stack } = build(Backend.FSX_LUSTRE, 12, imported(true), { clientCidrs: undefined, clientPeers: [] });
  Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('securityGroup'));
});
