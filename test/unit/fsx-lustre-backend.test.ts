import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { StorageServer } from '../../lib/storage-server';
import { appStack, serverStack } from '../support/stacks';
import { fileSystemOf } from '../support/fsx-lustre-template';
import { Backend } from '../../lib/backend-enum';

// The fsx-lustre backend as CloudFormation sees it: the file system, its security group, backups, the registration that
// names it, and the props it refuses; its options are in fsx-lustre-options.test.ts. cfn-lint and cdk-nag run over the
// FSx variants of test/support/stacks.ts in gates.test.ts, and the template snapshot is in snapshot.test.ts.

describe('backend fsx-lustre (-c backend=fsx-lustre)', () => {
  test('12 TiB: PERSISTENT_2 SSD at 125 MB/s per TiB, 14400 GiB, in the private subnet, retained, backed up daily for 7 days', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12' }));
    const [fs] = fileSystemOf(t);
    expect(fileSystemOf(t)).toHaveLength(1);
    expect(fs.Properties).toMatchObject({
      FileSystemType: 'LUSTRE',
      StorageCapacity: 14400,
      StorageType: 'SSD',
      SubnetIds: [{ Ref: expect.stringMatching(/^VpcprivateSubnet1/) }],
      LustreConfiguration: {
        DeploymentType: 'PERSISTENT_2',
        PerUnitStorageThroughput: 125,
        AutomaticBackupRetentionDays: 7,
        DailyAutomaticBackupStartTime: '03:00',
        CopyTagsToBackups: true,
      },
    });
    // Always encrypted at rest, since FSx has no unencrypted file system; with the AWS managed key unless a key is
    // given.
    expect(fs.Properties.KmsKeyId).toBeUndefined();
    expect(fs.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(fs.UpdateReplacePolicy).toBe('Retain');
    // No EC2 server at all.
    t.resourceCountIs('AWS::EC2::Instance', 0);
    t.resourceCountIs('AWS::EC2::Volume', 0);
    t.resourceCountIs('AWS::DLM::LifecyclePolicy', 0);
  });

  test('100 TiB: 103200 GiB of PERSISTENT_2 (forced), or PERSISTENT_1 HDD 12 (auto, the cheapest), 108000 GiB with no drive cache', () => {
    const forced = fileSystemOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '100' })))[0].Properties;
    expect(forced).toMatchObject({ StorageCapacity: 103200, LustreConfiguration: { DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 125 } });
    const auto = fileSystemOf(Template.fromStack(appStack({ capacityTiB: '100' })))[0].Properties;
    expect(auto).toMatchObject({
      StorageCapacity: 108000,
      StorageType: 'HDD',
      LustreConfiguration: { DeploymentType: 'PERSISTENT_1', PerUnitStorageThroughput: 12, DriveCacheType: 'NONE' },
    });
  });

  test('the security group admits Lustre (TCP 988 and 1018-1023) from the clients only, and sends it to them and itself only', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12', clientCidrs: '10.0.0.0/16,10.1.0.0/24' }));
    const groups = t.findResources('AWS::EC2::SecurityGroup', { Properties: { GroupDescription: Match.stringLikeRegexp('^FSx for Lustre') } });
    const [id, group] = Object.entries(groups)[0];
    const rules = (list: unknown) => (list as { CidrIp: string; FromPort: number; ToPort: number }[])
      .map((r) => `${r.CidrIp} ${r.FromPort}-${r.ToPort}`).sort();
    const clients = ['10.0.0.0/16 1018-1023', '10.0.0.0/16 988-988', '10.1.0.0/24 1018-1023', '10.1.0.0/24 988-988'];
    expect(rules(group.Properties.SecurityGroupIngress)).toEqual(clients); // LUSTRE-INGRESS
    // No "all traffic" egress: Lustre to the clients, as AWS's guide asks of a group without it, LUSTRE-EGRESS in
    // docs/sources/fsx-rules.md, and to the group itself, for the file servers among themselves.
    expect(rules(group.Properties.SecurityGroupEgress)).toEqual(clients);
    const egress = Object.values(t.findResources('AWS::EC2::SecurityGroupEgress'))
      .filter((r) => JSON.stringify(r.Properties.GroupId).includes(id))
      .map((r) => `${JSON.stringify(r.Properties.DestinationSecurityGroupId)} ${r.Properties.FromPort}-${r.Properties.ToPort}`);
    const self = JSON.stringify({ 'Fn::GetAtt': [id, 'GroupId'] });
    expect(egress.sort()).toEqual([`${self} 1018-1023`, `${self} 988-988`]);
    // The L2's rule that lets the file servers reach each other.
    t.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      GroupId: { 'Fn::GetAtt': [id, 'GroupId'] },
      SourceSecurityGroupId: { 'Fn::GetAtt': [id, 'GroupId'] },
      FromPort: 988,
      ToPort: 1023,
    });
  });

  test('clients given as security groups (clientPeers): Lustre from them and to them, on both port ranges', () => {
    const stack = new Stack(new App(), 'Peers', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const nodes = new ec2.SecurityGroup(stack, 'Nodes', { vpc });
    new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_LUSTRE, capacityTiB: 2, clientPeers: [nodes] });
    const t = Template.fromStack(stack);
    const nodesId = stack.getLogicalId(nodes.node.defaultChild as ec2.CfnSecurityGroup);
    const toNodes = Object.values(t.findResources('AWS::EC2::SecurityGroupEgress'))
      .filter((r) => JSON.stringify(r.Properties.DestinationSecurityGroupId).includes(nodesId))
      .map((r) => `${r.Properties.FromPort}-${r.Properties.ToPort}`);
    expect(toNodes.sort()).toEqual(['1018-1023', '988-988']);
  });

  test('LUSTRE-COMPRESSION: LZ4 from the prop and from -c fsxDataCompressionType; off by default; anything else refused', () => {
    const compressionOf = (t: Template) => fileSystemOf(t)[0].Properties.LustreConfiguration.DataCompressionType;
    expect(compressionOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2' })))).toBeUndefined();
    expect(compressionOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDataCompressionType: 'LZ4' })))).toBe('LZ4');
    expect(compressionOf(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataCompressionType: fsx.LustreDataCompressionType.LZ4 } }).template)).toBe('LZ4');
    expect(() => appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDataCompressionType: 'ZSTD' }))
      .toThrow(/fsxDataCompressionType="ZSTD": allowed is one of 'NONE', 'LZ4'/);
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataCompressionType: 'ZSTD' as fsx.LustreDataCompressionType } }))
      .toThrow(/^fsxLustre\.dataCompressionType must be one of fsx\.LustreDataCompressionType\.NONE, fsx\.LustreDataCompressionType\.LZ4, got "ZSTD"\.$/);
  });

  test('LUSTRE-VERSION: 2.15 from the prop and from -c fsxFileSystemTypeVersion; FSx\'s default unset; 2.10 on PERSISTENT_2 refused', () => {
    const versionOf = (t: Template) => fileSystemOf(t)[0].Properties.FileSystemTypeVersion;
    expect(versionOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2' })))).toBeUndefined();
    expect(versionOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxFileSystemTypeVersion: '2.15' })))).toBe('2.15');
    expect(versionOf(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 } }).template)).toBe('2.15');
    expect(() => appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxFileSystemTypeVersion: '2.10' }))
      .toThrow(/^fsxLustre\.fileSystemTypeVersion 2\.10 is for PERSISTENT_1 and SCRATCH_2 only/);
    expect(versionOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDeploymentType: 'PERSISTENT_1', fsxFileSystemTypeVersion: '2.10' })))).toBe('2.10');
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { fileSystemTypeVersion: '2.16' as fsx.FileSystemTypeVersion } }))
      .toThrow(/^fsxLustre\.fileSystemTypeVersion must be one of fsx\.FileSystemTypeVersion\.V_2_10, fsx\.FileSystemTypeVersion\.V_2_12, fsx\.FileSystemTypeVersion\.V_2_15, got "2\.16"\.$/);
  });

  test('LUSTRE-METADATA: PERSISTENT_2\'s Metadata IOPS from the prop and from -c fsxMetadataIops (0: AUTOMATIC), in the guard\'s record', () => {
    const metadataOf = (t: Template) => [
      fileSystemOf(t)[0].Properties.LustreConfiguration.MetadataConfiguration,
      Object.values(t.findResources('Custom::StorageServerUpdateGuard'))[0].Properties.MetadataIops,
    ];
    expect(metadataOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2' })))).toEqual([undefined, undefined]);
    expect(metadataOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxMetadataIops: '24000' }))))
      .toEqual([{ Mode: 'USER_PROVISIONED', Iops: 24000 }, '24000']);
    expect(metadataOf(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxMetadataIops: '0' })))).toEqual([{ Mode: 'AUTOMATIC' }, 'AUTOMATIC']);
    expect(metadataOf(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { metadataIops: 1500 } }).template))
      .toEqual([{ Mode: 'USER_PROVISIONED', Iops: 1500 }, '1500']);
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { metadataIops: 2000 } }))
      .toThrow(/^fsxLustre\.metadataIops \(-c fsxMetadataIops\) must be 0 \(AUTOMATIC\) or 1500, 3000, 6000, 12000 or a multiple of 12000 up to 192000 \(USER_PROVISIONED\), got 2000\.$/);
    // The planner's type when none is named by a key: auto at 100 TiB plans PERSISTENT_1 HDD, which has none.
    expect(() => serverStack({ capacityTiB: 100, fsxLustre: { metadataIops: 12000 } }))
      .toThrow(/^fsxLustre\.metadataIops \(-c fsxMetadataIops\) applies to PERSISTENT_2 SSD file systems only .* the plan is PERSISTENT_1 HDD/);
  });

  test('the registration names the file system, its DNS name and mount name; the function may not describe instances', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12' }));
    const fsId = Object.keys(t.findResources('AWS::FSx::FileSystem'))[0];
    const [registration] = Object.values(t.findResources('Custom::StorageServerRegistration'));
    expect(registration.Properties).toMatchObject({
      Backend: 'fsx-lustre',
      FileSystemId: { Ref: fsId },
      DnsName: { 'Fn::Join': ['', [{ Ref: fsId }, '.fsx.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
      MountName: { 'Fn::GetAtt': [fsId, 'LustreMountName'] },
      ExportPath: { 'Fn::Join': ['', ['/', { 'Fn::GetAtt': [fsId, 'LustreMountName'] }]] },
      MountOptions: 'relatime,flock,_netdev,nosuid,nodev',
      Deployment: 'PERSISTENT_2/SSD/125',
      MountPoint: '/data',
    });
    expect(registration.Properties.InstanceId).toBeUndefined();
    // The registration function's own policy; the update guard's describes instances to find a server's resources.
    const actions = Object.entries(t.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('StorageServerRegistrationProviderPolicy'))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    expect(actions).toContain('ssm:PutParameter');
    expect(actions).not.toContain('ec2:DescribeInstances');
  });

  test('the update guard holds the file system layout and is updated before the file system', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12' }));
    const [guardId, guard] = Object.entries(t.findResources('Custom::StorageServerUpdateGuard'))[0];
    expect(guard.Properties).toMatchObject({
      Backend: 'fsx-lustre',
      FileSystemType: 'PERSISTENT_2/SSD',
      PerUnitStorageThroughput: '125',
      StorageCapacityGiB: '14400',
      SubnetId: { Ref: expect.stringMatching(/^VpcprivateSubnet1/) },
      EncryptionKey: 'aws/fsx',
    });
    expect(fileSystemOf(t)[0].DependsOn).toContain(guardId);
  });

  test('outputs: the DNS name and a lustre mount command instead of the private IP', () => {
    const outputs = Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12' })).toJSON().Outputs;
    expect(outputs.PrivateIp).toBeUndefined();
    expect(outputs.FileSystemDnsName).toBeDefined();
    expect(JSON.stringify(outputs.MountCommand.Value)).toContain('mount -t lustre -o relatime,flock,_netdev,nosuid,nodev ');
    expect(outputs.PlanSummary.Value).toMatch(/^fsx-lustre PERSISTENT_2 SSD 125 MB\/s\/TiB, 14400 GiB; sustained 1758 MB\/s read/);
  });
});
