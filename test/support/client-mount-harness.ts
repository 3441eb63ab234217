/**
 * The harness of test/integration/client-mount*.test.ts: client-mount.sh on this host against a moto server, editing a
 * temporary fstab with --no-mount, --dry-run, or mounting through stand-ins. The mounts themselves need an NFS client,
 * which only the e2e VMs have. The script reads the records with the AWS CLI from the test venv of
 * test/requirements.txt, which every run puts first on PATH. The host's own `aws`, if it has one, is kept out of PATH,
 * so that the tests choose which CLI the script finds.
 *
 * A test file calls {@link useClientMountHarness} once at its top level. The state the hooks set, moto, ssm, dir,
 * fstab, cluster and venv, is exported as `let` bindings, which an importer reads live.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { loadClientMountScript } from '../../lib/client-mount';
import { documentScript } from '../../lib/client-mount/document';
import { mountRootProblem } from '../../lib/validation';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import { motoEnv, startMoto, type Moto } from './moto';
import { type AwsCli, startAwsCli } from './aws-cli';
import { venvBin } from './venv';

/** The script as the SSM document carries it (its parts in place by lib/script-parts.ts, no comments), alone in a directory. */
const SCRIPT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-script-'));
export const SCRIPT = path.join(SCRIPT_DIR, 'client-mount.sh');
fs.writeFileSync(SCRIPT, documentScript(loadClientMountScript()));
export const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';
/** What the script writes and mounts with: the record's options and nosuid,nodev. */
export const WRITTEN_OPTIONS = `${OPTIONS},nosuid,nodev`;
export const PREFIX = '/storage-server';
/** The script's --allowed-servers in these tests: every record's server is in it unless a test says otherwise. */
export const ALLOWANCE = '10.0.0.0/16';

export let moto: Moto;
export let ssm: SSMClient;
export let dir: string;
export let fstab: string;
let clusterSeq = 0;
export let cluster: string;
/** The venv's bin directory: the AWS CLI, awscli pinned in test/requirements.txt, and its python. */
export let venv: string;
/** A directory whose `aws` is the venv's CLI, imported once for the file by aws-cli.ts: first on every PATH given. */
export let awsBin: string;
let awsCli: AwsCli | undefined;
/** The host's PATH less every directory that holds an `aws`, such as a developer's own CLI or a pyenv shim. */
export const HOST_PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((d) => d !== '' && !fs.existsSync(path.join(d, 'aws')))
  .join(':');

