import * as fsx from 'aws-cdk-lib/aws-fsx';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ClientMount } from '../../lib/client-mount';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { appStack, serverStack } from '../support/stacks';
import { fileSystemOf, policyStatementsWith, sdkCall, serverStackWithKey } from '../support/fsx-lustre-template';
import { Backend } from '../../lib/backend-enum';

// The FSx for Lustre options of the construct, and an EBS server and an FSx file system in one cluster.

describe('FSx for Lustre options of the construct', () => {
  test('a KMS key of your own on a persistent type; SCRATCH_2 takes none and has no backups', () => {
    const withKey = serverStackWithKey({ backend: Backend.FSX_LUSTRE, capacityTiB: 2 });
    expect(fileSystemOf(withKey.template)[0].Properties.KmsKeyId).toEqual({ Ref: expect.stringMatching(/^Key/) });
    const scratch = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 } }).template;
    const props = fileSystemOf(scratch)[0].Properties;
    expect(props.LustreConfiguration).toEqual({ DeploymentType: 'SCRATCH_2' });
    expect(props.StorageCapacity).toBe(2400);
    expect(() => serverStackWithKey({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 } }))
      .toThrow(/^kmsKey: SCRATCH_2 file systems are encrypted with FSx's own key and take no KMS key/);
  });

  test('snapshots.retain sets the backup retention (0 turns backups off; more than 90 days is refused: LUSTRE-BACKUP-RETENTION)', () => {
    const off = fileSystemOf(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, snapshots: { retain: 0 } }).template)[0];
    expect(off.Properties.LustreConfiguration).toEqual({ DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 125, AutomaticBackupRetentionDays: 0 });
    const thirty = fileSystemOf(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, snapshots: { retain: 30, startTimeUtc: '22:15' } }).template)[0];
    expect(thirty.Properties.LustreConfiguration).toMatchObject({ AutomaticBackupRetentionDays: 30, DailyAutomaticBackupStartTime: '22:15' });
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, snapshots: { retain: 91 } }))
      .toThrow('snapshots.retain is the automatic backup retention in days on FSx for Lustre: 0 (off) to 90, got 91.');
  });

  test('an S3 data repository: an association on PERSISTENT_2, import and export paths on the older types', () => {
    const p2 = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataRepositoryPath: 's3://hpc-inputs/run1' } }).template;
    p2.hasResourceProperties('AWS::FSx::DataRepositoryAssociation', {
      FileSystemPath: '/',
      DataRepositoryPath: 's3://hpc-inputs/run1',
      S3: { AutoImportPolicy: { Events: ['NEW', 'CHANGED', 'DELETED'] }, AutoExportPolicy: { Events: ['NEW', 'CHANGED', 'DELETED'] } },
    });
    const scratch = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2, dataRepositoryPath: 's3://hpc-inputs' } }).template;
    scratch.resourceCountIs('AWS::FSx::DataRepositoryAssociation', 0);
    expect(fileSystemOf(scratch)[0].Properties.LustreConfiguration).toMatchObject({
      ImportPath: 's3://hpc-inputs', ExportPath: 's3://hpc-inputs', AutoImportPolicy: 'NEW_CHANGED_DELETED',
    });
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataRepositoryPath: 'https://hpc-inputs' } }))
      .toThrow(/^fsxLustre\.dataRepositoryPath must be an S3 path s3:\/\/<bucket>\[\/<prefix>\] of at most 900 characters, got "https:\/\/hpc-inputs"/);
  });

  // FSx for Lustre guide, "Working with backups": backups are taken of "persistent file systems that are not linked to
  // an Amazon S3 durable data repository". A linked file system gets none, with a warning instead of the retention
  // asked for, since snapshots.retain defaults to 7 and a refusal would fail every linked file system.
  test.each<[string, Partial<StorageServerProps>]>([
    ['PERSISTENT_2 (an association)', {}],
    ['PERSISTENT_1 (import and export path)', { fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, dataRepositoryPath: 's3://hpc-inputs' } }],
  ])('a file system linked to an S3 data repository has no automatic backups, with a warning: %s', (_, extra) => {
    const { stack, template } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataRepositoryPath: 's3://hpc-inputs' }, ...extra });
    const config = fileSystemOf(template)[0].Properties.LustreConfiguration;
    expect(config.AutomaticBackupRetentionDays).toBe(0);
    expect(config.DailyAutomaticBackupStartTime).toBeUndefined();
    expect(config.CopyTagsToBackups).toBeUndefined();
    Annotations.fromStack(stack).hasWarning('/Test/Storage/FsxLustre', Match.stringLikeRegexp(
      '^snapshots.retain 7 is not applied: FSx for Lustre takes no backups of a file system linked to an S3 data repository \\(fsxLustre.dataRepositoryPath .*Set snapshots.retain: 0 to silence'));
  });

  test('the app: -c fsxDataRepositoryPath turns the default daily backups off (warned); snapshotRetain=0 says so and is not warned', () => {
    const linked = appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDataRepositoryPath: 's3://hpc-inputs', snapshotRetain: '30' });
    expect(fileSystemOf(Template.fromStack(linked))[0].Properties.LustreConfiguration.AutomaticBackupRetentionDays).toBe(0);
    Annotations.fromStack(linked).hasWarning('*', Match.stringLikeRegexp('^snapshotRetain 30 is not applied: .*\\(fsxDataRepositoryPath s3://hpc-inputs\\).*Set -c snapshotRetain=0 to silence'));
    const off = appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxDataRepositoryPath: 's3://hpc-inputs', snapshotRetain: '0' });
    expect(fileSystemOf(Template.fromStack(off))[0].Properties.LustreConfiguration.AutomaticBackupRetentionDays).toBe(0);
    Annotations.fromStack(off).hasNoWarning('*', Match.stringLikeRegexp('is not applied'));
    // Without a repository the same retention is kept, unwarned.
    const unlinked = appStack({ backend: 'fsx-lustre', capacityTiB: '2', snapshotRetain: '30' });
    expect(fileSystemOf(Template.fromStack(unlinked))[0].Properties.LustreConfiguration.AutomaticBackupRetentionDays).toBe(30);
    Annotations.fromStack(unlinked).hasNoWarning('*', Match.stringLikeRegexp('is not applied'));
  });

  // CloudFormation has no RootSquashConfiguration, as the resource specification in @aws-cdk/aws-service-spec lists
  // none. So a custom resource calls FSx UpdateFileSystem; FSx creates file systems with root squash off.
  test('root squash is on by default: UpdateFileSystem on create and update with 65534:65534, allowed on this file system only', () => {
    const { template: t } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2 });
    const [fsId, fs] = Object.entries(t.findResources('AWS::FSx::FileSystem'))[0];
    expect(fs.Properties.LustreConfiguration.RootSquashConfiguration).toBeUndefined();
    const [squash] = Object.values(t.findResources('Custom::FsxLustreRootSquash'));
    expect(Object.keys(t.findResources('Custom::FsxLustreRootSquash'))).toHaveLength(1);
    const call = {
      service: 'FSx',
      action: 'UpdateFileSystem',
      parameters: { FileSystemId: { Ref: fsId }, LustreConfiguration: { RootSquashConfiguration: { RootSquash: '65534:65534', NoSquashNids: [] } } },
      physicalResourceId: { id: { Ref: fsId } },
    };
    for (const phase of ['Create', 'Update']) expect(sdkCall(squash.Properties[phase])).toMatchObject(call);
    expect(squash.Properties.Delete).toBeUndefined();
    // The call may update this one file system, nothing else.
    const statements = policyStatementsWith(t, 'fsx:UpdateFileSystem');
    expect(statements).toEqual([{
      Action: 'fsx:UpdateFileSystem',
      Effect: 'Allow',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':fsx:us-east-1:123456789012:file-system/', { Ref: fsId }]] },
    }]);
  });

  test('root squash opt-out: fsxLustre.rootSquash false sends 0:0 (turns it off on a deployed file system too)', () => {
    const { template: t } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { rootSquash: false } });
    const [squash] = Object.values(t.findResources('Custom::FsxLustreRootSquash'));
    for (const phase of ['Create', 'Update']) {
      expect(sdkCall(squash.Properties[phase]).parameters.LustreConfiguration).toEqual({ RootSquashConfiguration: { RootSquash: '0:0' } });
    }
  });

  test('root squash from the app: on by default, -c fsxRootSquash=false turns it off, anything else is refused', () => {
    const squashOf = (ctx: Record<string, string>) =>
      sdkCall(Object.values(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '2', ...ctx }))
        .findResources('Custom::FsxLustreRootSquash'))[0].Properties.Create).parameters.LustreConfiguration.RootSquashConfiguration.RootSquash;
    expect(squashOf({})).toBe('65534:65534');
    expect(squashOf({ fsxRootSquash: 'true' })).toBe('65534:65534');
    expect(squashOf({ fsxRootSquash: 'false' })).toBe('0:0');
    expect(() => appStack({ backend: 'fsx-lustre', capacityTiB: '2', fsxRootSquash: 'no' })).toThrow(/fsxRootSquash.*'true' or 'false'/);
    expect(() => appStack({ backend: 'ebs', fsxRootSquash: 'false' })).toThrow(/fsxRootSquash.*only together with backend=fsx-lustre/);
  });

  test('noSquashNids: exempted clients are sent with root squash on; refused when malformed, too many, or with squash off', () => {
    const nids = ['10.0.1.6@tcp', '10.0.[2-10].[1-255]@tcp'];
    const { template: t } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { noSquashNids: nids } });
    const [squash] = Object.values(t.findResources('Custom::FsxLustreRootSquash'));
    expect(sdkCall(squash.Properties.Create).parameters.LustreConfiguration.RootSquashConfiguration)
      .toEqual({ RootSquash: '65534:65534', NoSquashNids: nids });
    const fsxWith = (fsxLustre: StorageServerProps['fsxLustre']) => () => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre });
    expect(fsxWith({ rootSquash: false, noSquashNids: ['10.0.1.6@tcp'] }))
      .toThrow(/^fsxLustre\.noSquashNids applies only with root squash on: leave it out, or set fsxLustre\.rootSquash to true/);
    expect(fsxWith({ noSquashNids: ['10.0.1.6'] }))
      .toThrow('fsxLustre.noSquashNids entries must be Lustre NIDs of 11-43 characters, an IPv4 address or a range with @tcp such as 10.0.1.6@tcp or 10.0.[2-10].[1-255]@tcp; got "10.0.1.6".');
    expect(fsxWith({ noSquashNids: ['host.example@tcp'] })).toThrow(/got "host\.example@tcp"/);
    expect(fsxWith({ noSquashNids: Array.from({ length: 65 }, (_, i) => `10.0.1.${i}@tcp`) }))
      .toThrow('fsxLustre.noSquashNids takes at most 64 NIDs, got 65.');
  });

  test('noSquashNids that exempt every client are refused: root squash off under another name', () => {
    const fsxWith = (noSquashNids: string[], clientCidrs?: string[]) => () =>
      serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, clientCidrs, fsxLustre: { noSquashNids } });
    expect(fsxWith(['[0-255].[0-255].[0-255].[0-255]@tcp']))
      .toThrow(/^fsxLustre\.noSquashNids exempts every client \(.*\) from root squash \(\[0-255\]\.\[0-255\]\.\[0-255\]\.\[0-255\]@tcp\): list only the hosts that need root, or turn root squash off openly with fsxLustre\.rootSquash false/);
    expect(fsxWith(['10.1.[0-255].[0-255]@tcp'], ['10.1.0.0/16'])).toThrow(/exempts every client \(10\.1\.0\.0\/16\)/);
    // Two client CIDRs, each covered by one NID.
    expect(fsxWith(['10.1.[0-255].[0-255]@tcp', '10.2.[0-3].[0-255]@tcp'], ['10.1.0.0/16', '10.2.0.0/22'])).toThrow(/exempts every client/);
    // Part of the clients: the exemption is what the setting is for.
    expect(fsxWith(['10.1.[0-255].[0-255]@tcp'], ['10.1.0.0/16', '10.2.0.0/22'])).not.toThrow();
    expect(fsxWith(['10.1.[0-127].[0-255]@tcp'], ['10.1.0.0/16'])).not.toThrow();
    expect(fsxWith(['10.1.0.6@tcp'], ['10.1.0.0/16'])).not.toThrow();
  });

  test('root squash turned off warns at synth, naming the setting', () => {
    const off = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { rootSquash: false } }).stack;
    Annotations.fromStack(off).hasWarning('*', Match.stringLikeRegexp('^fsxLustre\\.rootSquash is false: root on every client is root.*Set fsxLustre\\.rootSquash: true unless'));
    const on = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2 }).stack;
    Annotations.fromStack(on).hasNoWarning('*', Match.stringLikeRegexp('rootSquash'));
    const zfs = serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, fsxOpenZfs: { rootSquash: false } }).stack;
    Annotations.fromStack(zfs).hasWarning('*', Match.stringLikeRegexp('^fsxOpenZfs\\.rootSquash is false'));
    // The app names its context keys instead.
    const app = appStack({ backend: 'fsx-openzfs', capacityTiB: '1', openZfsRootSquash: 'false' });
    Annotations.fromStack(app).hasWarning('*', Match.stringLikeRegexp('^openZfsRootSquash is false: .*Set -c openZfsRootSquash=true unless'));
  });

  test('root squash is set after the S3 association (one change to the file system at a time)', () => {
    const { template: t } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataRepositoryPath: 's3://hpc-inputs' } });
    const [draId] = Object.keys(t.findResources('AWS::FSx::DataRepositoryAssociation'));
    const [squash] = Object.values(t.findResources('Custom::FsxLustreRootSquash'));
    expect(squash.DependsOn).toContain(draId);
  });

  test('two file systems in one stack: one AwsCustomResource function, whose role may update each of them', () => {
    const stack = new Stack(new App(), 'Cluster', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    for (const name of ['scratch', 'shared']) {
      new StorageServer(stack, name, { vpc, clusterName: 'hpc1', serverName: name, backend: Backend.FSX_LUSTRE, capacityTiB: 2, mountPoint: `/${name}` });
    }
    const t = Template.fromStack(stack);
    const functions = Object.entries(t.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith('AWS679f53fa'));
    expect(functions).toHaveLength(1);
    const role = functions[0][1].Properties.Role;
    const fileSystems = Object.keys(t.findResources('AWS::FSx::FileSystem'));
    const granted = Object.values(t.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes('fsx:UpdateFileSystem'))
      .map((p) => {
        expect(p.Properties.Roles).toEqual([{ Ref: role['Fn::GetAtt'][0] }]);
        return JSON.stringify(p.Properties.PolicyDocument.Statement[0].Resource).match(/"Ref":"([^"]+)"}\]\]}$/)![1];
      });
    expect(granted.sort()).toEqual(fileSystems.sort());
  });

  test.each<[string, Partial<StorageServerProps>, RegExp]>([
    ['an instance type', { instanceType: new ec2.InstanceType('m5.large') }, /^instanceType: this applies to the EC2 NFS server backends/],
    ['an export path and NFS settings', { exportPath: '/export/x', nfs: { threads: 8 } }, /^nfs, exportPath: these apply to the EC2 NFS server backends/],
    ['a snapshot interval other than daily', { snapshots: { intervalHours: 12 } }, /^snapshots\.intervalHours: FSx for Lustre backs up once a day; only 24 applies, got 12/],
    ['FSx options on an EBS plan', { backend: Backend.EBS, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1 } }, /^fsxLustre options apply to backend 'fsx-lustre' only; got backend 'ebs'/],
    ['a per-unit throughput the type does not offer', { fsxLustre: { perUnitStorageThroughput: 100 } }, /^fsxLustre\.perUnitStorageThroughput must be one of 125, 250, 500, 1000 \(MB\/s per TiB\) for PERSISTENT_2 SSD; got 100/],
  ])('%s is refused, naming the prop', (_, props, message) => {
    expect(() => serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, ...props })).toThrow(message);
  });

  test('mountOn(): the user data installs the Lustre client where it is missing and mounts <dns>@tcp:/<mountName>', () => {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const server = new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_LUSTRE, capacityTiB: 2 });
    const node = new ec2.Instance(stack, 'Node', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });
    server.mountOn(node);
    const userData = JSON.stringify(stack.resolve(node.userData.render()));
    expect(userData).toContain('dnf install -y -q lustre-client');
    expect(userData).toContain('lustre-client-modules-$(uname -r)');
    expect(userData).toMatch(/@tcp:\/.*\/data lustre relatime,flock,_netdev,nosuid,nodev 0 0 # storage-server:cluster\/storage1/);
    // Lustre's range, TCP 988-1023, from the node, as the CDK's LustreFileSystem connections open it.
    Template.fromStack(stack).hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: 988, ToPort: 1023, Description: 'Lustre from Test/Node',
    });
    // And Lustre to the node on AWS's ports, since the file servers' group allows nothing else out: LUSTRE-EGRESS.
    const toNode = Object.values(Template.fromStack(stack).findResources('AWS::EC2::SecurityGroupEgress'))
      .filter((r) => r.Properties.Description === 'Lustre to Test/Node').map((r) => `${r.Properties.FromPort}-${r.Properties.ToPort}`);
    expect(toNode.sort()).toEqual(['1018-1023', '988-988']);
  });
});

