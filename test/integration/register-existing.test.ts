/**
 * The registration handler against moto, by test/support/register-moto.ts: storage that exists already. An EFS file
 * system is described for real (moto's EFS has mount targets in subnets and their security groups, and its EC2 the
 * groups' rules), refused when its mount targets are in another VPC or their groups do not admit the clients on TCP
 * 2049 (EFS-MOUNT-TARGET-ACCESS), and otherwise registered; an NFS server is registered by its address. The records
 * written go through the client's own checker. FSx's answers lack a VPC and interfaces in moto: the FSx cases are
 * test/unit/existing-storage-check.test.ts's, from recorded answers; here an FSx id moto holds is refused for that.
 */
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateManagedPrefixListCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
} from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, CreateMountTargetCommand, EFSClient } from '@aws-sdk/client-efs';
import { CreateFileSystemCommand as CreateFsxCommand, FSxClient } from '@aws-sdk/client-fsx';
import { registerAgainstMoto } from '../support/register-moto';
import { askClientChecker } from '../support/client-record-check';
import { createEvent, deleteEvent, ownerMark, props } from './fixtures';

const rig = registerAgainstMoto('existing', { launch: false });
const { freshPrefix, value, namesUnder } = rig;

/** A VPC of 10.30.0.0/16 with one subnet, and a security group in it that admits `cidr` on TCP `port`, if given. */
async function network(cidr?: string, port = 2049): Promise<{ vpcId: string; subnetId: string; groupId: string }> {
  const vpc = await rig.ec2.send(new CreateVpcCommand({ CidrBlock: '10.30.0.0/16' }));
  const vpcId = vpc.Vpc?.VpcId ?? '';
  const subnet = await rig.ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.30.1.0/24', AvailabilityZone: 'us-east-1a' }));
  const group = await rig.ec2.send(new CreateSecurityGroupCommand({ VpcId: vpcId, GroupName: `efs-${Math.random()}`, Description: 'EFS mount targets' }));
  const groupId = group.GroupId ?? '';
  if (cidr !== undefined) {
    await rig.ec2.send(new AuthorizeSecurityGroupIngressCommand({
      GroupId: groupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: port, ToPort: port, IpRanges: [{ CidrIp: cidr }] }],
    }));
  }
  return { vpcId, subnetId: subnet.Subnet?.SubnetId ?? '', groupId };
}

/** An EFS file system with one mount target in `subnetId`, in `groupId`. */
async function efsIn(subnetId: string, groupId: string): Promise<string> {
  const efs = new EFSClient({});
  const fs = await efs.send(new CreateFileSystemCommand({ CreationToken: `existing-${Math.random()}`, Encrypted: true }));
  await efs.send(new CreateMountTargetCommand({ FileSystemId: fs.FileSystemId, SubnetId: subnetId, SecurityGroups: [groupId] }));
  return fs.FileSystemId ?? '';
}

const EFS_OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev';

function existingProps(prefix: string, overrides: Record<string, unknown>): Record<string, unknown> {
  const p: Record<string, unknown> = {
    ...props('', { ParameterPrefix: prefix, ServerName: 'archive', MountPoint: '/shared/archive', ExportPath: '/', MountOptions: EFS_OPTIONS }),
    ...overrides,
  };
  delete p.InstanceId;
  return p;
}

