/**
 * The quota inputs as a caller could get them wrong: the `quotas` prop's forms that no backend's own checks reach
 * (lib/quotas.ts), FSx for Lustre's project directories (lib/backends/fsx/quotas.ts and its node script), and what the
 * FSx for OpenZFS handler sends on an update (lambda/openzfs-export). Each case here was a hole found by review.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Stack, Token } from 'aws-cdk-lib';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { Backend } from '../../lib/backend-enum';
import { checkQuotas, QuotaType, type QuotaLimit, type QuotaSupport } from '../../lib/quotas';
import { appStack, serverStack } from '../support/stacks';

describe('checkQuotas', () => {
  // No backend takes a default yet; one that does must not get a default the limits' own check would refuse.
  const TAKES_DEFAULT: QuotaSupport = { types: [QuotaType.USER], defaultUser: true, why: 'test' };

  test.each([0, -1, 1.5, 2 ** 31, Number.NaN, '5', null])('a default of %p GiB is refused, naming the prop', (value) => {
    expect(() => checkQuotas(new Stack(), { defaultUserGiB: value as number }, 'test', TAKES_DEFAULT))
      .toThrow(/^quotas\.defaultUserGiB must be an integer of 1-2147483647, got /);
  });

  test('a default of 1-2147483647 GiB, or a token, passes', () => {
    for (const value of [1, 2 ** 31 - 1, Token.asNumber({ Ref: 'DefaultGiB' })]) {
      expect(() => checkQuotas(new Stack(), { defaultUserGiB: value }, 'test', TAKES_DEFAULT)).not.toThrow();
    }
  });
});

describe('FSx for Lustre\'s project directories', () => {
  const project = (id: number, dir: string): QuotaLimit => ({ type: QuotaType.PROJECT, id, limitGiB: 1, path: dir });
  const lustre = (limits: QuotaLimit[]) => serverStack({
    backend: Backend.FSX_LUSTRE, capacityTiB: 2.4, quotas: { limits }, fsxLustre: { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 },
  });

  // A file has one project id: two projects on one directory, or one inside another, end as the order of the
  // node's runs leaves them, since each run's lfs project -r gives the whole tree its id.
  test.each([
    ['the same directory', [project(7, '/a'), project(8, '/a')], /^quotas\.limits\[1\]\.path: \/a is also the directory of quotas\.limits\[0\]/],
    ['a directory inside another\'s', [project(7, '/a/b'), project(8, '/a')], /^quotas\.limits\[1\]\.path: \/a holds \/a\/b, the directory of quotas\.limits\[0\]/],
  ])('%s for two projects is refused, naming the prop', (_name, limits, message) => {
    expect(() => lustre(limits)).toThrow(message);
  });

  test('the key names its entries', () => {
    expect(() => appStack({ backend: 'fsx-lustre', fsxFileSystemTypeVersion: '2.15', quotaLimits: 'project:7:1:/a,project:8:1:/a/b' }))
      .toThrow(/^quotaLimits entry 2\.path: \/a\/b is inside \/a, the directory of quotaLimits entry 1/);
  });

  test('siblings, and a name that only starts like another, pass', () => {
    expect(() => lustre([project(7, '/a'), project(8, '/ab'), project(9, '/b/a'), project(10, '/a-b')])).not.toThrow();
  });
});

describe('storage-lustre-quota.sh on what reaches the node', () => {
  const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-lustre-quota.sh');
  /** A node whose mount point is a real directory, so that what the script makes and follows there can be seen. */
  function node() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-inputs-'));
    const mp = path.join(dir, 'mnt');
    fs.mkdirSync(mp);
    fs.mkdirSync(path.join(dir, 'bin'));
    const log = path.join(dir, 'lfs.log');
    fs.writeFileSync(path.join(dir, 'bin', 'lfs'), `#!/bin/bash\necho "$*" >>${log}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'mounts'), `172.31.0.9@tcp:/abcdefgh ${mp} lustre rw 0 0\n`);
    const env = {
      ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, STORAGE_LUSTRE_MOUNTS: path.join(dir, 'mounts'),
      STORAGE_LUSTRE_STATE_DIR: path.join(dir, 'state'), STORAGE_LUSTRE_WAIT_SECONDS: '0',
    };
    const run = (limits: string) => spawnSync('bash', [SCRIPT, '--mount-name', 'abcdefgh', '--mount-point', mp, '--limits', limits],
      { encoding: 'utf8', env });
    const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
    return { dir, mp, run, calls };
  }

  // SSM's pattern refuses these, but the script says it checks each entry again, and bash's read drops a trailing
  // empty field and stops at a line break.
  test.each([
    ['a trailing comma', 'user:1001:1,'],
    ['a line break before more', 'user:1001:1\nuser:0:5'],
  ])('%s is refused, nothing set', (_name, limits) => {
    const n = node();
    const r = n.run(limits);
    expect(r.stderr).toMatch(/^storage-lustre-quota: ERROR: --limits must be entries joined by single commas, without an empty one or a line break/);
    expect(r.status).toBe(1);
    expect(n.calls()).toEqual([]);
  });

  test.each([
    ['one directory', 'project:7:1:/a,project:8:1:/a', /--limits entry 2: the directory \/a is also project 7's/],
    ['a directory inside another\'s', 'project:7:1:/a,project:8:1:/a/b', /--limits entry 2: the directory \/a\/b is inside \/a, project 7's/],
    ['a directory holding another\'s', 'project:7:1:/a/b,project:8:1:/a', /--limits entry 2: the directory \/a holds \/a\/b, project 7's/],
  ])('two projects on %s are refused, nothing set', (_name, limits, message) => {
    const n = node();
    const r = n.run(limits);
    expect(r.stderr).toMatch(message);
    expect(r.status).toBe(1);
    expect(n.calls()).toEqual([]);
  });
});

describe('storage-lustre-quota.sh and a symlink a user made in the file system', () => {
  const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-lustre-quota.sh');
  function node() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-symlink-'));
    const mp = path.join(dir, 'mnt');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(mp);
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(dir, 'bin'));
    const log = path.join(dir, 'lfs.log');
    fs.writeFileSync(path.join(dir, 'bin', 'lfs'), `#!/bin/bash\necho "$*" >>${log}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'mounts'), `172.31.0.9@tcp:/abcdefgh ${mp} lustre rw 0 0\n`);
    const env = {
      ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, STORAGE_LUSTRE_MOUNTS: path.join(dir, 'mounts'),
      STORAGE_LUSTRE_STATE_DIR: path.join(dir, 'state'), STORAGE_LUSTRE_WAIT_SECONDS: '0',
    };
    const run = (limits: string) => spawnSync('bash', [SCRIPT, '--mount-name', 'abcdefgh', '--mount-point', mp, '--limits', limits],
      { encoding: 'utf8', env });
    const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
    return { mp, outside, run, calls };
  }

  // Root runs the script, and any user who may write the file system's root may make /a a symlink before it runs.
  test.each([
    ['a component on the way', '/a/b'],
    ['the directory itself', '/a'],
  ])('a symlink as %s is refused: nothing made or marked outside the file system', (_name, dir) => {
    const n = node();
    fs.symlinkSync(n.outside, path.join(n.mp, 'a'));
    const r = n.run(`project:7:1:${dir}`);
    expect(r.stderr).toMatch(new RegExp(`^storage-lustre-quota: ERROR: ${n.mp}/a is a symlink: a project's directory is made and marked only through directories of the file system`));
    expect(r.status).toBe(1);
    expect(fs.readdirSync(n.outside)).toEqual([]);
    expect(n.calls()).toEqual([]);
  });

  test('real directories on the way are made one by one and the project marked', () => {
    const n = node();
    fs.mkdirSync(path.join(n.mp, 'a'));
    const r = n.run('project:7:1:/a/b/c');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.statSync(path.join(n.mp, 'a/b/c')).isDirectory()).toBe(true);
    expect(n.calls()).toEqual([`project -p 7 -r -s ${n.mp}/a/b/c`, `setquota -p 7 -b 0 -B 1048576 ${n.mp}`]);
  });
});
