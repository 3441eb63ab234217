/**
 * The registration handler against moto, by test/support/register-moto.ts: an FSx for Lustre file system registered.
 */
import { registerAgainstMoto } from '../support/register-moto';
import { OTHER_STACK_ID, createEvent, deleteEvent, from, ownerMark, props } from './fixtures';

const rig = registerAgainstMoto('lustre');
const { freshPrefix, value, namesUnder, removeRecords } = rig;

describe('FSx for Lustre (Backend fsx-lustre): a file system instead of an instance', () => {
  const FS_ID = 'fs-0123456789abcdef0';
  const fsxProps = (prefix: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => {
    const p: Record<string, unknown> = {
      ...props('', { ParameterPrefix: prefix, ServerName: 'scratch', MountPoint: '/scratch', Backend: 'fsx-lustre' }),
      FileSystemId: FS_ID,
      DnsName: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      MountName: 'abcdefgh',
      AvailabilityZone: 'us-east-1a',
      Deployment: 'PERSISTENT_2/SSD/125',
      ExportPath: '/abcdefgh',
      MountOptions: 'relatime,flock,_netdev,nosuid,nodev',
      ...overrides,
    };
    delete p.InstanceId;
    return p;
  };

  test('Create writes a ring record with fileSystemId and a lustre mount config, without calling EC2', async () => {
    const prefix = freshPrefix();
    const result = await rig.handler(createEvent(fsxProps(prefix) as never));
    const ring = `${prefix}/hpc1/ring/scratch`;
    const mount = `${prefix}/hpc1/storage/scratch/mount`;
    expect(result).toEqual({ PhysicalResourceId: ring, Data: { RingParameterName: ring, MountParameterName: mount, PrivateIp: '' } });
    expect(await value(ring)).toEqual({
      name: 'scratch',
      role: 'storage',
      fileSystemId: FS_ID,
      privateIp: '',
      privateDnsName: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      availabilityZone: 'us-east-1a',
      instanceType: 'PERSISTENT_2/SSD/125',
      backend: 'fsx-lustre',
      registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      owner: ownerMark('ring', 'hpc1', 'scratch'),
    });
    expect(await value(mount)).toEqual({
      server: `${FS_ID}.fsx.us-east-1.amazonaws.com`,
      exportPath: '/abcdefgh',
      mountPoint: '/scratch',
      fsType: 'lustre',
      options: 'relatime,flock,_netdev,nosuid,nodev',
      fstab: `${FS_ID}.fsx.us-east-1.amazonaws.com@tcp:/abcdefgh /scratch lustre relatime,flock,_netdev,nosuid,nodev 0 0`,
      backend: 'fsx-lustre',
      owner: ownerMark('mount', 'hpc1', 'scratch'),
    });
    expect(rig.stdout.lines().map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ msg: 'registering FSx file system', backend: 'fsx-lustre' }),
      expect.objectContaining({ msg: 'registered FSx file system', backend: 'fsx-lustre', fsType: 'lustre' }),
    ]);
  });

  test('Delete removes the records it owns and leaves another owner\'s alone', async () => {
    const prefix = freshPrefix();
    const ring = `${prefix}/hpc1/ring/scratch`;
    await rig.handler(createEvent(fsxProps(prefix) as never));
    // Another stack's file system took the name over after an operator removed the records: not ours to delete.
    await removeRecords(prefix, 'scratch');
    const other = fsxProps(prefix, { FileSystemId: 'fs-0fedcba9876543210', DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' });
    await rig.handler(from(createEvent(other as never), OTHER_STACK_ID));
    await rig.handler(deleteEvent(ring, fsxProps(prefix) as never));
    expect(await namesUnder(`${prefix}/`)).toEqual([ring, `${prefix}/hpc1/storage/scratch/mount`]);
    await rig.handler(from(deleteEvent(ring, other as never), OTHER_STACK_ID));
    // Its tombstone alone is left, for the clients: register-tombstone.test.ts.
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/removed/scratch`]);
  });

  test.each([
    ['a missing DnsName', { DnsName: undefined }, /ResourceProperties is missing DnsName/],
    ['a file system id that is not one', { FileSystemId: 'i-0123456789abcdef0' }, /ResourceProperties\.FileSystemId must be an FSx file system id/],
    ['a DNS name of another file system', { DnsName: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com' }, /ResourceProperties\.DnsName must be the file system's DNS name \(fs-0123456789abcdef0\.fsx\.<region>\.amazonaws\.com\)/],
    ['a DNS name outside amazonaws.com', { DnsName: `${FS_ID}.fsx.us-east-1.evil.example` }, /ResourceProperties\.DnsName must be/],
    ['a mount name with a slash', { MountName: 'ab/cd', ExportPath: '/ab/cd' }, /ResourceProperties\.MountName must be a Lustre mount name/],
    ['an empty mount name (FSx for OpenZFS has none, FSx for Lustre always one)', { MountName: '' }, /ResourceProperties is missing MountName/],
    ['an export path that is not the mount name', { ExportPath: '/export/data' }, /ResourceProperties\.ExportPath must be '\/' and the mount name \("\/abcdefgh"\) for FSx for Lustre/],
    ['a deployment that is not one', { Deployment: 'PERSISTENT_9/SSD/125' }, /ResourceProperties\.Deployment must be a deployment such as 'PERSISTENT_2\/SSD\/125'/],
  ])('%s is refused and nothing is written', async (_, overrides, message) => {
    const prefix = freshPrefix();
    await expect(rig.handler(createEvent(fsxProps(prefix, overrides) as never))).rejects.toThrow(message);
    expect(await namesUnder(`${prefix}/`)).toEqual([]);
  });
});
