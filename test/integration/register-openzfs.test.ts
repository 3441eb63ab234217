/**
 * The registration handler against moto for FSx for OpenZFS, backend `fsx-openzfs`: a file system registered by its id
 * and DNS name, as FSx for Lustre is, whose mount config is NFS, `nfs4`, with the DNS name as the server.
 */
import { registerAgainstMoto } from '../support/register-moto';
import { OTHER_STACK_ID, STACK_ID, createEvent, deleteEvent, from, ownerMark, props, updateEvent } from './fixtures';
import { recordProblems } from '../support/record-schema';

const rig = registerAgainstMoto('zfs', { launch: false });
const { freshPrefix, value, namesUnder } = rig;

const FS_ID = 'fs-0123456789abcdef0';
const DNS = `${FS_ID}.fsx.us-east-1.amazonaws.com`;
const ZFS_OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev,nosuid,nodev';

/** The ResourceProperties the construct passes for an FSx for OpenZFS file system: no InstanceId, and MountName ''. */
function zfsProps(prefix: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const p: Record<string, string | undefined> = {
    ...props('', { ParameterPrefix: prefix, ServerName: 'shared', MountPoint: '/shared', Backend: 'fsx-openzfs' }),
    FileSystemId: FS_ID,
    DnsName: DNS,
    MountName: '',
    AvailabilityZone: 'us-east-1a',
    Deployment: 'SINGLE_AZ_1/64',
    ExportPath: '/fsx',
    MountOptions: ZFS_OPTIONS,
    ...overrides,
  };
  delete p.InstanceId;
  for (const key of Object.keys(p)) if (p[key] === undefined) delete p[key];
  return p as Record<string, string>;
}

