/**
 * `ExistingStorage`: storage that exists already, registered into a cluster's records. What it synthesizes (the
 * registration's properties, EFS-MOUNT-OPTIONS by default), what it refuses at synth (EFS-NORESVPORT among the
 * options), the registration's permissions decided by the IAM simulator, and the template through cdk-nag and cfn-lint.
 */
import { App, Fn, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ExistingStorage, ExistingStorageKind, ExistingStorageSource, type ExistingStorageProps } from '../../lib/existing-storage';
import { cfnLint } from '../support/cfn-lint';
import { askClientChecker } from '../support/client-record-check';
import { ENV, TemplatePolicies } from '../support/iam-eval';
import { GATE_PACKS, nagSynth } from '../support/nag';

const EFS_ID = 'fs-0123456789abcdef0';
const OTHER_EFS_ID = 'fs-0fedcba9876543210';

const VPC_ID = 'vpc-0123456789abcdef0';
const CLIENT_GROUP = 'sg-0ccccccccccccccc0';

/**
 * A stack with the cluster's VPC and client group, both existing (imported), and one ExistingStorage built from `props`
 * on top of the defaults: the stack holds nothing but what ExistingStorage makes.
 */
function build(app: App, props: (s: Stack, vpc: ec2.IVpc, clients: ec2.ISecurityGroup) => Partial<ExistingStorageProps>): Stack {
  const stack = new Stack(app, 'Existing', { env: { account: ENV.account, region: ENV.region } });
  const vpc = ec2.Vpc.fromVpcAttributes(stack, 'Vpc', { vpcId: VPC_ID, vpcCidrBlock: '10.0.0.0/16', availabilityZones: ['us-east-1a'], privateSubnetIds: ['subnet-0123456789abcdef0'] });
  const clients = ec2.SecurityGroup.fromSecurityGroupId(stack, 'Clients', CLIENT_GROUP);
  new ExistingStorage(stack, 'Archive', {
    clusterName: 'hpc1', serverName: 'archive', mountPoint: '/shared/archive', storage: ExistingStorageSource.efs(EFS_ID), vpc, clientPeers: [clients],
    ...props(stack, vpc, clients),
  });
  return stack;
}
const synth = (props: Parameters<typeof build>[1] = () => ({})) => Template.fromStack(build(new App(), props));
const registration = (t: Template) => Object.values(t.findResources('Custom::StorageServerRegistration'))[0].Properties as Record<string, unknown>;
const statements = (t: Template) => Object.values(t.findResources('AWS::IAM::Policy')).flatMap((p) => (p.Properties as { PolicyDocument: { Statement: { Action: string | string[] }[] } }).PolicyDocument.Statement);
const actions = (t: Template) => statements(t).flatMap((s) => [s.Action].flat());

