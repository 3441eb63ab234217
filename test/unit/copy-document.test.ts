/**
 * The copy: lib/copy-document.ts, the SSM document deployed with each server, and lib/scripts/storage-copy.sh, the node's
 * part, run here by bash with real rsync, setfacl and setfattr between two directories, a stand-in mountpoint making
 * them mount points. The copy between two server VMs over NFS is the VM tests' part (README, Moving data).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { COPY_PARAMETERS, renderCopyDocument } from '../../lib/copy-document';
import { serverStack } from '../support/stacks';
import { venvBin } from '../support/venv';

const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-copy.sh');

type Document = {
  parameters: Record<string, { allowedPattern: string; default?: string }>;
  mainSteps: { name: string; inputs: { runCommand: string[]; timeoutSeconds: string } }[];
};

function sandbox(chown = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-copy-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'mountpoint'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  // A squashing export: root's chown fails, as an NFS server with root_squash makes it.
  if (!chown) fs.writeFileSync(path.join(bin, 'chown'), '#!/bin/sh\necho "chown: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
  const src = path.join(dir, 'src');
  const dst = path.join(dir, 'dst');
  fs.mkdirSync(src);
  fs.mkdirSync(dst);
  return { dir, src, dst, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } };
}

function sh(command: string): string {
  const r = spawnSync('bash', ['-c', command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command}: ${r.stderr}`);
  return r.stdout;
}

/** A tree with a hard link across two top-level entries, a sparse file, an ACL, an xattr and a foreign owner. */
function fill(src: string): void {
  sh(`set -e; cd ${src}; mkdir -p a b/c; echo hello >a/f; ln a/f b/link; truncate -s 64M b/sparse
    printf x | dd of=b/sparse bs=1 seek=32M conv=notrunc status=none; setfacl -m u:1234:rw a/f
    setfattr -n user.tag -v blue b/c; chown -h 2000:3000 b/c; echo top >topfile`);
}

function copy(s: ReturnType<typeof sandbox>, ...extra: string[]) {
  const r = spawnSync('bash', [SCRIPT, '--source', s.src, '--target', s.dst, '--from', 'c1/old', '--streams', '2', ...extra],
    { encoding: 'utf8', env: s.env });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { ...r, result: line.startsWith('{') ? JSON.parse(line) as Record<string, unknown> : undefined };
}

