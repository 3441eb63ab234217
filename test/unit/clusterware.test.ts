import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, SecretValue, Stack, Token, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import {
  CLUSTERWARE_GOSSIP_PORT,
  ClusterwareRing,
  ClusterwareRingProps,
  deriveClusterUuid,
  loadClusterwareJoinScript,
  renderClusterwareJoin,
} from '../../lib/clusterware';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';
import { venvBin } from '../support/venv';

const SCRIPT_PATH = path.join(__dirname, '../../lib/scripts/clusterware-join.sh');
const IMPORTED_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:hpc1-token-AbCdEf';

/** A stack with a VPC and one Linux instance, the storage server stand-in, that joins a ring. */
function ringStack(
  props: Partial<ClusterwareRingProps> = {},
  app = new App(),
): { stack: Stack; ring: ClusterwareRing; instance: ec2.Instance } {
  const stack = new Stack(app, 'Test');
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0, restrictDefaultSecurityGroup: false });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    requireImdsv2: true,
    detailedMonitoring: true,
    blockDevices: [{ deviceName: '/dev/xvda', volume: ec2.BlockDeviceVolume.ebs(8, { encrypted: true }) }],
  });
  const ring = new ClusterwareRing(stack, 'Clusterware', {
    clusterName: 'hpc1',
    loginIp: '10.0.0.10',
    ...props,
  });
  ring.join(instance);
  return { stack, ring, instance };
}

function userData(template: Template): string {
  const [instance] = Object.values(template.findResources('AWS::EC2::Instance')) as {
    Properties: { UserData: unknown };
  }[];
  return JSON.stringify(instance.Properties.UserData);
}

