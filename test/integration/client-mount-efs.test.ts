/**
 * client-mount.sh with an EFS record over TLS (fsType efs): mounted through amazon-efs-utils' mount.efs where the node
 * has it, and refused with ATTENTION NO-EFS-UTILS where it has not, never mounted without TLS. Stand-ins as on a node:
 * `mount` records its calls, getent resolves the file system's name inside the VPC, and `mount.efs` is on PATH or not.
 */
import * as fs from 'fs';
import { mountRecord } from '../../lambda/register/contract';
import { cluster, fstab, fstabLines, nodeStandIns, program, putRecord, putServer, recorded, tag, tagged, runOnNode as runScript, useClientMountHarness } from '../support/client-mount-harness';

useClientMountHarness();

describe('client-mount.sh with an EFS file system over TLS (EFS-TLS-TYPE, EFS-TLS-FSTAB)', () => {
  const EFS = 'fs-0123456789abcdef0.efs.us-east-1.amazonaws.com';
  // What ExistingStorageSource.efs(id, { tls: true }) registers.
  const OPTIONS = 'tls,nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev';
  const LINE = `${EFS}:/ /shared/efs efs ${OPTIONS} 0 0`;
  let bin: string;
  let mounts: string;
  beforeEach(async () => {
    ({ bin, mounts } = nodeStandIns());
    program(bin, 'getent', [`case "$2" in ${EFS}) echo "10.0.3.7        STREAM $2" ;; *) exit 2 ;; esac`]);
    await putRecord('efs', mountRecord(EFS, '/', '/shared/efs', OPTIONS, 'efs', 'efs'));
    await putServer('home', '10.0.0.5', '/data');
  });
  const runOnNode = () => runScript(bin, ['--mount-roots', '/data,/shared'], { CLIENT_MOUNT_RETRY_DELAY: '0' });

  test('with mount.efs: the line is type efs with tls and _netdev, nosuid,nodev kept, and mount takes it from fstab', () => {
    program(bin, 'mount.efs', ['exit 0']);

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(tagged('efs')).toEqual([`${LINE}${tag('efs')}`]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/shared/efs'], ['-T', fstab, '--', '/data']]);
    expect(r.stdout).toContain(`mounted ${EFS}:/ on /shared/efs`);
  });

  test('mounted already over TLS, the tunnel\'s 127.0.0.1:/ is the record\'s mount: no remount, no MOUNTED-ELSEWHERE', () => {
    program(bin, 'mount.efs', ['exit 0']);
    program(bin, 'findmnt', ['case "$*" in', '  *" SOURCE "*"/shared/efs"*) echo 127.0.0.1:/ ;;', '  *" OPTIONS "*) echo rw,nosuid,nodev,relatime ;;', 'esac']);

    const r = runOnNode();

    expect(r.stdout).not.toContain('ATTENTION');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`already mounted: ${EFS}:/ on /shared/efs`);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
  });

  test('without mount.efs: ATTENTION NO-EFS-UTILS saying how to install it, no line, no mount, exit 2; the others go on', () => {
    const before = fs.readFileSync(fstab, 'utf8');

    const r = runOnNode();

    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`ATTENTION NO-EFS-UTILS ${cluster}/efs: ${EFS.replace(/\./g, '\\.')}:/ on /shared/efs is EFS over TLS, ` +
      "which needs amazon-efs-utils' mount.efs, missing on this node\\. Install it \\(Amazon Linux: dnf or yum install -y amazon-efs-utils; " +
      'other distributions: build it from source, github\\.com/aws/efs-utils\\)'));
    expect(tagged('efs')).toEqual([]);
    expect(fstabLines().filter((l) => l.includes(EFS))).toEqual([]);
    expect(tagged('home')).toHaveLength(1);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
    expect(fs.readFileSync(fstab, 'utf8')).not.toBe(before);
  });

  test('--dry-run without mount.efs says the same and writes nothing', () => {
    const before = fs.readFileSync(fstab, 'utf8');

    const r = runScript(bin, ['--mount-roots', '/data,/shared', '--dry-run']);

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`ATTENTION NO-EFS-UTILS ${cluster}/efs:`);
    expect(r.stdout).not.toContain(EFS + ':/ /shared/efs');
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });
});