describe('storage-copy.sh', () => {
  test('copies hard links, sparse files, ACLs, xattrs and owners in parallel streams, and verifies', () => {
    const s = sandbox();
    fill(s.src);
    const r = copy(s);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.result).toMatchObject({ mode: 'copy', from: 'c1/old', streams: 2, differences: 0 });
    expect(r.result!.copied).toBeGreaterThanOrEqual(3);
    const [f, link] = [fs.statSync(path.join(s.dst, 'a/f')), fs.statSync(path.join(s.dst, 'b/link'))];
    expect(link.ino).toBe(f.ino);
    expect(Number(sh(`du -k ${s.dst}/b/sparse`).split('\t')[0])).toBeLessThan(1024);
    expect(sh(`getfacl -p ${s.dst}/a/f`)).toContain('user:1234:rw-');
    expect(sh(`getfattr --only-values -n user.tag ${s.dst}/b/c`)).toBe('blue');
    expect(sh(`stat -c %u:%g ${s.dst}/b/c`)).toBe('2000:3000\n');
    expect(fs.readFileSync(path.join(s.dst, '.storage-copy'), 'utf8')).toBe('from c1/old\n');
  });

  test('run again, it copies only what changed; it deletes nothing on either side', () => {
    const s = sandbox();
    fill(s.src);
    expect(copy(s).status).toBe(0);
    const again = copy(s);
    expect(again.status).toBe(0);
    expect(again.result).toMatchObject({ copied: 0, differences: 0 });
    fs.writeFileSync(path.join(s.src, 'a/new'), 'new\n');
    fs.rmSync(path.join(s.src, 'topfile'));
    const before = sh(`cd ${s.src} && find . | sort`);
    const third = copy(s);
    expect(third.result).toMatchObject({ copied: 1, differences: 0 });
    expect(fs.readFileSync(path.join(s.dst, 'a/new'), 'utf8')).toBe('new\n');
    expect(fs.existsSync(path.join(s.dst, 'topfile'))).toBe(true);
    expect(sh(`cd ${s.src} && find . | sort`)).toBe(before);
  });

  test('verify only: a file whose content differs at the same size and time is a difference, exit 3', () => {
    const s = sandbox();
    fill(s.src);
    expect(copy(s).status).toBe(0);
    sh(`echo tap >${s.dst}/topfile && touch -r ${s.src}/topfile ${s.dst}/topfile`);
    const r = copy(s, '--mode', 'verify');
    expect(r.status).toBe(3);
    expect(r.result).toMatchObject({ mode: 'verify', copied: 0, differences: 1 });
    expect(r.stderr).toContain('>fc');
    expect(r.stderr).toContain('topfile');
    expect(fs.readFileSync(path.join(s.dst, 'topfile'), 'utf8')).toBe('tap\n');
  });

  test('refuses a target with foreign data, or a copy of another source, unless allowed', () => {
    const s = sandbox();
    fill(s.src);
    fs.writeFileSync(path.join(s.dst, 'theirs'), 'x');
    const r = copy(s);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${s.dst} is not a copy of c1/old: it is not empty (theirs)`);
    expect(fs.existsSync(path.join(s.dst, 'a'))).toBe(false);
    expect(copy(s, '--allow-foreign', 'yes').status).toBe(0);
    expect(fs.readFileSync(path.join(s.dst, 'theirs'), 'utf8')).toBe('x');
    const other = spawnSync('bash', [SCRIPT, '--source', s.src, '--target', s.dst, '--from', 'c1/other'], { encoding: 'utf8', env: s.env });
    expect(other.status).toBe(1);
    expect(other.stderr).toContain("its marker says 'from c1/old', not 'from c1/other'".replace('marker', `marker ${s.dst}/.storage-copy`));
  });

  test('an EC2 server\'s own state (.storage-server, nfsd\'s client records) is neither copied nor foreign data', () => {
    const s = sandbox();
    fill(s.src);
    for (const [root, text] of [[s.src, 'old server\n'], [s.dst, 'new server\n']]) {
      fs.mkdirSync(path.join(root, '.storage-server/nfsdcld'), { recursive: true });
      fs.writeFileSync(path.join(root, '.storage-server/nfsdcld/main.sqlite'), text);
    }
    const r = copy(s);
    expect(r.stderr).toBe('');
    expect(r.result).toMatchObject({ differences: 0 });
    expect(fs.readFileSync(path.join(s.dst, '.storage-server/nfsdcld/main.sqlite'), 'utf8')).toBe('new server\n');
  });

  /**
   * Both servers NFS mounts of version 4.1, by a stand-in findmnt; the stand-in mount records its arguments and, unless
   * told to refuse, bind-mounts the server's directory (read-only when asked) where the script wants its 4.2 mount.
   */
  function nfs41(s: ReturnType<typeof sandbox>, refuse: boolean) {
    const bin = path.join(s.dir, 'bin');
    const log = path.join(s.dir, 'mount.log');
    fs.writeFileSync(path.join(bin, 'findmnt'), `#!/bin/bash
mp=\${@: -1}
case $mp in
  ${s.src}) server=10.0.0.5:/export/src ;;
  ${s.dst}) server=10.0.0.6:/export/dst ;;
  *) exec /usr/bin/findmnt "$@" ;;
