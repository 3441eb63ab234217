import { spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { DeleteParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { MOUNT_READ_ACTIONS, renderFstabUpdate } from '../../lib/client-mount';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import { motoEnv, startMoto, type Moto } from '../support/moto';
import { venvBin } from '../support/venv';

// client-mount.sh on this host against a moto server: it edits a temporary fstab (--no-mount, --dry-run);
// the mounts themselves need an NFS client, which only the e2e VMs have.

const SCRIPT = path.join(__dirname, '../../lib/scripts/client-mount.sh');
const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';
const PREFIX = '/storage-server';

let moto: Moto;
let ssm: SSMClient;
let dir: string;
let fstab: string;
let clusterSeq = 0;
let cluster: string;

beforeAll(async () => {
  moto = await startMoto();
  ssm = new SSMClient({
    endpoint: moto.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
}, 120_000);
afterAll(async () => {
  ssm?.destroy();
  await moto?.stop();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-'));
  fstab = path.join(dir, 'fstab');
  fs.writeFileSync(fstab, '# /etc/fstab\nUUID=0a1b2c3d / ext4 defaults 0 1\n');
  cluster = `it-${++clusterSeq}`; // every test has its own records in the shared emulator
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const tag = (server: string, c = cluster) => ` # storage-server:${c}/${server}`;
const line = (ip: string, mountPoint: string, server: string) =>
  `${mountRecord(ip, '/export/data', mountPoint, OPTIONS).fstab}${tag(server)}`;

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

function run(args: string[] = [], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('bash', [SCRIPT, '--cluster', cluster, '--fstab', fstab, '--no-mount', ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      ...motoEnv(moto.endpoint),
      STORAGE_SERVER_SSM_CLIENT: 'python',
      CLIENT_MOUNT_LOCK: path.join(dir, 'lock'),
      ...env,
    },
    timeout: 60_000,
  });
}
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
    expect(findmnt.stdout.trim()).toBe(`10.0.0.5:/export/data /data nfs4 ${OPTIONS}`);
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

  test('malformed records are reported by parameter name; the good one still goes in', async () => {
    const good = mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS);
    await putServer('a-good', '10.0.0.5');
    await putRecord('b-not-json', '{"server": "10.0.0.6",');
    await putRecord('c-fstype', {
      ...good,
      mountPoint: '/c',
      fsType: 'nfs',
      fstab: good.fstab.replace(' /data ', ' /c '),
    });
    await putRecord('d-mismatch', { ...good, mountPoint: '/d' });
    await putRecord('e-missing', {
      server: '10.0.0.7',
      exportPath: '/export/data',
      mountPoint: '/e',
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
    expect(r.stdout).toContain(`ATTENTION MALFORMED ${name('b-not-json')}: is not JSON`);
    expect(r.stdout).toContain(`ATTENTION MALFORMED ${name('c-fstype')}: fsType "nfs" is not "nfs4"`);
    expect(r.stdout).toContain(
      `ATTENTION MALFORMED ${name('d-mismatch')}: fstab ${JSON.stringify(good.fstab)} disagrees with its fields`,
    );
    expect(r.stdout).toContain(
      `ATTENTION MALFORMED ${name('e-missing')}: lacks string field(s) options, fstab`,
    );
    expect(r.stdout).toContain(
      `ATTENTION MALFORMED ${name('f-space')}: mountPoint "/f f" is not an absolute path`,
    );
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 'a-good')]);
  });

  test('two configs claiming one mount point: the first by name goes in, the second is reported', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6');

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION MALFORMED ${mountParameterName(PREFIX, cluster, 's2')}: mountPoint /data is already used by server s1`,
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
    for (const [i, s] of servers.entries()) await putServer(s, `10.0.1.${i + 1}`, `/data${i}`);

    const r = run();

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual(servers.map((s, i) => line(`10.0.1.${i + 1}`, `/data${i}`, s)));
  });

  test('uses the AWS CLI when it is on PATH, with the documented arguments', async () => {
    await putServer('s1', '10.0.0.5');
    // A stand-in for the AWS CLI: checks its arguments and answers through the SDK (boto3) from the venv.
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'aws'),
      [
        `#!${path.join(venvBin(), 'python')}`,
        'import json, os, sys, boto3',
        `open(${JSON.stringify(path.join(dir, 'aws-args'))}, 'w').write(json.dumps(sys.argv[1:]))`,
        'a = sys.argv[1:]',
        "assert a[:3] == ['ssm', 'get-parameters-by-path', '--path'] and a[4:7] == ['--recursive', '--output', 'json'], a",
        "region = a[a.index('--region') + 1] if '--region' in a else None",
        "c = boto3.client('ssm', endpoint_url=os.environ['AWS_ENDPOINT_URL'], region_name=region)",
        "params = [p for page in c.get_paginator('get_parameters_by_path').paginate(Path=a[3], Recursive=True) for p in page['Parameters']]",
        "print(json.dumps({'Parameters': params}, default=str))",
        '',
      ].join('\n'),
      { mode: 0o755 },
    );

    const r = run([], { PATH: `${bin}:${process.env.PATH}`, STORAGE_SERVER_SSM_CLIENT: 'auto' });

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'aws-args'), 'utf8'))).toEqual([
      'ssm',
      'get-parameters-by-path',
      '--path',
      `${PREFIX}/${cluster}/storage/`,
      '--recursive',
      '--output',
      'json',
      '--region',
      'us-east-1',
    ]);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('an unreachable API stops with exit 1 and leaves the fstab alone', () => {
    const before = fs.readFileSync(fstab, 'utf8');
    const r = run([], { AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
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
  ])('refuses %j with exit 1', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
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

describe('the python SigV4 client against an emulator that checks signatures and IAM', () => {
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
    return spawnSync('bash', [SCRIPT, '--cluster', authCluster, '--fstab', fstab, '--no-mount'], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        ...motoEnv(authMoto.endpoint),
        STORAGE_SERVER_SSM_CLIENT: 'python',
        CLIENT_MOUNT_LOCK: path.join(dir, 'lock'),
        AWS_ACCESS_KEY_ID: c.ak,
        AWS_SECRET_ACCESS_KEY: c.sk,
        AWS_SESSION_TOKEN: c.st,
      },
    });
  }

  test('a correctly signed request with the granted actions reads the records', () => {
    const r = signed(creds.granted);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fstabLines()).toContain(
      `${mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS).fstab} # storage-server:${authCluster}/s1`,
    );
  });

  test('a wrong secret key fails the signature check: exit 1, the reason shown', () => {
    const r = signed({ ...creds.granted, sk: `${creds.granted.sk.slice(0, -1)}x` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SSM GetParametersByPath failed: HTTP 403 SignatureDoesNotMatch');
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