describe('FSx for OpenZFS (Backend fsx-openzfs): a file system mounted over NFS by its DNS name', () => {
  test('Create writes a ring record with fileSystemId and an nfs4 mount config whose server is the DNS name, without calling EC2', async () => {
    const prefix = freshPrefix();
    const result = await rig.handler(createEvent(zfsProps(prefix)));
    const ring = `${prefix}/hpc1/ring/shared`;
    const mount = `${prefix}/hpc1/storage/shared/mount`;
    expect(result).toEqual({ PhysicalResourceId: ring, Data: { RingParameterName: ring, MountParameterName: mount, PrivateIp: '' } });
    expect(recordProblems('ringRecord', await value(ring))).toEqual([]);
    expect(recordProblems('mountRecord', await value(mount))).toEqual([]);
    expect(await value(ring)).toEqual({
      name: 'shared',
      role: 'storage',
      fileSystemId: FS_ID,
      privateIp: '',
      privateDnsName: DNS,
      availabilityZone: 'us-east-1a',
      instanceType: 'SINGLE_AZ_1/64',
      backend: 'fsx-openzfs',
      registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      owner: ownerMark('ring', 'hpc1', 'shared'),
    });
    expect(await value(mount)).toEqual({
      server: DNS,
      exportPath: '/fsx',
      mountPoint: '/shared',
      fsType: 'nfs4',
      options: ZFS_OPTIONS,
      fstab: `${DNS}:/fsx /shared nfs4 ${ZFS_OPTIONS} 0 0`,
      backend: 'fsx-openzfs',
      owner: ownerMark('mount', 'hpc1', 'shared'),
    });
    expect(rig.stdout.lines().map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ msg: 'registering FSx file system', backend: 'fsx-openzfs', fileSystemId: FS_ID }),
      expect.objectContaining({ msg: 'registered FSx file system', backend: 'fsx-openzfs', fsType: 'nfs4', dnsName: DNS }),
    ]);
  });

  test('an absent MountName is as empty; Multi-AZ and a child volume are registered too', async () => {
    const prefix = freshPrefix();
    await rig.handler(createEvent(zfsProps(prefix, { MountName: undefined, Deployment: 'MULTI_AZ_1/160', ExportPath: '/fsx/home', AvailabilityZone: undefined })));
    expect(await value(`${prefix}/hpc1/ring/shared`)).toMatchObject({ instanceType: 'MULTI_AZ_1/160', availabilityZone: '' });
    expect(await value(`${prefix}/hpc1/storage/shared/mount`)).toMatchObject({ exportPath: '/fsx/home', fstab: `${DNS}:/fsx/home /shared nfs4 ${ZFS_OPTIONS} 0 0` });
  });

  test('an Update to a replacement file system re-registers; Delete removes the records its resource wrote', async () => {
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/shared`;
    const created = await rig.handler(createEvent(zfsProps(prefix)));
    const other = zfsProps(prefix, { FileSystemId: 'fs-0fedcba9876543210', DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' });
    await rig.handler(updateEvent(String(created.PhysicalResourceId), other, zfsProps(prefix)));
    expect(await value(`${prefix}/hpc1/storage/shared/mount`)).toMatchObject({ server: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' });
    // A Delete by another resource of the stack, as when the construct moved and its old resource was deleted, leaves
    // them; the registration's own Delete removes them.
    await rig.handler(from(deleteEvent(ring, zfsProps(prefix)), STACK_ID, 'OldRegistration'));
    expect(await namesUnder(`${prefix}/`)).toEqual([ring, `${prefix}/hpc1/storage/shared/mount`]);
    await rig.handler(deleteEvent(ring, other));
    // Its tombstone alone is left, for the clients: register-tombstone.test.ts.
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/removed/shared`]);
  });

  test.each([
    ['a mount name (FSx for OpenZFS has none)', { MountName: 'abcdefgh' }, /^ResourceProperties\.MountName must be '' for fsx-openzfs \(FSx for OpenZFS has no mount name\), got "abcdefgh"$/],
    ['a DNS name of another file system', { DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' }, /^ResourceProperties\.DnsName must be the file system's DNS name \(fs-0123456789abcdef0\.fsx\.<region>\.amazonaws\.com\), got/],
    ['an IP address for the DNS name', { DnsName: '10.0.0.5' }, /^ResourceProperties\.DnsName must be the file system's DNS name/],
    ['a DNS name outside amazonaws.com', { DnsName: `${FS_ID}.fsx.us-east-1.evil.example` }, /^ResourceProperties\.DnsName must be/],
    ['a missing DnsName', { DnsName: undefined }, /^ResourceProperties is missing DnsName;/],
    ['a Lustre deployment', { Deployment: 'PERSISTENT_2/SSD/125' }, /^ResourceProperties\.Deployment must be a deployment such as 'SINGLE_AZ_1\/64' \(SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2 or MULTI_AZ_1 \/ throughput capacity, MB\/s\) for fsx-openzfs, got "PERSISTENT_2\/SSD\/125"$/],
    ['an export path outside /fsx', { ExportPath: '/export/data' }, /^ResourceProperties\.ExportPath must be '\/fsx' \(the root volume\) or a volume path below it for FSx for OpenZFS, got "\/export\/data"$/],
    ['an export path that only starts like /fsx', { ExportPath: '/fsxdata' }, /^ResourceProperties\.ExportPath must be '\/fsx'/],
    ['a .. segment below /fsx', { ExportPath: '/fsx/../etc' }, /^ResourceProperties\.ExportPath must be '\/fsx'/],
    ['a . segment below /fsx', { ExportPath: '/fsx/./home' }, /^ResourceProperties\.ExportPath must be '\/fsx'/],
    ['an instance id in place of the file system id', { FileSystemId: 'i-0123456789abcdef0' }, /^ResourceProperties\.FileSystemId must be an FSx file system id/],
  ])('%s is refused and nothing is written', async (_, overrides, message) => {
    const prefix = freshPrefix();
    await expect(rig.handler(createEvent(zfsProps(prefix, overrides)))).rejects.toThrow(message);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });

  test('an OpenZFS file system cannot take over the name of a Lustre one', async () => {
    const prefix = freshPrefix();
    const lustre = {
      ...zfsProps(prefix, { Backend: 'fsx-lustre', FileSystemId: 'fs-0fedcba9876543210', DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' }),
      MountName: 'abcdefgh', ExportPath: '/abcdefgh', Deployment: 'PERSISTENT_2/SSD/125', MountOptions: 'relatime,flock,_netdev,nosuid,nodev',
    };
    await rig.handler(from(createEvent(lustre), OTHER_STACK_ID));
    await expect(rig.handler(createEvent(zfsProps(prefix)))).rejects.toThrow(
      `${prefix}/hpc1/ring/shared belongs to Registration of stack ${OTHER_STACK_ID}`,
    );
    expect(await value(`${prefix}/hpc1/storage/shared/mount`)).toMatchObject({ fsType: 'lustre' });
  });
});
