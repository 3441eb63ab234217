/** A registration of FSx for OpenZFS, backend fsx-openzfs: the construct's properties, what it refuses, the records. */
import { Match, Template } from 'aws-cdk-lib/assertions';
import {
  fstabLine,
  mountRecord,
  parseRegistrationProperties,
  validateFsxTarget,
  type FsxTarget,
} from '../../lambda/register/contract';
import { ServerRegistration } from '../../lib/registration';
import { fixture, register } from '../support/registration-stack';
import { OPTIONS } from '../integration/fixtures';

describe('FSx for OpenZFS (backend fsx-openzfs): a file system registered as NFS by its DNS name', () => {
  const FS_ID = 'fs-0123456789abcdef0';
  const DNS = `${FS_ID}.fsx.us-east-1.amazonaws.com`;
  const target: FsxTarget = { fileSystemId: FS_ID, dnsName: DNS, mountName: '', availabilityZone: 'us-east-1a', deployment: 'SINGLE_AZ_1/64' };
  const field = (key: string) => `fileSystem.${key}`;

  test('the construct passes the file system (MountName empty), not an instance, and grants no EC2 call', () => {
    const { stack } = fixture();
    new ServerRegistration(stack, 'Zfs', {
      fileSystem: target, clusterName: 'hpc1', serverName: 'shared', exportPath: '/fsx', mountPoint: '/shared',
      mountOptions: OPTIONS, backend: 'fsx-openzfs',
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('Custom::StorageServerRegistration', {
      FileSystemId: FS_ID, DnsName: DNS, MountName: '', AvailabilityZone: 'us-east-1a', Deployment: 'SINGLE_AZ_1/64',
      ExportPath: '/fsx', Backend: 'fsx-openzfs', InstanceId: Match.absent(),
    });
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('ec2:');
  });

  test.each([
    ['a mount name', { mountName: 'abcdefgh' }, "fileSystem.MountName must be '' for fsx-openzfs (FSx for OpenZFS has no mount name), got \"abcdefgh\""],
    ['a Lustre deployment', { deployment: 'PERSISTENT_2/SSD/125' }, 'fileSystem.Deployment must be a deployment such as \'SINGLE_AZ_1/64\''],
    ['an IP for the DNS name', { dnsName: '10.0.0.5' }, "fileSystem.DnsName must be the file system's DNS name (fs-0123456789abcdef0.fsx.<region>.amazonaws.com), got \"10.0.0.5\""],
  ])('the construct refuses %s at synth time', (_what, change, message) => {
    const { stack } = fixture();
    expect(() => new ServerRegistration(stack, 'Zfs', {
      fileSystem: { ...target, ...change }, clusterName: 'hpc1', serverName: 'shared', exportPath: '/fsx', mountPoint: '/shared',
      mountOptions: OPTIONS, backend: 'fsx-openzfs',
    })).toThrow(message);
  });

  test('a file system with an EC2 backend, or an instance with fsx-openzfs, is refused', () => {
    const { stack, instance } = fixture();
    expect(() => register(stack, instance, 'A', { backend: 'fsx-openzfs' })).toThrow("backend 'fsx-openzfs' does not match the registered instance.");
    expect(() => register(stack, instance, 'B', { instance: undefined, fileSystem: target, backend: 'ebs' })).toThrow("backend 'ebs' does not match the registered file system.");
  });

  test('the mount name and the deployment follow the backend: each backend refuses the other\'s', () => {
    expect(() => validateFsxTarget(field, target, 'fsx-openzfs')).not.toThrow();
    expect(() => validateFsxTarget(field, target, 'fsx-lustre')).toThrow(/fileSystem\.MountName must be a Lustre mount name \(3-8 lower-case letters and digits\) for fsx-lustre, got ""/);
    const lustre = { ...target, mountName: 'abcdefgh', deployment: 'PERSISTENT_2/SSD/125' };
    expect(() => validateFsxTarget(field, lustre, 'fsx-lustre')).not.toThrow();
    expect(() => validateFsxTarget(field, { ...target, deployment: 'SINGLE_AZ_1/64' }, 'fsx-lustre')).toThrow(/MountName/);
    expect(() => validateFsxTarget(field, { ...lustre }, 'fsx-openzfs')).toThrow(/fileSystem\.MountName must be ''/);
    expect(() => validateFsxTarget(field, { ...target, deployment: 'SINGLE_AZ_3/64' }, 'fsx-openzfs')).toThrow(/fileSystem\.Deployment must be/);
  });

  test('the parse: the properties of an OpenZFS registration, typed; every required key named when missing', () => {
    const raw = {
      ClusterName: 'hpc1', ServerName: 'shared', ParameterPrefix: '/storage-server', ExportPath: '/fsx', MountPoint: '/shared',
      MountOptions: OPTIONS, Backend: 'fsx-openzfs', FileSystemId: FS_ID, DnsName: DNS, MountName: '', Deployment: 'SINGLE_AZ_2/160',
    };
    expect(parseRegistrationProperties(raw)).toEqual({
      instanceId: '', clusterName: 'hpc1', serverName: 'shared', parameterPrefix: '/storage-server', exportPath: '/fsx',
      mountPoint: '/shared', mountOptions: OPTIONS, backend: 'fsx-openzfs',
      fsx: { fileSystemId: FS_ID, dnsName: DNS, mountName: '', availabilityZone: '', deployment: 'SINGLE_AZ_2/160' },
    });
    expect(() => parseRegistrationProperties({ Backend: 'fsx-openzfs' })).toThrow(
      /^ResourceProperties is missing ClusterName, ServerName, ParameterPrefix, ExportPath, MountPoint, MountOptions, FileSystemId, DnsName, Deployment;/,
    );
  });

  test('the mount record: nfs4, the DNS name as the server, the backend named; the fstab line as the FSx for OpenZFS guide mounts it', () => {
    expect(fstabLine(DNS, '/fsx', '/shared', OPTIONS)).toBe(`${DNS}:/fsx /shared nfs4 ${OPTIONS} 0 0`);
    expect(mountRecord(DNS, '/fsx', '/shared', OPTIONS, 'nfs4', 'fsx-openzfs')).toEqual({
      server: DNS, exportPath: '/fsx', mountPoint: '/shared', fsType: 'nfs4', options: OPTIONS,
      fstab: `${DNS}:/fsx /shared nfs4 ${OPTIONS} 0 0`, backend: 'fsx-openzfs',
    });
    expect(mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS)).not.toHaveProperty('backend');
  });
});
