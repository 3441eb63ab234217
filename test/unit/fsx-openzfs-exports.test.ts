import { fullDiff } from '@aws-cdk/cloudformation-diff';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { StorageServer } from '../../lib/storage-server';
import { appStack, serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';

// FSx for OpenZFS's NFS exports. The template's root volume export is a constant, the VPC's CIDR, root squashed, since
// CloudFormation replaces the file system on any change of RootVolumeConfiguration. A custom resource applies the
// clients' export by calling FSx UpdateVolume and awaiting it, after the guard and before the registration; its handler
// is lambda/openzfs-export, tested in test/unit/openzfs-export.test.ts. So a change of clientCidrs,
// allowPublicClientCidrs or openZfsRootSquash updates the export in place and keeps the data.

const ACCEPTANCE = { backend: 'fsx-openzfs', capacityTiB: '4', throughputMBps: '1000' } as const;
const EXPORT = 'Custom::FsxOpenZfsExport';
const SQUASH = ['rw', 'crossmnt', 'root_squash'];
const VPC_CIDR = { 'Fn::GetAtt': [expect.stringMatching(/^Vpc/), 'CidrBlock'] };

const fileSystemOf = (t: Template) => Object.entries(t.findResources('AWS::FSx::FileSystem'))[0];
const exportOf = (t: Template) => {
  const found = Object.entries(t.findResources(EXPORT));
  expect(found).toHaveLength(1);
  return found[0];
};
/** The clients the export resource asks UpdateVolume for, on create and on every update alike. */
const clientsOf = (t: Template) => exportOf(t)[1].Properties.ClientConfigurations;

describe('FSx for OpenZFS: a constant export in the template, the clients\' export by UpdateVolume', () => {
  test('the template exports the root volume to the VPC\'s CIDR only, rw, crossmnt, root_squash, whatever the clients', () => {
    for (const context of [{}, { clientCidrs: '10.0.0.0/16,10.1.0.0/24' }, { openZfsRootSquash: 'false' }]) {
      const [, fs] = fileSystemOf(Template.fromStack(appStack({ ...ACCEPTANCE, ...context })));
      expect(fs.Properties.OpenZFSConfiguration.RootVolumeConfiguration.NfsExports)
        .toEqual([{ ClientConfigurations: [{ Clients: VPC_CIDR, Options: SQUASH }] }]);
    }
  });

  test('the export resource names the root volume and the clients: each client CIDR with root_squash', () => {
    const t = Template.fromStack(appStack({ ...ACCEPTANCE, clientCidrs: '10.0.0.0/16,10.1.0.0/24' }));
    const [fsId] = fileSystemOf(t);
    const [, resource] = exportOf(t);
    expect(resource.Properties).toEqual({
      ServiceToken: expect.anything(),
      VolumeId: { 'Fn::GetAtt': [fsId, 'RootVolumeId'] },
      ClientConfigurations: [{ Clients: '10.0.0.0/16', Options: SQUASH }, { Clients: '10.1.0.0/24', Options: SQUASH }],
    });
    // Without clientCidrs: the VPC's CIDR, as the EC2 server's export.
    expect(clientsOf(Template.fromStack(appStack(ACCEPTANCE)))).toEqual([{ Clients: VPC_CIDR, Options: SQUASH }]);
  });

  test('root squash off: no_root_squash, from the prop and from -c openZfsRootSquash=false', () => {
    const off = ['rw', 'crossmnt', 'no_root_squash'];
    expect(clientsOf(serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, fsxOpenZfs: { rootSquash: false } }).template))
      .toEqual([{ Clients: VPC_CIDR, Options: off }]);
    expect(clientsOf(Template.fromStack(appStack({ ...ACCEPTANCE, openZfsRootSquash: 'false', clientCidrs: '10.0.0.0/16' }))))
      .toEqual([{ Clients: '10.0.0.0/16', Options: off }]);
  });

  test('clientPeers without clientCidrs: the export lists the VPC CIDR (the security group admits only the peer)', () => {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    new StorageServer(stack, 'Storage', { vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, clientPeers: [new ec2.SecurityGroup(stack, 'Clients', { vpc })] });
    expect(clientsOf(Template.fromStack(stack))).toEqual([{ Clients: VPC_CIDR, Options: SQUASH }]);
  });

  test('the export is applied after the guard, and the registration waits for it', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    const [exportId, resource] = exportOf(t);
    const [guardId] = Object.keys(t.findResources('Custom::StorageServerUpdateGuard'));
    expect(resource.DependsOn).toContain(guardId);
    const [registration] = Object.values(t.findResources('Custom::StorageServerRegistration'));
    expect(registration.DependsOn).toContain(exportId);
  });

  test('fsx:UpdateVolume on this root volume only (volume/<file system id>/<volume id>), fsx:DescribeVolumes to await it', () => {
    const t = Template.fromStack(appStack(ACCEPTANCE));
    const [fsId] = fileSystemOf(t);
    const policies = Object.entries(t.findResources('AWS::IAM::Policy'));
    const statements = policies.filter(([p]) => p.startsWith('StorageServerOpenZfsExportProviderPolicy'))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    expect(statements.map((s) => s.Action)).toEqual(['fsx:DescribeVolumes', 'logs:CreateLogStream,logs:PutLogEvents'.split(','), 'fsx:UpdateVolume']);
    expect(statements[0].Resource).toBe('*');
    // No other policy of the stack grants UpdateVolume.
    expect(policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .filter((s) => [s.Action].flat().includes('fsx:UpdateVolume'))).toHaveLength(1);
    expect(statements[2].Resource).toEqual({ 'Fn::Join': ['', [
      'arn:', { Ref: 'AWS::Partition' }, ':fsx:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':volume/', { Ref: fsId }, '/', { 'Fn::GetAtt': [fsId, 'RootVolumeId'] },
    ]] });
  });

  test('with an FSx for Lustre server in the same stack: root squash by the AwsCustomResource function, the export by its own', () => {
    const stack = new Stack(new App(), 'Cluster', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    // OpenZFS first: its role is the function's, which Lustre's root squash then shares.
    new StorageServer(stack, 'home', { vpc, clusterName: 'hpc1', serverName: 'home', backend: Backend.FSX_OPENZFS, capacityTiB: 1, mountPoint: '/shared' });
    new StorageServer(stack, 'scratch', { vpc, clusterName: 'hpc1', serverName: 'scratch', backend: Backend.FSX_LUSTRE, capacityTiB: 2, mountPoint: '/scratch' });
    const t = Template.fromStack(stack);
    const functions = Object.values(t.findResources('AWS::Lambda::Function')).filter((f) => JSON.stringify(f).includes('FsxRootSquashRole'));
    expect(functions).toHaveLength(1);
    const role = functions[0].Properties.Role['Fn::GetAtt'][0];
    const squash = Object.values(t.findResources('AWS::IAM::Policy')).filter((p) => /fsx:UpdateFileSystem/.test(JSON.stringify(p.Properties.PolicyDocument)));
    expect(squash.map((p) => p.Properties.Roles)).toEqual([[{ Ref: role }]]);
    // The export's UpdateVolume is not the AwsCustomResource role's.
    expect(JSON.stringify(Object.values(t.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: role }]))))
      .not.toContain('fsx:UpdateVolume');
  });

  test('day 2: a new client CIDR, public CIDRs or root squash off leave the file system byte-identical; only the export changes', () => {
    const before = Template.fromStack(appStack({ ...ACCEPTANCE, clientCidrs: '10.0.0.0/17' })).toJSON();
    for (const change of [
      { clientCidrs: '10.0.0.0/17,10.0.128.0/17' },
      { clientCidrs: '11.0.1.0/24', allowPublicClientCidrs: 'true' },
      { clientCidrs: '10.0.0.0/17', openZfsRootSquash: 'false' },
    ]) {
      const after = Template.fromStack(appStack({ ...ACCEPTANCE, ...change })).toJSON();
      const [fsId] = Object.keys(before.Resources).filter((id) => before.Resources[id].Type === 'AWS::FSx::FileSystem');
      expect(JSON.stringify(after.Resources[fsId])).toBe(JSON.stringify(before.Resources[fsId]));
      const changed: string[] = [];
      fullDiff(before, after).resources.forEachDifference((id, d) => { if (d.isDifferent) changed.push(`${id} ${d.newResourceType}`); });
      expect(changed).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(` ${EXPORT}$`))]));
      expect(changed.filter((c) => c.endsWith('AWS::FSx::FileSystem'))).toEqual([]);
      // What else a client CIDR touches: the security group's ingress, updated in place, and the guard's record.
      for (const c of changed) expect(c).toMatch(new RegExp(` (${EXPORT}|AWS::EC2::SecurityGroup|Custom::StorageServerUpdateGuard)$`));
    }
  });
});