describe('ClusterwareRing', () => {
  test('creates a secret whose token Secrets Manager generates at deploy', () => {
    const { stack } = ringStack();
    const template = Template.fromStack(stack);

    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 32, ExcludePunctuation: true, IncludeSpace: false },
      SecretString: Match.absent(),
    });
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toContain('"SecretString"');
    expect(json).not.toContain('resolve:secretsmanager');
  });

  test('join: user data carries the secret ARN, the master, the uuid, and no token', () => {
    const { stack, ring } = ringStack();
    const template = Template.fromStack(stack);
    const secretId = stack.getLogicalId(ring.tokenSecret.node.defaultChild as secretsmanager.CfnSecret);
    const data = userData(template);

    expect(data).toContain(`--secret-id '",{"Ref":"${secretId}"},"' --region '",{"Ref":"AWS::Region"},"'`);
    expect(data).toContain(`--cluster 'hpc1' --master '10.0.0.10' --uuid '${deriveClusterUuid('hpc1')}'`);
    expect(data).toContain(JSON.stringify(loadClusterwareJoinScript().trimEnd()).slice(1, -1));
    expect(data).not.toContain('resolve:secretsmanager');
  });

  test('join: the instance role may read the secret, and the master may gossip to the member', () => {
    const { stack, ring } = ringStack();
    const template = Template.fromStack(stack);
    const secretId = stack.getLogicalId(ring.tokenSecret.node.defaultChild as secretsmanager.CfnSecret);

    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('ServerInstanceRole') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
            Resource: { Ref: secretId },
          }),
        ]),
      },
    });
    for (const protocol of ['tcp', 'udp']) {
      template.hasResourceProperties('AWS::EC2::SecurityGroup', {
        SecurityGroupIngress: Match.arrayWith([
          Match.objectLike({
            CidrIp: '10.0.0.10/32',
            IpProtocol: protocol,
            FromPort: CLUSTERWARE_GOSSIP_PORT,
            ToPort: CLUSTERWARE_GOSSIP_PORT,
          }),
        ]),
      });
    }
  });

  test('a token given in plain text to the secret never reaches user data', () => {
    const app = new App();
    const stack = new Stack(app, 'Test');
    const token = new secretsmanager.Secret(stack, 'Given', {
      secretStringValue: SecretValue.unsafePlainText('S3cr3t-T0ken-xyz'),
    });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const instance = new ec2.Instance(stack, 'Server', {
      vpc,
      instanceType: new ec2.InstanceType('m4.xlarge'),
      machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });
    new ClusterwareRing(stack, 'Clusterware', {
      clusterName: 'hpc1',
      loginIp: '10.0.0.10',
      tokenSecret: token,
    }).join(instance);

    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    expect(userData(template)).not.toContain('S3cr3t-T0ken-xyz');
    expect(userData(template)).toContain(
      `{"Ref":"${stack.getLogicalId(token.node.defaultChild as secretsmanager.CfnSecret)}"}`,
    );
  });

  test('an imported secret and uuid: no secret is created, user data names the ARN', () => {
    const app = new App();
    const stack = new Stack(app, 'Test');
    const tokenSecret = secretsmanager.Secret.fromSecretCompleteArn(stack, 'Imported', IMPORTED_ARN);
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const instance = new ec2.Instance(stack, 'Server', {
      vpc,
      instanceType: new ec2.InstanceType('m4.xlarge'),
      machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });
    const uuid = '7b4249e8-637a-11e5-a343-7831c1c0e63c';
    new ClusterwareRing(stack, 'Clusterware', {
      clusterName: 'hpc1',
      loginIp: '10.0.0.10',
      tokenSecret,
      clusterUuid: uuid,
    }).join(instance);

    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(userData(template)).toContain(`--secret-id '${IMPORTED_ARN}'`);
    expect(userData(template)).toContain(`--uuid '${uuid}'`);
  });

  test.each<[string, Partial<ClusterwareRingProps>, RegExp]>([
    [
      'loginIp not an address',
      { loginIp: 'login1' },
      /loginIp must be the clusterware master's IPv4 address .* got "login1"/,
    ],
    ['loginIp out of range', { loginIp: '10.0.0.256' }, /loginIp must be .* got "10.0.0.256"/],
    ['clusterUuid', { clusterUuid: 'ABC' }, /clusterUuid must be a lower-case UUID .* got "ABC"/],
    ['clusterName', { clusterName: 'a b' }, /clusterName must be 1-64 characters .* got "a b"/],
    [
      'clusterName token',
      { clusterName: Token.asString({ Ref: 'X' }) },
      /clusterName must be a concrete string/,
    ],
  ])('refuses %s', (_name, props, message) => {
    expect(() => ringStack(props)).toThrow(message);
  });

  test('refuses a Windows member', () => {
    const stack = new Stack(new App(), 'Test');
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const ring = new ClusterwareRing(stack, 'Clusterware', { clusterName: 'hpc1', loginIp: '10.0.0.10' });
    const windows = new ec2.Instance(stack, 'Win', {
      vpc,
      instanceType: new ec2.InstanceType('m4.xlarge'),
      machineImage: ec2.MachineImage.latestWindows(ec2.WindowsVersion.WINDOWS_SERVER_2022_ENGLISH_FULL_BASE),
    });
    expect(() => ring.join(windows)).toThrow(/member Test\/Win must run Linux/);
  });

  test('the derived uuid is the RFC 9562 version 5 uuid of the name (checked against Python)', () => {
    const python = spawnSync(
      path.join(venvBin(), 'python'),
      [
        '-c',
        'import uuid, sys; print(uuid.uuid5(uuid.UUID("5b0f3a2e-8d1c-4f57-9a34-6e2b7c1d9f40"), sys.argv[1]))',
        'hpc1',
      ],
      { encoding: 'utf8' },
    );
    expect(python.status).toBe(0);
    expect(deriveClusterUuid('hpc1')).toBe(python.stdout.trim());
    expect(deriveClusterUuid('hpc2')).not.toBe(deriveClusterUuid('hpc1'));
  });

  test('cdk-nag AwsSolutions and cfn-lint: no finding', () => {
    expect(
      nagFindings((app) => {
        // The VPC and the instance are test scaffolding, not created by the construct under test.
        const { stack, instance } = ringStack({}, app);
        Validations.of(stack.node.findChild('Vpc')).acknowledge({
          id: 'AwsSolutions-VPC7',
          reason: 'test scaffolding',
        });
        Validations.of(instance).acknowledge({ id: 'AwsSolutions-EC29', reason: 'test scaffolding' });
      }),
    ).toEqual([]);
    expect(cfnLint(Template.fromStack(ringStack().stack).toJSON())).toEqual([]);
  });
});

