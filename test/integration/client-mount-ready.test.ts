/**
 * client-mount.sh's node readiness and its removal of tombstoned servers (docs/design.md, section 9), on this host
 * against moto, with stand-ins for mount, umount, fuser and systemctl. A first run of the boot is one where the stand-in
 * systemctl finds storage-server-mounts.target inactive (no target-active file); the bound is CLIENT_MOUNT_READY_SECONDS.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DeleteParameterCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { tombstoneParameterName } from '../../lambda/register/contract';
import {
  PREFIX,
  cluster,
  dir,
  fstab,
  fstabLines,
  line,
  nodeStandIns,
  program,
  putRecord,
  putServer,
  recordArgs,
  recorded,
  ssm,
  tagged,
  runOnNode as runScript,
  useClientMountHarness,
} from '../support/client-mount-harness';

useClientMountHarness();

let bin: string;
let mounts: string;
let systemctl: string;
let umounts: string;
const mountinfo = () => path.join(dir, 'mountinfo');
const unitDir = () => path.join(dir, 'systemd');
const firstRunOfBoot = () => fs.rmSync(path.join(dir, 'target-active'));
const startedTarget = () => recorded(systemctl).some((c) => c[0] === 'start');
/** --read-ahead-kib 0: the stand-in mount table's bdi has no sysfs file here. */
const runOnNode = (args: string[] = [], env: Record<string, string> = {}) =>
  runScript(bin, ['--read-ahead-kib', '0', ...args], { CLIENT_MOUNT_RETRY_DELAY: '0', ...env });
