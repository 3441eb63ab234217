/**
 * lib/scripts/storage-metrics.sh, the server's heartbeat and nfsd counters for the CloudWatch agent's StatsD listener.
 * It runs with bash against a stand-in /proc/net/rpc/nfsd and stand-ins for mountpoint and exportfs, since the real
 * ones need a mounted, exported file system, which the VM tests have. The lines go to a file here, by --out; one test
 * sends them as UDP datagrams to a listener, as on the server.
 */
import { spawnSync } from 'child_process';
import * as dgram from 'dgram';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SERVER_METRICS } from '../../lib/server-metrics';
import { venvBin } from '../support/venv';

const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-metrics.sh');
const TAGS = '#ClusterName:hpc1,ServerName:storage1';

interface Host {
  /** Is the export path a mount point? */
  readonly mounted: boolean;
  /** Does `exportfs -s` list the export path? */
  readonly exported: boolean;
  /** /proc/fs/nfsd/threads. */
  readonly threads: string;
}
const LIVE: Host = { mounted: true, exported: true, threads: '16' };

function nfsdStats(calls: number, read: number, written: number): string {
  return `rc 0 12 345\nfh 0 0 0 0 0\nio ${read} ${written}\nth 16 0 0.000 0.000\nrpc ${calls} 0 0 0 0\nproc4 2 0 ${calls}\n`;
}

/** A directory with stand-in commands and files, and a runner of the script in it. */
function sandbox() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-metrics-'));
  const bin = path.join(dir, 'bin');
  const exportPath = path.join(dir, 'export');
  fs.mkdirSync(bin);
  fs.mkdirSync(exportPath);
  const run = (host: Host, stats: string | undefined, extra: string[] = []) => {
    fs.writeFileSync(path.join(bin, 'mountpoint'), `#!/bin/sh\nexit ${host.mounted ? 0 : 1}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'exportfs'),
      `#!/bin/sh\n${host.exported ? `echo "${exportPath}  192.168.1.0/24(sync,wdelay,hide,no_subtree_check,sec=sys,rw,secure,root_squash,no_all_squash)"` : 'echo "/elsewhere  10.0.0.0/8(rw)"'}\n`,
      { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'threads'), `${host.threads}\n`);
    if (stats === undefined) fs.rmSync(path.join(dir, 'nfsd'), { force: true });
    else fs.writeFileSync(path.join(dir, 'nfsd'), stats);
    fs.rmSync(path.join(dir, 'out'), { force: true });
    const r = spawnSync('bash', [SCRIPT, '--cluster', 'hpc1', '--server', 'storage1', '--export', exportPath,
      '--nfsd-stats', path.join(dir, 'nfsd'), '--nfsd-threads', path.join(dir, 'threads'), '--state', path.join(dir, 'state', 'counters'),
      '--out', path.join(dir, 'out'), ...extra], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    const out = fs.existsSync(path.join(dir, 'out')) ? fs.readFileSync(path.join(dir, 'out'), 'utf8').trim().split('\n') : [];
    return { status: r.status, stderr: r.stderr, lines: out };
  };
  return { dir, run, exportPath };
}

/** The two file-system lines' shape; their values are checked by {@link expectFileSystemValues}. */
function fileSystemLines(): unknown[] {
  const line = (name: string) => expect.stringMatching(new RegExp(`^${name}:\\d+\\.\\d\\d\\|g\\|${TAGS}$`));
  return [line(SERVER_METRICS.fileSystemUsedPercent), line(SERVER_METRICS.inodesUsedPercent)];
}

/**
 * Checks each file-system value against statfs as df counts, used / (used + available), and inodes used / total, within
 * 0.1, since other processes write to the same file system between the script's reading and this one.
 */
function expectFileSystemValues(lines: string[], dir: string): void {
  const st = fs.statfsSync(dir);
  const used = st.blocks - st.bfree;
  const value = (name: string): number => Number(lines.find((l) => l.startsWith(`${name}:`))!.split(/[:|]/)[1]);
  expect(Math.abs(value(SERVER_METRICS.fileSystemUsedPercent) - 100 * used / (used + st.bavail))).toBeLessThan(0.1);
  expect(Math.abs(value(SERVER_METRICS.inodesUsedPercent) - 100 * (st.files - st.ffree) / st.files)).toBeLessThan(0.1);
}

