import { spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { mountParameterName } from '../../lambda/register/contract';
import {
  PREFIX,
  SCRIPT,
  baseArgs,
  cluster,
  dir,
  fstab,
  fstabLines,
  line,
  nodeStandIns,
  program,
  putServer,
  recordArgs,
  recorded,
  safeCacheDir,
  scriptEnv,
  runOnNode as runScript,
  useClientMountHarness,
} from '../support/client-mount-harness';

useClientMountHarness();

describe('client-mount.sh refuses a mount point it cannot reach safely on the node', () => {
  // Real directories: a mount root in a directory of this test, passed as --mount-roots. It is under
  // node_modules/.cache, not /tmp, since /tmp is writable by everyone, so nothing under it is ever safe. mount and
  // mkdir are stand-ins that record their arguments. The script treats directories owned by root or by the user running
  // it as root's, which is the same under SSM, where that user is root.
  let bin: string;
  let mounts: string;
  let mkdirs: string;
  let base: string;
  let root: string;
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns());
    mkdirs = path.join(dir, 'mkdir-calls');
    // The lock's directory, under the test's own directory, is made for real and not recorded.
    const realMkdir = spawnSync('sh', ['-c', 'command -v mkdir'], { encoding: 'utf8' }).stdout.trim();
    program(bin, 'mkdir', [`case "$*" in *${JSON.stringify(dir).slice(1, -1)}*) exec ${realMkdir} "$@" ;; esac`, recordArgs(mkdirs)]);
    const cache = safeCacheDir();
    base = fs.mkdtempSync(path.join(cache, 'client-mount-'));
    fs.chmodSync(base, 0o755);
    root = path.join(base, 'r');
    fs.mkdirSync(root, { mode: 0o755 });
    // The precondition: every directory down to the test's root is root's or this user's, written by no one else.
    for (let d = root; d !== '/'; d = path.dirname(d)) {
      const st = fs.lstatSync(d);
      expect({ d, owner: [0, process.getuid!()].includes(st.uid), writable: st.mode & 0o022 }).toEqual({ d, owner: true, writable: 0 });
    }
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));
  const runOnNode = () => runScript(bin, ['--mount-roots', root]);
  const name = (s: string) => mountParameterName(PREFIX, cluster, s);
  const attention = (r: SpawnSyncReturns<string>) => r.stdout.split('\n').filter((l) => l.includes('ATTENTION'));

  test('missing directories are made one by one, 0755, and the mount point mounted', async () => {
    await putServer('s1', '10.0.0.5', `${root}/proj/a`);

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(recorded(mkdirs)).toEqual([
      ['-m', '0755', '--', `${root}/proj`],
      ['-m', '0755', '--', `${root}/proj/a`],
    ]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', `${root}/proj/a`]]);
  });

  test.each([
    ['writable by everyone', 0o777, 'group and others (mode 0777)'],
    ['writable by everyone, sticky (as /tmp)', 0o1777, 'group and others (mode 1777)'],
    ['writable by its group', 0o775, 'its group (mode 0775)'],
  ])('a parent %s with a symbolic link planted in it by a user: refused, nothing made or mounted', async (_what, mode, why) => {
    // GIVEN: <root>/shared is writable by others, and a user made <root>/shared/proj a link to /etc
    const shared = path.join(root, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, mode);
    fs.symlinkSync('/etc', path.join(shared, 'proj'));
    fs.lchownSync(path.join(shared, 'proj'), 65534, 65534);
    await putServer('evil', '10.0.0.5', `${shared}/proj`);
    await putServer('good', '10.0.0.6', `${root}/good`);

    // WHEN
    const r = runOnNode();

    // THEN
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(attention(r)).toEqual([
      `client-mount: ATTENTION ${name('evil')}: mountPoint ${JSON.stringify(`${shared}/proj`)}: ${JSON.stringify(shared)} is writable by ${why}; a user who can write a directory on the way could redirect the mount; record skipped: nothing of it is written or mounted`,
    ]);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.6', `${root}/good`, 'good')]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', `${root}/good`]]);
    expect(recorded(mkdirs)).toEqual([['-m', '0755', '--', `${root}/good`]]);
  });

  test('a parent owned by another user: refused', async () => {
    const theirs = path.join(root, 'theirs');
    fs.mkdirSync(theirs, { mode: 0o755 });
    fs.chownSync(theirs, 65534, 65534);
    await putServer('s1', '10.0.0.5', `${theirs}/x`);

    const r = runOnNode();

    expect(r.status).toBe(2);
    expect(attention(r)).toEqual([
      expect.stringContaining(
        `ATTENTION ${name('s1')}: mountPoint ${JSON.stringify(`${theirs}/x`)}: ${JSON.stringify(theirs)} is owned by uid 65534, not root`,
      ),
    ]);
    expect(recorded(mounts)).toEqual([]);
    expect(recorded(mkdirs)).toEqual([]);
  });

  test.each([
    ['the mount point itself', (l: string) => l, 'it is a symbolic link on this node'],
    ['a directory on the way', (l: string) => `${l}/x`, `${JSON.stringify('LINK')} is a symbolic link on this node`],
  ])('a symbolic link as %s, even in a directory only root writes: refused', async (_what, mp, why) => {
    const link = path.join(root, 'link');
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), link);
    await putServer('s1', '10.0.0.5', mp(link));

    const r = runOnNode();

    expect(r.status).toBe(2);
    expect(attention(r)).toEqual([
      expect.stringContaining(`ATTENTION ${name('s1')}: mountPoint ${JSON.stringify(mp(link))}: ${why.replace('LINK', link)}`),
    ]);
    expect(recorded(mounts)).toEqual([]);
    expect(recorded(mkdirs)).toEqual([]);
  });

  test('the path is checked again just before the mount: a parent made writable and a link planted after the records were read', async () => {
    // GIVEN: at the records' check <root>/late is root's. While the fstab is written, by cp, a stand-in that then runs
    // the real one, it becomes writable by everyone and a link to /etc appears in it
    const late = path.join(root, 'late');
    fs.mkdirSync(late, { mode: 0o755 });
    const realCp = spawnSync('sh', ['-c', 'command -v cp'], { encoding: 'utf8' }).stdout.trim();
    program(bin, 'cp', [
      `chmod 0777 ${JSON.stringify(late)} && ln -s /etc ${JSON.stringify(`${late}/proj`)}`,
      `exec ${realCp} "$@"`,
    ]);
    await putServer('s1', '10.0.0.5', `${late}/proj`);

    // WHEN
    const r = runOnNode();

    // THEN: the line was written, since the record was good when read, and the mount refused
    expect(r.status).toBe(2);
    expect(fs.lstatSync(`${late}/proj`).isSymbolicLink()).toBe(true);
    expect(attention(r)).toEqual([
      `client-mount: ATTENTION UNSAFE-PATH mountPoint ${JSON.stringify(`${late}/proj`)}: ${JSON.stringify(late)} is writable by group and others (mode 0777); a user who can write a directory on the way could redirect the mount; not mounting 10.0.0.5:/export/data for ${cluster}/s1. Fix the directory and re-run.`,
    ]);
    expect(recorded(mounts)).toEqual([]);
    expect(recorded(mkdirs)).toEqual([]);
  });

  test('--mount-roots refuses /, /opt and the other named directories, a system directory or one below it, a relative path: exit 1', () => {
    for (const roots of ['/', '/etc', '/usr/local', '/home', '/home/x', 'data', '/data,', '/data/../etc', '/data x', '/opt', '/data,/srv', '/efi/x']) {
      const r = spawnSync('bash', [SCRIPT, ...baseArgs(), '--no-mount', '--mount-roots', roots], {
        encoding: 'utf8',
        env: scriptEnv(),
        timeout: 60_000,
      });
      expect({ roots, status: r.status, err: r.stderr }).toEqual({
        roots,
        status: 1,
        err: expect.stringContaining('--mount-roots must be a comma list of absolute directories'),
      });
    }
    // Below a directory the FHS names is a site's own, as OpenHPC's /opt/ohpc/pub: the roots are taken and the run goes
    // on.
    const below = spawnSync('bash', [SCRIPT, ...baseArgs(), '--no-mount', '--mount-roots', '/data,/opt/ohpc/pub'], { encoding: 'utf8', env: scriptEnv(), timeout: 60_000 });
    expect({ status: below.status, err: below.stderr }).toEqual({ status: 0, err: '' });
  });
});
