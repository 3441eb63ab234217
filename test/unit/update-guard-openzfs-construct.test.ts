import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as kms from 'aws-cdk-lib/aws-kms';
import { parseGuardProperties } from '../../lambda/update-guard/contract';
import { openZfsUpdateGuard, type OpenZfsGuardInput } from '../../lib/backends/openzfs/guard';
import { watchedPropertyNames } from '../../lib/update-guard';
import { FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';

// The construct side of the FSx for OpenZFS guard, lib/backends/openzfs/guard.ts: the layout it records from what the
// backend built, the file system it watches, and the order it imposes, the guard first. The rules are tested in
// test/unit/update-guard-openzfs.test.ts, and the whole app in test/unit/guard-matrix-fsx-openzfs.test.ts.

const SUBNET_A = 'subnet-0aaaaaaaaaaaaaaa1';
const SUBNET_B = 'subnet-0bbbbbbbbbbbbbbb1';
const INPUT: OpenZfsGuardInput = {
  plan: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2, throughputCapacityMBps: 640, storageCapacityGiB: 4096 },
  subnetIds: [SUBNET_A],
  availabilityZone: 'us-east-1a',
  backupRetentionDays: 7,
  clusterName: 'hpc',
  serverName: 'storage1',
};

/** A stack, asset bundling skipped, with a bare OpenZFS file system and its guard built from `input`. */
function build(input: Partial<OpenZfsGuardInput> | ((stack: Stack) => Partial<OpenZfsGuardInput>) = {}) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const given = typeof input === 'function' ? input(stack) : input;
  const fileSystem = new fsx.CfnFileSystem(stack, 'FileSystem', {
    fileSystemType: 'OPENZFS', subnetIds: [...(given.subnetIds ?? INPUT.subnetIds)], storageCapacity: 4096,
    openZfsConfiguration: {
      deploymentType: (given.plan ?? INPUT.plan).deploymentType, throughputCapacity: 640,
      rootVolumeConfiguration: { nfsExports: [{ clientConfigurations: [{ clients: '10.0.0.0/16', options: ['rw', 'root_squash'] }] }] },
    },
  });
  const guard = openZfsUpdateGuard(stack, { ...INPUT, ...given }, fileSystem);
  return { stack, fileSystem, guard, template: Template.fromStack(stack) };
}

function guardLayout(template: Template) {
  const [resource] = Object.values(template.findResources('Custom::StorageServerUpdateGuard'));
  return { properties: resource.Properties, layout: parseGuardProperties({ ...resource.Properties, ServiceToken: 't' }).layout };
}

describe('openZfsUpdateGuard', () => {
  test('records the Single-AZ layout the handler reads: type/SSD, storage, throughput, subnet, the AWS managed key', () => {
    const { properties, layout } = guardLayout(build().template);
    expect(layout).toEqual({
      backend: 'fsx-openzfs', instanceStoreType: '', dataVolumes: [], snapshotIds: [], encryptionKey: 'aws/fsx',
      availabilityZone: 'us-east-1a', imageId: '', keyPair: '', placementGroup: '', volumeAttachment: 'stack',
      fileSystemType: 'SINGLE_AZ_2/SSD', perUnitStorageThroughput: '', storageCapacityGiB: '4096', subnetId: SUBNET_A,
      instanceStoreEncryption: '', throughputCapacity: '640', standbySubnetId: '', diskIops: 'AUTOMATIC', metadataIops: '', snapshotRetain: '7',
    });
    // Single-AZ: no standby subnet on the wire.
    expect(properties).not.toHaveProperty('StandbySubnetId');
  });

  test('MULTI_AZ_1: the preferred subnet and the standby one', () => {
    const { layout } = guardLayout(build({
      plan: { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1, throughputCapacityMBps: 160, storageCapacityGiB: 64 }, subnetIds: [SUBNET_A, SUBNET_B],
    }).template);
    expect(layout).toEqual(expect.objectContaining({
      fileSystemType: 'MULTI_AZ_1/SSD', subnetId: SUBNET_A, standbySubnetId: SUBNET_B, throughputCapacity: '160', storageCapacityGiB: '64',
    }));
  });

  test('a key of its own is recorded by its ARN (a token CloudFormation resolves)', () => {
    const { stack, template } = build((s) => ({ encryptionKeyArn: new kms.Key(s, 'Key', { enableKeyRotation: true }).keyArn }));
    const key = stack.node.findChild('Key').node.defaultChild as kms.CfnKey;
    template.hasResourceProperties('Custom::StorageServerUpdateGuard', { EncryptionKey: { 'Fn::GetAtt': [stack.getLogicalId(key), 'Arn'] } });
  });

  test('the file system waits for the guard, which watches it by the replacement rules, nested OpenZFS paths included', () => {
    const { stack, fileSystem, template } = build();
    const [guardId] = Object.keys(template.findResources('Custom::StorageServerUpdateGuard'));
    template.hasResource('AWS::FSx::FileSystem', { DependsOn: Match.arrayWith([guardId]) });
    const watched = guardLayout(template).properties.Watched.FileSystem;
    expect(watched).toEqual(expect.objectContaining({ Type: 'AWS::FSx::FileSystem', LogicalId: stack.getLogicalId(fileSystem) }));
    expect(watched.Watching).toEqual(watchedPropertyNames('AWS::FSx::FileSystem'));
    expect(watched.Watching).toEqual(expect.arrayContaining([
      'OpenZFSConfiguration.DeploymentType', 'OpenZFSConfiguration.PreferredSubnetId',
      'OpenZFSConfiguration.RootVolumeConfiguration.NfsExports', 'SubnetIds', 'KmsKeyId',
    ]));
    expect(watched.Watching).not.toContain('OpenZFSConfiguration.ThroughputCapacity');
    expect(watched.Properties).toEqual(expect.objectContaining({
      'OpenZFSConfiguration.DeploymentType': 'SINGLE_AZ_2',
      'OpenZFSConfiguration.RootVolumeConfiguration.NfsExports': [{ ClientConfigurations: [{ Clients: '10.0.0.0/16', Options: ['rw', 'root_squash'] }] }],
    }));
    expect(guardLayout(template).properties.Identity).toEqual(expect.objectContaining({ ClusterName: 'hpc', ServerName: 'storage1' }));
  });

  test.each([
    ['no subnet', { subnetIds: [] }, /subnetIds must hold one subnet \(Single-AZ\) or two \(MULTI_AZ_1: preferred, standby\); got 0/],
    ['three subnets', { subnetIds: [SUBNET_A, SUBNET_B, 'subnet-0ccccccccccccccc1'] }, /subnetIds must hold one subnet .*; got 3/],
    ['two subnets on Single-AZ', { subnetIds: [SUBNET_A, SUBNET_B] }, /layout\.standbySubnetId must be '' unless the deployment type is MULTI_AZ_1/],
    ['one subnet on MULTI_AZ_1', { plan: { ...INPUT.plan, deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1 } },
      /layout\.standbySubnetId must be the standby file server's subnet id on MULTI_AZ_1/],
  ])('%s: refused at synth, naming the input', (_name, input, message) => {
    expect(() => build(input)).toThrow(message);
  });
});
