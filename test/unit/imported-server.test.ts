/**
 * `StorageServer.fromStorageServerAttributes`: a server another stack or app deployed, mounted on this app's instances
 * and granted to their roles. Its attributes cross a trust boundary into the clients' user data, so literal values are
 * checked at synth and tokens at deploy.
 */
import { App, CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { mountParameterName } from '../../lambda/register/contract';
import { RESOURCE_TYPE, ValueRule, checkValues } from '../../lambda/value-check/contract';
import { StorageServer } from '../../lib/storage-server';
import type { StorageServerAttributes } from '../../lib/client-mount/imported-server';
import { ENV, TemplatePolicies } from '../support/iam-eval';
import { FsType } from '../../lib/client-mount/fs-type';

const SERVER_GROUP = 'sg-0123456789abcdef0';

/** A client stack with a VPC and a node; `attrs` over an NFS server's literal attributes. */
function client(attrs: Partial<StorageServerAttributes> = {}, group: ec2.SecurityGroupImportOptions = {}) {
  const stack = new Stack(new App(), 'Clients', { env: { account: ENV.account, region: ENV.region } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
  const node = new ec2.Instance(stack, 'Node', {
    vpc,
    instanceType: new ec2.InstanceType('c5.large'),
    machineImage: ec2.MachineImage.genericLinux({ [ENV.region]: 'ami-0123456789abcdef0' }),
  });
  const server = StorageServer.fromStorageServerAttributes(stack, 'Home', {
    clusterName: 'hpc1',
    serverName: 'home',
    mountAddress: '10.0.1.10',
    exportPath: '/export/data',
    mountPoint: '/shared/home',
    mountOptions: 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev',
    ...attrs,
    securityGroup: attrs.securityGroup ?? ec2.SecurityGroup.fromSecurityGroupId(stack, 'ServerGroup', SERVER_GROUP, group),
  });
  return { stack, vpc, node, server };
}

const userData = (t: Template) => JSON.stringify(Object.values(t.findResources('AWS::EC2::Instance'))[0].Properties.UserData);

describe('an imported server with literal attributes', () => {
  test('mountOn writes its fstab line into the node\'s user data and admits the node to NFS on its group', () => {
    const { stack, node, server } = client();
    server.mountOn(node);
    const t = Template.fromStack(stack);
    expect(userData(t)).toContain('10.0.1.10:/export/data /shared/home nfs4 nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev,nosuid,nodev');
    expect(userData(t)).toContain('# storage-server:hpc1/home');
    t.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      GroupId: SERVER_GROUP, IpProtocol: 'tcp', FromPort: 2049, ToPort: 2049,
      SourceSecurityGroupId: Match.objectLike({ 'Fn::GetAtt': [Match.stringLikeRegexp('^NodeInstanceSecurityGroup'), 'GroupId'] }),
    });
    // Every value was literal and checked now: no deploy-time check.
    t.resourceCountIs(RESOURCE_TYPE, 0);
  });

  test('a Lustre server admits its ports and may call the node back', () => {
    // Imported as this project's Lustre groups are made: no outbound traffic but what a rule allows.
    const { stack, node, server } = client({
      fsType: FsType.LUSTRE, mountAddress: 'fs-0123456789abcdef0.fsx.eu-west-1.amazonaws.com', exportPath: '/abcdefgh', mountOptions: 'noatime,flock,_netdev',
      securityGroup: undefined,
    }, { allowAllOutbound: false });
    server.mountOn(node);
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::EC2::SecurityGroupIngress', { GroupId: SERVER_GROUP, FromPort: 988, ToPort: 1023 });
    t.hasResourceProperties('AWS::EC2::SecurityGroupEgress', { GroupId: SERVER_GROUP, FromPort: 1018, ToPort: 1023 });
    expect(userData(t)).toContain('fs-0123456789abcdef0.fsx.eu-west-1.amazonaws.com@tcp:/abcdefgh /shared/home lustre');
  });

  test('grantMount lets the node read that server\'s mount record and no other', async () => {
    const { stack, node, server } = client();
    server.grantMount(node);
    const t = new TemplatePolicies(Template.fromStack(stack).toJSON(), 'Clients');
    const role = t.logicalId('AWS::IAM::Role', /^NodeInstanceRole/);
    const ask = (name: string) => t.decide({
      principal: t.roleArn(role), identityPolicies: t.identityPolicies(role), action: 'ssm:GetParameter', resources: [t.arn('ssm', `parameter${name}`)],
    });
    expect(server.mountParameterName).toBe(mountParameterName('/storage-server', 'hpc1', 'home'));
    expect(await ask(server.mountParameterName)).toBe('Allowed');
    expect(await ask(mountParameterName('/storage-server', 'hpc1', 'scratch'))).toBe('ImplicitlyDenied');
  });

  test('without parameterPrefix its record is under StorageServer.DEFAULT_PARAMETER_PREFIX, as a deployed server\'s is', () => {
    const { server } = client();
    // The README's default, which every deployed server's records carry: it must not move.
    expect(StorageServer.DEFAULT_PARAMETER_PREFIX).toBe('/storage-server');
    expect(server.mountParameterName).toBe(`${StorageServer.DEFAULT_PARAMETER_PREFIX}/hpc1/storage/home/mount`);
  });

  test.each([
    ['mountAddress', { mountAddress: "10.0.1.10'; reboot; '" }, /^mountAddress must be a canonical IPv4 address of a host or an FSx DNS name \(fs-<id>\.fsx\.<region>\.amazonaws\.com\), got/],
    ['mountAddress', { mountAddress: 'server' }, /^mountAddress must be/],
    ['mountAddress', { mountAddress: '10.0.1.256' }, /^mountAddress must be/],
    ['exportPath', { exportPath: '/export/$(reboot)' }, /^exportPath must be an absolute path of A-Z a-z 0-9 _ \. - segments, not '\/', got/],
    ['exportPath', { exportPath: 'export/data' }, /^exportPath must be/],
    ['mountOptions', { mountOptions: 'hard, _netdev' }, /^mountOptions must be a comma-separated list/],
    ['mountOptions', { mountOptions: 'hard;reboot' }, /^mountOptions must be/],
    ['clusterName', { clusterName: 'hpc 1' }, /clusterName/],
    ['clusterName', { clusterName: Fn.importValue('Cluster') }, /^clusterName must be a concrete string, not a token/],
    ['mountPoint', { mountPoint: Fn.importValue('MountPoint') }, /^mountPoint must be a concrete string, not a token/],
    ['fsType', { fsType: 'nfs' as never }, /^fsType must be one of nfs4, lustre, got "nfs"/],
  ])('refuses a bad %s, naming it', (_name, attrs, message) => {
    expect(() => client(attrs)).toThrow(message);
  });
});

describe('an imported server whose values are another stack\'s outputs', () => {
  test('they are checked at deploy, before the node that carries them', () => {
    const app = new App();
    const env = { account: ENV.account, region: ENV.region };
    const storage = new Stack(app, 'Storage', { env });
    const vpc = new ec2.Vpc(storage, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const home = new StorageServer(storage, 'Home', { vpc, clusterName: 'hpc1', serverName: 'home', capacityTiB: 1 });
    new CfnOutput(storage, 'Address', { value: home.mountAddress, exportName: 'HomeAddress' });
    const clients = new Stack(app, 'Clients', { env });
    const node = new ec2.Instance(clients, 'Node', {
      vpc: ec2.Vpc.fromVpcAttributes(clients, 'Vpc', { vpcId: 'vpc-0123456789abcdef0', availabilityZones: ['eu-west-1a'], privateSubnetIds: ['subnet-0123456789abcdef0'] }),
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: ec2.MachineImage.genericLinux({ [ENV.region]: 'ami-0123456789abcdef0' }),
    });
    const server = StorageServer.fromStorageServerAttributes(clients, 'Home', {
      clusterName: 'hpc1', serverName: 'home', mountAddress: Fn.importValue('HomeAddress'), exportPath: home.exportPath,
      mountPoint: home.mountPoint, mountOptions: home.mountOptions,
      securityGroup: ec2.SecurityGroup.fromSecurityGroupId(clients, 'ServerGroup', SERVER_GROUP),
    });
    server.mountOn(node);
    const t = Template.fromStack(clients);
    const checks = t.findResources(RESOURCE_TYPE);
    expect(Object.keys(checks)).toHaveLength(1);
    const [checkId, check] = Object.entries(checks)[0];
    expect(check.Properties.Checks).toEqual([{ Name: 'mountAddress', Rule: ValueRule.SERVER_ADDRESS, Value: { 'Fn::ImportValue': 'HomeAddress' } }]);
    const instance = Object.values(t.findResources('AWS::EC2::Instance'))[0];
    expect(instance.DependsOn).toEqual(expect.arrayContaining([checkId]));
  });

  test('the deploy-time check refuses what the synth refuses, naming the attribute', () => {
    const checks = [
      { name: 'mountAddress', rule: ValueRule.SERVER_ADDRESS, value: '$(reboot)' },
      { name: 'exportPath', rule: ValueRule.EXPORT_PATH, value: '/export/data' },
      { name: 'mountOptions', rule: ValueRule.MOUNT_OPTIONS, value: 'hard _netdev' },
    ];
    expect(checkValues({ checks, allowPublic: false })).toEqual([
      expect.stringMatching(/^mountAddress resolved at deploy to "\$\(reboot\)": allowed is a canonical IPv4 address of a host or an FSx DNS name/),
      expect.stringMatching(/^mountOptions resolved at deploy to "hard _netdev": allowed is a comma-separated list/),
    ]);
  });
});
