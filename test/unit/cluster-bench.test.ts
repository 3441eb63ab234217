/**
 * lib/scripts/cluster-bench.sh, one node's part of the cluster benchmark, run by bash with a stand-in fio, since this
 * machine has none, and a stand-in mountpoint. The stand-in fio writes the data file and fio's JSON report the way fio
 * 3 does. Real fio against a real NFS export runs in the VM tests in test/e2e, on the client of the reboot boot.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvBin } from '../support/venv';

const SCRIPT = path.join(__dirname, '../../lib/scripts/cluster-bench.sh');

/**
 * A stand-in fio: it takes --rw, --size, --filename and --output. It writes a small data file on write, and a report
 * with the fields the script reads, jobs[0].<rw>.io_bytes and runtime, sleeping FIO_SLEEP seconds first if set.
 */
const FIO = `#!/usr/bin/env bash
for a; do case $a in --rw=*) rw=\${a#--rw=} ;; --filename=*) f=\${a#--filename=} ;; --output=*) out=\${a#--output=} ;; --size=*) size=\${a#--size=} ;; esac; done
echo "$*" >>"$FIO_LOG"
sleep "\${FIO_SLEEP:-0}"
[ "$rw" = write ] && head -c 4096 /dev/zero >"$f"
bytes=$(( \${size%M} * 1048576 ))
ms=$([ "$rw" = write ] && echo 2000 || echo 1000)
printf '{"fio version": "fio-3.33", "jobs": [{"jobname": "%s", "%s": {"io_bytes": %s, "runtime": %s}}]}\\n' "$rw" "$rw" "$bytes" "$ms" >"$out"
`;