/** Registers the hooks: one moto for the file, and for every test its own directory, fstab and cluster. */
export function useClientMountHarness(): void {
  beforeAll(async () => {
    moto = await startMoto();
    venv = venvBin();
    awsCli = await startAwsCli(['ssm get-parameters-by-path', 'ssm get-parameters']);
    awsBin = awsCli.bin;
    ssm = new SSMClient({
      endpoint: moto.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  }, 120_000);
  afterAll(async () => {
    ssm?.destroy();
    await moto?.stop();
    await awsCli?.stop();
    fs.rmSync(SCRIPT_DIR, { recursive: true, force: true });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-'));
    fstab = path.join(dir, 'fstab');
    fs.writeFileSync(fstab, '# /etc/fstab\nUUID=0a1b2c3d / ext4 defaults 0 1\n');
    // The node's /etc/udev/rules.d and /etc/nfs.conf.d, which udev and nfs-utils ship, where the read-ahead goes.
    fs.mkdirSync(path.join(dir, 'udev'));
    fs.mkdirSync(path.join(dir, 'nfs.conf.d'));
    // systemd is there (sd_booted's directory) and storage-server-mounts.target active: a later run of the boot, unless a
    // test removes target-active, as the stand-in systemctl of nodeStandIns reads it.
    fs.mkdirSync(path.join(dir, 'run-systemd'));
    // Where the units and the expected mounts go, made here since the stand-in mkdir of nodeStandIns makes nothing.
    fs.mkdirSync(path.join(dir, 'systemd', 'storage-server-mounts.target.d'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'expected'));
    fs.writeFileSync(path.join(dir, 'target-active'), '');
    cluster = `it-${++clusterSeq}`; // every test has its own records in the shared emulator
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
}

export const tag = (server: string, c = cluster) => ` # storage-server:${c}/${server}`;
/** The line the script writes for a record with OPTIONS: the record's fields, nosuid,nodev added. */
export const line = (ip: string, mountPoint: string, server: string) =>
  `${mountRecord(ip, '/export/data', mountPoint, WRITTEN_OPTIONS).fstab}${tag(server)}`;

export async function putRecord(server: string, value: unknown, c = cluster): Promise<void> {
  await ssm.send(
    new PutParameterCommand({
      Name: mountParameterName(PREFIX, c, server),
      Value: typeof value === 'string' ? value : JSON.stringify(value),
      Type: 'String',
      Overwrite: true,
    }),
  );
}
export const putServer = (server: string, ip: string, mountPoint = '/data') =>
  putRecord(server, mountRecord(ip, '/export/data', mountPoint, OPTIONS));

/**
 * The script's environment: the venv's CLI, through awsBin, first on PATH, moto's endpoint and fake credentials. The
 * CLI is told to ignore AWS_ENDPOINT_URL by AWS_IGNORE_CONFIGURED_ENDPOINT_URLS, as Debian 12's packaged CLI 2.9 does.
 * So only the script's own --endpoint-url brings a call to moto.
 */
export function scriptEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${awsBin}:${venv}:${HOST_PATH}`,
    ...motoEnv(moto.endpoint),
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true',
    CLIENT_MOUNT_LOCK: path.join(dir, 'lock'),
    // The read-ahead's files, sysfs and the mount table, and the nconnect probe's temporary directory: the test's own.
    CLIENT_MOUNT_UDEV_RULE: path.join(dir, 'udev', '99-storage-server-nfs-read-ahead.rules'),
    CLIENT_MOUNT_NFS_CONF: path.join(dir, 'nfs.conf.d', 'storage-server-read-ahead.conf'),
    CLIENT_MOUNT_SYSFS: path.join(dir, 'sys'),
    CLIENT_MOUNT_MOUNTINFO: path.join(dir, 'mountinfo'),
    // Readiness: the units, the expected mounts and systemd's presence in the test's directory; a first run's bound of 3 s.
    CLIENT_MOUNT_UNIT_DIR: path.join(dir, 'systemd'),
    CLIENT_MOUNT_EXPECTED_DIR: path.join(dir, 'expected'),
    CLIENT_MOUNT_SYSTEMD_RUN: path.join(dir, 'run-systemd'),
    CLIENT_MOUNT_READY_SECONDS: '3',
    TMPDIR: dir,
    ...env,
  };
}
/** The arguments every run starts with; later ones override, since the script keeps the last of each. */
export const baseArgs = () => ['--cluster', cluster, '--fstab', fstab, '--allowed-servers', ALLOWANCE];
export function run(args: string[] = [], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('bash', [SCRIPT, ...baseArgs(), '--no-mount', ...args], {
    encoding: 'utf8',
    env: scriptEnv(env),
    timeout: 60_000,
  });
}
/** A node's PATH: its stand-ins in `bin` first, then the AWS CLI and the host's tools. */
export const nodePath = (bin: string) => `${bin}:${awsBin}:${venv}:${HOST_PATH}`;
/**
 * The script as the SSM document runs it, mounting, with the stand-ins in `bin` first on PATH. `args` come after
 * baseArgs', since the script keeps the last of each, and `env` goes over scriptEnv's.
 */
export function runOnNode(bin: string, args: string[] = [], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('bash', [SCRIPT, ...baseArgs(), ...args], { encoding: 'utf8', env: scriptEnv({ PATH: nodePath(bin), ...env }), timeout: 60_000 });
}
/** As {@link run}, without blocking the event loop, for tests that serve HTTP to the script. */
export function runAsync(
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
export function program(binDir: string, name: string, lines: string[]): void {
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(path.join(binDir, name), ['#!/bin/bash', ...lines, ''].join('\n'), { mode: 0o755 });
}
/** The argument lists a recording program wrote to `file`, one JSON array a line. */
export const recorded = (file: string): string[][] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[])
    : [];
/** A shell line that appends the program's arguments to `file` as one JSON array. */
export const recordArgs = (file: string) =>
  `${JSON.stringify(path.join(venv, 'python'))} -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >>${JSON.stringify(file)}`;
export const fstabLines = () =>
  fs
    .readFileSync(fstab, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
export const tagged = (server: string) => fstabLines().filter((l) => l.endsWith(tag(server)));

/**
 * The node's programs for a run that mounts: `bin` goes first on PATH, `mount` records its calls in `mounts`, and
 * `systemctl` its calls in `systemctl`.
 */
export interface NodeStandIns {
  readonly bin: string;
  readonly mounts: string;
  readonly systemctl: string;
}
/**
 * Stand-ins for the programs a mounting run calls, in the test's directory. `mount` records its arguments and succeeds,
 * `mount.nfs4` is there so that the script installs no NFS client, and `mkdir` makes nothing. A describe block writes
 * its own extras into `bin`, or replaces one of these there.
 */
export function nodeStandIns(options: { mountTable?: boolean } = {}): NodeStandIns {
  const bin = path.join(dir, 'node-bin');
  const mounts = path.join(dir, 'mount-calls');
  const systemctl = path.join(dir, 'systemctl-calls');
  program(bin, 'mount', [recordArgs(mounts), ...(options.mountTable ? MOUNT_TABLE_ENTRY : []), 'exit 0']);
  program(bin, 'mount.nfs4', ['exit 0']);
  program(bin, 'mkdir', ['exit 0']);
  // systemd's part: is-active reads target-active, start makes it; the others succeed.
  const active = JSON.stringify(path.join(dir, 'target-active'));
  program(bin, 'systemctl', [
    recordArgs(systemctl),
    `case $1 in is-active) test -e ${active} ;; start) touch ${active} ;; *) exit 0 ;; esac`,
  ]);
  return { bin, mounts, systemctl };
}

/**
 * With `mountTable`, the stand-in `mount -T <fstab> -- <mount point>` also puts the mount into the test's mount table,
 * CLIENT_MOUNT_MOUNTINFO, with the source its fstab line names, as the kernel would.
 */
const MOUNT_TABLE_ENTRY = [
  'if [[ $1 == -T ]]; then',
  '  src=$(awk -v mp="$4" \'$2 == mp { print $1 }\' "$2")',
  '  echo "90 1 0:90 / $4 rw,nosuid,nodev - nfs4 $src rw" >>"$CLIENT_MOUNT_MOUNTINFO"',
  'fi',
];

export function post(url: string, body: string): Promise<void> {
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
 * A directory for a real tree that client-mount.sh's rule can accept as a mount root. It lies outside the system
 * directories, by mountRootProblem, the rule the script applies, and every ancestor is root's or this user's, written
 * by no one else. It is the checkout's node_modules/.cache when the checkout sits in such a place, else
 * /srv/storage-server-tests. A fresh CI clone under /tmp is below a directory every user writes, and one under /home or
 * /root is below a system directory. The test's own precondition then checks the tree made there.
 */
export function safeCacheDir(): string {
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