describe('storage-metrics', () => {
  test('the heartbeat is sent only while the export is live: mounted, exported and nfsd serving', () => {
    const { run, exportPath } = sandbox();
    const live = run(LIVE, undefined).lines;
    expect(live).toEqual([`${SERVER_METRICS.exportLive}:1|g|${TAGS}`, ...fileSystemLines()]);
    expectFileSystemValues(live, exportPath);
    for (const dead of [{ ...LIVE, exported: false }, { ...LIVE, threads: '0' }, { ...LIVE, threads: '' }]) {
      const r = run(dead, undefined);
      expect(r.status).toBe(0);
      expect(r.lines).toEqual(fileSystemLines());
    }
  });

  test('nothing about the file system unless it is mounted at the export path (never the root underneath)', () => {
    const { run } = sandbox();
    const r = run({ ...LIVE, mounted: false }, undefined);
    expect(r.status).toBe(0);
    expect(r.lines).toEqual([]);
  });

  test('nfsd counters: nothing on the first run, then the calls and bytes since the last run', () => {
    const { run } = sandbox();
    expect(run(LIVE, nfsdStats(1000, 5_000_000, 7_000_000)).lines).toEqual([`export_live:1|g|${TAGS}`, ...fileSystemLines()]);
    expect(run(LIVE, nfsdStats(1600, 5_100_000, 9_000_000)).lines).toEqual([
      `export_live:1|g|${TAGS}`,
      ...fileSystemLines(),
      `${SERVER_METRICS.nfsOps}:600|c|${TAGS}`,
      `${SERVER_METRICS.nfsReadBytes}:100000|c|${TAGS}`,
      `${SERVER_METRICS.nfsWriteBytes}:2000000|c|${TAGS}`,
    ]);
    // Counters go on while the export is down: the calls still happened, as when a client saw errors.
    expect(run({ ...LIVE, mounted: false }, nfsdStats(1700, 5_100_000, 9_000_000)).lines).toEqual([
      `nfsd_ops:100|c|${TAGS}`, `nfsd_read_bytes:0|c|${TAGS}`, `nfsd_write_bytes:0|c|${TAGS}`,
    ]);
  });

  test('after an nfsd restart (its counters went down) no counter is sent, and the next run counts from there', () => {
    const { run } = sandbox();
    run({ ...LIVE, mounted: false }, nfsdStats(1000, 5_000_000, 7_000_000));
    expect(run({ ...LIVE, mounted: false }, nfsdStats(10, 4096, 0)).lines).toEqual([]);
    expect(run(LIVE, nfsdStats(30, 8192, 4096)).lines).toContain(`nfsd_ops:20|c|${TAGS}`);
  });

  test('names that could break a StatsD line are refused, naming the argument', () => {
    const { run } = sandbox();
    for (const [arg, value] of [['--cluster', 'hpc1|x'], ['--server', 'a:b'], ['--export', '/export/#x'], ['--statsd', 'host:8125']]) {
      const r = run(LIVE, undefined, [arg, value]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`storage-metrics: ERROR: ${arg} `);
      expect(r.lines).toEqual([]);
    }
  });

  test('without --out every line goes to the StatsD listener as one datagram', async () => {
    const { dir, run, exportPath } = sandbox();
    const socket = dgram.createSocket('udp4');
    const received: string[] = [];
    socket.on('message', (m) => received.push(m.toString()));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const port = socket.address().port;
    try {
      run(LIVE, nfsdStats(1, 1, 1));
      // Re-run without --out: the script's own datagrams.
      const args = ['--statsd', `127.0.0.1:${port}`];
      fs.writeFileSync(path.join(dir, 'nfsd'), nfsdStats(3, 10, 20));
      const r = spawnSync('bash', [SCRIPT, '--cluster', 'hpc1', '--server', 'storage1', '--export', exportPath,
        '--nfsd-stats', path.join(dir, 'nfsd'), '--nfsd-threads', path.join(dir, 'threads'), '--state', path.join(dir, 'state', 'counters'), ...args],
      { encoding: 'utf8', env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}` } });
      expect(r.status).toBe(0);
      for (let i = 0; i < 50 && received.length < 6; i++) await new Promise((res) => setTimeout(res, 20));
      expect(received).toEqual([`export_live:1|g|${TAGS}`, ...fileSystemLines(),
        `nfsd_ops:2|c|${TAGS}`, `nfsd_read_bytes:9|c|${TAGS}`, `nfsd_write_bytes:19|c|${TAGS}`]);
    } finally {
      socket.close();
    }
  });

  test('the fullest user against their own limit or the default, with user quotas on the mount and a limit set', () => {
    const { dir, run } = sandbox();
    const quota = (options: string, report: string) => {
      fs.writeFileSync(path.join(dir, 'bin', 'findmnt'), `#!/bin/sh\necho '${options}'\n`, { mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'bin', 'xfs_quota'), `#!/bin/sh\nprintf '${report}'\n`, { mode: 0o755 });
      return run(LIVE, undefined).lines.filter((l) => l.startsWith(`${SERVER_METRICS.quotaFullestUserPercent}:`));
    };
    // xfs_quota report -u -b -n -N: id, used, soft, hard, warnings/grace (KiB). The default is id 0's hard limit.
    const report = '#0 7168 0 2097152 00 [------]\n#1001 524288 0 1048576 00 [------]\n#1002 1536000 0 0 00 [------]\n';
    // 1002, under the default, is the fullest: 1536000 of 2097152.
    expect(quota('rw,attr2,usrquota,prjquota,grpquota', report)).toEqual([`quota_fullest_user_percent:73.24|g|${TAGS}`]);
    // Without the default, 1002 has no limit; 1001 is the fullest at half of its own.
    expect(quota('rw,usrquota', report.replace('2097152', '0'))).toEqual([`quota_fullest_user_percent:50.00|g|${TAGS}`]);
    // No limit anywhere, or no user quotas on the mount: nothing.
    expect(quota('rw,usrquota', '#0 1 0 0 00 [--]\n#5 9 0 0 00 [--]\n')).toEqual([]);
    expect(quota('rw,grpquota', report)).toEqual([]);
  });

  test('shellcheck-clean', () => {
    const r = spawnSync(path.join(venvBin(), 'shellcheck'), [SCRIPT], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
  });
});
