import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { mountRecord } from '../../lambda/register/contract';
import {
  OPTIONS,
  WRITTEN_OPTIONS,
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
  nodePath,
  useClientMountHarness,
} from '../support/client-mount-harness';

useClientMountHarness();

describe('client-mount.sh: nconnect and the NFS read-ahead on a node', () => {
  // As on a node, mounting, with stand-ins. `mount` records its arguments and, for a kernel without nconnect, fails
  // exactly as mount.nfs does when mount(2) refuses an option: exit 32, "mount.nfs: an incorrect mount option was
  // specified", per [NFSUTILS-ERR] in docs/sources/nconnect.md. The mount table and sysfs are files of the test's,
  // CLIENT_MOUNT_MOUNTINFO and CLIENT_MOUNT_SYSFS: /data's NFS mount has the bdi 0:53 and read-ahead 128 KiB.
  const NCONNECT_OPTIONS = `${OPTIONS.replace('retrans=2', 'retrans=2,nconnect=16')}`;
  const INCORRECT = 'mount.nfs: an incorrect mount option was specified';
  let bin: string;
  let mounts: string;
  let umounts: string;
  const mountinfo = () => path.join(dir, 'mountinfo');
  const readAhead = () => path.join(dir, 'sys', 'class', 'bdi', '0:53', 'read_ahead_kb');
  const rule = () => path.join(dir, 'udev', '99-storage-server-nfs-read-ahead.rules');
  const conf = () => path.join(dir, 'nfs.conf.d', 'storage-server-read-ahead.conf');
  const DATA_MOUNT = (superOptions: string) =>
    `36 25 0:53 / /data rw,nosuid,nodev,relatime shared:1 - nfs4 10.0.0.5:/export/data ${superOptions}\n`;
  /** A `mount` that records its arguments; with `refuses`, a kernel without nconnect: any -o list with it fails. */
  const standInMount = (refuses: boolean) =>
    program(bin, 'mount', [
      recordArgs(mounts),
      ...(refuses ? [`case "$*" in *nconnect=*) echo ${JSON.stringify(INCORRECT)} >&2; exit 32 ;; esac`] : []),
      'exit 0',
    ]);
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns()); // a test that mounts writes its own `mount` (standInMount)
    umounts = path.join(dir, 'umount-calls');
    program(bin, 'umount', [recordArgs(umounts), 'exit 0']);
    fs.writeFileSync(mountinfo(), '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n' + DATA_MOUNT('rw,vers=4.1,rsize=1048576'));
    fs.mkdirSync(path.dirname(readAhead()), { recursive: true });
    fs.writeFileSync(readAhead(), '128\n');
  });
  const runOnNode = (args: string[] = []) => runScript(bin, args, { CLIENT_MOUNT_RETRY_DELAY: '0' });
  const putNconnect = (server: string, ip: string, mountPoint = '/data') =>
    putRecord(server, mountRecord(ip, '/export/data', mountPoint, NCONNECT_OPTIONS));
  /** The probe's mount: the line's options and retry=0, on a temporary directory of its own under TMPDIR. */
  const probe = (options: string) => ['-t', 'nfs4', '-o', `${options},retry=0`, '--', '10.0.0.5:/export/data', expect.stringMatching(new RegExp(`^${dir}/storage-server-nconnect\\.[A-Za-z0-9]{6}$`))];

  test('a kernel that takes nconnect: the probe mounts and unmounts, the fstab line keeps nconnect=16', async () => {
    standInMount(false);
    await putNconnect('s1', '10.0.0.5');

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(tagged('s1')).toEqual([`10.0.0.5:/export/data /data nfs4 ${NCONNECT_OPTIONS},nosuid,nodev 0 0${tag('s1')}`]);
    expect(recorded(mounts)).toEqual([probe(`${NCONNECT_OPTIONS},nosuid,nodev`), ['-T', fstab, '--', '/data']]);
    expect(recorded(umounts)).toEqual([['--', recorded(mounts)[0][6]]]);
    expect(r.stdout).not.toContain('nconnect dropped');
    // The mount table's /data shows no nconnect=, as when an earlier mount of the same server fixed one connection.
    expect(r.stdout).toContain('client-mount: nconnect not in effect on /data: the kernel shares the connections of an earlier mount of the same server');
    // The probe's directory is gone.
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('storage-server-nconnect'))).toEqual([]);
  });

  test('a kernel that refuses nconnect (exit 32, "incorrect mount option"): mounted without it, one line saying why', async () => {
    standInMount(true);
    await putNconnect('s1', '10.0.0.5');
    await putNconnect('s2', '10.0.0.6', '/scratch');

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
    const dropped = r.stdout.split('\n').filter((l) => l.includes('nconnect'));
    expect(dropped).toEqual(['s1', 's2'].map((s) =>
      `client-mount: nconnect dropped for ${cluster}/${s}: this kernel (${kernel}) refuses the option: mount.nfs exit 32, ` +
        `'${INCORRECT}', and 10.0.0.5:/export/data is not refused without it; its fstab line and mount have no nconnect`));
    expect(tagged('s1')).toEqual([`10.0.0.5:/export/data /data nfs4 ${WRITTEN_OPTIONS} 0 0${tag('s1')}`]);
    expect(tagged('s2')).toEqual([`10.0.0.6:/export/data /scratch nfs4 ${WRITTEN_OPTIONS} 0 0${tag('s2')}`]);
    // Probed once a run, with nconnect, refused, and without, mounted then unmounted; then both mounts from the fstab.
    expect(recorded(mounts)).toEqual([
      probe(`${NCONNECT_OPTIONS},nosuid,nodev`), probe(WRITTEN_OPTIONS), ['-T', fstab, '--', '/data'], ['-T', fstab, '--', '/scratch'],
    ]);
    expect(recorded(umounts)).toHaveLength(1);
  });

  test('refused with and without nconnect: nconnect is not the cause, the line keeps it', async () => {
    program(bin, 'mount', [recordArgs(mounts), `case "$*" in *retry=0*) echo ${JSON.stringify(INCORRECT)} >&2; exit 32 ;; esac`, 'exit 0']);
    await putNconnect('s1', '10.0.0.5');

    const r = runOnNode();

    expect(r.stdout).toContain(`nconnect kept: 10.0.0.5:/export/data is refused with and without it (${INCORRECT}), so nconnect is not the cause`);
    expect(tagged('s1')).toEqual([`10.0.0.5:/export/data /data nfs4 ${NCONNECT_OPTIONS},nosuid,nodev 0 0${tag('s1')}`]);
  });

  test('an NFS mount already showing nconnect= in the mount table: no probe', async () => {
    standInMount(true); // would refuse: the mount table is what decides
    fs.appendFileSync(mountinfo(), DATA_MOUNT('rw,vers=4.1,nconnect=16,timeo=600').replace('/data', '/shared/x'));
    await putNconnect('s1', '10.0.0.5');

    const r = runOnNode();

    expect(r.status).toBe(0);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
    expect(tagged('s1')[0]).toContain('nconnect=16');
    // /data itself shows it now: nothing to report.
    fs.writeFileSync(mountinfo(), DATA_MOUNT('rw,vers=4.1,nconnect=16,timeo=600'));
    expect(runOnNode().stdout).not.toContain('not in effect');
  });

  test('--no-mount mounts nothing, so it probes nothing and keeps the record\'s nconnect', async () => {
    standInMount(true);
    await putNconnect('s1', '10.0.0.5');

    const r = runOnNode(['--no-mount']);

    expect(r.status).toBe(0);
    expect(recorded(mounts)).toEqual([]);
    expect(tagged('s1')[0]).toContain(',nconnect=16,');
  });

  test('the read-ahead: set on the mount\'s bdi (major:minor from the mount table), and a udev rule and [nfsrahead] for later mounts', async () => {
    standInMount(false);
    await putServer('s1', '10.0.0.5');

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(readAhead(), 'utf8')).toBe('15360\n');
    expect(r.stdout).toContain('read-ahead of /data (bdi 0:53) set to 15360 KiB (was 128 KiB)');
    const awk = spawnSync('sh', ['-c', 'command -v awk'], { encoding: 'utf8', env: { PATH: nodePath(bin) } }).stdout.trim();
    const ruleText = fs.readFileSync(rule(), 'utf8');
    expect(ruleText.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toEqual([
      `SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="${awk} -v bdi=$kernel 'BEGIN{ret=1} {if ($$4 == bdi) {ret=0}} END{exit ret}' ` +
        '/proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="15360"',
    ]);
    expect(fs.readFileSync(conf(), 'utf8')).toMatch(/\n\[nfsrahead\]\nnfs=15360\nnfs4=15360\n$/);
    // The rule's program as udev runs it, where $kernel is the bdi's name and $$ is $, picks NFS bdis out of
    // /proc/fs/nfsfs/volumes.
    const volumes = path.join(dir, 'volumes');
    fs.writeFileSync(volumes, 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a000005  801 0:53         cafe:0                            no\n');
    const programOf = (bdi: string) => /PROGRAM="([^"]*)"/.exec(ruleText)![1].replace('$kernel', bdi).replace('$$', '$').replace('/proc/fs/nfsfs/volumes', volumes);
    expect(spawnSync('sh', ['-c', programOf('0:53')]).status).toBe(0);
    expect(spawnSync('sh', ['-c', programOf('0:5')]).status).toBe(1);
    expect(spawnSync('sh', ['-c', programOf('8:0')]).status).toBe(1);

    // A re-run with the same value rewrites nothing and says nothing of the read-ahead.
    const again = runOnNode();
    expect(again.status).toBe(0);
    expect(again.stdout).not.toContain('read-ahead');
  });

  test('--read-ahead-kib 0: the kernel\'s value is left alone, and the rule and the [nfsrahead] section are removed', async () => {
    standInMount(false);
    await putServer('s1', '10.0.0.5');
    expect(runOnNode(['--read-ahead-kib', '4096']).status).toBe(0);
    expect(fs.readFileSync(rule(), 'utf8')).toContain('ATTR{read_ahead_kb}="4096"');
    fs.writeFileSync(readAhead(), '128\n');

    const r = runOnNode(['--read-ahead-kib', '0']);

    expect(r.status).toBe(0);
    expect(fs.existsSync(rule())).toBe(false);
    expect(fs.existsSync(conf())).toBe(false);
    expect(fs.readFileSync(readAhead(), 'utf8')).toBe('128\n');
    expect(r.stdout).toContain(`read-ahead left to the kernel (--read-ahead-kib 0): removed ${rule()}`);
    expect(r.stdout).toContain(`read-ahead left to the kernel (--read-ahead-kib 0): removed ${conf()}`);
  });

  test.each(['-1', '1048577', '015360', '1e4', '15MiB', '15360 ', '1;reboot', '$(reboot)', ''])(
    '--read-ahead-kib %j is refused before anything is read: exit 1, naming the option and the range',
    (value) => {
      const r = runOnNode(['--read-ahead-kib', value]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `client-mount: ERROR --read-ahead-kib must be a whole number of KiB from 0 (the kernel's own read-ahead) to 1048576, got '${value}'\n`,
      );
      expect(fs.existsSync(rule())).toBe(false);
    },
  );
});