esac
case $3 in FSTYPE) echo nfs4 ;; OPTIONS) echo rw,relatime,vers=4.1,hard,proto=tcp ;; SOURCE) echo "$server" ;; esac
`, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'mount'), `#!/bin/bash
echo "$*" >>${log}
${refuse ? 'echo "mount.nfs: Protocol not supported" >&2; exit 32' : ''}
case $5 in *:/export/src) from=${s.src} ;; *:/export/dst) from=${s.dst} ;; esac
ro=; [[ ,$4, == *,ro,* ]] && ro=,ro
exec /usr/bin/mount -o "bind$ro" "$from" "$6"
`, { mode: 0o755 });
    return log;
  }
  const leftovers = () => fs.readdirSync('/run').filter((f) => f.startsWith('storage-copy.'));

  test('an NFS mount older than 4.2 (no xattrs over it): each server mounted again with 4.2, the source read-only', () => {
    const s = sandbox();
    fill(s.src);
    const before = leftovers();
    const log = nfs41(s, false);
    const r = copy(s);
    expect(r.stderr).toBe('');
    expect(r.result).toMatchObject({ source: s.src, target: s.dst, differences: 0, xattrs: true });
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      expect.stringMatching(/^-t nfs4 -o vers=4\.2,ro,hard,timeo=600,retrans=2,nosuid,nodev 10\.0\.0\.5:\/export\/src \/run\/storage-copy\.\w+\/source$/),
      expect.stringMatching(/^-t nfs4 -o vers=4\.2,rw,hard,timeo=600,retrans=2,nosuid,nodev 10\.0\.0\.6:\/export\/dst \/run\/storage-copy\.\w+\/target$/),
    ]);
    expect(sh(`getfattr --only-values -n user.tag ${s.dst}/b/c`)).toBe('blue');
    // Unmounted and gone at the end: nothing of the run is left mounted or under /run.
    expect(fs.readFileSync('/proc/self/mounts', 'utf8')).not.toContain('/run/storage-copy.');
    expect(leftovers()).toEqual(before);
  });

  test('a server that refuses NFS 4.2: the copy goes on without xattrs, and says so on stderr and in its line', () => {
    const s = sandbox();
    fill(s.src);
    nfs41(s, true);
    const r = copy(s);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('storage-copy: WARNING: 10.0.0.5:/export/src refuses an NFS 4.2 mount (mount.nfs: Protocol not supported');
    expect(r.stderr).toContain('user extended attributes cannot cross an older NFS version');
    expect(r.result).toMatchObject({ differences: 0, xattrs: false });
  });

  test('a target that takes no user xattr: the copy goes on without them, and says so; the rest is verified', () => {
    const s = sandbox();
    fill(s.src);
    // As the Linux NFS client answers for a 4.2 server without RFC 8276's extension.
    fs.writeFileSync(path.join(s.dir, 'bin', 'setfattr'),
      '#!/bin/bash\nif [[ " $* " == *" user."* ]]; then echo "setfattr: $4: Operation not supported" >&2; exit 1; fi\nexec /usr/bin/setfattr "$@"\n',
      { mode: 0o755 });
    // rsync -X would fail on every file there: the runs must go without it.
    const log = path.join(s.dir, 'rsync.log');
    fs.writeFileSync(path.join(s.dir, 'bin', 'rsync'), `#!/bin/bash\necho "$1" >>${log}\nexec /usr/bin/rsync "$@"\n`, { mode: 0o755 });
    const r = copy(s);
    expect(r.status).toBe(0);
    expect([...new Set(fs.readFileSync(log, 'utf8').trim().split('\n'))]).toEqual(['-aHAS']);
    expect(r.stderr).toMatch(new RegExp(`storage-copy: WARNING: ${s.dst} takes no user extended attribute \\(setfattr: .*Operation not supported`));
    expect(r.result).toMatchObject({ differences: 0, xattrs: false });
    expect(sh(`getfacl -p ${s.dst}/a/f`)).toContain('user:1234:rw-');
    expect(sh(`stat -c %u:%g ${s.dst}/b/c`)).toBe('2000:3000\n');
    expect(fs.readdirSync(s.dst).filter((f) => f.startsWith('.storage-copy-'))).toEqual([]);
    expect(copy(s, '--mode', 'verify').result).toMatchObject({ differences: 0, xattrs: false });
  });

  test('verify only writes nothing a verification compares: the target\'s top directory keeps its time', () => {
    const s = sandbox();
    fill(s.src);
    expect(copy(s).status).toBe(0);
    const before = fs.statSync(s.dst).mtimeMs;
    const r = copy(s, '--mode', 'verify');
    expect(r.result).toMatchObject({ differences: 0, xattrs: true });
    expect(fs.statSync(s.dst).mtimeMs).toBe(before);
  });

  test('an NFS source that is not host:/path is refused before anything is mounted', () => {
    const s = sandbox();
    const log = nfs41(s, false);
    const findmnt = path.join(s.dir, 'bin/findmnt');
    fs.writeFileSync(findmnt, fs.readFileSync(findmnt, 'utf8').replace('10.0.0.5:/export/src', '"10.0.0.5:/x;reboot"'));
    const r = copy(s);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${s.src} is mounted from '10.0.0.5:/x;reboot', which is not host:/path`);
    expect(fs.existsSync(log)).toBe(false);
  });

  test('refuses a target whose export squashes root, before copying anything', () => {
    const s = sandbox(false);
    fill(s.src);
    const r = copy(s);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot set owners on .* \(the export squashes root\)/);
    expect(fs.readdirSync(s.dst)).toEqual([]);
  });

  test.each([
    [['--source', 'rel'], "--source must be an absolute path of [A-Za-z0-9._-] segments, got 'rel'"],
    [['--target', '/a/../b'], "--target must be an absolute path of [A-Za-z0-9._-] segments, got '/a/../b'"],
    [['--from', 'c1'], "--from must be CLUSTER/SERVER, got 'c1'"],
    [['--mode', 'sync'], "--mode must be copy or verify, got 'sync'"],
    [['--streams', '0'], "--streams must be a whole number from 1 to 99, got '0'"],
    [['--allow-foreign', 'true'], "--allow-foreign must be yes or no, got 'true'"],
    [['--target', '/data/x', '--source', '/data'], '--source /data and --target /data/x must be two mount points, neither inside the other'],
    [['--bogus'], "unexpected argument '--bogus'"],
  ])('checks every value: %j', (args, message) => {
    const s = sandbox();
    const base = ['--source', s.src, '--target', s.dst, '--from', 'c1/old'];
    const r = spawnSync('bash', [SCRIPT, ...base, ...args], { encoding: 'utf8', env: s.env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
  });

  test('shellcheck-clean', () => {
    const r = spawnSync(path.join(venvBin(), 'shellcheck'), [SCRIPT], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
  });
});

describe('the copy document', () => {
  test('deployed with the server, named by the CopyDocumentName output: it runs storage-copy.sh', () => {
    const { template, server } = serverStack({ capacityTiB: 5, mountPoint: '/scratch' });
    const docs = Object.values(template.findResources('AWS::SSM::Document'))
      .filter((d) => d.Properties.Content.mainSteps[0].name === 'storageCopy');
    expect(docs).toHaveLength(1);
    const content = docs[0].Properties.Content as Document;
    expect(Object.keys(content.parameters).sort()).toEqual(['allowForeign', 'from', 'mode', 'source', 'streams', 'target']);
    expect(content.mainSteps[0].inputs.timeoutSeconds).toBe('172800');
    expect(content.mainSteps[0].inputs.runCommand[0]).toContain(fs.readFileSync(SCRIPT, 'utf8').trim());
    expect(server.copyDocumentName).toBeDefined();
  });

  test('SSM refuses parameter values a shell would read as more than text', () => {
    const ok: Record<keyof typeof COPY_PARAMETERS, [string[], string[]]> = {
      source: [['/data', '/shared/home-2'], ['data', '/a b', '/$(id)', '/a;b', '/..', '']],
      target: [['/fsx'], ['/x/`id`', '/x\n/y']],
      from: [['hpc/old', 'c.1/s_2'], ['hpc', 'hpc/old/x', 'a b/c', 'a/$(id)']],
      mode: [['copy', 'verify'], ['sync', 'copy ']],
      streams: [['1', '8', '99'], ['0', '100', '8;id']],
      allowForeign: [['yes', 'no'], ['true', '']],
    };
    for (const [name, [good, bad]] of Object.entries(ok)) {
      const re = new RegExp(COPY_PARAMETERS[name as keyof typeof COPY_PARAMETERS].pattern);
      expect(good.filter((v) => !re.test(v))).toEqual([]);
      expect(bad.filter((v) => re.test(v))).toEqual([]);
    }
  });

  test('the step, with the parameters as SSM fills them in, is valid sh that runs the script and returns its status', () => {
    const content = renderCopyDocument('#!/usr/bin/env bash\necho "args: $*"\nexit 3\n') as unknown as Document;
    const values: Record<string, string> = { source: '/data', target: '/data2', from: 'c/s', mode: 'verify', streams: '4', allowForeign: 'no' };
    const command = content.mainSteps[0].inputs.runCommand[0].replace(/\{\{ (\w+) \}\}/g, (_, k: string) => values[k]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'copy-doc-')), 'step.sh');
    fs.writeFileSync(file, command);
    const r = spawnSync('sh', [file], { encoding: 'utf8' });
    expect(r.stdout).toBe('args: --source /data --target /data2 --from c/s --mode verify --streams 4 --allow-foreign no\n');
    expect(r.status).toBe(3);
  });
});
