import { spawn, spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { DeleteParameterCommand, GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { MOUNT_READ_ACTIONS, hardenMountOptions, loadClientMountScript, renderFstabUpdate } from '../../lib/client-mount';
import { mountRootProblem } from '../../lib/validation';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import { motoEnv, startMoto, type Moto } from '../support/moto';
import { venvBin } from '../support/venv';
import { createEvent, createSubnet, launchInstance, props as registrationProps, updateEvent } from './fixtures';

// client-mount.sh on this host against a moto server: it edits a temporary fstab (--no-mount, --dry-run);
// the mounts themselves need an NFS client, which only the e2e VMs have. The script reads the records with
// the AWS CLI from the test venv (test/requirements.txt), which every run puts first on PATH; the host's
// own `aws`, if it has one, is kept out of PATH so that the tests choose which CLI the script finds.

/** The script as the SSM document carries it (its parts in place: lib/script-parts.ts), alone in a directory. */
const SCRIPT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-script-'));
const SCRIPT = path.join(SCRIPT_DIR, 'client-mount.sh');
fs.writeFileSync(SCRIPT, loadClientMountScript());
const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';
/** What the script writes and mounts with: the record's options and nosuid,nodev. */
const WRITTEN_OPTIONS = `${OPTIONS},nosuid,nodev`;
const PREFIX = '/storage-server';
/** The script's --allowed-servers in these tests: every record's server is in it unless a test says otherwise. */
const ALLOWANCE = '10.0.0.0/16';

let moto: Moto;
let ssm: SSMClient;
let dir: string;
let fstab: string;
let clusterSeq = 0;
let cluster: string;
/** The venv's bin directory: the AWS CLI (awscli, pinned in test/requirements.txt) and its python. */
let venv: string;
/** The host's PATH less every directory that holds an `aws` (a developer's own CLI, a pyenv shim). */
const HOST_PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((d) => d !== '' && !fs.existsSync(path.join(d, 'aws')))
  .join(':');

beforeAll(async () => {
  moto = await startMoto();
  venv = venvBin();
  ssm = new SSMClient({
    endpoint: moto.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
}, 120_000);
afterAll(async () => {
  ssm?.destroy();
  await moto?.stop();
  fs.rmSync(SCRIPT_DIR, { recursive: true, force: true });
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-'));
  fstab = path.join(dir, 'fstab');
  fs.writeFileSync(fstab, '# /etc/fstab\nUUID=0a1b2c3d / ext4 defaults 0 1\n');
  // The node's /etc/udev/rules.d and /etc/nfs.conf.d (both shipped by udev and nfs-utils), where the read-ahead goes.
  fs.mkdirSync(path.join(dir, 'udev'));
  fs.mkdirSync(path.join(dir, 'nfs.conf.d'));
  cluster = `it-${++clusterSeq}`; // every test has its own records in the shared emulator
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const tag = (server: string, c = cluster) => ` # storage-server:${c}/${server}`;
/** The line the script writes for a record with OPTIONS: the record's fields, nosuid,nodev added. */
const line = (ip: string, mountPoint: string, server: string) =>
  `${mountRecord(ip, '/export/data', mountPoint, WRITTEN_OPTIONS).fstab}${tag(server)}`;

async function putRecord(server: string, value: unknown, c = cluster): Promise<void> {
  await ssm.send(
    new PutParameterCommand({
      Name: mountParameterName(PREFIX, c, server),
      Value: typeof value === 'string' ? value : JSON.stringify(value),
      Type: 'String',
      Overwrite: true,
    }),
  );
}
const putServer = (server: string, ip: string, mountPoint = '/data') =>
  putRecord(server, mountRecord(ip, '/export/data', mountPoint, OPTIONS));

/**
 * The script's environment: the venv's CLI first on PATH, moto's endpoint and fake credentials. The CLI is
 * told to ignore AWS_ENDPOINT_URL (AWS_IGNORE_CONFIGURED_ENDPOINT_URLS), as Debian 12's packaged CLI (2.9)
 * does: only the script's own --endpoint-url brings a call to moto.
 */
function scriptEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${venv}:${HOST_PATH}`,
    ...motoEnv(moto.endpoint),
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true',
    CLIENT_MOUNT_LOCK: path.join(dir, 'lock'),
    // The read-ahead's files, sysfs and the mount table, and the nconnect probe's temporary directory: the test's own.
    CLIENT_MOUNT_UDEV_RULE: path.join(dir, 'udev', '99-storage-server-nfs-read-ahead.rules'),
    CLIENT_MOUNT_NFS_CONF: path.join(dir, 'nfs.conf.d', 'storage-server-read-ahead.conf'),
    CLIENT_MOUNT_SYSFS: path.join(dir, 'sys'),
    CLIENT_MOUNT_MOUNTINFO: path.join(dir, 'mountinfo'),
    TMPDIR: dir,
    ...env,
  };
}
/** The arguments every run starts with (later ones override: the script keeps the last of each). */
const baseArgs = () => ['--cluster', cluster, '--fstab', fstab, '--allowed-servers', ALLOWANCE];
function run(args: string[] = [], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('bash', [SCRIPT, ...baseArgs(), '--no-mount', ...args], {
    encoding: 'utf8',
    env: scriptEnv(env),
    timeout: 60_000,
  });
}
/** As {@link run}, without blocking the event loop (for tests that serve HTTP to the script). */
function runAsync(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT, ...baseArgs(), '--no-mount', ...args], {
      env: scriptEnv(env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
/** Writes an executable shell script `name` into `binDir`. */
function program(binDir: string, name: string, lines: string[]): void {
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(path.join(binDir, name), ['#!/bin/bash', ...lines, ''].join('\n'), { mode: 0o755 });
}
/** The argument lists a recording program wrote to `file`, one JSON array a line. */
const recorded = (file: string): string[][] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[])
    : [];
/** A shell line that appends the program's arguments to `file` as one JSON array. */
const recordArgs = (file: string) =>
  `${JSON.stringify(path.join(venv, 'python'))} -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >>${JSON.stringify(file)}`;
const fstabLines = () =>
  fs
    .readFileSync(fstab, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
const tagged = (server: string) => fstabLines().filter((l) => l.endsWith(tag(server)));

describe('client-mount.sh against the emulator', () => {
  test('adds one tagged line per server, which libmount reads back as the record says', async () => {
    await putServer('s1', '10.0.0.5');

    const r = run();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab added for ${cluster}/s1`);
    expect(fstabLines()).toEqual([
      '# /etc/fstab',
      'UUID=0a1b2c3d / ext4 defaults 0 1',
      line('10.0.0.5', '/data', 's1'),
    ]);
    const findmnt = spawnSync(
      'findmnt',
      ['--tab-file', fstab, '--target', '/data', '-n', '-r', '-o', 'SOURCE,TARGET,FSTYPE,OPTIONS'],
      { encoding: 'utf8' },
    );
    expect(findmnt.stdout.trim()).toBe(`10.0.0.5:/export/data /data nfs4 ${WRITTEN_OPTIONS}`);
  });

  test('a re-run leaves the fstab byte for byte, with one line', async () => {
    await putServer('s1', '10.0.0.5');
    run();
    const first = fs.readFileSync(fstab, 'utf8');

    const again = run();

    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`fstab unchanged for ${cluster}/s1`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(first);
    expect(tagged('s1')).toHaveLength(1);
  });

  test('a changed config replaces its line in place', async () => {
    await putServer('s1', '10.0.0.5');
    run();
    fs.appendFileSync(fstab, 'tmpfs /scratch tmpfs defaults 0 0\n');
    await putServer('s1', '10.0.9.9');

    const r = run();

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab updated for ${cluster}/s1`);
    expect(fstabLines()).toEqual([
      '# /etc/fstab',
      'UUID=0a1b2c3d / ext4 defaults 0 1',
      line('10.0.9.9', '/data', 's1'),
      'tmpfs /scratch tmpfs defaults 0 0',
    ]);
  });

  test("a second server's config adds a second line", async () => {
    await putServer('s1', '10.0.0.5');
    run();
    await putServer('s2', '10.0.0.6', '/scratch');

    const r = run();

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual([
      line('10.0.0.5', '/data', 's1'),
      line('10.0.0.6', '/scratch', 's2'),
    ]);
  });

  test('a deleted config is reported by name, and its line is left as it is', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    run();
    const before = fs.readFileSync(fstab, 'utf8');
    await ssm.send(new DeleteParameterCommand({ Name: mountParameterName(PREFIX, cluster, 's1') }));

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION STALE ${cluster}/s1: its mount config ${mountParameterName(PREFIX, cluster, 's1')} is gone; left in fstab and mounted as it is`,
    );
    expect(r.stdout).not.toContain(`STALE ${cluster}/s2`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('a line written before nosuid,nodev were forced is updated in place', async () => {
    await putServer('s1', '10.0.0.5');
    fs.appendFileSync(
      fstab,
      `${mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS).fstab}${tag('s1')}\n`,
    );

    const r = run();

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab updated for ${cluster}/s1`);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('malformed records are reported by parameter name; the good one still goes in', async () => {
    const good = mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS);
    await putServer('a-good', '10.0.0.5');
    await putRecord('b-not-json', '{"server": "10.0.0.6",');
    await putRecord('c-fstype', {
      ...good,
      mountPoint: '/data/c',
      fsType: 'nfs',
      fstab: good.fstab.replace(' /data ', ' /data/c '),
    });
    await putRecord('d-mismatch', { ...good, mountPoint: '/data/d' });
    await putRecord('e-missing', {
      server: '10.0.0.7',
      exportPath: '/export/data',
      mountPoint: '/data/e',
      fsType: 'nfs4',
    });
    await putRecord('f-space', {
      ...good,
      mountPoint: '/f f',
      fstab: good.fstab.replace(' /data ', ' /f f '),
    });

    const r = run();

    expect(r.status).toBe(2);
    const name = (s: string) => mountParameterName(PREFIX, cluster, s);
    expect(r.stdout).toContain(`ATTENTION ${name('b-not-json')}: is not JSON`);
    expect(r.stdout).toContain(`ATTENTION ${name('c-fstype')}: fsType "nfs" is not "nfs4"`);
    expect(r.stdout).toContain(
      `ATTENTION ${name('d-mismatch')}: fstab ${JSON.stringify(good.fstab)} disagrees with its fields`,
    );
    expect(r.stdout).toContain(`ATTENTION ${name('e-missing')}: lacks string field(s) options, fstab`);
    expect(r.stdout).toContain(
      `ATTENTION ${name('f-space')}: mountPoint "/f f" has an empty segment or a character other than A-Z a-z 0-9 . _ -`,
    );
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 'a-good')]);
  });

  test('two configs claiming one mount point: the first by name goes in, the second is reported', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6');

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION ${mountParameterName(PREFIX, cluster, 's2')}: mountPoint /data is already used by server s1`,
    );
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('a hand-written entry with the same source is adopted in place; another source is a conflict', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    fs.writeFileSync(
      fstab,
      `10.0.0.5:/export/data /data nfs4 defaults 0 0\n10.9.9.9:/old /scratch nfs4 defaults 0 0\n`,
    );

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`fstab entry adopted for ${cluster}/s1`);
    expect(r.stdout).toContain(
      `ATTENTION CONFLICT /scratch: fstab already has '10.9.9.9:/old /scratch nfs4 defaults 0 0'; not adding 10.0.0.6:/export/data`,
    );
    expect(fstabLines()).toEqual([
      line('10.0.0.5', '/data', 's1'),
      '10.9.9.9:/old /scratch nfs4 defaults 0 0',
    ]);
  });

  test("--server mounts only that server and judges only that server's line", async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    fs.appendFileSync(fstab, `${line('10.0.0.7', '/gone', 'gone')}\n`);

    const r = run(['--server', 's2']);

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual([
      line('10.0.0.7', '/gone', 'gone'),
      line('10.0.0.6', '/scratch', 's2'),
    ]);
  });

  test('--dry-run changes nothing and prints the fstab it would write', async () => {
    await putServer('s1', '10.0.0.5');
    const before = fs.readFileSync(fstab, 'utf8');

    const r = run(['--dry-run']);

    expect(r.status).toBe(0);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
    expect(fs.existsSync(`${fstab}.storage-server.bak`)).toBe(false);
    expect(r.stdout).toContain(
      `--- fstab after this run ---\n${before}${line('10.0.0.5', '/data', 's1')}\n--- end ---`,
    );
  });

  test('reads all pages: twelve servers, ten per page', async () => {
    const servers = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const [i, s] of servers.entries()) await putServer(s, `10.0.1.${i + 1}`, `/data/${i}`);

    const r = run();

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual(servers.map((s, i) => line(`10.0.1.${i + 1}`, `/data/${i}`, s)));
  });

  test('calls the AWS CLI with the path, --recursive, the region and --endpoint-url', async () => {
    await putServer('s1', '10.0.0.5');
    // A wrapper in front of the venv's CLI that records its arguments.
    const bin = path.join(dir, 'bin');
    const args = path.join(dir, 'aws-args');
    program(bin, 'aws', [recordArgs(args), `exec ${JSON.stringify(path.join(venv, 'aws'))} "$@"`]);

    const r = run([], { PATH: `${bin}:${venv}:${HOST_PATH}` });

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(recorded(args)).toEqual([
      [
        'ssm',
        'get-parameters-by-path',
        '--path',
        `${PREFIX}/${cluster}/storage/`,
        '--recursive',
        '--output',
        'json',
        '--region',
        'us-east-1',
        '--endpoint-url',
        moto.endpoint,
      ],
    ]);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('AWS_ENDPOINT_URL_SSM wins over AWS_ENDPOINT_URL; AWS_DEFAULT_REGION serves when AWS_REGION is unset', async () => {
    await putServer('s1', '10.0.0.5');

    const r = run([], {
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_ENDPOINT_URL_SSM: moto.endpoint,
      AWS_REGION: '',
      AWS_DEFAULT_REGION: 'us-east-1',
    });

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test("without a region in the environment, the instance's region comes from IMDSv2 (with a token)", async () => {
    const regional = new SSMClient({
      endpoint: moto.endpoint,
      region: 'eu-west-3',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await regional.send(
      new PutParameterCommand({
        Name: mountParameterName(PREFIX, cluster, 's1'),
        Value: JSON.stringify(mountRecord('10.0.3.5', '/export/data', '/data', OPTIONS)),
        Type: 'String',
      }),
    );
    regional.destroy();
    // A stand-in for the instance metadata service that answers only token-bearing (IMDSv2) reads.
    const seen: string[] = [];
    const imds = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (
        req.method === 'PUT' &&
        req.url === '/latest/api/token' &&
        req.headers['x-aws-ec2-metadata-token-ttl-seconds']
      ) {
        res.end('token-1');
      } else if (
        req.url === '/latest/meta-data/placement/region' &&
        req.headers['x-aws-ec2-metadata-token'] === 'token-1'
      ) {
        res.end('eu-west-3');
      } else {
        res.statusCode = 401;
        res.end();
      }
    });
    await new Promise<void>((resolve) => imds.listen(0, '127.0.0.1', resolve));
    const { port } = imds.address() as { port: number };
    try {
      const r = await runAsync([], {
        AWS_REGION: '',
        AWS_DEFAULT_REGION: '',
        AWS_EC2_METADATA_DISABLED: 'false',
        AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${port}`,
      });

      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(seen).toEqual(['PUT /latest/api/token', 'GET /latest/meta-data/placement/region']);
      expect(fstabLines().slice(2)).toEqual([line('10.0.3.5', '/data', 's1')]);
    } finally {
      await new Promise((resolve) => imds.close(resolve));
    }
  });

  test('no region in the environment and no metadata service: exit 1, saying so', () => {
    const r = run([], { AWS_REGION: '', AWS_DEFAULT_REGION: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('client-mount: ERROR no AWS region: set AWS_REGION');
  });

  test('an unreachable API stops with exit 1 and leaves the fstab alone', () => {
    const before = fs.readFileSync(fstab, 'utf8');
    const r = run([], { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_MAX_ATTEMPTS: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `client-mount: ERROR cannot read the mount configs under ${PREFIX}/${cluster}/storage/`,
    );
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test.each([
    [['--cluster', 'bad name'], "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got 'bad name'"],
    [['--prefix', 'relative'], "--prefix must be /-separated levels of A-Z a-z 0-9 _ . -, got 'relative'"],
    [['--server', 'a/b'], "--server must be 1-64 characters of A-Z a-z 0-9 _ . -, got 'a/b'"],
    [['--fstab', '/nonexistent/fstab'], "--fstab '/nonexistent/fstab' is not a file"],
    [['--frobnicate'], "unknown argument '--frobnicate'"],
    [['--allowed-servers', ''], '--allowed-servers is required'],
    [
      ['--allowed-servers', '10.0.0.0'],
      "--allowed-servers must be a comma list of IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, prefix /1-/32), got '10.0.0.0'",
    ],
    [['--allowed-servers', '10.0.0.0/0'], "got '10.0.0.0/0'"],
    [['--allowed-servers', '10.00.0.0/16'], "got '10.00.0.0/16'"],
    [['--allowed-servers', '10.0.0.0/16,$(reboot)'], "got '10.0.0.0/16,$(reboot)'"],
  ])('refuses %j with exit 1', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
  });

  test('without --allowed-servers: exit 1 before anything is read, saying why it is required', async () => {
    await putServer('s1', '10.0.0.5');
    const before = fs.readFileSync(fstab, 'utf8');
    const r = spawnSync('bash', [SCRIPT, '--cluster', cluster, '--fstab', fstab, '--no-mount'], {
      encoding: 'utf8',
      env: scriptEnv(),
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "client-mount: ERROR --allowed-servers is required: the CIDRs a record's server address must lie in (e.g. the VPC's, 10.0.0.0/16); a record names the server this node mounts as root\n",
    );
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('the mountStorageOn user data and the script keep one line between them', async () => {
    await putServer('s1', '10.0.0.5');
    const snippet = renderFstabUpdate({
      server: '10.0.0.5',
      exportPath: '/export/data',
      mountPoint: '/data',
      options: OPTIONS,
      tag: `${cluster}/s1`,
      fstab,
    }).join('\n');
    expect(hardenMountOptions(OPTIONS)).toBe(WRITTEN_OPTIONS);
    const userData = () =>
      spawnSync('bash', ['-c', snippet.replace("mkdir -p '/data'", 'true')], { encoding: 'utf8' });

    expect(userData().status).toBe(0);
    expect(userData().status).toBe(0);
    expect(tagged('s1')).toEqual([line('10.0.0.5', '/data', 's1')]);
    const r = run();
    expect(r.stdout).toContain(`fstab unchanged for ${cluster}/s1`);
    await putServer('s1', '10.0.0.8');
    run();
    expect(userData().status).toBe(0);
    expect(tagged('s1')).toEqual([line('10.0.0.5', '/data', 's1')]);
    expect(fstabLines()).toHaveLength(3);
  });
});

describe('client-mount.sh refuses records outside the grammar, touching nothing of them', () => {
  // These run without --no-mount, as on a node: `mount`, `mkdir` and `mount.nfs4` are stand-ins that record
  // their arguments (mkdir makes only the lock's directory, under the test's own directory), so that a test
  // sees every directory the script would create and every mount it would make.
  let bin: string;
  let mounts: string;
  let mkdirs: string;
  const REAL_MKDIR = spawnSync('sh', ['-c', 'command -v mkdir'], { encoding: 'utf8' }).stdout.trim();
  beforeEach(() => {
    bin = path.join(dir, 'node-bin');
    mounts = path.join(dir, 'mount-calls');
    mkdirs = path.join(dir, 'mkdir-calls');
    program(bin, 'mount', [recordArgs(mounts), 'exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    // The resolver as this node sees it: one FSx name outside the VPC, no other name.
    program(bin, 'getent', ['case "$2" in fs-0fedcba9876543210.*) echo "203.0.113.9     STREAM $2" ;; *) exit 2 ;; esac']);
    program(bin, 'mkdir', [
      recordArgs(mkdirs),
      `case "$*" in *${JSON.stringify(dir).slice(1, -1)}*) exec ${REAL_MKDIR} "$@" ;; esac`,
    ]);
  });
  /** The script as the SSM document runs it (mounting), with the stand-ins first on PATH. */
  const runOnNode = (args: string[] = []) =>
    spawnSync('bash', [SCRIPT, ...baseArgs(), ...args], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}:${venv}:${HOST_PATH}` }),
      timeout: 60_000,
    });
  /** mkdir calls other than the lock's directory. */
  const madeDirectories = () => recorded(mkdirs).filter((a) => a[a.length - 1] !== dir);

  interface Fields {
    server: string;
    exportPath: string;
    mountPoint: string;
    fsType: string;
    options: string;
    backend?: string;
  }
  /** A record whose fstab agrees with its fields (unless `fstab` is given), so that only the field under test is wrong. */
  function record(fields: Partial<Fields> & { fstab?: string }): Record<string, string> {
    const f: Fields = {
      server: '10.0.0.5',
      exportPath: '/export/data',
      mountPoint: '/data',
      fsType: 'nfs4',
      options: OPTIONS,
      ...fields,
    };
    const sep = f.fsType === 'lustre' ? '@tcp:' : ':';
    return {
      ...f,
      fstab: fields.fstab ?? `${f.server}${sep}${f.exportPath} ${f.mountPoint} ${f.fsType} ${f.options} 0 0`,
    };
  }
  const q = JSON.stringify;
  const GOOD_FSTAB = mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS).fstab;
  /** Why a mount point outside the default mount roots is refused. */
  const OUTSIDE = (mp: string, home = false) =>
    `mountPoint ${q(mp)} is not a mount root or below one; the mount roots are /data /scratch /shared /fsx${home ? ' (/home only with --allow-home)' : ''}`;
  const CHARS = 'has an empty segment or a character other than A-Z a-z 0-9 . _ -';
  /** Why an FSx for OpenZFS record's server that is not an FSx DNS name is refused. */
  const OPENZFS_RULE =
    'of an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only) is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)';

  // [what, the record (or a raw value), why the script gives]
  const REFUSED: [string, Record<string, string> | string, string][] = [
    [
      "the reviewer's example: 203.0.113.66:/evil on /etc/cron.d with suid,dev",
      record({
        server: '203.0.113.66',
        exportPath: '/evil',
        mountPoint: '/etc/cron.d',
        options: `${OPTIONS},suid,dev`,
      }),
      `server 203.0.113.66 is outside the allowed servers ${ALLOWANCE}`,
    ],
    [
      'the same from a server inside the allowance: the mount point is refused',
      record({ exportPath: '/evil', mountPoint: '/etc/cron.d', options: `${OPTIONS},suid,dev` }),
      OUTSIDE('/etc/cron.d'),
    ],
    [
      'the option suid',
      record({ options: `${OPTIONS},suid` }),
      'options: "suid" is not an allowed mount option',
    ],
    [
      'the option dev',
      record({ options: `dev,${OPTIONS}` }),
      'options: "dev" is not an allowed mount option',
    ],
    [
      'the option exec',
      record({ options: `${OPTIONS},exec` }),
      'options: "exec" is not an allowed mount option',
    ],
    [
      'the option defaults (suid and dev)',
      record({ options: 'defaults' }),
      'options: "defaults" is not an allowed mount option',
    ],
    [
      'an unknown option',
      record({ options: `${OPTIONS},fsc` }),
      'options: "fsc" is not an allowed mount option',
    ],
    [
      'an option that takes a value, without one',
      record({ options: 'rsize,hard' }),
      'options: "rsize" needs a value',
    ],
    ['NFSv3', record({ options: 'nfsvers=3,hard' }), 'options: "nfsvers=3" has a value out of range'],
    [
      'rsize out of range',
      record({ options: 'rsize=99999999,hard' }),
      'options: "rsize=99999999" has a value out of range',
    ],
    [
      'nconnect with a leading zero',
      record({ options: 'nconnect=08' }),
      'options: "nconnect=08" has a value out of range',
    ],
    ['soft', record({ options: 'soft,timeo=1,retrans=0' }), 'options: "soft" returns an I/O error after a timeout'],
    [
      'an option given twice',
      record({ options: 'hard,timeo=600,timeo=1' }),
      'options: "timeo" is given twice',
    ],
    ['an empty option', record({ options: 'hard,,_netdev' }), 'options: "" is not an allowed mount option'],
    [
      'a server outside the allowance',
      record({ server: '10.1.0.5' }),
      `server 10.1.0.5 is outside the allowed servers ${ALLOWANCE}`,
    ],
    [
      'a server with leading zeros',
      record({ server: '10.0.0.05' }),
      'server "10.0.0.05" is not an IPv4 address in canonical dotted-quad form (no leading zeros)',
    ],
    ['the server 0.0.0.0', record({ server: '0.0.0.0' }), 'server "0.0.0.0" is not a host address'],
    [
      'a server DNS name',
      record({ server: 'nfs.example.com' }),
      'server "nfs.example.com" is not an IPv4 address',
    ],
    [
      'an FSx for Lustre name with fsType nfs4',
      record({ server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com' }),
      'server "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com" is an FSx DNS name, which needs fsType "lustre" (FSx for Lustre) or backend "fsx-openzfs" (FSx for OpenZFS)',
    ],
    [
      'a lustre record with an IP address',
      record({ fsType: 'lustre', options: 'relatime,flock,_netdev' }),
      'server "10.0.0.5" of a lustre record is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)',
    ],
    [
      'a lustre record whose name this node cannot resolve (no getent answer: the stand-in knows no name)',
      record({
        server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com',
        fsType: 'lustre',
        exportPath: '/abcdefgh',
        mountPoint: '/fsx',
        options: 'relatime,flock,_netdev',
      }),
      'server fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com does not resolve to an IPv4 address on this node (getent ahostsv4)',
    ],
    [
      'a lustre record whose name resolves outside the allowed servers',
      record({
        server: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com',
        fsType: 'lustre',
        exportPath: '/abcdefgh',
        mountPoint: '/fsx',
        options: 'relatime,flock,_netdev',
      }),
      `server fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com resolves to 203.0.113.9, outside the allowed servers ${ALLOWANCE}`,
    ],
    [
      'an FSx for OpenZFS record with an IP address',
      record({ backend: 'fsx-openzfs' }),
      `server "10.0.0.5" ${OPENZFS_RULE}`,
    ],
    [
      'an FSx for OpenZFS record with a name that is not FSx\'s',
      record({ backend: 'fsx-openzfs', server: 'nfs.example.com', exportPath: '/fsx' }),
      `server "nfs.example.com" ${OPENZFS_RULE}`,
    ],
    [
      'an FSx for OpenZFS record whose name resolves outside the allowed servers',
      record({ backend: 'fsx-openzfs', server: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com', exportPath: '/fsx' }),
      `server fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com resolves to 203.0.113.9, outside the allowed servers ${ALLOWANCE}`,
    ],
    [
      'an FSx for OpenZFS record whose name this node cannot resolve',
      record({ backend: 'fsx-openzfs', server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com', exportPath: '/fsx' }),
      'server fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com does not resolve to an IPv4 address on this node (getent ahostsv4)',
    ],
    [
      'an FSx for OpenZFS record with fsType lustre',
      record({ backend: 'fsx-openzfs', server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com', fsType: 'lustre', exportPath: '/abcdefgh', options: 'relatime' }),
      'backend "fsx-openzfs" does not fit fsType "lustre" (fsx-lustre is mounted as "lustre", every other backend as "nfs4")',
    ],
    [
      'a backend that is not one',
      record({ backend: 'efs' }),
      'backend "efs" is not one of ebs, instance-store, fsx-lustre, fsx-openzfs',
    ],
    [
      'a lustre record whose exportPath is not a mount name',
      record({
        server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com',
        fsType: 'lustre',
        exportPath: '/export/data',
        mountPoint: '/fsx',
        options: 'relatime,flock,_netdev',
      }),
      'exportPath "/export/data" of a lustre record is not "/" and a mount name (3-8 of a-z 0-9)',
    ],
    ['a relative mountPoint', record({ mountPoint: 'data' }), 'mountPoint "data" is not an absolute path'],
    ['the mountPoint /', record({ mountPoint: '/' }), 'mountPoint "/" is the root directory'],
    ['the mountPoint /usr/local', record({ mountPoint: '/usr/local' }), OUTSIDE('/usr/local')],
    ['the mountPoint /var/lib/x', record({ mountPoint: '/var/lib/x' }), OUTSIDE('/var/lib/x')],
    ['the mountPoint /root', record({ mountPoint: '/root' }), OUTSIDE('/root')],
    // Where root-run code lives: nosuid,nodev do not stop root running a file planted there.
    ['the mountPoint /opt', record({ mountPoint: '/opt' }), OUTSIDE('/opt')],
    ['the mountPoint /opt/aws', record({ mountPoint: '/opt/aws' }), OUTSIDE('/opt/aws')],
    [
      'the mountPoint /opt/parallelcluster',
      record({ mountPoint: '/opt/parallelcluster' }),
      OUTSIDE('/opt/parallelcluster'),
    ],
    ['the mountPoint /snap/bin', record({ mountPoint: '/snap/bin' }), OUTSIDE('/snap/bin')],
    ['the mountPoint /nix', record({ mountPoint: '/nix' }), OUTSIDE('/nix')],
    ['the mountPoint /mnt/data', record({ mountPoint: '/mnt/data' }), OUTSIDE('/mnt/data')],
    ['a name that only starts like a root', record({ mountPoint: '/database' }), OUTSIDE('/database')],
    [
      'the mountPoint /home/x without --allow-home',
      record({ mountPoint: '/home/x' }),
      OUTSIDE('/home/x', true),
    ],
    [
      'a record nested too deeply to decode (RecursionError)',
      `${'['.repeat(2000)}${']'.repeat(2000)}`, // 4,000 characters: a standard parameter holds 4,096
      'is nested too deeply to check (RecursionError)',
    ],
    [
      'a ".." segment in mountPoint',
      record({ mountPoint: '/data/../etc' }),
      'mountPoint "/data/../etc" has a "." or ".." segment',
    ],
    [
      'a ".." segment in exportPath',
      record({ exportPath: '/export/../../etc' }),
      'exportPath "/export/../../etc" has a "." or ".." segment',
    ],
    ['a trailing slash', record({ mountPoint: '/data/' }), `mountPoint "/data/" ${CHARS}`],
    [
      'a mountPoint longer than 255 characters',
      record({ mountPoint: `/${'d'.repeat(255)}` }),
      `mountPoint "/${'d'.repeat(255)}" is longer than 255 characters`,
    ],
    [
      '";" in server',
      record({ server: '10.0.0.5;reboot' }),
      'server "10.0.0.5;reboot" is not an IPv4 address',
    ],
    ['a newline in server', record({ server: '10.0.0.5\n' }), 'server "10.0.0.5\\n" is not an IPv4 address'],
    [
      '";" in exportPath',
      record({ exportPath: '/export/data;reboot' }),
      `exportPath "/export/data;reboot" ${CHARS}`,
    ],
    ['a quote in exportPath', record({ exportPath: "/export/da'ta" }), `exportPath "/export/da'ta" ${CHARS}`],
    [
      '"$(reboot)" in mountPoint',
      record({ mountPoint: '/data$(reboot)' }),
      `mountPoint "/data$(reboot)" ${CHARS}`,
    ],
    ['a space in mountPoint', record({ mountPoint: '/data x' }), `mountPoint "/data x" ${CHARS}`],
    ['a newline in mountPoint', record({ mountPoint: '/data\n' }), `mountPoint "/data\\n" ${CHARS}`],
    ['a tab in mountPoint', record({ mountPoint: '/da\tta' }), `mountPoint "/da\\tta" ${CHARS}`],
    [
      'a backtick in options',
      record({ options: 'hard,`reboot`' }),
      'options: "`reboot`" is not an allowed mount option',
    ],
    [
      'a space in options',
      record({ options: 'hard, nofail' }),
      'options: " nofail" is not an allowed mount option',
    ],
    [
      '"$(reboot)" in options',
      record({ options: 'hard,$(reboot)' }),
      'options: "$(reboot)" is not an allowed mount option',
    ],
    ['";" in fsType', record({ fsType: 'nfs4;reboot' }), 'fsType "nfs4;reboot" is not "nfs4" (or "lustre")'],
    [
      'a second line smuggled into fstab',
      record({ fstab: `${GOOD_FSTAB}\n* * * * * root reboot` }),
      `fstab ${q(`${GOOD_FSTAB}\n* * * * * root reboot`)} disagrees with its fields`,
    ],
    [
      'suid in fstab only',
      record({ fstab: GOOD_FSTAB.replace('_netdev', '_netdev,suid') }),
      `fstab ${q(GOOD_FSTAB.replace('_netdev', '_netdev,suid'))} disagrees with its fields (expected ${q(GOOD_FSTAB)})`,
    ],
    ['not JSON', '{"server": "10.0.0.5", "mountPoint": "/etc"', 'is not JSON'],
  ];

  // One run for every row (an AWS CLI start each would cost about a second): test/python runs each row alone through
  // the checker, and this shows each, through the whole script, reported on its own line and touching nothing.
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
      // GIVEN: /data already mounted from the record's source, per-mount flags rw,noexec,relatime (a stand-in
      // findmnt that shows nosuid,nodev once a remount was recorded, if remounting works)
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
    // GIVEN: python3 as the node has it, but lstat('/scratch') fails with EIO (a disk error, or the review's
    // race that made realpath raise): an error the checks do not expect
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

describe('client-mount.sh refuses a mount point it cannot reach safely on the node', () => {
  // Real directories: a mount root in a directory of this test (under node_modules/.cache, not /tmp: /tmp is
  // writable by everyone, so nothing under it is ever safe), passed as --mount-roots. mount and mkdir are
  // stand-ins that record their arguments, as above. The script treats directories owned by root or by the
  // user running it as root's (the same under SSM, where that user is root).
  let bin: string;
  let mounts: string;
  let mkdirs: string;
  let base: string;
  let root: string;
  beforeEach(() => {
    bin = path.join(dir, 'node-bin');
    mounts = path.join(dir, 'mount-calls');
    mkdirs = path.join(dir, 'mkdir-calls');
    program(bin, 'mount', [recordArgs(mounts), 'exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    // The lock's directory (under the test's own directory) is made for real, and not recorded.
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
  const runOnNode = () =>
    spawnSync('bash', [SCRIPT, ...baseArgs(), '--mount-roots', root], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}:${venv}:${HOST_PATH}`, CLIENT_MOUNT_LOCK: path.join(dir, 'lock') }),
      timeout: 60_000,
    });
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
    // GIVEN: at the records' check <root>/late is root's; while the fstab is written (cp, a stand-in that
    // then runs the real one) it becomes writable by everyone and a link to /etc appears in it
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

    // THEN: the line was written (the record was good when read), the mount refused
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
    // Below a directory the FHS names is a site's own (OpenHPC's /opt/ohpc/pub): the roots are taken and the run goes on.
    const below = spawnSync('bash', [SCRIPT, ...baseArgs(), '--no-mount', '--mount-roots', '/data,/opt/ohpc/pub'], { encoding: 'utf8', env: scriptEnv(), timeout: 60_000 });
    expect({ status: below.status, err: below.stderr }).toEqual({ status: 0, err: '' });
  });
});

describe('client-mount.sh: nconnect and the NFS read-ahead on a node', () => {
  // As on a node (mounting), with stand-ins: `mount` records its arguments and, for a kernel without nconnect, fails
  // exactly as mount.nfs does when mount(2) refuses an option (exit 32, "mount.nfs: an incorrect mount option was
  // specified"; docs/sources/nconnect.md, [NFSUTILS-ERR]); the mount table and sysfs are files of the test's
  // (CLIENT_MOUNT_MOUNTINFO, CLIENT_MOUNT_SYSFS): /data's NFS mount has the bdi 0:53, read-ahead 128 KiB.
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
    bin = path.join(dir, 'node-bin');
    mounts = path.join(dir, 'mount-calls');
    umounts = path.join(dir, 'umount-calls');
    program(bin, 'umount', [recordArgs(umounts), 'exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    program(bin, 'mkdir', ['exit 0']);
    fs.writeFileSync(mountinfo(), '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n' + DATA_MOUNT('rw,vers=4.1,rsize=1048576'));
    fs.mkdirSync(path.dirname(readAhead()), { recursive: true });
    fs.writeFileSync(readAhead(), '128\n');
  });
  const runOnNode = (args: string[] = []) =>
    spawnSync('bash', [SCRIPT, ...baseArgs(), ...args], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}:${venv}:${HOST_PATH}`, CLIENT_MOUNT_RETRY_DELAY: '0' }),
      timeout: 60_000,
    });
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
    // The mount table's /data shows no nconnect= (as when an earlier mount of the same server fixed one connection).
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
    // Probed once a run: with nconnect (refused), without (mounted, then unmounted); then both mounts from the fstab.
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
    const awk = spawnSync('sh', ['-c', 'command -v awk'], { encoding: 'utf8', env: { PATH: `${bin}:${venv}:${HOST_PATH}` } }).stdout.trim();
    const ruleText = fs.readFileSync(rule(), 'utf8');
    expect(ruleText.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toEqual([
      `SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="${awk} -v bdi=$kernel 'BEGIN{ret=1} {if ($$4 == bdi) {ret=0}} END{exit ret}' ` +
        '/proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="15360"',
    ]);
    expect(fs.readFileSync(conf(), 'utf8')).toMatch(/\n\[nfsrahead\]\nnfs=15360\nnfs4=15360\n$/);
    // The rule's program as udev runs it ($kernel: the bdi's name; $$: $) picks NFS bdis out of /proc/fs/nfsfs/volumes.
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

describe('client-mount.sh with FSx for Lustre records', () => {
  // As on a node: stand-ins for mount, getent (the file system's name resolves inside the VPC), findmnt and the
  // package managers, each recording its arguments. There is no Lustre client or server here: what is tested is
  // what the script writes, installs and runs, not Lustre itself.
  const FS = 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com';
  const LUSTRE_OPTIONS = 'relatime,flock,_netdev';
  let bin: string;
  let mounts: string;
  let installs: string;
  beforeEach(() => {
    bin = path.join(dir, 'lustre-bin');
    mounts = path.join(dir, 'mount-calls');
    installs = path.join(dir, 'install-calls');
    program(bin, 'mount', [recordArgs(mounts), 'exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    program(bin, 'mkdir', ['exit 0']);
    program(bin, 'getent', [`case "$2" in ${FS}) echo "10.0.3.7        STREAM $2" ;; *) exit 2 ;; esac`]);
  });
  const runOnNode = (extraPath = '') =>
    spawnSync('bash', [SCRIPT, '--cluster', cluster, '--allowed-servers', ALLOWANCE, '--fstab', fstab], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}${extraPath}:${venv}:${HOST_PATH}`, CLIENT_MOUNT_LOCK: path.join(dir, 'lock'), CLIENT_MOUNT_RETRY_DELAY: '0' }),
      timeout: 60_000,
    });
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
  // As on a node: stand-ins for mount, umount, getent (the file system's name resolves inside the VPC) and the
  // package managers, each recording its arguments. There is no NFS server here: what is tested is what the script
  // admits, writes and runs for an OpenZFS record, an NFS mount by the file system's DNS name.
  const FS = 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com';
  const ZFS_OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev';
  let bin: string;
  let mounts: string;
  let installs: string;
  beforeEach(() => {
    bin = path.join(dir, 'zfs-bin');
    mounts = path.join(dir, 'mount-calls');
    installs = path.join(dir, 'install-calls');
    program(bin, 'mount', [recordArgs(mounts), 'exit 0']);
    program(bin, 'umount', ['exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    program(bin, 'mkdir', ['exit 0']);
    program(bin, 'dnf', [recordArgs(installs), 'exit 0']);
    // The resolver: this file system inside the VPC, another FSx name outside it, no other name.
    program(bin, 'getent', [
      `case "$2" in ${FS}) echo "10.0.3.8        STREAM $2" ;; fs-0fedcba9876543210.*) echo "203.0.113.9     STREAM $2" ;; *) exit 2 ;; esac`,
    ]);
  });
  const runOnNode = (args: string[] = []) =>
    spawnSync('bash', [SCRIPT, '--cluster', cluster, '--allowed-servers', ALLOWANCE, '--fstab', fstab, ...args], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}:${venv}:${HOST_PATH}`, CLIENT_MOUNT_RETRY_DELAY: '0' }),
      timeout: 60_000,
    });
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

describe('client-mount.sh where the AWS CLI is missing', () => {
  // PATH holds fake package managers and the host's tools, never the venv's CLI or the host's own `aws`.
  let bin: string;
  let calls: string;
  beforeEach(() => {
    bin = path.join(dir, 'fake-bin');
    calls = path.join(dir, 'package-manager-calls');
  });
  const runWithout = (args: string[] = []) => run(args, { PATH: `${bin}:${HOST_PATH}` });
  /** The real package managers the host has: a fake must come first, or the test must not run. */
  const realPackageManagers = (names: string[]) =>
    names.filter((n) => HOST_PATH.split(':').some((d) => fs.existsSync(path.join(d, n))));

  test('dnf: installs awscli-2 and reads the records with the CLI it installed', async () => {
    await putServer('s1', '10.0.0.5');
    // A dnf whose install puts a working `aws` on PATH: a shim for the venv's CLI.
    program(bin, 'dnf', [
      recordArgs(calls),
      `printf '#!/bin/sh\\nexec %s "$@"\\n' ${JSON.stringify(path.join(venv, 'aws'))} >${JSON.stringify(path.join(bin, 'aws'))}`,
      `chmod +x ${JSON.stringify(path.join(bin, 'aws'))}`,
    ]);

    const r = runWithout();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('client-mount: no AWS CLI (aws): installing the package awscli-2 with dnf');
    expect(recorded(calls)).toEqual([['install', '-y', '-q', 'awscli-2']]);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);

    const again = runWithout();
    expect(again.status).toBe(0);
    expect(recorded(calls)).toHaveLength(1); // the CLI is there now: nothing installed twice
  });

  test('apt-get: updates, tries awscli, and stops with exit 1 when no aws appears', async () => {
    expect(realPackageManagers(['dnf', 'yum'])).toEqual([]); // they would be picked before the fake apt-get
    await putServer('s1', '10.0.0.5');
    const before = fs.readFileSync(fstab, 'utf8');
    program(bin, 'apt-get', [recordArgs(calls), 'exit 0']); // "succeeds" and installs nothing

    const r = runWithout();

    expect(r.status).toBe(1);
    expect(r.stdout).toContain('client-mount: no AWS CLI (aws): installing the package awscli with apt-get');
    expect(r.stderr).toContain(
      "client-mount: ERROR 'apt-get install awscli' succeeded, but there is still no aws command on PATH",
    );
    expect(recorded(calls)).toEqual([
      ['update', '-qq'],
      ['install', '-y', '-qq', 'awscli'],
    ]);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('a failed install stops with exit 1, naming the package', () => {
    const before = fs.readFileSync(fstab, 'utf8');
    program(bin, 'dnf', [recordArgs(calls), 'echo "No match for argument: awscli-2" >&2', 'exit 1']);

    const r = runWithout();

    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "client-mount: ERROR could not install the AWS CLI: 'dnf install awscli-2' failed (see above)",
    );
    expect(recorded(calls)).toEqual([['install', '-y', '-q', 'awscli-2']]);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('--dry-run installs nothing: exit 1, naming the package to install', () => {
    program(bin, 'dnf', [recordArgs(calls), 'exit 0']);

    const r = runWithout(['--dry-run']);

    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--dry-run installs nothing; install the package awscli-2 (dnf) and re-run');
    expect(recorded(calls)).toEqual([]);
  });
});

describe('the AWS CLI against an emulator that checks signatures and IAM', () => {
  let authMoto: Moto;
  let creds: Record<string, { ak: string; sk: string; st: string }>;
  const authCluster = 'signed';

  beforeAll(async () => {
    authMoto = await startMoto();
    // Set up unauthenticated: a role with exactly the actions grantMount gives (moto evaluates actions, not
    // resource ARNs), one without GetParametersByPath, temporary credentials for both, and one record.
    const setup = spawnSync(
      path.join(venvBin(), 'python'),
      [
        '-c',
        `
import boto3, json, sys
ep, actions = sys.argv[1], json.loads(sys.argv[2])
c = lambda svc: boto3.client(svc, endpoint_url=ep, region_name='us-east-1', aws_access_key_id='test', aws_secret_access_key='test')
out = {}
for role, acts in [('granted', actions), ('narrow', ['ssm:GetParameter'])]:
    c('iam').create_role(RoleName=role, AssumeRolePolicyDocument=json.dumps({'Version': '2012-10-17', 'Statement': [
        {'Effect': 'Allow', 'Principal': {'AWS': '*'}, 'Action': 'sts:AssumeRole'}]}))
    c('iam').put_role_policy(RoleName=role, PolicyName='mount', PolicyDocument=json.dumps({'Version': '2012-10-17',
        'Statement': [{'Effect': 'Allow', 'Action': acts, 'Resource': '*'}]}))
    k = c('sts').assume_role(RoleArn='arn:aws:iam::123456789012:role/' + role, RoleSessionName='node-1')['Credentials']
    out[role] = {'ak': k['AccessKeyId'], 'sk': k['SecretAccessKey'], 'st': k['SessionToken']}
c('ssm').put_parameter(Name=sys.argv[3], Type='String', Value=sys.argv[4])
print(json.dumps(out))
`,
        authMoto.endpoint,
        JSON.stringify(MOUNT_READ_ACTIONS),
        mountParameterName(PREFIX, authCluster, 's1'),
        JSON.stringify(mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS)),
      ],
      { encoding: 'utf8' },
    );
    expect(setup.stderr).toBe('');
    creds = JSON.parse(setup.stdout);
    await post(`${authMoto.endpoint}/moto-api/reset-auth`, '0'); // from now on every call must be signed and allowed
  }, 120_000);
  afterAll(async () => {
    await authMoto?.stop();
  });

  function signed(c: { ak: string; sk: string; st: string }): SpawnSyncReturns<string> {
    return spawnSync(
      'bash',
      [SCRIPT, '--cluster', authCluster, '--fstab', fstab, '--no-mount', '--allowed-servers', ALLOWANCE],
      {
        encoding: 'utf8',
        env: scriptEnv({
          ...motoEnv(authMoto.endpoint),
          AWS_ACCESS_KEY_ID: c.ak,
          AWS_SECRET_ACCESS_KEY: c.sk,
          AWS_SESSION_TOKEN: c.st,
        }),
        timeout: 60_000,
      },
    );
  }

  test('a correctly signed request with the granted actions reads the records', () => {
    const r = signed(creds.granted);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fstabLines()).toContain(
      `${mountRecord('10.0.0.5', '/export/data', '/data', WRITTEN_OPTIONS).fstab} # storage-server:${authCluster}/s1`,
    );
  });

  test('a wrong secret key fails the signature check: exit 1, the reason shown', () => {
    const sk = creds.granted.sk; // one character changed, whatever the last one is
    const r = signed({ ...creds.granted, sk: `${sk.slice(0, -1)}${sk.endsWith('x') ? 'y' : 'x'}` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SignatureDoesNotMatch');
    expect(r.stderr).toContain(
      `client-mount: ERROR cannot read the mount configs under ${PREFIX}/${authCluster}/storage/`,
    );
  });

  test('without ssm:GetParametersByPath the read is denied: exit 1, the reason shown', () => {
    const r = signed(creds.narrow);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('AccessDenied');
    expect(r.stderr).toContain('ssm:GetParametersByPath');
  });
});

function post(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' } }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A directory for a real tree that client-mount.sh's rule can accept as a mount root: outside the system
 * directories (mountRootProblem, the rule the script applies) and with every ancestor root's or this user's,
 * written by no one else. The checkout's node_modules/.cache when the checkout sits in such a place, else
 * /srv/storage-server-tests (a fresh CI clone under /tmp is below a directory every user writes, and one under
 * /home or /root is below a system directory). The test's own precondition then checks the tree made there.
 */
function safeCacheDir(): string {
  const candidates = [path.join(__dirname, '../../node_modules/.cache'), '/srv/storage-server-tests'];
  const safe = (dir: string): boolean => {
    if (mountRootProblem(path.resolve(dir)) !== undefined) return false;
    for (let d = path.dirname(dir); ; d = path.dirname(d)) {
      if (fs.existsSync(d)) {
        const st = fs.lstatSync(d);
        if (!st.isDirectory() || ![0, process.getuid!()].includes(st.uid) || (st.mode & 0o022) !== 0) return false;
      }
      if (d === '/') return true;
    }
  };
  const chosen = candidates.find(safe) ?? candidates[0];
  fs.mkdirSync(chosen, { recursive: true, mode: 0o755 });
  return chosen;
}

describe('records across versions: a deployed node still mounts once the registration marks its records', () => {
  // The registration of this version (the handler, against the same moto) and records as the previous version wrote
  // them; stand-ins for mount, mount.nfs4, mkdir and the package managers on the node (no NFS server here).
  type Handler = typeof import('../../lambda/register').handler;
  let handler: Handler;
  let instance: Instance;
  let bin: string;
  let mounts: string;
  const saved = { ...process.env };
  beforeAll(async () => {
    // The handler's SDK clients read the endpoint at module load: set it, then import.
    Object.assign(process.env, motoEnv(moto.endpoint));
    ({ handler } = await import('../../lambda/register'));
    const ec2 = new EC2Client({});
    instance = await launchInstance(ec2, await createSubnet(ec2));
  }, 120_000);
  afterAll(() => {
    process.env = saved;
  });
  let installs: string;
  beforeEach(() => {
    bin = path.join(dir, 'node-bin');
    mounts = path.join(dir, 'mount-calls');
    installs = path.join(dir, 'install-calls');
    program(bin, 'mount', [recordArgs(mounts), 'exit 0']);
    program(bin, 'mount.nfs4', ['exit 0']);
    program(bin, 'mkdir', ['exit 0']);
    // Nothing is installed on the machine running the tests: a package manager called here records and fails.
    for (const pm of ['apt-get', 'dnf', 'yum']) program(bin, pm, [recordArgs(installs), 'exit 1']);
  });
  afterEach(() => expect(recorded(installs)).toEqual([]));
  const runOnNode = () =>
    spawnSync('bash', [SCRIPT, '--cluster', cluster, '--allowed-servers', '10.20.0.0/16', '--fstab', fstab], {
      encoding: 'utf8',
      env: scriptEnv({ PATH: `${bin}:${venv}:${HOST_PATH}`, CLIENT_MOUNT_RETRY_DELAY: '0' }),
      timeout: 60_000,
    });
  /** The two records as the previous version wrote them, byte for byte: no owner mark. */
  async function previousRecords(ip: string, instanceId: string): Promise<void> {
    const put = (Name: string, Value: string) => ssm.send(new PutParameterCommand({ Name, Value, Type: 'String', Overwrite: true }));
    await put(`${PREFIX}/${cluster}/ring/storage1`,
      `{"name":"storage1","role":"storage","instanceId":"${instanceId}","privateIp":"${ip}","privateDnsName":"",` +
        '"availabilityZone":"us-east-1a","instanceType":"m4.xlarge","backend":"ebs","registeredAt":"2026-11-24T10:00:00.000Z"}');
    await put(mountParameterName(PREFIX, cluster, 'storage1'),
      `{"server":"${ip}","exportPath":"/export/data","mountPoint":"/data","fsType":"nfs4","options":"${OPTIONS}",` +
        `"fstab":"${ip}:/export/data /data nfs4 ${OPTIONS} 0 0","backend":"ebs"}`);
  }
  const ringOf = () => `${PREFIX}/${cluster}/ring/storage1`;
  const registration = () => registrationProps(instance.InstanceId ?? '', { ParameterPrefix: PREFIX, ClusterName: cluster });

  test("the previous version's record is mounted; this version's registration takes it over; the node's line stays byte for byte, still mounted", async () => {
    // GIVEN a node that mounted the record the previous version wrote
    const ip = instance.PrivateIpAddress ?? '';
    await previousRecords(ip, instance.InstanceId ?? '');
    const first = runOnNode();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(tagged('storage1')).toEqual([line(ip, '/data', 'storage1')]);
    const before = fs.readFileSync(fstab, 'utf8');

    // WHEN this version's registration runs (the first deploy after the upgrade), writing its owner marks
    await handler(updateEvent(ringOf(), registration(), registration()));
    const record = await ssm.send(new GetParameterCommand({ Name: mountParameterName(PREFIX, cluster, 'storage1') }));
    expect(JSON.parse(record.Parameter?.Value ?? '{}')).toHaveProperty('owner.record', 'mount');
    const again = runOnNode();

    // THEN the node keeps its line as it was and mounts it, as after every run
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`fstab unchanged for ${cluster}/storage1`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data'], ['-T', fstab, '--', '/data']]);
  });

  test("a new node mounts the records this version's registration writes, with the line the previous version's record gave", async () => {
    const ip = instance.PrivateIpAddress ?? '';
    await handler(createEvent(registration()));

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(tagged('storage1')).toEqual([line(ip, '/data', 'storage1')]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
  });
});