describe('home and scratch: an EBS server and an FSx file system in one cluster', () => {
  function homeAndScratch(scratchMount = '/scratch'): { stack: Stack; template: Template } {
    const stack = new Stack(new App(), 'Cluster', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    new StorageServer(stack, 'Home', { vpc, clusterName: 'hpc1', serverName: 'home', capacityTiB: 2, mountPoint: '/home', allowHomeMountPoint: true });
    new StorageServer(stack, 'Scratch', { vpc, clusterName: 'hpc1', serverName: 'scratch', backend: Backend.FSX_LUSTRE, capacityTiB: 12, mountPoint: scratchMount, allowHomeMountPoint: true, fsxLustre: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 } });
    new ClientMount(stack, 'ClientMount', { clusterName: 'hpc1', allowedServerCidrs: [vpc.vpcCidrBlock], allowHomeMountPoint: true });
    return { stack, template: Template.fromStack(stack) };
  }

  test('two registrations with distinct mount points, one association, one snapshot policy and one set of FSx backups', () => {
    const { template: t } = homeAndScratch();
    const registrations = Object.values(t.findResources('Custom::StorageServerRegistration')).map((r) => r.Properties);
    expect(registrations.map((r) => [r.ServerName, r.Backend, r.MountPoint])).toEqual([
      ['home', 'ebs', '/home'],
      ['scratch', 'fsx-lustre', '/scratch'],
    ]);
    // The home server's settings association, the cluster's client mount, and the scratch file system's quotas.
    t.resourceCountIs('AWS::SSM::Association', 3);
    t.resourcePropertiesCountIs('AWS::SSM::Association', { AssociationName: 'storage-server-mount-hpc1', Targets: [{ Key: 'tag:cluster', Values: ['hpc1'] }] }, 1);
    t.resourceCountIs('AWS::DLM::LifecyclePolicy', 1);
    t.resourceCountIs('AWS::FSx::FileSystem', 1);
    t.resourceCountIs('Custom::StorageServerUpdateGuard', 2);
  });

  test('the same mount point, or a second association for the cluster, is refused at synth', () => {
    expect(() => homeAndScratch('/home')).toThrow(/^mountPoint '\/home' is taken in cluster 'hpc1' by Cluster\/Home/);
    const { stack } = homeAndScratch();
    const vpc = stack.node.findChild('Vpc') as ec2.Vpc;
    expect(() => new ClientMount(stack, 'ClientMount2', { clusterName: 'hpc1', allowedServerCidrs: [vpc.vpcCidrBlock] }))
      .toThrow(/^clusterName 'hpc1' already has a client-mount association in this app \(Cluster\/ClientMount\)/);
  });

  test('the app deploys a second server into the same cluster without a second association (-c clientMount=false)', () => {
    const second = Template.fromStack(appStack({ serverName: 'scratch', backend: 'fsx-lustre', capacityTiB: '12', mountPoint: '/scratch', clientMount: 'false' }));
    // Its one association sets its quotas on the nodes; its documents are its cluster benchmark's, its copy's and its
    // quotas', no client mount document.
    expect(Object.values(second.findResources('AWS::SSM::Association')).map((a) => JSON.stringify(a.Properties.Name)))
      .toEqual([expect.stringMatching(/QuotasDocument/)]);
    expect(Object.values(second.findResources('AWS::SSM::Document')).map((d) => d.Properties.Content.mainSteps[0].name))
      .toEqual(['lustreQuota', 'clusterBench', 'storageCopy']);
    second.resourceCountIs('Custom::StorageServerRegistration', 1);
    expect(second.toJSON().Outputs.ClientMountDocumentName).toBeUndefined();
  });
});
