import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import {
  ALLOWANCE,
  PREFIX,
  cluster,
  dir,
  fstab,
  nodeStandIns,
  program,
  putRecord,
  putServer,
  recordArgs,
  recorded,
  tag,
  tagged,
  runOnNode as runScript,
  useClientMountHarness,
} from '../support/client-mount-harness';

useClientMountHarness();

describe('client-mount.sh with FSx for Lustre records', () => {
  // As on a node: stand-ins for mount, getent, findmnt and the package managers, each recording its arguments; getent
  // resolves the file system's name as inside the VPC. There is no Lustre client or server here: what is tested is what
  // the script writes, installs and runs, not Lustre itself.
  const FS = 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com';
  const LUSTRE_OPTIONS = 'relatime,flock,_netdev';
  let bin: string;
  let mounts: string;
  let installs: string;
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns());
    installs = path.join(dir, 'install-calls');
    program(bin, 'getent', [`case "$2" in ${FS}) echo "10.0.3.7        STREAM $2" ;; *) exit 2 ;; esac`]);
  });
  const runOnNode = (extraPath = '') => runScript(`${bin}${extraPath}`, [], { CLIENT_MOUNT_RETRY_DELAY: '0' });
  const lustreRecord = (mountPoint = '/scratch') => mountRecord(FS, '/abcdefgh', mountPoint, LUSTRE_OPTIONS, 'lustre');
  const lustreLine = (server = 'scratch', mountPoint = '/scratch') =>
    `${FS}@tcp:/abcdefgh ${mountPoint} lustre ${LUSTRE_OPTIONS},nosuid,nodev 0 0${tag(server)}`;

  test('dnf: installs lustre-client, writes <dns>@tcp:/<name> with nosuid,nodev, and mounts it beside an NFS server', async () => {
    // mount.lustre appears once dnf has installed lustre-client.
    program(bin, 'dnf', [recordArgs(installs), `printf '#!/bin/sh\\nexit 0\\n' >${JSON.stringify(path.join(bin, 'mount.lustre'))}`, `chmod +x ${JSON.stringify(path.join(bin, 'mount.lustre'))}`]);
    await putRecord('scratch', lustreRecord());
    await putServer('home', '10.0.0.5', '/data');

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(recorded(installs)).toEqual([['install', '-y', '-q', 'lustre-client']]);
    expect(tagged('scratch')).toEqual([lustreLine()]);
    expect(tagged('home')).toHaveLength(1);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data'], ['-T', fstab, '--', '/scratch']]);
    expect(r.stdout).toContain(`mounted ${FS}@tcp:/abcdefgh on /scratch`);
    // libmount reads the line back as a lustre mount of the file system.
    const findmnt = spawnSync('findmnt', ['--tab-file', fstab, '--target', '/scratch', '-n', '-r', '-o', 'SOURCE,FSTYPE'], { encoding: 'utf8' });
    expect(findmnt.stdout.trim()).toBe(`${FS}@tcp:/abcdefgh lustre`);
  });

  test('apt-get with no client modules for the running kernel: ATTENTION naming the kernel, no lustre line; NFS still mounted', async () => {
    program(bin, 'apt-cache', [recordArgs(installs), 'exit 100']);
    program(bin, 'apt-get', [recordArgs(installs), 'exit 0']);
    await putRecord('scratch', lustreRecord());
    await putServer('home', '10.0.0.5', '/data');

    const r = runOnNode();

    expect(r.status).toBe(2);
    const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
    expect(recorded(installs)).toEqual([['show', `lustre-client-modules-${kernel}`]]);
    expect(r.stdout).toContain(`no package lustre-client-modules-${kernel}: no Lustre client is packaged for the running kernel ${kernel}`);
    expect(r.stdout).toMatch(new RegExp(`ATTENTION NO-LUSTRE-CLIENT \\S+/scratch/mount: ${FS.replace(/\./g, '\\.')}@tcp:/abcdefgh on /scratch needs the Lustre client`));
    expect(tagged('scratch')).toEqual([]);
    expect(tagged('home')).toHaveLength(1);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
  });

  test('already mounted (the kernel shows the address the name resolves to): left as it is, nothing installed again', async () => {
    program(bin, 'mount.lustre', ['exit 0']);
    program(bin, 'findmnt', [
      'case "$*" in',
      '  *" SOURCE "*) echo 10.0.3.7@tcp:/abcdefgh ;;',
      '  *" OPTIONS "*) echo rw,nosuid,nodev,relatime,flock ;;',
      'esac',
    ]);
    await putRecord('scratch', lustreRecord());

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`already mounted: ${FS}@tcp:/abcdefgh on /scratch`);
    expect(recorded(mounts)).toEqual([]);
  });

  test('another file system on the mount point (an address the name does not resolve to) is not remounted', async () => {
    program(bin, 'mount.lustre', ['exit 0']);
    program(bin, 'findmnt', ['case "$*" in *" SOURCE "*) echo 10.0.9.9@tcp:/abcdefgh ;; esac']);
    await putRecord('scratch', lustreRecord());

    const r = runOnNode();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`ATTENTION MOUNTED-ELSEWHERE /scratch holds 10.0.9.9@tcp:/abcdefgh, the config of ${cluster}/scratch says ${FS}@tcp:/abcdefgh`);
    expect(recorded(mounts)).toEqual([]);
  });
});

