import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { FsxOpenZfsServer } from '../../lib/backends/fsx-openzfs';
import { MonitoredOpenZfsFileSystem } from '../../lib/backends/openzfs/monitoring';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { appStack, lookedUpAppStack, serverStack } from '../support/stacks';
import { FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';
import { Backend } from '../../lib/backend-enum';

// The fsx-openzfs backend as CloudFormation sees it: the file system, its security group, backups, the guard before it,
// the registration that names it by DNS name, what monitoring is given, and the props it refuses. cfn-lint and cdk-nag
// run over its variants of test/support/stacks.ts in gates.test.ts, and the template snapshot is in snapshot.test.ts.

type Props = Record<string, unknown>;
const fileSystemOf = (t: Template) => Object.values(t.findResources('AWS::FSx::FileSystem'));
const ACCEPTANCE = { backend: 'fsx-openzfs', capacityTiB: '4', throughputMBps: '1000' } as const;
const zfs = (props: Partial<StorageServerProps> = {}) => serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, ...props });
const zfsTwoZones = (props: Partial<StorageServerProps> = {}) => {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1 });
  const server = new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, ...props });
  return { vpc, server, template: Template.fromStack(stack) };
};

describe('backend fsx-openzfs (-c backend=fsx-openzfs)', () => {
  test('acceptance: -c capacityTiB=4 -c throughputMBps=1000: OPENZFS SSD, >= 4 TiB, a tier >= 1000 MB/s, encrypted, LZ4, backed up, retained', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    expect(fileSystemOf(t)).toHaveLength(1);
    const [fs] = fileSystemOf(t);
    expect(fs.Properties).toMatchObject({
      FileSystemType: 'OPENZFS',
      StorageType: 'SSD',
      SubnetIds: [{ Ref: expect.stringMatching(/^VpcprivateSubnet1/) }],
      OpenZFSConfiguration: {
        DeploymentType: 'SINGLE_AZ_1',
        AutomaticBackupRetentionDays: 7,
        DailyAutomaticBackupStartTime: '03:00',
        CopyTagsToBackups: true,
        RootVolumeConfiguration: { DataCompressionType: 'LZ4', CopyTagsToSnapshots: true },
      },
    });
    expect(fs.Properties.StorageCapacity).toBeGreaterThanOrEqual(4 * 1024);
    expect([64, 128, 256, 512, 1024, 2048, 3072, 4096]).toContain(fs.Properties.OpenZFSConfiguration.ThroughputCapacity);
    expect(fs.Properties.OpenZFSConfiguration.ThroughputCapacity).toBeGreaterThanOrEqual(1000);
    // The SSD IOPS the plan provisions: SINGLE_AZ_1 at 1024 MB/s, up to the tier's 40,000 disk IOPS, where 4 TiB
    // automatic would be 12,288.
    expect(fs.Properties.OpenZFSConfiguration.DiskIopsConfiguration).toEqual({ Mode: 'USER_PROVISIONED', Iops: 40000 });
    // Single-AZ: no preferred subnet or route tables.
    expect(fs.Properties.OpenZFSConfiguration.PreferredSubnetId).toBeUndefined();
    // FSx encrypts every file system at rest: the AWS managed key aws/fsx unless kmsKey is given.
    expect(fs.Properties.KmsKeyId).toBeUndefined();
    expect(fs.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(fs.UpdateReplacePolicy).toBe('Retain');
    t.resourceCountIs('AWS::EC2::Instance', 0);
    t.resourceCountIs('AWS::EC2::Volume', 0);
  });

  test('-c openZfsProvisionedIops: the IOPS the file system gets and its guard records (0: AUTOMATIC); out of range, refused by key', () => {
    const iopsOf = (t: Template) => [
      fileSystemOf(t)[0].Properties.OpenZFSConfiguration.DiskIopsConfiguration,
      Object.values(t.findResources('Custom::StorageServerUpdateGuard'))[0].Properties.DiskIops,
    ];
    expect(iopsOf(Template.fromStack(appStack({ ...ACCEPTANCE, openZfsProvisionedIops: '20000' }))))
      .toEqual([{ Mode: 'USER_PROVISIONED', Iops: 20000 }, '20000']);
    expect(iopsOf(Template.fromStack(appStack({ ...ACCEPTANCE, openZfsProvisionedIops: '0' })))).toEqual([{ Mode: 'AUTOMATIC' }, 'AUTOMATIC']);
    expect(iopsOf(Template.fromStack(appStack(ACCEPTANCE)))).toEqual([{ Mode: 'USER_PROVISIONED', Iops: 40000 }, '40000']);
    expect(() => appStack({ ...ACCEPTANCE, openZfsProvisionedIops: '1000' }))
      .toThrow(/^fsxOpenZfs\.provisionedIops \(-c openZfsProvisionedIops\) must be 0 \(AUTOMATIC\) or from 12288/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsProvisionedIops: 'lots' })).toThrow(/openZfsProvisionedIops="lots".*a whole number of SSD IOPS/);
  });

  // The export itself, a constant in the template and the clients' by UpdateVolume, is tested in
  // test/unit/fsx-openzfs-exports.test.ts.
  test('-c openZfsRootSquash: values other than true or false are refused, and the key on another backend', () => {
    expect(() => appStack({ ...ACCEPTANCE, openZfsRootSquash: 'no' })).toThrow(/openZfsRootSquash="no".*'true' or 'false'/);
    expect(() => appStack({ backend: 'fsx-lustre', openZfsRootSquash: 'false' }))
      .toThrow(/openZfsRootSquash.*only together with backend=fsx-openzfs \(backend is 'fsx-lustre'\)/);
  });

  test('clientPeers without clientCidrs: the security group admits only the peer', () => {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const clients = new ec2.SecurityGroup(stack, 'Clients', { vpc });
    new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, clientPeers: [clients] });
    const t = Template.fromStack(stack);
    const [group] = Object.values(t.findResources('AWS::EC2::SecurityGroup', { Properties: { GroupDescription: Match.stringLikeRegexp('^FSx for OpenZFS') } }));
    expect(group.Properties.SecurityGroupIngress).toBeUndefined();
    const ingress = Object.values(t.findResources('AWS::EC2::SecurityGroupIngress')).map((r) => r.Properties);
    expect(ingress).toHaveLength(1);
    for (const rule of ingress) expect(rule).toMatchObject({ IpProtocol: 'tcp', FromPort: 2049, ToPort: 2049 });
    for (const rule of ingress) expect(rule.SourceSecurityGroupId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Clients/), 'GroupId'] });
  });

  test('the security group admits NFSv4.1 (TCP 2049) from the client CIDRs only; not NFSv3\'s ports, which no mount here uses', () => {
    const t = Template.fromStack(appStack({ ...ACCEPTANCE, clientCidrs: '10.0.0.0/16' }));
    const groups = t.findResources('AWS::EC2::SecurityGroup', { Properties: { GroupDescription: Match.stringLikeRegexp('^FSx for OpenZFS') } });
    const [id, group] = Object.entries(groups)[0];
    const ingress = (group.Properties.SecurityGroupIngress as { CidrIp: string; IpProtocol: string; FromPort: number; ToPort: number }[])
      .map((r) => `${r.CidrIp} ${r.IpProtocol} ${r.FromPort}-${r.ToPort}`).sort();
    expect(ingress).toEqual(['10.0.0.0/16 tcp 2049-2049']);
    expect(fileSystemOf(t)[0].Properties.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [id, 'GroupId'] }]);
  });

  test('the guard is updated before the file system (DependsOn) and records backend fsx-openzfs', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    const guards = t.findResources('Custom::StorageServerUpdateGuard');
    const [guardId, guard] = Object.entries(guards)[0];
    expect(guard.Properties.Backend).toBe('fsx-openzfs');
    expect(fileSystemOf(t)[0].DependsOn).toContain(guardId);
  });

  test('the registration names the file system by id and DNS name (GetAtt DNSName), no mount name, /fsx, nfs4', () => {
    const stack = appStack(ACCEPTANCE);
    const t = Template.fromStack(stack);
    const fsId = Object.keys(t.findResources('AWS::FSx::FileSystem'))[0];
    const [registration] = Object.values(t.findResources('Custom::StorageServerRegistration'));
    expect(registration.Properties).toMatchObject({
      Backend: 'fsx-openzfs',
      FileSystemId: { Ref: fsId },
      DnsName: { 'Fn::GetAtt': [fsId, 'DNSName'] },
      MountName: '',
      Deployment: 'SINGLE_AZ_1/1024',
      ExportPath: '/fsx',
      MountOptions: 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev,nosuid,nodev',
    });
    expect(stack.server.fsType).toBe('nfs4');
    expect(stack.server.exportPath).toBe('/fsx');
    expect(stack.server.instance).toBeUndefined();
    expect(stack.server.openZfsFileSystem).toBeDefined();
  });

  test('monitoring is given the file system, its root volume, capacity, throughput and deployment type', () => {
    const { server } = zfs({ throughputMBps: 500 });
    const backend = server.node.findChild('FsxOpenZfs') as FsxOpenZfsServer;
    expect(backend.monitored).toBeInstanceOf(MonitoredOpenZfsFileSystem);
    expect(backend.monitored).toStrictEqual(new MonitoredOpenZfsFileSystem({
      fileSystemId: backend.fileSystem.ref,
      rootVolumeId: backend.fileSystem.attrRootVolumeId,
      storageCapacityGiB: 1024,
      throughputCapacityMBps: 512,
      deploymentType: 'SINGLE_AZ_1',
    }));
  });

  test('acceptance: the alarms watch this file system: storage used (warning, critical) and throughput utilization', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    const fsId = Object.keys(t.findResources('AWS::FSx::FileSystem'))[0];
    const alarms = Object.entries(t.findResources('AWS::CloudWatch::Alarm'));
    const watching = alarms.filter(([, a]) => JSON.stringify(a.Properties.Metrics ?? a.Properties.Dimensions).includes(`"Ref":"${fsId}"`));
    expect(watching.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      expect.stringMatching(/FileSystemUsedCritical$/),
      expect.stringMatching(/FileSystemUsedWarning$/),
      expect.stringMatching(/ThroughputUtilizationHigh$/),
    ]);
    for (const [, alarm] of watching) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });

  test('outputs: the file system id and DNS name, an nfs4 mount command of /fsx; no private IP', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    const outputs = t.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['FileSystemId', 'FileSystemDnsName', 'MountCommand']));
    expect(outputs.PrivateIp).toBeUndefined();
    expect(outputs.FileSystemId.Description).toMatch(/FSx for OpenZFS file system/);
    expect(JSON.stringify(outputs.MountCommand.Value)).toMatch(/mount -t nfs4 -o nfsvers=4\.1.*:\/fsx \/data/);
    expect(t.toJSON().Description).toBe('FSx for OpenZFS file system storage1 of HPC cluster cluster');
  });

  test('mount options: rsize and wsize as the tier accepts (64 MB/s: 256 KiB, 128 MB/s: 512 KiB, else 1 MiB)', () => {
    const options = (t: number) => zfs({ fsxOpenZfs: { throughputCapacityMBps: t } }).server.mountOptions;
    expect(options(64)).toMatch(/^nfsvers=4\.1,rsize=262144,wsize=262144,/);
    expect(options(128)).toMatch(/,rsize=524288,wsize=524288,/);
    expect(options(256)).toMatch(/,rsize=1048576,wsize=1048576,.*nosuid,nodev$/);
  });

  test('a KMS key of your own encrypts the file system; snapshots.retain and startTimeUtc set the backups, 0 turns them off', () => {
    expect(fileSystemOf(zfsWithKey())[0].Properties.KmsKeyId).toEqual({ Ref: expect.stringMatching(/^Key/) });
    expect(fileSystemOf(zfs().template)[0].Properties.KmsKeyId).toBeUndefined();
    const off = fileSystemOf(zfs({ snapshots: { retain: 0 } }).template)[0].Properties.OpenZFSConfiguration;
    expect(off.AutomaticBackupRetentionDays).toBe(0);
    expect(off.DailyAutomaticBackupStartTime).toBeUndefined();
    const thirty = fileSystemOf(zfs({ snapshots: { retain: 30, startTimeUtc: '22:15' } }).template)[0].Properties.OpenZFSConfiguration;
    expect(thirty).toMatchObject({ AutomaticBackupRetentionDays: 30, DailyAutomaticBackupStartTime: '22:15' });
  });
});

