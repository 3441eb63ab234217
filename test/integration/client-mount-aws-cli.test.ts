import { spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { MOUNT_READ_ACTIONS } from '../../lib/client-mount';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import { motoEnv, startMoto, type Moto } from '../support/moto';
import { venvBin } from '../support/venv';
import {
  ALLOWANCE,
  HOST_PATH,
  awsBin,
  OPTIONS,
  PREFIX,
  SCRIPT,
  WRITTEN_OPTIONS,
  cluster,
  dir,
  fstab,
  fstabLines,
  line,
  moto,
  post,
  program,
  putServer,
  recordArgs,
  recorded,
  run,
  runAsync,
  scriptEnv,
  nodePath,
  useClientMountHarness,
} from '../support/client-mount-harness';

// How client-mount.sh finds and calls the AWS CLI: the endpoint and region it passes, IMDSv2, installing a missing
// CLI, and signed requests that IAM allows or denies.
useClientMountHarness();

// More of client-mount.test.ts's block of this name: its AWS CLI calls, in a file of their own for size.
describe('client-mount.sh against the emulator', () => {
  test('calls the AWS CLI with the path, --recursive, the region and --endpoint-url', async () => {
    await putServer('s1', '10.0.0.5');
    // A wrapper in front of the venv's CLI that records its arguments.
    const bin = path.join(dir, 'bin');
    const args = path.join(dir, 'aws-args');
    program(bin, 'aws', [recordArgs(args), `exec ${JSON.stringify(path.join(awsBin, 'aws'))} "$@"`]);

    const r = run([], { PATH: nodePath(bin) });

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
    // A stand-in for the instance metadata service that answers only token-bearing reads, as IMDSv2 asks.
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
      `printf '#!/bin/sh\\nexec %s "$@"\\n' ${JSON.stringify(path.join(awsBin, 'aws'))} >${JSON.stringify(path.join(bin, 'aws'))}`,
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
    // Set up unauthenticated: a role with exactly the actions grantMount gives, one without GetParametersByPath,
    // temporary credentials for both, and one record. moto evaluates actions, not resource ARNs.
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