describe('client-mount.sh with FSx for OpenZFS records', () => {
  // As on a node: stand-ins for mount, umount, getent and the package managers, each recording its arguments; getent
  // resolves the file system's name as inside the VPC. There is no NFS server here: what is tested is what the script
  // admits, writes and runs for an OpenZFS record, an NFS mount by the file system's DNS name.
  const FS = 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com';
  const ZFS_OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev';
  let bin: string;
  let mounts: string;
  let installs: string;
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns());
    installs = path.join(dir, 'install-calls');
    program(bin, 'umount', ['exit 0']);
    program(bin, 'dnf', [recordArgs(installs), 'exit 0']);
    // The resolver: this file system inside the VPC, another FSx name outside it, no other name.
    program(bin, 'getent', [
      `case "$2" in ${FS}) echo "10.0.3.8        STREAM $2" ;; fs-0fedcba9876543210.*) echo "203.0.113.9     STREAM $2" ;; *) exit 2 ;; esac`,
    ]);
  });
  const runOnNode = (args: string[] = []) => runScript(bin, args, { CLIENT_MOUNT_RETRY_DELAY: '0' });
  const zfsRecord = (server = FS) => mountRecord(server, '/fsx', '/shared', ZFS_OPTIONS, 'nfs4', 'fsx-openzfs');
  const zfsLine = () => `${FS}:/fsx /shared nfs4 ${ZFS_OPTIONS},nosuid,nodev 0 0${tag('shared')}`;

  test('the record the registration writes is mounted over NFS by its DNS name: <dns>:/fsx, nconnect probed, no Lustre client', async () => {
    await putRecord('shared', zfsRecord());
    await putServer('home', '10.0.0.5', '/data');

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(tagged('shared')).toEqual([zfsLine()]);
    expect(tagged('home')).toHaveLength(1);
    const calls = recorded(mounts);
    // The nconnect probe mounts the file system by its name, as the fstab line does; then both lines are mounted.
    expect(calls[0].slice(0, 5)).toEqual(['-t', 'nfs4', '-o', `${ZFS_OPTIONS},nosuid,nodev,retry=0`, '--']);
    expect(calls[0][5]).toBe(`${FS}:/fsx`);
    expect(calls.slice(1)).toEqual([['-T', fstab, '--', '/data'], ['-T', fstab, '--', '/shared']]);
    expect(r.stdout).toContain(`mounted ${FS}:/fsx on /shared`);
    expect(recorded(installs)).toEqual([]);
    // libmount reads the line back as an NFSv4 mount of the file system's export.
    const findmnt = spawnSync('findmnt', ['--tab-file', fstab, '--target', '/shared', '-n', '-r', '-o', 'SOURCE,FSTYPE'], { encoding: 'utf8' });
    expect(findmnt.stdout.trim()).toBe(`${FS}:/fsx nfs4`);
  });

  test('--dry-run plans the NFS line and changes nothing', async () => {
    await putRecord('shared', zfsRecord());
    const before = fs.readFileSync(fstab, 'utf8');

    const r = runOnNode(['--dry-run']);

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`--- fstab after this run ---\n${before}${zfsLine()}\n--- end ---`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
    expect(recorded(mounts)).toEqual([]);
  });

  test('already mounted by its name (as the kernel shows an NFS source): left as it is', async () => {
    program(bin, 'findmnt', ['case "$*" in', `  *" SOURCE "*) echo ${FS}:/fsx ;;`, '  *" OPTIONS "*) echo rw,nosuid,nodev,relatime ;;', 'esac']);
    await putRecord('shared', zfsRecord());

    const r = runOnNode();

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`already mounted: ${FS}:/fsx on /shared`);
    expect(recorded(mounts).filter((c) => c[0] === '-T')).toEqual([]);
  });

  test.each([
    ['an IP address', '10.0.0.5', `server "10.0.0.5" of an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only) is not an FSx DNS name`],
    ['another name', 'nfs.example.com', 'server "nfs.example.com" of an fsx-openzfs record'],
    ['an FSx name resolving outside', 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com',
      `server fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com resolves to 203.0.113.9, outside the allowed servers ${ALLOWANCE}`],
    ['an FSx name this node does not resolve', 'fs-0123456789abcdef1.fsx.us-east-1.amazonaws.com',
      'server fs-0123456789abcdef1.fsx.us-east-1.amazonaws.com does not resolve to an IPv4 address on this node (getent ahostsv4)'],
  ])('an OpenZFS record naming %s is refused beside a good one, which is mounted', async (_what, server, why) => {
    await putRecord('bad', { ...zfsRecord(server), mountPoint: '/scratch', fstab: `${server}:/fsx /scratch nfs4 ${ZFS_OPTIONS} 0 0` });
    await putRecord('shared', zfsRecord());

    const r = runOnNode();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`ATTENTION ${mountParameterName(PREFIX, cluster, 'bad')}: ${why}`);
    expect(tagged('bad')).toEqual([]);
    expect(tagged('shared')).toEqual([zfsLine()]);
    expect(recorded(mounts).filter((c) => c[0] === '-T')).toEqual([['-T', fstab, '--', '/shared']]);
  });
});