describe('renderClusterwareJoin', () => {
  test('installs the script verbatim and runs it with the ARN; a failed join does not stop the boot', () => {
    const lines = renderClusterwareJoin({
      script: 'echo hi\n',
      secretArn: IMPORTED_ARN,
      region: 'eu-west-1',
      clusterName: 'c',
      loginIp: '10.1.2.3',
      clusterUuid: 'u',
    });
    expect(lines).toContain('echo hi');
    expect(lines[lines.length - 1]).toBe(
      `/usr/local/sbin/storage-server-clusterware-join --secret-id '${IMPORTED_ARN}' ` +
        "--region 'eu-west-1' --cluster 'c' --master '10.1.2.3' --uuid 'u' || echo \"storage-server: clusterware join failed\" >&2",
    );
    expect(() =>
      renderClusterwareJoin({
        script: 'STORAGE_SERVER_CLUSTERWARE_JOIN_SH\n',
        secretArn: 'a',
        region: 'r',
        clusterName: 'c',
        loginIp: 'i',
        clusterUuid: 'u',
      }),
    ).toThrow(/heredoc delimiter/);
  });
});

describe('clusterware-join.sh', () => {
  const uuid = deriveClusterUuid('hpc1');
  let dir: string;

  /** Runs the script with a stand-in `aws` that checks its arguments and prints the given token. */
  function join(token: string, extra: string[] = [], awsExit = 0) {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(dir, 'token'), token);
    fs.writeFileSync(
      path.join(bin, 'aws'),
      [
        '#!/bin/bash',
        `printf '%s\\n' "$@" >'${dir}/aws-args'`,
        `[[ ${awsExit} -eq 0 ]] || { echo "An error occurred (ResourceNotFoundException)" >&2; exit ${awsExit}; }`,
        `cat '${dir}/token'`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    return spawnSync(
      'bash',
      [
        SCRIPT_PATH,
        '--secret-id',
        IMPORTED_ARN,
        '--region',
        'us-east-1',
        '--cluster',
        'hpc1',
        '--master',
        '10.0.0.10',
        '--uuid',
        uuid,
        '--config',
        path.join(dir, 'etc/config.yml'),
        ...extra,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      },
    );
  }
  const config = () => path.join(dir, 'etc/config.yml');
  const parseYaml = (file: string) =>
    JSON.parse(
      spawnSync(
        path.join(venvBin(), 'python'),
        ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', file],
        { encoding: 'utf8' },
      ).stdout,
    );

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-join-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('writes config.yml (mode 0600) from the secret, never printing the token', () => {
    const run = join('Tok3n/With+Base64==');

    expect(run.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'aws-args'), 'utf8').trim().split('\n')).toEqual([
      'secretsmanager',
      'get-secret-value',
      '--secret-id',
      IMPORTED_ARN,
      '--query',
      'SecretString',
      '--output',
      'text',
      '--region',
      'us-east-1',
    ]);
    expect(fs.statSync(config()).mode & 0o777).toBe(0o600);
    expect(parseYaml(config())).toEqual({
      cluster: { uuid, token: 'Tok3n/With+Base64==', name: 'hpc1', role: 'slave', master: '10.0.0.10' },
    });
    expect(run.stdout + run.stderr).not.toContain('Tok3n');
    expect(fs.readdirSync(path.join(dir, 'etc'))).toEqual(['config.yml']);
  });

  test('a token with quotes and colons survives YAML quoting', () => {
    expect(join("it's: a 'token' # not a comment").status).toBe(0);
    expect(parseYaml(config()).cluster.token).toBe("it's: a 'token' # not a comment");
  });

  test('refuses a multi-line token and writes nothing', () => {
    const run = join('line1\nline2');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the secret ${IMPORTED_ARN} must hold the token as one line of text`);
    expect(run.stderr).not.toContain('line1');
    expect(fs.existsSync(config())).toBe(false);
  });

  test('reports an unreadable secret by its ARN and writes nothing', () => {
    const run = join('x', [], 254);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`cannot read the cluster token from ${IMPORTED_ARN}`);
    expect(fs.existsSync(config())).toBe(false);
  });

  test.each([
    [['--master', 'login1'], "--master must be the master's IPv4 address, got 'login1'"],
    [['--uuid', 'nope'], "--uuid must be a lower-case UUID, got 'nope'"],
    [['--cluster', 'a b'], "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got 'a b'"],
    [['--bogus'], "unknown argument '--bogus'"],
  ])('refuses %j', (extra, message) => {
    const run = join('x', extra);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
  });

  test('shellcheck finds nothing', () => {
    const run = spawnSync(path.join(venvBin(), 'shellcheck'), [SCRIPT_PATH], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