/** A `mount` that fails for the mount points given, and mounts the others into the test's mount table. */
function mountFailingOn(...mountPoints: string[]): void {
  const failing = mountPoints.map((mp) => `"${mp}"`).join(' | ');
  program(bin, 'mount', [
    recordArgs(mounts),
    `case "$4" in ${failing}) echo "mount.nfs4: Connection timed out" >&2; exit 32 ;; esac`,
    `src=$(awk -v mp="$4" '$2 == mp { print $1 }' "$2")`,
    'echo "90 1 0:90 / $4 rw,nosuid,nodev - nfs4 $src rw" >>"$CLIENT_MOUNT_MOUNTINFO"',
  ]);
}
const tombstone = (server: string, value: unknown = { name: server, removedAt: '2026-12-01T10:00:00.000Z',
  removedBy: { stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/storage/guid', logicalResourceId: 'Registration' } }) =>
  ssm.send(new PutParameterCommand({ Name: tombstoneParameterName(PREFIX, cluster, server), Value: JSON.stringify(value), Type: 'String', Overwrite: true }));
/** The node as a run left it with s1 on /data/s1 and s2 on /data/s2 mounted; then s2's record is deleted. */
async function twoMountedThenS2Gone(): Promise<void> {
  await putServer('s1', '10.0.1.1', '/data/s1');
  await putServer('s2', '10.0.1.2', '/data/s2');
  expect(runOnNode().status).toBe(0);
  await ssm.send(new DeleteParameterCommand({ Name: `${PREFIX}/${cluster}/storage/s2/mount` }));
  fs.rmSync(mounts, { force: true });
}

beforeEach(() => {
  ({ bin, mounts, systemctl } = nodeStandIns({ mountTable: true }));
  umounts = path.join(dir, 'umount-calls');
  program(bin, 'umount', [recordArgs(umounts), 'exit 0']);
  program(bin, 'fuser', ['echo " 4242 4343"', 'echo "$2: m" >&2']);
  fs.writeFileSync(mountinfo(), '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n');
});

describe('readiness: storage-server-mounts.target', () => {
  test('the first run writes the expected mounts, the target and its drop-in, and starts the target after the mounts', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    await putServer('s2', '10.0.1.2', '/data/s2');
    firstRunOfBoot();
    const r = runOnNode();
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('every expected mount is in place: storage-server-mounts.target started');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'expected', cluster), 'utf8')).toBe('s1 /data/s1\ns2 /data/s2\n');
    expect(fs.readFileSync(path.join(unitDir(), 'storage-server-mounts.target'), 'utf8')).toMatch(/^\[Unit\]\nDescription=/);
    expect(fs.readFileSync(path.join(unitDir(), 'storage-server-mounts.target.d', `${cluster}.conf`), 'utf8'))
      .toBe('[Unit]\nRequiresMountsFor=/data/s1 /data/s2\n');
    expect(recorded(systemctl)).toEqual([
      ['is-active', '--quiet', 'storage-server-mounts.target'],
      ['daemon-reload'],
      ['is-active', '--quiet', 'storage-server-mounts.target'],
      ['start', 'storage-server-mounts.target'],
    ]);
    expect(recorded(mounts).map((m) => m[3])).toEqual(['/data/s1', '/data/s2']);
  });

  test('a server that does not answer: the others mounted, retried until the bound, NOT-READY, exit 2, no target', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    await putServer('s9', '10.0.1.9', '/data/s9');
    mountFailingOn('/data/s9');
    firstRunOfBoot();
    const started = Date.now();
    const r = runOnNode([], { CLIENT_MOUNT_READY_SECONDS: '8' });
    const seconds = (Date.now() - started) / 1000;
    expect(r.stdout).toContain(`storage-server: ATTENTION NOT-READY ${cluster}/s9: not mounted within 0 min 8 s of this boot's first run; storage-server-mounts.target not started`);
    expect(r.stdout).toContain('ATTENTION MOUNT-FAILED 10.0.1.9:/export/data on /data/s9 within 0 min 8 s');
    expect(r.status).toBe(2);
    expect(seconds).toBeGreaterThanOrEqual(7); // bash counts SECONDS in whole seconds
    expect(seconds).toBeLessThan(20);
    expect(startedTarget()).toBe(false);
    // One try, then retries with backoff: at 1, 3 and 7 s, and one in the bound's last second, at most 5; retries
    // without backoff would make many more.
    const tries = recorded(mounts).filter((m) => m[3] === '/data/s9').length;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(5);
    expect(recorded(mounts).filter((m) => m[3] === '/data/s1')).toHaveLength(1);
    // The fstab keeps both lines: the next run retries.
    expect(tagged('s9')).toEqual([line('10.0.1.9', '/data/s9', 's9')]);
  });

  test('a mount that comes up during the wait: the target is started and the run exits 0', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    // The first try fails, the retry succeeds: a server still booting.
    const once = path.join(dir, 'failed-once');
    program(bin, 'mount', [
      recordArgs(mounts),
      `if [[ ! -e ${JSON.stringify(once)} ]]; then touch ${JSON.stringify(once)}; exit 32; fi`,
      `src=$(awk -v mp="$4" '$2 == mp { print $1 }' "$2")`,
      'echo "90 1 0:90 / $4 rw,nosuid,nodev - nfs4 $src rw" >>"$CLIENT_MOUNT_MOUNTINFO"',
    ]);
    firstRunOfBoot();
    const r = runOnNode([], { CLIENT_MOUNT_READY_SECONDS: '30' });
    expect(r.stdout).not.toContain('ATTENTION');
    expect(r.status).toBe(0);
    expect(recorded(mounts)).toHaveLength(2);
    expect(startedTarget()).toBe(true);
  });

  test('a refused record leaves the node not ready: NOT-READY names it, at once, without waiting for the bound', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    await putRecord('bad', '{not json');
    firstRunOfBoot();
    const started = Date.now();
    const r = runOnNode([], { CLIENT_MOUNT_READY_SECONDS: '30' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.stdout).toContain(`storage-server: ATTENTION NOT-READY ${cluster}/bad:`);
    expect(r.status).toBe(2);
    expect(fs.readFileSync(path.join(dir, 'expected', cluster), 'utf8')).toBe('bad -\ns1 /data/s1\n');
    expect(startedTarget()).toBe(false);
  });

  test('a later run (target active): a failed mount tries as before, no wait, no NOT-READY, the target never stopped', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    expect(runOnNode().status).toBe(0);
    await putServer('s9', '10.0.1.9', '/data/s9');
    mountFailingOn('/data/s9');
    fs.rmSync(umounts, { force: true });
    const r = runOnNode([], { CLIENT_MOUNT_READY_SECONDS: '30' });
    expect(r.stdout).toContain('ATTENTION MOUNT-FAILED 10.0.1.9:/export/data on /data/s9 after 3 attempts');
    expect(r.stdout).not.toContain('NOT-READY');
    expect(r.status).toBe(2);
    expect(recorded(systemctl).map((c) => c[0])).not.toContain('stop');
    expect(recorded(umounts)).toEqual([]);
    expect(tagged('s1')).toEqual([line('10.0.1.1', '/data/s1', 's1')]);
    // The drop-in names the new mount point too, so that a boot's systemd waits for it.
    expect(fs.readFileSync(path.join(unitDir(), 'storage-server-mounts.target.d', `${cluster}.conf`), 'utf8'))
      .toBe('[Unit]\nRequiresMountsFor=/data/s1 /data/s9\n');
  });

  test('--server changes only its own line of the expected mounts', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    await putServer('s2', '10.0.1.2', '/data/s2');
    expect(runOnNode().status).toBe(0);
    await putServer('s2', '10.0.1.2', '/data/s2b');
    runOnNode(['--server', 's2']);
    expect(fs.readFileSync(path.join(dir, 'expected', cluster), 'utf8')).toBe('s1 /data/s1\ns2 /data/s2b\n');
  });

  test('no systemd on the node: no target, no unit files, and the run is a later one', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    fs.rmSync(path.join(dir, 'run-systemd'), { recursive: true });
    const r = runOnNode();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('no systemd here: storage-server-mounts.target not written');
    expect(fs.readdirSync(path.join(dir, 'expected'))).toEqual([]);
    expect(fs.existsSync(path.join(unitDir(), 'storage-server-mounts.target'))).toBe(false);
    expect(recorded(systemctl)).toEqual([]);
  });

  test('--ready-timeout-minutes outside 1-2865 is refused', () => {
    for (const value of ['0', '2866', '1.5', '']) {
      const r = runOnNode(['--ready-timeout-minutes', value]);
      expect(r.stderr).toContain('--ready-timeout-minutes must be a whole number of minutes from 1 to 2865');
      expect(r.status).toBe(1);
    }
  });
});

