/**
 * The app's `existingStorage` key: each kind synthesized through the app's parser into its own stack, with the
 * registration's properties; the keys refused beside it, by kind; the keys it needs; the client-mount rule. The key's
 * grammar is its row in test/support/grammar-rows-existing.ts.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CONTEXT_DEFAULTS, type ContextKey, parseAppContext } from '../../lib/context';
import { ExistingStorageStack } from '../../lib/existing-storage-stack';
import { existingAppStack, lookedUpExistingStack } from '../support/stacks';
import { runAppInProcess } from '../support/run-app';
import { TARGET } from '../support/grammars';

type Context = Partial<Record<ContextKey, string>>;
const FS = 'fs-0123456789abcdef0';
const NAMES = { clusterName: 'hpc1', serverName: 'projects', mountPoint: '/data/projects' };
const FROM = { vpcFrom: 'StorageServer-hpc1-home' };
const REGISTRATION = 'Custom::StorageServerRegistration';

const registration = (stack: ExistingStorageStack) => {
  const found = Object.values(Template.fromStack(stack).findResources(REGISTRATION));
  expect(found).toHaveLength(1);
  return found[0].Properties as Record<string, unknown>;
};

describe("the stack's name", () => {
  test("is never a server's: the same names give StorageServerExisting-, and stackName is taken as given", () => {
    const names = { clusterName: 'hpc1', serverName: 'home', mountPoint: '/data/home' };
    expect(existingAppStack({ existingStorage: `efs:${FS}`, ...names, ...FROM }).stackName).toBe('StorageServerExisting-hpc1-home');
    expect(existingAppStack({ existingStorage: `efs:${FS}`, ...names, ...FROM, stackName: 'ClusterHome' }).stackName).toBe('ClusterHome');
  });
});

describe('each kind through the app: a stack of its registration alone', () => {
  test.each([
    ['fsx-lustre', `fsx-lustre:${FS}`, { ExistingFileSystemId: FS, ExportPath: '/', MountOptions: 'relatime,flock,_netdev,nosuid,nodev' }],
    ['fsx-openzfs, a child volume', `fsx-openzfs:${FS}:/fsx/projects`, { ExistingFileSystemId: FS, ExportPath: '/fsx/projects' }],
    ['fsx-openzfs, the root volume by default', `fsx-openzfs:${FS}`, { ExistingFileSystemId: FS, ExportPath: '/fsx' }],
    ['efs, a directory', `efs:${FS}:/projects`, { ExistingFileSystemId: FS, ExportPath: '/projects' }],
    ['efs+tls, over TLS (EFS-TLS-TYPE)', `efs+tls:${FS}:/projects`, {
      ExistingFileSystemId: FS, ExportPath: '/projects', MountOptions: 'tls,nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev',
    }],
  ])('%s', (_, existingStorage, expected) => {
    const stack = existingAppStack({ existingStorage, ...NAMES, ...FROM });
    const kind = existingStorage.split(':')[0].replace(/\+tls$/, '');
    expect(stack.stackName).toBe('StorageServerExisting-hpc1-projects');
    expect(registration(stack)).toMatchObject({
      ...expected, Backend: kind, ClusterName: 'hpc1', ServerName: 'projects', MountPoint: '/data/projects',
      VpcId: { 'Fn::ImportValue': 'StorageServer-hpc1-home:VpcId' },
      // The clients default to the VPC's CIDR, as a server's stack admits them.
      ClientCidrs: { 'Fn::ImportValue': 'StorageServer-hpc1-home:VpcCidr' },
    });
    const types = new Set(Object.values(Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type));
    // No server, volume, file system, VPC or association: the storage is not this stack's.
    for (const t of ['AWS::EC2::Instance', 'AWS::EC2::Volume', 'AWS::FSx::FileSystem', 'AWS::EC2::VPC', 'AWS::SSM::Association']) expect(types).not.toContain(t);
  });

  test('nfs: the address and export, and neither VPC nor clients', () => {
    const stack = existingAppStack({ existingStorage: 'nfs:10.0.1.20:/export/projects', ...NAMES });
    const props = registration(stack);
    expect(props).toMatchObject({ ExistingAddress: '10.0.1.20', ExportPath: '/export/projects', Backend: 'nfs' });
    for (const key of ['VpcId', 'ClientCidrs', 'ClientSecurityGroupIds', 'ExistingFileSystemId']) expect(props[key]).toBeUndefined();
  });

  test('vpcId: the VPC is looked up, and the clients given are checked against it', () => {
    const stack = lookedUpExistingStack({ existingStorage: `efs:${FS}`, ...NAMES, vpcId: 'vpc-0123456789abcdef0', clientCidrs: '10.1.0.0/16,10.2.0.0/16' }, '10.0.0.0/16');
    expect(registration(stack)).toMatchObject({ VpcId: 'vpc-0123456789abcdef0', ClientCidrs: '10.1.0.0/16,10.2.0.0/16', ExportPath: '/' });
  });

  test('clientSecurityGroupId: that group is the clients, with no CIDR by default', () => {
    const props = registration(existingAppStack({ existingStorage: `fsx-lustre:${FS}`, ...NAMES, ...FROM, clientSecurityGroupId: 'sg-0123456789abcdef0' }));
    expect(props).toMatchObject({ ClientSecurityGroupIds: 'sg-0123456789abcdef0' });
    expect(props.ClientCidrs).toBeUndefined();
  });
});

describe('the client-mount association: the cluster\'s server stack has it, so this stack only with clientMount=true', () => {
  const associations = (stack: ExistingStorageStack) => Template.fromStack(stack).findResources('AWS::SSM::Association');

  test('left out by default, and the ClientTag output says whose it is', () => {
    const stack = existingAppStack({ existingStorage: `efs:${FS}`, ...NAMES, ...FROM });
    expect(stack.clientMount).toBeUndefined();
    expect(associations(stack)).toEqual({});
    Template.fromStack(stack).hasOutput('ClientTag', { Value: 'cluster=hpc1', Description: Match.stringLikeRegexp('server stack') });
  });

  test('with clientMount=true, for a file system: the nodes allow servers in the VPC', () => {
    const stack = existingAppStack({ existingStorage: `efs:${FS}`, ...NAMES, ...FROM, clientMount: 'true' });
    expect(Object.keys(associations(stack))).toHaveLength(1);
    expect(JSON.stringify(Template.fromStack(stack).toJSON())).toContain('StorageServer-hpc1-home:VpcCidr');
  });

  test('with clientMount=true, for an NFS server: the nodes allow that address alone', () => {
    const stack = existingAppStack({ existingStorage: 'nfs:10.0.1.20:/export', ...NAMES, clientMount: 'true' });
    expect(Object.keys(associations(stack))).toHaveLength(1);
    expect(JSON.stringify(Template.fromStack(stack).toJSON())).toContain('10.0.1.20/32');
  });
});

describe('storageSecurityGroupId: the existing storage\'s group, given the clients\' ingress', () => {
  test.each([
    ['fsx-lustre', `fsx-lustre:${FS}`, [[988, 988], [1018, 1023]]],
    ['efs', `efs:${FS}`, [[2049, 2049]]],
  ])('%s: a rule per client and port range, and the registration waits on them', (_, existingStorage, ports) => {
    const stack = existingAppStack({ existingStorage, ...NAMES, ...FROM, clientCidrs: '10.1.0.0/16', storageSecurityGroupId: 'sg-0123456789abcdef0' });
    const template = Template.fromStack(stack);
    const rules = Object.values(template.findResources('AWS::EC2::SecurityGroupIngress')).map((r) => r.Properties);
    expect(rules.map((r) => [r.GroupId, r.CidrIp, r.IpProtocol, r.FromPort, r.ToPort])).toEqual(
      ports.map(([from, to]) => ['sg-0123456789abcdef0', '10.1.0.0/16', 'tcp', from, to]));
    const [id] = Object.keys(template.findResources(REGISTRATION));
    const dependsOn = template.toJSON().Resources[id].DependsOn as string[];
    for (const rule of Object.keys(template.findResources('AWS::EC2::SecurityGroupIngress'))) expect(dependsOn).toContain(rule);
  });

  test('absent: no rule is added; the storage\'s groups must admit the clients already', () => {
    Template.fromStack(existingAppStack({ existingStorage: `efs:${FS}`, ...NAMES, ...FROM })).resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
  });

  test("refused in a server's context, which makes its own group, naming the key", () => {
    expect(() => parseAppContext((key) => ({ storageSecurityGroupId: 'sg-0123456789abcdef0' } as Context)[key], TARGET)).toThrow(
      /^Invalid context value storageSecurityGroupId="sg-0123456789abcdef0": allowed is nothing without existingStorage/);
  });
});

describe('keys beside existingStorage', () => {
  const parse = (context: Context) => () => parseAppContext((key) => context[key], TARGET);
  const fileSystem = { existingStorage: `efs:${FS}`, ...NAMES, ...FROM };
  const nfs = { existingStorage: 'nfs:10.0.1.20:/export', ...NAMES };

  /** A valid value of each key a stack of existing storage refuses, and of those only a file system's reads. */
  const SAMPLE: Partial<Record<ContextKey, string>> = {
    capacityTiB: '10', backend: 'efs', throughputMBps: '500', instanceType: 'm6i.xlarge', generation: 'current', snapshotRetain: '0',
    restoreSnapshotIds: 'snap-0123456789abcdef0', dataVolumeCount: '1', fsxDeploymentType: 'SCRATCH_2', openZfsDeploymentType: 'MULTI_AZ_1',
    openZfsRootSquash: 'false', nconnect: '4', loginIp: '10.0.1.10', alarmEmail: 'ops@example.com', keyPair: 'ops',
    subnetId: 'subnet-0123456789abcdef0', availabilityZone: 'us-east-1a', deleteDataOnDestroy: 'true', acceptDataLoss: 'true',
    machineImageId: 'ami-0123456789abcdef0', terminationProtection: 'true',
  };

  test.each(Object.entries(SAMPLE))('%s is refused, named as typed with the keys that are read', (key, value) => {
    expect(parse({ ...fileSystem, [key]: value })).toThrow(new RegExp(
      `^Invalid context value ${key}="${value}": allowed is nothing beside existingStorage=efs:${FS}: the stack registers ` +
      'storage that exists already, and plans and builds no server. The keys read beside it are existingStorage, clusterName, .*vpcId'));
  });

  test('allowPublicClientCidrs is refused, since the registration holds the clients to private address space', () => {
    expect(parse({ ...fileSystem, clientCidrs: '52.0.0.0/16', allowPublicClientCidrs: 'true' })).toThrow(
      /^Invalid context value allowPublicClientCidrs="true": allowed is nothing beside existingStorage=efs:.*: the registration holds an existing file system's clients to private address space/);
    expect(parse({ ...fileSystem, clientCidrs: '52.0.0.0/16' })).toThrow(/^Invalid context value clientCidrs="52.0.0.0\/16": .*private address space/);
  });

  test("a stackName of a server's form is refused: deploying under it would replace that server's stack", () => {
    expect(parse({ ...fileSystem, stackName: 'StorageServer-hpc1-data' })).toThrow(
      /^Invalid context value stackName="StorageServer-hpc1-data": allowed is a name that does not begin StorageServer-.*\(the default is StorageServerExisting-hpc1-projects\)/);
  });

  test('every key of the table but those read is refused: a key added to the app is refused here until it is read', () => {
    const read = ['existingStorage', 'clusterName', 'serverName', 'stackName', 'mountPoint', 'allowHomeMountPoint', 'mountRoots',
      'clientMount', 'clientTagKey', 'clientReadAheadKiB', 'vpcId', 'vpcFrom', 'clientCidrs', 'clientSecurityGroupId', 'storageSecurityGroupId'];
    const refused = (Object.keys(CONTEXT_DEFAULTS) as ContextKey[]).filter((k) => !read.includes(k));
    expect(refused.length).toBeGreaterThan(30);
    for (const key of refused) expect(parse({ ...fileSystem, [key]: 'x' })).toThrow(new RegExp(`^Invalid context value ${key}="x": allowed is nothing beside`));
  });

  test.each([
    ['vpcId', 'vpc-0123456789abcdef0'], ['vpcFrom', 'StorageServer-hpc1-home'], ['clientCidrs', '10.0.0.0/16'],
    ['clientSecurityGroupId', 'sg-0123456789abcdef0'], ['storageSecurityGroupId', 'sg-0123456789abcdef0'],
  ])('nfs: %s makes no sense and is refused, saying why', (key, value) => {
    expect(parse({ ...nfs, [key]: value })).toThrow(new RegExp(
      `^Invalid context value ${key}=.*nothing beside existingStorage=nfs:10.0.1.20:/export: an NFS server is described by nothing at deploy`));
  });

  test.each([
    ['vpcId', { existingStorage: `fsx-lustre:${FS}`, ...NAMES }, /^Missing context value vpcId: existingStorage=fsx-lustre:fs-0123456789abcdef0 needs it, the cluster's VPC.*or vpcFrom=/],
    ['serverName', { existingStorage: 'nfs:10.0.1.20:/export', mountPoint: '/data/x' }, /^Missing context value serverName: .*the default, storage1, is the default server's/],
    ['mountPoint', { existingStorage: 'nfs:10.0.1.20:/export', serverName: 'x' }, /^Missing context value mountPoint: existingStorage=nfs:10.0.1.20:\/export needs it/],
  ])('%s is required', (_, context, message) => {
    expect(parse(context as Context)).toThrow(message);
  });

  test('the shared keys keep their own rules: a mount point under /home needs allowHomeMountPoint', () => {
    expect(parse({ ...nfs, mountPoint: '/home' })).toThrow(/^Invalid context value mountPoint="\/home"/);
    expect(parse({ ...nfs, mountPoint: '/home', allowHomeMountPoint: 'true' })).not.toThrow();
  });
});

describe('the app', () => {
  test('refuses a sizing key beside existingStorage with the message alone', () => {
    const run = runAppInProcess({ existingStorage: 'nfs:10.0.1.20:/export', ...NAMES, capacityTiB: '10' });
    expect(run).toEqual({ code: 1, stderr: expect.stringMatching(/^Error: Invalid context value capacityTiB="10": allowed is nothing beside existingStorage=/) });
  });

  test('builds the existing storage\'s stack for a valid context', () => {
    expect(runAppInProcess({ existingStorage: 'nfs:10.0.1.20:/export', ...NAMES })).toEqual({ code: 0, stderr: '' });
  });
});