function sandbox(mounted = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-'));
  const bin = path.join(dir, 'bin');
  const mount = path.join(dir, 'mnt');
  fs.mkdirSync(bin);
  fs.mkdirSync(path.join(mount, '.storage-bench'), { recursive: true });
  fs.writeFileSync(path.join(bin, 'fio'), FIO, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'mountpoint'), `#!/bin/sh\nexit ${mounted ? 0 : 1}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'hostname'), '#!/bin/sh\necho node07\n', { mode: 0o755 });
  // A stand-in findmnt: the mount's type and options as FINDMNT_OUT says, by default the kernel's NFS options. It fails
  // when FINDMNT_OUT is empty, as findmnt does for a directory that is not a mount point.
  fs.writeFileSync(path.join(bin, 'findmnt'), '#!/bin/sh\n[ -n "$FINDMNT_OUT" ] || exit 1\necho "$@" >>"$FINDMNT_LOG"\nprintf \'%s\\n\' "$FINDMNT_OUT"\n', { mode: 0o755 });
  const env: NodeJS.ProcessEnv = {
    ...process.env, PATH: `${bin}:${process.env.PATH}`, FIO_LOG: path.join(dir, 'fio.log'), FINDMNT_LOG: path.join(dir, 'findmnt.log'),
    FINDMNT_OUT: 'nfs4 rw,relatime,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,nconnect=16,proto=tcp,timeo=600,retrans=2',
  };
  return { dir, mount, env };
}

describe('cluster-bench', () => {
  test('writes then reads SIZE MiB in 1 MiB direct I/O, prints one JSON line, and leaves no file behind', () => {
    const { dir, mount, env } = sandbox();
    const r = spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '3072', '--run', 'run-1'], { encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      host: 'node07', run: 'run-1', sizeMiB: 3072, writeBytes: 3 * 2 ** 30, writeMs: 2000, readBytes: 3 * 2 ** 30, readMs: 1000,
      fsType: 'nfs4', nconnect: 16,
    });
    expect(fs.readFileSync(path.join(dir, 'findmnt.log'), 'utf8')).toBe(`-f -n -o FSTYPE,OPTIONS --mountpoint ${mount}\n`);
    const calls = fs.readFileSync(path.join(dir, 'fio.log'), 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    for (const [i, rw] of ['write', 'read'].entries()) {
      for (const arg of [`--rw=${rw}`, '--bs=1M', '--direct=1', '--size=3072M', `--filename=${mount}/.storage-bench/run-1/node07/data`]) {
        expect(calls[i].split(' ')).toContain(arg);
      }
    }
    expect(calls[0].split(' ')).toContain('--end_fsync=1');
    expect(fs.readdirSync(path.join(mount, '.storage-bench'))).toEqual([]);
  });

  test.each([
    ['NFS without nconnect: one connection', 'nfs4 rw,vers=4.2,rsize=1048576,proto=tcp', 'nfs4', 1],
    ['NFSv3 with nconnect=4', 'nfs rw,vers=3,nconnect=4,proto=tcp', 'nfs', 4],
    ['an option that only ends in nconnect=', 'nfs4 rw,xnconnect=8,proto=tcp', 'nfs4', 1],
    ['Lustre: no NFS connections', 'lustre rw,flock,lazystatfs', 'lustre', null],
    ['findmnt cannot say', '', 'unknown', null],
    ['a type that is not a word', 'nfs"4 rw', 'unknown', null],
  ])('the mount in its line, %s', (_, findmnt, fsType, nconnect) => {
    const { mount, env } = sandbox();
    const r = spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'r'], { encoding: 'utf8', env: { ...env, FINDMNT_OUT: findmnt } });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ fsType, nconnect });
  });

  test('another node\'s files of the same run stay; only this node\'s go', () => {
    const { mount, env } = sandbox();
    fs.mkdirSync(path.join(mount, '.storage-bench/run-1/node03'), { recursive: true });
    fs.writeFileSync(path.join(mount, '.storage-bench/run-1/node03/data'), 'theirs');
    expect(spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'run-1'], { env }).status).toBe(0);
    expect(fs.readdirSync(path.join(mount, '.storage-bench/run-1'))).toEqual(['node03']);
  });

  test('an earlier run killed outright (no trap ran) left this node\'s files: they go first, other nodes\' stay', () => {
    const { mount, env } = sandbox();
    for (const host of ['node07', 'node03']) {
      fs.mkdirSync(path.join(mount, `.storage-bench/old-run/${host}`), { recursive: true });
      fs.writeFileSync(path.join(mount, `.storage-bench/old-run/${host}/data`), 'left');
    }
    const r = spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'run-3'], { encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`cluster-bench: removing ${mount}/.storage-bench/old-run/node07, left by an earlier run`);
    expect(fs.readdirSync(path.join(mount, '.storage-bench'))).toEqual(['old-run']);
    expect(fs.readdirSync(path.join(mount, '.storage-bench/old-run'))).toEqual(['node03']);
  });

  test.each([['SIGTERM', 143], ['SIGINT', 130]] as const)('interrupted by %s while writing: its files are removed', async (signal, code) => {
    const { mount, env } = sandbox();
    const child = spawn('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'run-2'], { env: { ...env, FIO_SLEEP: '5' } });
    const dataDir = path.join(mount, '.storage-bench/run-2/node07');
    for (let i = 0; i < 100 && !fs.existsSync(dataDir); i++) await new Promise((res) => setTimeout(res, 20));
    expect(fs.existsSync(dataDir)).toBe(true);
    const exited = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(fs.readdirSync(path.join(mount, '.storage-bench'))).toEqual([]);
  });

  test('without .storage-bench: makes it (1777) where it may (Lustre), refuses where it may not (a squashed root)', () => {
    const { mount, env } = sandbox();
    fs.rmdirSync(path.join(mount, '.storage-bench'));
    expect(spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'r'], { env }).status).toBe(0);
    expect(fs.statSync(path.join(mount, '.storage-bench')).mode & 0o7777).toBe(0o1777);
    fs.rmdirSync(path.join(mount, '.storage-bench'));
    // A mkdir that fails as a squashed root's does in the export's root directory, since this test may run as root.
    const bin = env.PATH!.split(':')[0];
    fs.writeFileSync(path.join(bin, 'mkdir'), '#!/bin/sh\n[ "$1" = -m ] && { echo "mkdir: Permission denied" >&2; exit 1; }\nexec /bin/mkdir "$@"\n', { mode: 0o755 });
    const r = spawnSync('bash', [SCRIPT, '--mount', mount, '--size-mib', '1', '--run', 'r'], { encoding: 'utf8', env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${mount}/.storage-bench is missing and cannot be made here: the server's bootstrap makes it`);
    expect(fs.readdirSync(mount)).toEqual([]);
  });

  test('refuses an unmounted storage and bad arguments, naming them, and writes nothing', () => {
    const unmounted = sandbox(false);
    const r = spawnSync('bash', [SCRIPT, '--mount', unmounted.mount, '--size-mib', '1', '--run', 'r'], { encoding: 'utf8', env: unmounted.env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`cluster-bench: ERROR: ${unmounted.mount} is not a mount point`);
    const { mount, env } = sandbox();
    for (const [args, message] of [
      [['--mount', 'relative', '--size-mib', '1', '--run', 'r'], '--mount must be an absolute path'],
      [['--mount', mount, '--size-mib', '0', '--run', 'r'], '--size-mib must be a whole number of MiB'],
      [['--mount', mount, '--size-mib', '1', '--run', 'a/b'], '--run must be 1-64 characters'],
    ] as const) {
      const bad = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', env });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain(message);
    }
    expect(fs.readdirSync(path.join(mount, '.storage-bench'))).toEqual([]);
  });

  test('shellcheck-clean', () => {
    const r = spawnSync(path.join(venvBin(), 'shellcheck'), [SCRIPT], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
  });
});