describe('MULTI_AZ_1: a standby subnet in a second zone', () => {
  test('the app\'s new VPC: both private subnets, the first preferred; the route tables of every subnet clients may be in', () => {
    const t = Template.fromStack(appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1' }));
    const [fs] = fileSystemOf(t);
    expect(fs.Properties.SubnetIds).toEqual([{ Ref: expect.stringMatching(/^VpcprivateSubnet1/) }, { Ref: expect.stringMatching(/^VpcprivateSubnet2/) }]);
    expect(fs.Properties.OpenZFSConfiguration).toMatchObject({
      DeploymentType: 'MULTI_AZ_1',
      ThroughputCapacity: 1280,
      PreferredSubnetId: fs.Properties.SubnetIds[0],
    });
    // OPENZFS-ROUTE-TABLES. AWS: "specify all VPC route tables associated with the subnets in which your clients are
    // located". The file system's own two come first, then the public subnets', for a login node, each once.
    expect(fs.Properties.OpenZFSConfiguration.RouteTableIds.map((r: { Ref: string }) => r.Ref.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'VpcprivateSubnet1RouteTable', 'VpcprivateSubnet2RouteTable', 'VpcpublicSubnet1RouteTable', 'VpcpublicSubnet2RouteTable',
    ]);
  });

  test('the app\'s route tables FSx routes the endpoint through are tagged for its service-linked role (OPENZFS-ROUTE-TAG)', () => {
    const t = Template.fromStack(appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1' }));
    const routed = fileSystemOf(t)[0].Properties.OpenZFSConfiguration.RouteTableIds.map((r: { Ref: string }) => r.Ref);
    const tagged = Object.entries(t.findResources('AWS::EC2::RouteTable'))
      .filter(([, r]) => (r.Properties.Tags ?? []).some((tag: { Key: string; Value: string }) => tag.Key === 'AmazonFSx' && tag.Value === 'ManagedByAmazonFSx'))
      .map(([id]) => id);
    expect(tagged.sort()).toEqual([...routed].sort());
    // A Single-AZ file system routes nothing: no route table is tagged.
    const single = Template.fromStack(appStack(ACCEPTANCE));
    expect(JSON.stringify(single.findResources('AWS::EC2::RouteTable'))).not.toContain('ManagedByAmazonFSx');
  });

  test('route tables of a VPC the app does not make: a warning naming them and the tag to add', () => {
    const subnets = [
      { subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' },
      { subnetId: 'subnet-0bbbbbbbbbbbbbbb1', cidr: '10.0.2.0/24', availabilityZone: 'us-east-1b' },
    ];
    const context = { ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1', vpcId: 'vpc-0123456789abcdef0', subnetId: 'subnet-0aaaaaaaaaaaaaaa1' } as const;
    const stack = lookedUpAppStack({ ...context, openZfsStandbySubnetId: 'subnet-0bbbbbbbbbbbbbbb1' }, '10.0.0.0/16', subnets);
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('fsxRouteTableTag'));
    expect(warnings.map((w) => w.entry.data)).toEqual([expect.stringMatching(
      /^MULTI_AZ_1 routes its endpoint through route tables this app does not make \(rtb-0123456789abcdef0\): FSx's service-linked role changes routes on failover only in route tables tagged AmazonFSx=ManagedByAmazonFSx.*aws ec2 create-tags --resources rtb-0123456789abcdef0 --tags Key=AmazonFSx,Value=ManagedByAmazonFSx/,
    )]);
  });

  test('a standby subnet whose route table is unknown is refused, naming the prop and how to import it', () => {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1 });
    const standbySubnet = ec2.Subnet.fromSubnetAttributes(stack, 'Standby', { subnetId: 'subnet-0bbbbbbbbbbbbbbb1', availabilityZone: 'us-east-1z' });
    expect(() => new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1, standbySubnet } }))
      .toThrow(/^fsxOpenZfs\.standbySubnet: subnet subnet-0bbbbbbbbbbbbbbb1 has no known route table, which MULTI_AZ_1 needs/);
  });

  test('a looked-up VPC: -c subnetId with -c openZfsStandbySubnetId in another zone; the same zone is refused', () => {
    const subnets = [
      { subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' },
      { subnetId: 'subnet-0aaaaaaaaaaaaaaa2', cidr: '10.0.1.0/24', availabilityZone: 'us-east-1a' },
      { subnetId: 'subnet-0bbbbbbbbbbbbbbb1', cidr: '10.0.2.0/24', availabilityZone: 'us-east-1b' },
    ];
    const context = { ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1', vpcId: 'vpc-0123456789abcdef0', subnetId: 'subnet-0aaaaaaaaaaaaaaa1' } as const;
    const t = Template.fromStack(lookedUpAppStack({ ...context, openZfsStandbySubnetId: 'subnet-0bbbbbbbbbbbbbbb1' }, '10.0.0.0/16', subnets));
    expect(fileSystemOf(t)[0].Properties.SubnetIds).toEqual(['subnet-0aaaaaaaaaaaaaaa1', 'subnet-0bbbbbbbbbbbbbbb1']);
    expect(() => lookedUpAppStack({ ...context, openZfsStandbySubnetId: 'subnet-0aaaaaaaaaaaaaaa2' }, '10.0.0.0/16', subnets))
      .toThrow(/^fsxOpenZfs\.standbySubnet \(-c openZfsStandbySubnetId\) must be in another Availability Zone/);
    expect(() => lookedUpAppStack(context, '10.0.0.0/16', subnets))
      .toThrow(/^fsxOpenZfs\.standbySubnet: deploymentType 'MULTI_AZ_1' needs a standby subnet in another Availability Zone/);
    expect(() => lookedUpAppStack({ ...context, openZfsStandbySubnetId: 'subnet-0ccccccccccccccc1' }, '10.0.0.0/16', subnets))
      .toThrow(/openZfsStandbySubnetId="subnet-0ccccccccccccccc1": allowed is a subnet of vpc-0123456789abcdef0/);
  });

  // OPENZFS-STANDBY-SUBNET
  test('refused: one zone (a one-zone VPC, -c availabilityZone, -c vpcFrom), a standby without MULTI_AZ_1 or vpcId', () => {
    expect(() => zfs({ fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1 } }))
      .toThrow(/^fsxOpenZfs\.standbySubnet: deploymentType 'MULTI_AZ_1' needs a standby subnet in another Availability Zone/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1', availabilityZone: 'us-east-1b' }))
      .toThrow(/^Invalid context value openZfsDeploymentType="MULTI_AZ_1": allowed is not with availabilityZone/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1', vpcFrom: 'StorageServer-hpc1-home' }))
      .toThrow(/^Invalid context value openZfsDeploymentType="MULTI_AZ_1": allowed is not with vpcFrom/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsStandbySubnetId: 'subnet-0bbbbbbbbbbbbbbb1' }))
      .toThrow(/openZfsStandbySubnetId=.*only together with openZfsDeploymentType=MULTI_AZ_1/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_1', openZfsStandbySubnetId: 'subnet-0bbbbbbbbbbbbbbb1' }))
      .toThrow(/openZfsStandbySubnetId=.*only together with vpcId/);
    const { vpc } = zfsTwoZones();
    expect(() => zfsTwoZones({ fsxOpenZfs: { standbySubnet: vpc.privateSubnets[1] } }))
      .toThrow(/^fsxOpenZfs\.standbySubnet applies to deploymentType 'MULTI_AZ_1' only/);
  });
});