describe('what it registers', () => {
  test("EFS: the file system, the cluster's VPC and the client group, with EFS-MOUNT-OPTIONS", () => {
    const p = registration(synth());
    expect(p).toMatchObject({
      Backend: 'efs', ExistingFileSystemId: EFS_ID, ExportPath: '/', MountPoint: '/shared/archive', ClusterName: 'hpc1', ServerName: 'archive',
      MountOptions: 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev',
      VpcId: VPC_ID, ClientSecurityGroupIds: CLIENT_GROUP,
    });
    expect(p).not.toHaveProperty('InstanceId');
  });

  test.each([
    [ExistingStorageKind.FSX_LUSTRE, ExistingStorageSource.fsxLustre(EFS_ID), '/', 'relatime,flock,_netdev,nosuid,nodev'],
    [ExistingStorageKind.FSX_OPENZFS, ExistingStorageSource.fsxOpenZfs(EFS_ID, { volumePath: '/fsx/home' }), '/fsx/home', 'nfsvers=4.1,rsize=262144,wsize=262144,hard,timeo=600,retrans=2,nconnect=16,_netdev,nosuid,nodev'],
  ])('%s: its export and options', (kind, storage, exportPath, options) => {
    expect(registration(synth(() => ({ storage })))).toMatchObject({ Backend: kind, ExistingFileSystemId: EFS_ID, ExportPath: exportPath, MountOptions: options });
  });

  test('EFS with tls (EFS-TLS-TYPE): EFS-MOUNT-OPTIONS with tls first, the default being without; the client admits it as fsType efs', () => {
    const tls = ExistingStorageSource.efs(EFS_ID, { tls: true, path: '/projects' });
    expect(tls.tls).toBe(true);
    expect(ExistingStorageSource.efs(EFS_ID).tls).toBe(false);
    const p = registration(synth(() => ({ storage: tls })));
    const options = 'tls,nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev';
    expect(p).toMatchObject({ Backend: 'efs', ExistingFileSystemId: EFS_ID, ExportPath: '/projects', MountOptions: options });
    const record = { server: `${EFS_ID}.efs.us-east-1.amazonaws.com`, exportPath: '/projects', mountPoint: '/shared/archive', options, backend: 'efs' };
    expect(askClientChecker([{ record: { ...record, fsType: 'efs' }, roots: ['/shared'] }]).answers).toEqual([null]);
  });

  test('NFS: the address and export alone, and no describe permission', () => {
    const t = synth(() => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/export/home'), vpc: undefined, clientPeers: undefined }));
    expect(registration(t)).toMatchObject({ Backend: 'nfs', ExistingAddress: '10.0.5.20', ExportPath: '/export/home' });
    expect(registration(t)).not.toHaveProperty('VpcId');
    expect(actions(t).filter((a) => /Describe/.test(a))).toEqual([]);
  });

  test('EFS asks for EFS describes on its own file system and security group rules, no instance or FSx describe', () => {
    const all = actions(synth());
    expect(all).toEqual(expect.arrayContaining(['elasticfilesystem:DescribeMountTargets', 'ec2:DescribeSecurityGroupRules', 'ec2:DescribeSubnets']));
    expect(all).not.toContain('ec2:DescribeInstances');
    expect(all).not.toContain('fsx:DescribeFileSystems');
  });

  test('OPENZFS-NFS-EXPORT-CLIENTS: FSx for OpenZFS also reads its volumes, on Resource "*"; Lustre has none to read', () => {
    const statementsOf = (t: Template) => statements(t).filter((s) => [s.Action].flat().some((a) => a.startsWith('fsx:')));
    const zfs = statementsOf(synth(() => ({ storage: ExistingStorageSource.fsxOpenZfs(EFS_ID) })));
    expect(zfs).toEqual([expect.objectContaining({ Resource: '*', Action: expect.arrayContaining(['fsx:DescribeFileSystems', 'fsx:DescribeVolumes']) })]);
    const lustre = statementsOf(synth(() => ({ storage: ExistingStorageSource.fsxLustre(EFS_ID) })));
    expect(lustre.flatMap((s) => [s.Action].flat())).not.toContain('fsx:DescribeVolumes');
  });

  test('a client CIDR list and a client group that are tokens reach the registration, checked at deploy', () => {
    const p = registration(synth((s) => ({
      clientCidrs: Fn.split(',', Fn.importValue('ClusterCidrs')),
      clientPeers: [ec2.SecurityGroup.fromSecurityGroupId(s, 'Imported', Fn.importValue('ClientGroup'))],
    })));
    expect(p.ClientCidrs).toEqual({ 'Fn::Join': [',', { 'Fn::Split': [',', { 'Fn::ImportValue': 'ClusterCidrs' }] }] });
    expect(p.ClientSecurityGroupIds).toEqual({ 'Fn::ImportValue': 'ClientGroup' });
  });
});

describe('what it refuses at synth, naming the prop', () => {
  test.each([
    ['a file system without vpc', () => ({ vpc: undefined }), /vpc is required for existing storage of kind efs/],
    ['an NFS server with a vpc', () => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/export'), clientPeers: undefined }), /vpc, clientCidrs and clientPeers name what an existing file system is checked against.*only as the sources of storageSecurityGroup's rules/],
    ['a file system without clients', () => ({ clientPeers: undefined }), /clientCidrs or clientPeers must name the cluster's clients/],
    ['a file system id of another form', () => ({ storage: ExistingStorageSource.efs('fs-123') }), /ExistingFileSystemId must be a file system id .*got "fs-123"/],
    ['a public NFS address', () => ({ storage: ExistingStorageSource.nfs('8.8.8.8', '/export'), vpc: undefined, clientPeers: undefined }), /ExistingAddress must be the NFS server's private IPv4 address/],
    ['a public client CIDR', () => ({ clientCidrs: ['8.8.8.0/24'] }), /ClientCidrs must be IPv4 CIDRs/],
    ['suid among the options', () => ({ mountOptions: 'nfsvers=4.1,hard,suid' }), /mountOptions "nfsvers=4.1,hard,suid" is refused by the nodes' client: "suid" is not an option the clients allow/],
    ['EFS-NORESVPORT: noresvport on an NFS server', () => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/export'), vpc: undefined, clientPeers: undefined, mountOptions: 'nfsvers=4.1,hard,noresvport' }), /"noresvport" is not an option the clients allow/],
    ['EFS-TLS-OPTION: tls without tls: true', () => ({ mountOptions: 'tls,nfsvers=4.1,hard' }), /mountOptions "tls,nfsvers=4.1,hard" is refused by the nodes' client: "tls" is not an option the clients allow/],
    ['EFS-TLS-OPTION: tls: true with options that lack tls', () => ({ storage: ExistingStorageSource.efs(EFS_ID, { tls: true }), mountOptions: 'nfsvers=4.1,hard' }), /is refused by the nodes' client: "tls" is missing: fsType "efs" is EFS over TLS/],
    ['tls: true with nconnect, which the client\'s probe cannot try over TLS', () => ({ storage: ExistingStorageSource.efs(EFS_ID, { tls: true }), mountOptions: 'tls,nconnect=4' }), /"nconnect=4" is not an option the clients allow/],
    ['tls: true with options that are a token', () => ({ storage: ExistingStorageSource.efs(EFS_ID, { tls: true }), mountOptions: Fn.importValue('Options') }), /mountOptions must be a literal with tls: true/],
    ['a mount point in a system directory', () => ({ mountPoint: '/usr/share/data' }), /mountPoint "\/usr\/share\/data" is refused .*under a system directory \(\/usr\)/],
    ['/home without allowHomeMountPoint', () => ({ mountPoint: '/home' }), /set allowHomeMountPoint/],
    ['EFS-NFS-VERSIONS: NFS 4.2 on EFS', () => ({ mountOptions: 'nfsvers=4.2,hard,noresvport' }), /mountOptions "nfsvers=4.2,hard,noresvport" is refused by the nodes' client: "nfsvers=4.2" has a value out of range/],
    ['an NFS export of /', () => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/'), vpc: undefined, clientPeers: undefined }), /storage path "\/" is refused by the nodes' client: export "\/" is/],
    ['an NFS export with ..', () => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/a/../b'), vpc: undefined, clientPeers: undefined }), /storage path "\/a\/..\/b" is refused/],
    ['an EFS directory with //', () => ({ storage: ExistingStorageSource.efs(EFS_ID, { path: '/a//b' }) }), /storage path "\/a\/\/b" is refused by the nodes' client: directory/],
    ['an OpenZFS volume outside /fsx', () => ({ storage: ExistingStorageSource.fsxOpenZfs(EFS_ID, { volumePath: '/etc' }) }), /storage path "\/etc" is refused by the nodes' client: path "\/etc" is not '\/fsx'/],
  ])('%s', (_what, props, message) => {
    expect(() => synth(props as Parameters<typeof build>[1])).toThrow(message);
  });

  test('a token path, mount point and options reach the registration, which checks them at deploy', () => {
    const p = registration(synth(() => ({
      storage: ExistingStorageSource.efs(EFS_ID, { path: Fn.importValue('Dir') }), mountPoint: Fn.importValue('Mnt'), mountOptions: Fn.importValue('Opts'),
    })));
    expect(p).toMatchObject({ ExportPath: { 'Fn::ImportValue': 'Dir' }, MountPoint: { 'Fn::ImportValue': 'Mnt' }, MountOptions: { 'Fn::ImportValue': 'Opts' } });
  });

  test('/home with allowHomeMountPoint, and noresvport on EFS, are taken', () => {
    expect(registration(synth(() => ({ mountPoint: '/home', allowHomeMountPoint: true, mountOptions: 'nfsvers=4.1,hard,noresvport' })))).toMatchObject({ MountPoint: '/home' });
  });
});

describe('storageSecurityGroup: the ingress rules the clients need, made before the registration', () => {
  const FS_GROUP = 'sg-0aaaaaaaaaaaaaaaa';
  const ingress = (t: Template) => Object.entries(t.findResources('AWS::EC2::SecurityGroupIngress'));

  test.each([
    ['fsx-lustre', () => ExistingStorageSource.fsxLustre(EFS_ID), [[988, 988], [1018, 1023]]],
    ['efs', () => ExistingStorageSource.efs(EFS_ID), [[2049, 2049]]],
  ] as const)("%s: one rule per client and port range, and the registration depends on them", (_kind, storage, ports) => {
    const t = synth((s) => ({
      storage: storage(), clientCidrs: ['10.0.0.0/16'],
      storageSecurityGroup: ec2.SecurityGroup.fromSecurityGroupId(s, 'FsGroup', FS_GROUP),
    }));
    const rules = ingress(t).map(([, r]) => r.Properties as Record<string, unknown>);
    const expected = ports.flatMap(([from, to]) => [
      expect.objectContaining({ GroupId: FS_GROUP, CidrIp: '10.0.0.0/16', FromPort: from, ToPort: to, IpProtocol: 'tcp' }),
      expect.objectContaining({ GroupId: FS_GROUP, SourceSecurityGroupId: CLIENT_GROUP, FromPort: from, ToPort: to, IpProtocol: 'tcp' }),
    ]);
    expect(rules).toEqual(expect.arrayContaining(expected));
    expect(rules).toHaveLength(expected.length);
    // LUSTRE-EGRESS: Lustre's servers call the clients back on the same ports; NFS answers only.
    const egress = Object.entries(t.findResources('AWS::EC2::SecurityGroupEgress'));
    expect(egress.map(([, r]) => r.Properties)).toEqual(_kind === 'efs' ? [] : expect.arrayContaining(ports.flatMap(([from, to]) => [
      expect.objectContaining({ GroupId: FS_GROUP, CidrIp: '10.0.0.0/16', FromPort: from, ToPort: to, IpProtocol: 'tcp' }),
      expect.objectContaining({ GroupId: FS_GROUP, DestinationSecurityGroupId: CLIENT_GROUP, FromPort: from, ToPort: to, IpProtocol: 'tcp' }),
    ])));
    expect(egress).toHaveLength(_kind === 'efs' ? 0 : expected.length);
    const [registration] = Object.values(t.findResources('Custom::StorageServerRegistration'));
    expect(registration.DependsOn).toEqual(expect.arrayContaining([...ingress(t), ...egress].map(([id]) => id)));
  });

  test('an NFS server gets TCP 2049 from its clients, which are not sent to the registration', () => {
    const t = synth((s) => ({
      storage: ExistingStorageSource.nfs('10.0.5.20', '/export'), vpc: undefined, clientPeers: undefined, clientCidrs: ['10.0.0.0/16'],
      storageSecurityGroup: ec2.SecurityGroup.fromSecurityGroupId(s, 'FsGroup', FS_GROUP),
    }));
    expect(ingress(t).map(([, r]) => r.Properties)).toEqual([expect.objectContaining({ CidrIp: '10.0.0.0/16', FromPort: 2049, ToPort: 2049 })]);
    expect(registration(t)).not.toHaveProperty('ClientCidrs');
  });

  test("a group of another stack: the rules are this stack's resources, and that stack's group gains none", () => {
    const app = new App();
    const other = new Stack(app, 'Storage', { env: { account: ENV.account, region: ENV.region } });
    const otherVpc = ec2.Vpc.fromVpcAttributes(other, 'Vpc', { vpcId: VPC_ID, availabilityZones: ['us-east-1a'], privateSubnetIds: ['subnet-0123456789abcdef0'] });
    const group = new ec2.SecurityGroup(other, 'FsGroup', { vpc: otherVpc });
    const stack = build(app, () => ({ clientCidrs: ['10.0.0.0/16'], storageSecurityGroup: group }));
    const t = Template.fromStack(stack);
    expect(ingress(t).map(([, r]) => [r.Properties.CidrIp ?? r.Properties.SourceSecurityGroupId, r.Properties.FromPort])).toEqual([['10.0.0.0/16', 2049], [CLIENT_GROUP, 2049]]);
    const theirs = Template.fromStack(other);
    theirs.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    expect(Object.values(theirs.findResources('AWS::EC2::SecurityGroup'))[0].Properties.SecurityGroupIngress).toBeUndefined();
  });

  test('with no client to admit, it is refused', () => {
    expect(() => synth((s) => ({
      storage: ExistingStorageSource.nfs('10.0.5.20', '/export'), vpc: undefined, clientPeers: undefined,
      storageSecurityGroup: ec2.SecurityGroup.fromSecurityGroupId(s, 'FsGroup', FS_GROUP),
    }))).toThrow('storageSecurityGroup is given, but no clientCidrs or clientPeers to admit to it');
  });

  test('without it, no rule is made: the deploy-time check decides', () => {
    expect(ingress(synth())).toEqual([]);
  });
});

describe("the registration's permissions, by the IAM simulator", () => {
  const t = new TemplatePolicies(synth().toJSON(), 'Existing');
  const role = t.logicalId('AWS::IAM::Role', /RegistrationProviderRole/);
  const ask = (action: string, resource: string) => t.decide({ principal: t.roleArn(role), identityPolicies: t.identityPolicies(role), action, resources: [resource] });

  test.each(['DescribeFileSystems', 'DescribeMountTargets', 'DescribeMountTargetSecurityGroups'])('elasticfilesystem:%s on its file system only', async (action) => {
    expect(await ask(`elasticfilesystem:${action}`, t.arn('elasticfilesystem', `file-system/${EFS_ID}`))).toBe('Allowed');
    expect(await ask(`elasticfilesystem:${action}`, t.arn('elasticfilesystem', `file-system/${OTHER_EFS_ID}`))).toBe('ImplicitlyDenied');
  });

  test('no change to a file system, a mount target or a security group', async () => {
    for (const action of ['elasticfilesystem:DeleteFileSystem', 'elasticfilesystem:ModifyMountTargetSecurityGroups']) {
      expect(await ask(action, t.arn('elasticfilesystem', `file-system/${EFS_ID}`))).toBe('ImplicitlyDenied');
    }
    expect(await ask('ec2:AuthorizeSecurityGroupIngress', t.arn('ec2', 'security-group/sg-0123456789abcdef0'))).toBe('ImplicitlyDenied');
  });
});

describe('the gates', () => {
  const kinds: [string, Parameters<typeof build>[1]][] = [
    ['efs', () => ({})],
    ['fsx-lustre', () => ({ storage: ExistingStorageSource.fsxLustre(EFS_ID) })],
    ['nfs', () => ({ storage: ExistingStorageSource.nfs('10.0.5.20', '/export/home'), vpc: undefined, clientPeers: undefined })],
  ];

  test.each(kinds)('%s: no cdk-nag finding of the gate packs, and cfn-lint finds nothing', (_kind, props) => {
    const { findings, templates } = nagSynth((app) => build(app, props), { packs: GATE_PACKS });
    expect(findings).toEqual([]);
    expect(cfnLint(templates.Existing)).toEqual([]);
  });
});