describe('an existing EFS file system (Backend efs)', () => {
  test('that admits the clients is registered by its DNS name, and the client admits its record', async () => {
    const { vpcId, subnetId, groupId } = await network('10.30.0.0/16');
    const fileSystemId = await efsIn(subnetId, groupId);
    const prefix = freshPrefix();
    await rig.handler(createEvent(existingProps(prefix, { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24' }) as never));
    const dnsName = `${fileSystemId}.efs.us-east-1.amazonaws.com`;
    expect(await value(`${prefix}/hpc1/ring/archive`)).toEqual({
      name: 'archive', role: 'storage', fileSystemId, privateIp: '', privateDnsName: dnsName, availabilityZone: '',
      instanceType: 'generalPurpose/bursting', backend: 'efs', registeredAt: expect.stringMatching(/^\d{4}-/), owner: ownerMark('ring', 'hpc1', 'archive'),
    });
    const mount = await value(`${prefix}/hpc1/storage/archive/mount`) as { server: string; exportPath: string; mountPoint: string; fsType: string; options: string; backend: string };
    expect(mount).toMatchObject({ server: dnsName, exportPath: '/', fsType: 'nfs4', backend: 'efs', fstab: `${dnsName}:/ /shared/archive nfs4 ${EFS_OPTIONS} 0 0` });
    expect(askClientChecker([{ record: mount, roots: ['/shared'] }]).answers).toEqual([null]);
  });

  test('over TLS (options with tls, as ExistingStorageSource.efs with tls writes) is fsType efs, EFS-TLS-TYPE, and the client admits it', async () => {
    const { vpcId, subnetId, groupId } = await network('10.30.0.0/16');
    const fileSystemId = await efsIn(subnetId, groupId);
    const prefix = freshPrefix();
    const options = `tls,${EFS_OPTIONS}`;
    await rig.handler(createEvent(existingProps(prefix, {
      Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24', MountOptions: options,
    }) as never));
    const dnsName = `${fileSystemId}.efs.us-east-1.amazonaws.com`;
    const mount = await value(`${prefix}/hpc1/storage/archive/mount`) as { server: string; exportPath: string; mountPoint: string; fsType: string; options: string; backend: string };
    expect(mount).toMatchObject({ server: dnsName, exportPath: '/', fsType: 'efs', backend: 'efs', options, fstab: `${dnsName}:/ /shared/archive efs ${options} 0 0` });
    expect(askClientChecker([{ record: mount, roots: ['/shared'] }, { record: { ...mount, fsType: 'nfs4' }, roots: ['/shared'] }]).answers)
      .toEqual([null, 'options: "tls" is not an allowed mount option']);
  });

  test('whose mount target group does not admit the clients on TCP 2049 is refused, naming both, and writes nothing', async () => {
    const { vpcId, subnetId, groupId } = await network('10.30.0.0/16', 111);
    const fileSystemId = await efsIn(subnetId, groupId);
    const prefix = freshPrefix();
    const event = createEvent(existingProps(prefix, { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24' }) as never);
    await expect(rig.handler(event)).rejects.toThrow(
      new RegExp(`EFS file system ${fileSystemId} cannot join the cluster's records: the security groups of mount target fsmt-[0-9a-f]+ of ` +
        `${fileSystemId} \\(${groupId}\\) do not admit 10\\.30\\.1\\.0/24 on TCP 2049: add ingress rules from the clients on TCP 2049`),
    );
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });

  test('with no mount target in the cluster\'s VPC is refused, naming the VPCs it has them in', async () => {
    const theirs = await network('10.30.0.0/16');
    const ours = await network();
    const fileSystemId = await efsIn(theirs.subnetId, theirs.groupId);
    const prefix = freshPrefix();
    const event = createEvent(existingProps(prefix, { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: ours.vpcId, ClientCidrs: '10.30.1.0/24' }) as never);
    await expect(rig.handler(event)).rejects.toThrow(`it has no mount target in the cluster's ${ours.vpcId} (its mount targets are in ${theirs.vpcId})`);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });

  test('EFS-MOUNT-TARGET-ZONES: clients in a subnet of a zone without a mount target are refused, naming it', async () => {
    const { vpcId, subnetId, groupId } = await network('10.30.0.0/16');
    const other = await rig.ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.30.2.0/24', AvailabilityZone: 'us-east-1b' }));
    const fileSystemId = await efsIn(subnetId, groupId);
    const prefix = freshPrefix();
    const event = createEvent(existingProps(prefix, { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.0.0/16' }) as never);
    await expect(rig.handler(event)).rejects.toThrow(new RegExp(`the clients' subnets ${other.Subnet?.SubnetId} are in us-east-1b: add a mount target in us-east-1b`));
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });

  test('a mount target group that admits the clients by a prefix list is read through its entries', async () => {
    const { vpcId, subnetId, groupId } = await network();
    const list = await rig.ec2.send(new CreateManagedPrefixListCommand({
      PrefixListName: `clients-${Math.random()}`, AddressFamily: 'IPv4', MaxEntries: 5, Entries: [{ Cidr: '10.30.0.0/16' }],
    }));
    await rig.ec2.send(new AuthorizeSecurityGroupIngressCommand({
      GroupId: groupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 2049, ToPort: 2049, PrefixListIds: [{ PrefixListId: list.PrefixList?.PrefixListId }] }],
    }));
    const fileSystemId = await efsIn(subnetId, groupId);
    const event = createEvent(existingProps(freshPrefix(), { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24' }) as never);
    await expect(rig.handler(event)).resolves.toMatchObject({ Data: expect.objectContaining({ MountParameterName: expect.stringMatching(/\/archive\/mount$/) }) });
  });

  test('an id EFS does not know is refused, naming the Region', async () => {
    const { vpcId } = await network();
    const event = createEvent(existingProps(freshPrefix(), { Backend: 'efs', ExistingFileSystemId: 'fs-0123456789abcdef0', VpcId: vpcId, ClientCidrs: '10.30.1.0/24' }) as never);
    await expect(rig.handler(event)).rejects.toThrow('EFS file system fs-0123456789abcdef0 does not exist in us-east-1');
  });

  test('Delete removes the records it wrote, and leaves its tombstone', async () => {
    const { vpcId, subnetId, groupId } = await network('10.30.0.0/16');
    const fileSystemId = await efsIn(subnetId, groupId);
    const prefix = freshPrefix();
    const p = existingProps(prefix, { Backend: 'efs', ExistingFileSystemId: fileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24' });
    const created = await rig.handler(createEvent(p as never));
    await rig.handler(deleteEvent(created.PhysicalResourceId ?? '', p as never));
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/removed/archive`]);
  });
});

describe('an existing NFS server (Backend nfs)', () => {
  test('is registered by its address alone, and the client admits its record', async () => {
    const prefix = freshPrefix();
    const options = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev,nosuid,nodev';
    const result = await rig.handler(createEvent(existingProps(prefix, { Backend: 'nfs', ExistingAddress: '10.30.5.20', ExportPath: '/export/home', MountOptions: options }) as never));
    expect(result.Data).toMatchObject({ PrivateIp: '10.30.5.20' });
    expect(await value(`${prefix}/hpc1/ring/archive`)).toEqual({
      name: 'archive', role: 'storage', privateIp: '10.30.5.20', privateDnsName: '', availabilityZone: '', instanceType: '',
      backend: 'nfs', registeredAt: expect.stringMatching(/^\d{4}-/), owner: ownerMark('ring', 'hpc1', 'archive'),
    });
    const mount = await value(`${prefix}/hpc1/storage/archive/mount`) as { server: string; exportPath: string; mountPoint: string; fsType: string; options: string; backend: string };
    expect(mount).toMatchObject({ server: '10.30.5.20', exportPath: '/export/home', backend: 'nfs' });
    expect(askClientChecker([{ record: mount, roots: ['/shared'] }]).answers).toEqual([null]);
  });
});

describe('values resolved at deploy (tokens at synth) meet the nodes\' rules before anything is described or written', () => {
  const NFS_OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev,nosuid,nodev';
  test.each([
    ['a system directory as mount point', { Backend: 'nfs', ExportPath: '/export/home', MountPoint: '/etc' }, /ResourceProperties\.MountPoint "\/etc": .*system director/],
    ['soft, off the allowlist', { Backend: 'nfs', ExportPath: '/export/home', MountOptions: `${NFS_OPTIONS},soft` }, /ResourceProperties\.MountOptions ".*soft.*": /],
    ['an NFS export of /', { Backend: 'nfs', ExportPath: '/' }, /ResourceProperties\.ExportPath "\/": export "\/" is /],
    ['an EFS directory with ..', { Backend: 'efs', ExistingFileSystemId: 'fs-0123456789abcdef0', VpcId: 'vpc-0123456789abcdef0', ClientCidrs: '10.30.1.0/24', ExportPath: '/a/../b' }, /ResourceProperties\.ExportPath "\/a\/\.\.\/b": directory/],
    ['an OpenZFS volume outside /fsx', { Backend: 'fsx-openzfs', ExistingFileSystemId: 'fs-0123456789abcdef0', VpcId: 'vpc-0123456789abcdef0', ClientCidrs: '10.30.1.0/24', ExportPath: '/etc' }, /ResourceProperties\.ExportPath "\/etc": path "\/etc" is not '\/fsx'/],
  ])('%s is refused, naming the property', async (_what, overrides, message) => {
    const prefix = freshPrefix();
    const p = existingProps(prefix, { ExistingAddress: '10.30.5.20', MountOptions: NFS_OPTIONS, ...overrides });
    if (overrides.Backend !== 'nfs') delete p.ExistingAddress;
    await expect(rig.handler(createEvent(p as never))).rejects.toThrow(message);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });
});

describe('an existing FSx file system, as moto answers for it', () => {
  test('is refused, since moto names no VPC of it: the FSx checks run on recorded answers in the unit test', async () => {
    const { vpcId, subnetId } = await network();
    const fsx = new FSxClient({});
    const fs = await fsx.send(new CreateFsxCommand({ FileSystemType: 'LUSTRE', StorageCapacity: 1200, SubnetIds: [subnetId] }));
    const prefix = freshPrefix();
    const event = createEvent(existingProps(prefix, { Backend: 'fsx-lustre', ExistingFileSystemId: fs.FileSystem?.FileSystemId, VpcId: vpcId, ClientCidrs: '10.30.1.0/24', MountOptions: 'relatime,flock,_netdev' }) as never);
    await expect(rig.handler(event)).rejects.toThrow(/cannot join the cluster's records: .*it is in no VPC, not the cluster's vpc-/);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });
});
