/**
 * What `cdk destroy` keeps and deletes, per backend, as the README's "What cdk destroy does" and docs/design.md,
 * section 5, say. It checks the DeletionPolicy of every resource the data needs, the stack's termination protection,
 * and the synth check that refuses a template whose destroy would delete data unasked or end in DELETE_FAILED. The rule
 * behind the last is in test/support/destroy.ts: whatever a kept data resource names, transitively, is kept, and so are
 * the rules among its security group's own members.
 */
import { App, NestedStack, RemovalPolicies, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { destroyFate } from '../../lib/deletion';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';
import { type Resources, deletedUnderKeptData, isKept } from '../support/destroy';
import { VARIANTS, appStack, lookedUpAppStack, serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';

const resourcesOf = (stack: Stack): Resources => Template.fromStack(stack).toJSON().Resources as Resources;
/** `<Type> <DeletionPolicy>` of every resource whose logical id starts with one of `prefixes`, sorted. */
const policies = (resources: Resources, ...prefixes: string[]): string[] => Object.entries(resources)
  .filter(([id]) => prefixes.some((p) => id.startsWith(p)))
  .map(([id, r]) => `${id.replace(/[0-9A-F]{8}$/, '')} ${r.Type} ${r.DeletionPolicy ?? '-'}`).sort();
const LOOKED_UP = { vpcId: 'vpc-0123456789abcdef0' } as const;
const SUBNETS = [
  { subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.1.0.0/24', availabilityZone: 'us-east-1a' },
  { subnetId: 'subnet-0bbbbbbbbbbbbbbb1', cidr: '10.1.1.0/24', availabilityZone: 'us-east-1b' },
];

describe('destroyFate: CloudFormation\'s DeletionPolicy rules', () => {
  test.each([
    [undefined, 'AWS::EC2::Volume', false, 'deleted'],
    ['Delete', 'AWS::FSx::FileSystem', false, 'deleted'],
    ['Retain', 'AWS::EC2::Instance', false, 'kept'],
    ['RetainExceptOnCreate', 'AWS::FSx::FileSystem', false, 'kept'],
    ['Snapshot', 'AWS::EC2::Volume', false, 'snapshot'],
    ['Snapshot', 'AWS::FSx::FileSystem', false, 'unsupported'],
    ['Snapshot', 'AWS::EC2::Instance', false, 'unsupported'],
    [undefined, 'AWS::EC2::Instance', true, 'refused'],
  ] as const)('%s on %s (stack protected: %s): %s', (policy, type, protectedStack, fate) => {
    expect(destroyFate(policy, type, protectedStack)).toBe(fate);
  });
});

describe('what cdk destroy does, per backend (the app\'s own VPC)', () => {
  test('ebs: the data volumes are kept; the instance, its interface (the clients\' address) and the VPC go', () => {
    const stack = appStack({ backend: 'ebs', capacityTiB: '30' });
    const r = resourcesOf(stack);
    expect(policies(r, 'StorageServerDataVolume')).toEqual([
      'StorageServerDataVolume0 AWS::EC2::Volume RetainExceptOnCreate',
      'StorageServerDataVolume1 AWS::EC2::Volume RetainExceptOnCreate',
    ]);
    expect(policies(r, 'StorageServerInstance', 'StorageServerInterface', 'StorageServerSecurityGroup', 'Vpc8378')).toEqual([
      'StorageServerInstance AWS::EC2::Instance -',
      'StorageServerInstanceInstanceProfile AWS::IAM::InstanceProfile -',
      'StorageServerInstanceLaunchTemplate AWS::EC2::LaunchTemplate -',
      'StorageServerInterface AWS::EC2::NetworkInterface -',
      'StorageServerSecurityGroup AWS::EC2::SecurityGroup -',
      'Vpc AWS::EC2::VPC -',
    ].sort());
    expect(stack.terminationProtection).toBe(false);
    expect(deletedUnderKeptData(r)).toEqual([]);
  });

  test('instance-store: the destroy is refused by the stack\'s termination protection; nothing is kept apart', () => {
    const stack = appStack({ backend: 'instance-store', capacityTiB: '3' });
    const r = resourcesOf(stack);
    expect(stack.terminationProtection).toBe(true);
    Template.fromStack(stack).hasResourceProperties('AWS::EC2::Instance', { DisableApiTermination: true });
    expect(Object.values(r).filter(isKept).map((x) => x.Type).sort()).toEqual(['AWS::KMS::Key', ...Array(5).fill('AWS::Logs::LogGroup')]);
    Annotations.fromStack(stack).hasInfo('*', Match.stringLikeRegexp('^cdk destroy is refused: the stack\'s termination protection is on because the instance-store instance holds the data'));
  });

  test('instance-store with deleteDataOnDestroy: no protection, and synth names what a destroy deletes', () => {
    const stack = appStack({ backend: 'instance-store', capacityTiB: '3', deleteDataOnDestroy: 'true' });
    expect(stack.terminationProtection).toBe(false);
    Template.fromStack(stack).hasResourceProperties('AWS::EC2::Instance', { DisableApiTermination: false });
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp(
      '^deleteDataOnDestroy: cdk destroy deletes the instance \\(d2\\.xlarge\\) and its 3 instance-store disks \\(StorageServerInstance[0-9A-F]{8}, DeletionPolicy none: Delete\\)'));
  });

  test('fsx-lustre: the file system, its security group with the rules among its servers, its subnet and the VPC are kept', () => {
    const stack = appStack({ backend: 'fsx-lustre', capacityTiB: '12', clientSecurityGroupId: 'sg-0123456789abcdef0' });
    const r = resourcesOf(stack);
    expect(policies(r, 'StorageServerFsxLustreFileSystem', 'StorageServerFsxLustreSecurityGroup', 'Vpc8378', 'VpcprivateSubnet1Subnet')).toEqual([
      'StorageServerFsxLustreFileSystem AWS::FSx::FileSystem RetainExceptOnCreate',
      'StorageServerFsxLustreSecurityGroup AWS::EC2::SecurityGroup RetainExceptOnCreate',
      // The clients' group: admitted, and called back by Lustre's egress to clients, by rules of their own, which are
      // deleted with the stack, so that no other group's deletion fails on them.
      'StorageServerFsxLustreSecurityGroupfromStorageServerClientSecurityGroup3C99FEB410181023 AWS::EC2::SecurityGroupIngress -',
      'StorageServerFsxLustreSecurityGroupfromStorageServerClientSecurityGroup3C99FEB4988 AWS::EC2::SecurityGroupIngress -',
      'StorageServerFsxLustreSecurityGroupfromStorageServerFsxLustreSecurityGroup815FD5BF9881023 AWS::EC2::SecurityGroupIngress RetainExceptOnCreate',
      'StorageServerFsxLustreSecurityGrouptoStorageServerClientSecurityGroup3C99FEB410181023 AWS::EC2::SecurityGroupEgress -',
      'StorageServerFsxLustreSecurityGrouptoStorageServerClientSecurityGroup3C99FEB4988 AWS::EC2::SecurityGroupEgress -',
      'StorageServerFsxLustreSecurityGrouptoStorageServerFsxLustreSecurityGroup815FD5BF10181023 AWS::EC2::SecurityGroupEgress RetainExceptOnCreate',
      'StorageServerFsxLustreSecurityGrouptoStorageServerFsxLustreSecurityGroup815FD5BF988 AWS::EC2::SecurityGroupEgress RetainExceptOnCreate',
      'Vpc AWS::EC2::VPC RetainExceptOnCreate',
      'VpcprivateSubnet1Subnet AWS::EC2::Subnet RetainExceptOnCreate',
    ]);
    expect(stack.terminationProtection).toBe(false);
    expect(deletedUnderKeptData(r)).toEqual([]);
  });

  test('fsx-lustre linked to S3: its data repository association is kept with it', () => {
    const r = resourcesOf(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDataRepositoryPath: 's3://hpc-inputs' }));
    expect(policies(r, 'StorageServerFsxLustreDataRepository')).toEqual(['StorageServerFsxLustreDataRepository AWS::FSx::DataRepositoryAssociation RetainExceptOnCreate']);
  });

  test('fsx-openzfs MULTI_AZ_1: the file system, its security group, both subnets, the route tables of its endpoint and the VPC are kept', () => {
    const r = resourcesOf(appStack({ backend: 'fsx-openzfs', capacityTiB: '2', openZfsDeploymentType: 'MULTI_AZ_1' }));
    expect(Object.entries(r).filter(([, x]) => isKept(x) && !['AWS::KMS::Key', 'AWS::Logs::LogGroup'].includes(x.Type))
      .map(([id, x]) => `${id.replace(/[0-9A-F]{8}$/, '')} ${x.Type}`).sort()).toEqual([
      'StorageServerFsxOpenZfsFileSystem AWS::FSx::FileSystem',
      'StorageServerFsxOpenZfsSecurityGroup AWS::EC2::SecurityGroup',
      'Vpc AWS::EC2::VPC',
      'VpcprivateSubnet1RouteTable AWS::EC2::RouteTable',
      'VpcprivateSubnet1Subnet AWS::EC2::Subnet',
      'VpcprivateSubnet2RouteTable AWS::EC2::RouteTable',
      'VpcprivateSubnet2Subnet AWS::EC2::Subnet',
      'VpcpublicSubnet1RouteTable AWS::EC2::RouteTable',
      'VpcpublicSubnet2RouteTable AWS::EC2::RouteTable',
    ]);
    expect(deletedUnderKeptData(r)).toEqual([]);
  });

  test('fsx-openzfs in a looked-up VPC: the security group is kept; no stack of the app deletes the VPC', () => {
    const r = resourcesOf(lookedUpAppStack({ ...LOOKED_UP, backend: 'fsx-openzfs', capacityTiB: '2' }, '10.1.0.0/16', SUBNETS));
    expect(Object.entries(r).filter(([, x]) => isKept(x) && x.Type.startsWith('AWS::EC2::')).map(([, x]) => x.Type)).toEqual(['AWS::EC2::SecurityGroup']);
    expect(deletedUnderKeptData(r)).toEqual([]);
  });

  test.each([
    ['fsx-lustre', { backend: 'fsx-lustre', capacityTiB: '12' }, 'the FSx for Lustre file system', ' with its automatic backups'],
    ['fsx-openzfs', { backend: 'fsx-openzfs', capacityTiB: '2' }, 'the FSx for OpenZFS file system', ' with its automatic backups'],
    ['ebs', { backend: 'ebs', capacityTiB: '5' }, 'EBS data volume 0', ''],
  ] as const)('%s with deleteDataOnDestroy: nothing of the server is kept, and synth says what goes', (_b, context, what, more) => {
    const stack = appStack({ ...context, deleteDataOnDestroy: 'true' });
    const r = resourcesOf(stack);
    expect(Object.values(r).filter(isKept).map((x) => x.Type).filter((t) => t !== 'AWS::KMS::Key' && t !== 'AWS::Logs::LogGroup')).toEqual([]);
    expect(stack.terminationProtection).toBe(false);
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp(
      `^deleteDataOnDestroy: cdk destroy deletes ${what} \\([A-Za-z0-9]+, DeletionPolicy Delete\\)${more}, and the data on it\\. \\[ack: storage-server:deletesDataOnDestroy\\]$`));
  });

  test('every app variant: nothing a kept data resource needs is deleted (no DELETE_FAILED); only instance store without the key is protected', () => {
    for (const v of VARIANTS) {
      const stack = appStack(v.context);
      const r = resourcesOf(stack);
      expect({ variant: v.name, deleted: deletedUnderKeptData(r) }).toEqual({ variant: v.name, deleted: [] });
      const instanceStore = Object.values(r).some((x) => x.Type === 'AWS::EC2::Instance' &&
        ((x.Properties?.BlockDeviceMappings ?? []) as { VirtualName?: string }[]).some((m) => m.VirtualName !== undefined));
      const refused = instanceStore && v.context.deleteDataOnDestroy !== 'true';
      expect({ variant: v.name, protected: stack.terminationProtection }).toEqual({ variant: v.name, protected: refused });
    }
  });
});

