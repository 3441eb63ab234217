import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { mountParameterName } from '../../lambda/register/contract';
import {
  OPTIONS,
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
  run,
  tag,
  runOnNode as runScript,
  useClientMountHarness,
  venv,
} from '../support/client-mount-harness';
import { REFUSED, record } from '../support/refused-records';

useClientMountHarness();

describe('client-mount.sh refuses records outside the grammar, touching nothing of them', () => {
  // These run without --no-mount, as on a node. `mount`, `mkdir` and `mount.nfs4` are stand-ins that record their
  // arguments, and mkdir makes only the lock's directory, under the test's own directory. So a test sees every
  // directory the script would create and every mount it would make.
  let bin: string;
  let mounts: string;
  let mkdirs: string;
  const REAL_MKDIR = spawnSync('sh', ['-c', 'command -v mkdir'], { encoding: 'utf8' }).stdout.trim();
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns());
    mkdirs = path.join(dir, 'mkdir-calls');
    // The resolver as this node sees it: one FSx name outside the VPC, one EFS name inside, no other name.
    program(bin, 'getent', ['case "$2" in fs-0fedcba9876543210.*) echo "203.0.113.9     STREAM $2" ;;',
      '  fs-0123456789abcdef0.efs.*) echo "10.0.3.7        STREAM $2" ;; *) exit 2 ;; esac']);
    program(bin, 'mkdir', [
      recordArgs(mkdirs),
      `case "$*" in *${JSON.stringify(dir).slice(1, -1)}*) exec ${REAL_MKDIR} "$@" ;; esac`,
    ]);
  });
  /** The script as the SSM document runs it, mounting, with the stand-ins first on PATH. */
  const runOnNode = (args: string[] = []) => runScript(bin, args);
  /** mkdir calls other than the lock's directory. */
  const madeDirectories = () => recorded(mkdirs).filter((a) => a[a.length - 1] !== dir);

  // One run for every row, since an AWS CLI start each would cost about a second. test/python runs each row alone
  // through the checker, and this shows each, through the whole script, reported on its own line and touching nothing.
  test('every refused record at once beside a good one: each reported, nothing of it written, made or mounted; the good one mounts', async () => {
    // GIVEN
    for (const [i, [, value]] of REFUSED.entries())
      await putRecord(`bad-${String(i).padStart(2, '0')}`, value);
    await putServer('good', '10.0.0.5', '/shared');

    // WHEN
    const r = runOnNode();

    // THEN
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    const reported = r.stdout.split('\n').filter((l) => l.includes('ATTENTION'));
    for (const [i, [what, , why]] of REFUSED.entries()) {
      const name = mountParameterName(PREFIX, cluster, `bad-${String(i).padStart(2, '0')}`);
      const lines = reported.filter((l) => l.includes(`ATTENTION ${name}: `));
      expect([what, lines.length]).toEqual([what, 1]);
      expect([what, lines[0]]).toEqual([what, expect.stringContaining(`client-mount: ATTENTION ${name}: ${why}`)]);
      expect([what, lines[0]]).toEqual([what, expect.stringMatching(/; record skipped: nothing of it is written or mounted$/)]);
    }
    expect(r.stdout.split('\n').filter((l) => l.includes('ATTENTION'))).toHaveLength(REFUSED.length);
    expect(fstabLines()).toEqual([
      '# /etc/fstab',
      'UUID=0a1b2c3d / ext4 defaults 0 1',
      line('10.0.0.5', '/shared', 'good'),
    ]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/shared']]);
    expect(madeDirectories()).toEqual([['-m', '0755', '--', '/shared']]);
  });

  test('a good record is written with nosuid,nodev added once, whatever its options, and mounted from that line', async () => {
    await putRecord('s1', record({ options: `nosuid,${OPTIONS},noexec,nodev` }));

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const written = `10.0.0.5:/export/data /data nfs4 ${OPTIONS},noexec,nosuid,nodev 0 0${tag('s1')}`;
    expect(fstabLines().slice(2)).toEqual([written]);
    expect(r.stdout).toContain(`mounted 10.0.0.5:/export/data on /data`);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
    expect(madeDirectories()).toEqual([['-m', '0755', '--', '/data']]);
    // libmount reads the two flags back from the line the mount used.
    const findmnt = spawnSync(
      'findmnt',
      ['--tab-file', fstab, '--target', '/data', '-n', '-r', '-o', 'OPTIONS'],
      {
        encoding: 'utf8',
      },
    );
    expect(findmnt.stdout.trim().split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev']));
  });

  test.each([
    [true, 0, 'client-mount: remounted 10.0.0.5:/export/data on /data with nosuid,nodev'],
    [
      false,
      2,
      'client-mount: ATTENTION NOT-NOSUID 10.0.0.5:/export/data on /data is mounted without nosuid,nodev and remounting it with them failed',
    ],
  ])(
    'a mount made without nosuid,nodev is remounted with them in place (remount works: %s)',
    async (works, status, report) => {
      // GIVEN: /data already mounted from the record's source, with per-mount flags rw,noexec,relatime, and a stand-in
      // findmnt that shows nosuid,nodev once a remount was recorded, if remounting works
      await putServer('s1', '10.0.0.5');
      program(bin, 'findmnt', [
        'case "$*" in',
        '  *" SOURCE "*) echo 10.0.0.5:/export/data ;;',
        '  *" VFS-OPTIONS "*) echo rw,noexec,relatime ;;',
        `  *" OPTIONS "*) if ${works} && grep -q remount ${JSON.stringify(mounts)} 2>/dev/null; then echo rw,nosuid,nodev,noexec,relatime,vers=4.1; else echo rw,noexec,relatime,vers=4.1; fi ;;`,
        'esac',
      ]);

      // WHEN
      const r = runOnNode();

      // THEN: one bind remount that keeps the other flags and adds the two, no mount helper, no fstab options
      expect(r.stderr).toBe('');
      expect(r.status).toBe(status);
      expect(r.stdout).toContain(report);
      expect(recorded(mounts)).toEqual([
        [
          '-i',
          '--options-mode',
          'ignore',
          '-o',
          'remount,bind,rw,noexec,relatime,nosuid,nodev',
          '--',
          '/data',
        ],
      ]);
    },
  );

  test('--allow-home admits directories below /home, and nothing else', async () => {
    await putServer('h1', '10.0.0.5', '/home/x');
    await putServer('h2', '10.0.0.6', '/home/y'); // not /home itself beside /home/x: a nested pair is refused
    await putServer('r1', '10.0.0.7', '/root/x');

    const r = runOnNode(['--allow-home']);

    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(fstabLines().slice(2)).toEqual([
      line('10.0.0.5', '/home/x', 'h1'),
      line('10.0.0.6', '/home/y', 'h2'),
    ]);
    expect(r.stdout).toContain(
      `ATTENTION ${mountParameterName(PREFIX, cluster, 'r1')}: mountPoint "/root/x" is not a mount root or below one; the mount roots are /data /scratch /shared /fsx /home`,
    );
    expect(recorded(mounts)).toEqual([
      ['-T', fstab, '--', '/home/x'],
      ['-T', fstab, '--', '/home/y'],
    ]);
  });

  test('a record that turns bad leaves the line it had alone, and is reported', async () => {
    await putServer('s1', '10.0.0.5');
    run();
    const before = fs.readFileSync(fstab);
    await putRecord('s1', record({ options: `${OPTIONS},suid` }));

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION ${mountParameterName(PREFIX, cluster, 's1')}: options: "suid" is not an allowed`,
    );
    expect(r.stdout).not.toContain('STALE');
    expect(fs.readFileSync(fstab).equals(before)).toBe(true);
  });

  test('a record that fails with any error is skipped alone: deep nesting (RecursionError), an OSError; the good one mounts', async () => {
    // GIVEN: python3 as the node has it, but lstat('/scratch') fails with EIO, as on a disk error or a race that makes
    // realpath raise: an error the checks do not expect
    const inject = path.join(dir, 'inject');
    fs.mkdirSync(inject);
    fs.writeFileSync(
      path.join(inject, 'sitecustomize.py'),
      [
        'import errno, os',
        '_lstat = os.lstat',
        'def lstat(p, *a, **k):',
        "    if str(p) == '/scratch':",
        "        raise OSError(errno.EIO, 'Input/output error', p)",
        '    return _lstat(p, *a, **k)',
        'os.lstat = lstat',
        '',
      ].join('\n'),
    );
    program(bin, 'python3', [`PYTHONPATH=${JSON.stringify(inject)} exec ${JSON.stringify(path.join(venv, 'python3'))} "$@"`]);
    await putRecord('a-nested', `${'{"a":'.repeat(1500)}1${'}'.repeat(1500)}`);
    await putRecord('b-eio', record({ mountPoint: '/scratch/x' }));
    await putServer('c-good', '10.0.0.5', '/data');

    // WHEN
    const r = runOnNode();

    // THEN
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    const name = (s: string) => mountParameterName(PREFIX, cluster, s);
    expect(r.stdout.split('\n').filter((l) => l.includes('ATTENTION'))).toEqual([
      `client-mount: ATTENTION ${name('a-nested')}: is nested too deeply to check (RecursionError); record skipped: nothing of it is written or mounted`,
      `client-mount: ATTENTION ${name('b-eio')}: could not be checked (OSError: [Errno 5] Input/output error: '/scratch'); record skipped: nothing of it is written or mounted`,
    ]);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 'c-good')]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
  });
});