describe('refusals, naming the prop or key and what is allowed', () => {
  test.each<[string, Props, RegExp | string]>([
    ['instanceType', { instanceType: new ec2.InstanceType('m4.xlarge') }, /^instanceType: this applies to the EC2 NFS server backends \(ebs, instance-store\) only, not to backend 'fsx-openzfs'/],
    ['nfs', { nfs: { nconnect: 4 } }, /^nfs: this applies to the EC2 NFS server backends .* not to backend 'fsx-openzfs'/],
    ['fsxLustre', { fsxLustre: { deploymentType: 'SCRATCH_2' } }, /fsxLustre.* backend 'fsx-lustre' only; .*backend 'fsx-openzfs'/],
    // OPENZFS-BACKUP-RETENTION
    ['snapshots.retain 91', { snapshots: { retain: 91 } }, 'snapshots.retain is the automatic backup retention in days on FSx for OpenZFS: 0 (off) to 90, got 91.'],
    ['snapshots.intervalHours 12', { snapshots: { intervalHours: 12 } }, /^snapshots\.intervalHours: FSx for OpenZFS backs up once a day; only 24 applies/],
    ['snapshots.crossRegionCopy', { snapshots: { crossRegionCopy: { targetRegion: 'eu-west-1' } } }, /^snapshots\.crossRegionCopy applies to EBS snapshots only/],
    // OPENZFS-EXPORT-CLIENTS
    ['26 clientCidrs', { clientCidrs: Array.from({ length: 26 }, (_, i) => `10.0.${i}.0/24`) }, /^clientCidrs: an FSx for OpenZFS export takes at most 25 clients, got 26/],
    ['a throughput tier of another type', { fsxOpenZfs: { deploymentType: 'SINGLE_AZ_2', throughputCapacityMBps: 1024 } }, /fsxOpenZfs\.throughputCapacityMBps must be one of 160, 320/],
  ])('%s is refused', (_, props, message) => {
    expect(() => zfs(props as Partial<StorageServerProps>)).toThrow(message);
  });

  test('fsxOpenZfs on another backend, and the OpenZFS keys without backend=fsx-openzfs, are refused', () => {
    expect(() => serverStack({ backend: Backend.EBS, capacityTiB: 1, fsxOpenZfs: { rootSquash: false } }))
      .toThrow(/fsxOpenZfs.* backend 'fsx-openzfs' only.*backend 'ebs'/);
    expect(() => appStack({ openZfsDeploymentType: 'SINGLE_AZ_2' })).toThrow(/openZfsDeploymentType.*only together with backend=fsx-openzfs \(backend is 'auto'\)/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsDeploymentType: 'MULTI_AZ_2' }))
      .toThrow(/openZfsDeploymentType="MULTI_AZ_2": allowed is one of 'SINGLE_AZ_1', 'SINGLE_AZ_2', 'SINGLE_AZ_HA_1', 'SINGLE_AZ_HA_2', 'MULTI_AZ_1'/);
    expect(() => appStack({ ...ACCEPTANCE, openZfsThroughputCapacityMBps: '1000' }))
      .toThrow(/openZfsThroughputCapacityMBps="1000": allowed is a throughput capacity of SINGLE_AZ_1 in MB\/s, one of 64, 128/);
    expect(() => appStack({ ...ACCEPTANCE, fsxDeploymentType: 'SCRATCH_2' })).toThrow(/fsxDeploymentType.*only together with backend=fsx-lustre/);
  });
});

/** A one-zone VPC and an FSx for OpenZFS file system with a KMS key of the stack's own. */
function zfsWithKey(): Template {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const key = new kms.Key(stack, 'Key', { enableKeyRotation: true, removalPolicy: RemovalPolicy.RETAIN });
  new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, kmsKey: key });
  return Template.fromStack(stack);
}