describe('the synth check: data goes only where the deploy says so', () => {
  test('RemovalPolicies.destroy() from outside is refused without deleteDataOnDestroy, naming each volume', () => {
    const { stack } = serverStackUnsynthesized({ backend: Backend.EBS, capacityTiB: 30 });
    RemovalPolicies.of(stack).destroy();
    expect(() => Template.fromStack(stack)).toThrow(
      /EBS data volume 0 \(StorageDataVolume0[0-9A-F]{8}, DeletionPolicy Delete\): cdk destroy would delete it, and the data with it, but the deploy does not say the data may go\. Deploy with deleteDataOnDestroy=true \(context\) or deleteDataOnDestroy: true \(prop\)/);
    expect(() => Template.fromStack(stack)).toThrow(/EBS data volume 1 \(StorageDataVolume1/);
  });

  test('RemovalPolicies.destroy() from outside with deleteDataOnDestroy: a warning names what a destroy deletes', () => {
    const { stack } = serverStackUnsynthesized({ backend: Backend.FSX_LUSTRE, capacityTiB: 12, deleteDataOnDestroy: true });
    RemovalPolicies.of(stack).destroy();
    Annotations.fromStack(stack).hasWarning('/Test/Storage', Match.stringLikeRegexp(
      '^deleteDataOnDestroy: cdk destroy deletes the FSx for Lustre file system \\(StorageFsxLustreFileSystem[0-9A-F]{8}, DeletionPolicy Delete\\) with its automatic backups'));
  });

  test('RemovalPolicies.retain() from outside keeps everything: nothing to refuse', () => {
    const { stack } = serverStackUnsynthesized({ backend: Backend.INSTANCE_STORE, capacityTiB: 3, deleteDataOnDestroy: true });
    RemovalPolicies.of(stack).retain();
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('deleteDataOnDestroy'));
  });

  test('removalPolicy DESTROY is refused without deleteDataOnDestroy, and accepted with it', () => {
    expect(() => serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, removalPolicy: RemovalPolicy.DESTROY }))
      .toThrow(/the FSx for OpenZFS file system \(StorageFsxOpenZfsFileSystem[0-9A-F]{8}, DeletionPolicy Delete\): cdk destroy would delete it and its automatic backups/);
    const { template } = serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, removalPolicy: RemovalPolicy.DESTROY, deleteDataOnDestroy: true });
    template.hasResource('AWS::FSx::FileSystem', { DeletionPolicy: 'Delete' });
  });

  test('SNAPSHOT: an EBS volume is snapshotted, then deleted (no key needed); an FSx file system cannot be', () => {
    const { stack, template } = serverStack({ backend: Backend.EBS, removalPolicy: RemovalPolicy.SNAPSHOT });
    template.hasResource('AWS::EC2::Volume', { DeletionPolicy: 'Snapshot' });
    Annotations.fromStack(stack).hasInfo('*', Match.stringLikeRegexp('^cdk destroy snapshots EBS data volume 0 '));
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 12, removalPolicy: RemovalPolicy.SNAPSHOT }))
      .toThrow(/CloudFormation cannot snapshot a AWS::FSx::FileSystem|does not support snapshot removal policy/);
  });

  test('a kept file system whose security group would be deleted is refused: the destroy would end in DELETE_FAILED', () => {
    const { stack } = serverStackUnsynthesized({ backend: Backend.FSX_LUSTRE, capacityTiB: 12 });
    RemovalPolicies.of(stack).destroy({ applyToResourceTypes: ['AWS::EC2::SecurityGroup'] });
    expect(() => Template.fromStack(stack)).toThrow(
      /AWS::EC2::SecurityGroup StorageFsxLustreSecurityGroup[0-9A-F]{8} \(DeletionPolicy Delete\): cdk destroy would delete it while the FSx for Lustre file system \(StorageFsxLustreFileSystem[0-9A-F]{8}, DeletionPolicy RetainExceptOnCreate\) still uses it, and end in DELETE_FAILED/);
  });

  test('the instance-store destroy is refused by the root stack\'s termination protection, also from a nested stack', () => {
    const { stack: plain } = serverStack({ backend: Backend.INSTANCE_STORE, capacityTiB: 3 });
    expect(plain.terminationProtection).toBe(true);
    const { stack: ebs } = serverStack({ backend: Backend.EBS });
    expect(ebs.terminationProtection).toBe(false);
    const { stack: protectedEbs } = serverStack({ backend: Backend.EBS, terminationProtection: true });
    expect(protectedEbs.terminationProtection).toBe(true);
    const root = new Stack(new App(), 'Root', { env: { account: '123456789012', region: 'us-east-1' } });
    const nested = new NestedStack(root, 'Data');
    new StorageServer(nested, 'Storage', { vpc: new ec2.Vpc(nested, 'Vpc', { maxAzs: 1 }), backend: Backend.INSTANCE_STORE, capacityTiB: 3 });
    Template.fromStack(root);
    expect(root.terminationProtection).toBe(true);
  });

  test('a stack whose protection is turned off after the server is built: the instance-store data would go unasked, refused', () => {
    const { stack } = serverStackUnsynthesized({ backend: Backend.INSTANCE_STORE, capacityTiB: 3 });
    stack.terminationProtection = false;
    expect(() => Template.fromStack(stack)).toThrow(/the instance \(d2\.xlarge\) and its 3 instance-store disks \(StorageInstance[0-9A-F]{8}, DeletionPolicy none: Delete\): cdk destroy would delete it/);
  });

  test('terminationProtection: true with deleteDataOnDestroy is refused: EC2 would fail the destroy half-way', () => {
    expect(() => serverStack({ backend: Backend.INSTANCE_STORE, capacityTiB: 3, terminationProtection: true, deleteDataOnDestroy: true }))
      .toThrow(/terminationProtection: true makes EC2 refuse to terminate the instance, so cdk destroy would fail half-way \(DELETE_FAILED\)/);
  });

  test('deleteDataOnDestroy must be a boolean', () => {
    expect(() => serverStack({ deleteDataOnDestroy: 'yes' as unknown as boolean })).toThrow(/deleteDataOnDestroy must be one of true, false/);
  });
});

/** A server in a bare stack with its own VPC, not yet synthesized, so an aspect may still be added. */
function serverStackUnsynthesized(props: Partial<StorageServerProps>): { stack: Stack; server: StorageServer } {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  return { stack, server: new StorageServer(stack, 'Storage', { vpc, ...props }) };
}