describe('removal: a vanished config with its tombstone is unmounted and its line dropped', () => {
  test('tombstone: umount, the fstab line gone, the directory left, the target drop-in without it; exit 0', async () => {
    await twoMountedThenS2Gone();
    await tombstone('s2');
    const r = runOnNode();
    expect(r.stdout).toContain(`${cluster}/s2 was removed (its tombstone ${PREFIX}/${cluster}/removed/s2, removed at 2026-12-01T10:00:00.000Z)`);
    expect(r.stdout).toContain(`removed ${cluster}/s2: unmounted /data/s2`);
    expect(r.stdout).not.toContain('ATTENTION');
    expect(r.status).toBe(0);
    expect(recorded(umounts)).toEqual([['--', '/data/s2']]);
    expect(tagged('s2')).toEqual([]);
    expect(tagged('s1')).toEqual([line('10.0.1.1', '/data/s1', 's1')]);
    expect(fs.readFileSync(path.join(unitDir(), 'storage-server-mounts.target.d', `${cluster}.conf`), 'utf8'))
      .toBe('[Unit]\nRequiresMountsFor=/data/s1\n');
  });

  test('busy: unmounted lazily, naming the processes fuser -m finds', async () => {
    await twoMountedThenS2Gone();
    await tombstone('s2');
    program(bin, 'umount', [recordArgs(umounts), '[[ $1 == -l ]]']);
    const r = runOnNode();
    expect(r.stdout).toContain('lazily unmounted /data/s2: in use by 4242 4343');
    expect(r.status).toBe(0);
    expect(recorded(umounts)).toEqual([['--', '/data/s2'], ['-l', '--', '/data/s2']]);
    expect(tagged('s2')).toEqual([]);
  });

  test('no tombstone: kept in fstab and mounted, reported STALE (a replacement in flight)', async () => {
    await twoMountedThenS2Gone();
    const before = fs.readFileSync(fstab, 'utf8');
    const r = runOnNode();
    expect(r.stdout).toContain(`ATTENTION STALE ${cluster}/s2: its mount config ${PREFIX}/${cluster}/storage/s2/mount is gone; left in fstab and mounted as it is (no tombstone says it was removed)`);
    expect(r.status).toBe(2);
    expect(recorded(umounts)).toEqual([]);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test("a tombstone of another name, or not a tombstone, under the server's name: kept", async () => {
    await twoMountedThenS2Gone();
    await tombstone('s2', { name: 's3', removedAt: '2026-12-01T10:00:00.000Z' });
    expect(runOnNode().stdout).toContain(`ATTENTION STALE ${cluster}/s2`);
    await tombstone('s2', { someone: 'else' });
    expect(runOnNode().stdout).toContain(`ATTENTION STALE ${cluster}/s2`);
    expect(recorded(umounts)).toEqual([]);
    expect(tagged('s2')).toHaveLength(1);
  });

  test('an untagged line is never touched, whatever the tombstones say', async () => {
    await putServer('s1', '10.0.1.1', '/data/s1');
    const hand = '10.0.1.7:/export/data /data/hand nfs4 nfsvers=4.1,hard 0 0';
    fs.appendFileSync(fstab, `${hand}\n${hand.replace('/data/hand', '/data/other')} # storage-server:other-cluster/hand\n`);
    fs.appendFileSync(mountinfo(), '91 1 0:91 / /data/hand rw - nfs4 10.0.1.7:/export/data rw\n');
    await tombstone('hand');
    const r = runOnNode();
    expect(r.status).toBe(0);
    expect(recorded(umounts)).toEqual([]);
    expect(fstabLines()).toContain(hand);
    expect(fstabLines()).toContain(`${hand.replace('/data/hand', '/data/other')} # storage-server:other-cluster/hand`);
  });

  test('the mount point holds something else now: that mount stays, the line goes', async () => {
    await twoMountedThenS2Gone();
    await tombstone('s2');
    fs.appendFileSync(mountinfo(), '92 1 0:92 / /data/s2 rw - nfs4 10.0.9.9:/elsewhere rw\n');
    const r = runOnNode();
    expect(r.stdout).toContain(`removed ${cluster}/s2: /data/s2 holds 10.0.9.9:/elsewhere, not 10.0.1.2:/export/data; that mount is not this script's and stays`);
    expect(recorded(umounts)).toEqual([]);
    expect(tagged('s2')).toEqual([]);
  });

  test('--dry-run says what it would do and changes nothing', async () => {
    await twoMountedThenS2Gone();
    await tombstone('s2');
    const before = fs.readFileSync(fstab, 'utf8');
    const r = runOnNode(['--dry-run']);
    expect(r.stdout).toContain('dry run: would unmount /data/s2 and drop its fstab line');
    expect(recorded(umounts)).toEqual([]);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });
});
