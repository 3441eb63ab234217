import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnWaitCondition, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import {
  ClientMount,
  ClientMountProps,
  FORCED_MOUNT_OPTIONS,
  LUSTRE_CLIENT_INSTALL,
  MOUNT_READ_ACTIONS,
  MountableStorageServer,
  hardenMountOptions,
  loadClientMountScript,
  mountStorageOn,
  rateExpression,
  renderClientMountDocument,
  renderMountUserData,
} from '../../lib/client-mount';
import { DEFAULT_MOUNT_ROOTS, MAX_READ_AHEAD_KIB } from '../../lib/validation';
import { FSX_DNS_NAME } from '../../lambda/register/contract';
import { DEFAULT_READ_AHEAD_KIB } from '../../lib/sizing/nfs-client';
import { wholeScript } from '../../lib/script-parts';
import { MAX_DOCUMENT_BYTES, documentScript } from '../../lib/client-mount/document';
import { cfnLint } from '../support/cfn-lint';
import { appStack, serverStack } from '../support/stacks';
import { nagFindings } from '../support/nag';
import { venvBin } from '../support/venv';

const SCRIPTS_DIR = path.join(__dirname, '../../lib/scripts');
const SCRIPT_PATH = path.join(SCRIPTS_DIR, 'client-mount.sh');
/** The script as the document carries it: client-mount.sh with its parts (client-mount-*.sh, client_mount.py) in place. */
const SCRIPT = wholeScript('client-mount.sh', fs.readFileSync(SCRIPT_PATH, 'utf8'), (part) =>
  fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8'),
);
const ALLOWED = ['10.0.0.0/16'];

/** Auto Scaling groups get a launch template (as with the project's cdk.json), not a launch configuration. */
const CONTEXT = { '@aws-cdk/aws-autoscaling:generateLaunchTemplateInsteadOfLaunchConfig': true };
const IMAGE = ec2.MachineImage.latestAmazonLinux2023();

function newStack(app = new App({ context: CONTEXT })): Stack {
  return new Stack(app, 'Test');
}

function clientMountStack(props: Partial<ClientMountProps> = {}): { stack: Stack; mount: ClientMount } {
  const stack = newStack();
  const mount = new ClientMount(stack, 'ClientMount', {
    clusterName: 'hpc1',
    allowedServerCidrs: ALLOWED,
    ...props,
  });
  return { stack, mount };
}

/** A stand-in for StorageServer: a security group on TCP 2049, an IP token, a readiness resource. */
function fakeServer(
  stack: Stack,
  vpc: ec2.IVpc,
): MountableStorageServer & { securityGroup: ec2.SecurityGroup; ready: CfnWaitCondition } {
  const securityGroup = new ec2.SecurityGroup(stack, 'ServerSg', { vpc, description: 'fake storage server' });
  const ready = new CfnWaitCondition(stack, 'ServerReady', {});
  const eni = new ec2.CfnNetworkInterface(stack, 'ServerEni', {
    subnetId: vpc.selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_ISOLATED }).subnetIds[0],
    groupSet: [securityGroup.securityGroupId],
  });
  return {
    clusterName: 'hpc1',
    serverName: 'storage1',
    mountAddress: eni.attrPrimaryPrivateIpAddress,
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: 'nfsvers=4.1,hard,_netdev',
    connections: new ec2.Connections({ securityGroups: [securityGroup], defaultPort: ec2.Port.tcp(2049) }),
    securityGroup,
    ready,
  };
}

function clientInstance(stack: Stack, vpc: ec2.IVpc, id = 'Client'): ec2.Instance {
  return new ec2.Instance(stack, id, {
    vpc,
    instanceType: new ec2.InstanceType('c5.large'),
    machineImage: IMAGE,
  });
}

/** The user data of the first resource of `type` in the template, with tokens left as CloudFormation JSON. */
function userDataOf(
  template: Template,
  type: string,
  pick: (props: Record<string, unknown>) => unknown,
): string {
  const resources = Object.values(template.findResources(type)) as { Properties: Record<string, unknown> }[];
  return JSON.stringify(pick(resources[0].Properties));
}

describe('ClientMount document', () => {
  test('renders a schema 2.2 Command document with the script embedded verbatim', () => {
    // GIVEN / WHEN
    const { stack } = clientMountStack({ parameterPrefix: '/site/hpc' });
    const template = Template.fromStack(stack);

    // THEN
    template.hasResourceProperties('AWS::SSM::Document', {
      DocumentType: 'Command',
      Content: Match.objectLike({
        schemaVersion: '2.2',
        parameters: {
          clusterName: Match.objectLike({
            type: 'String',
            default: 'hpc1',
            allowedPattern: '^[A-Za-z0-9_.-]{1,64}$',
          }),
          prefix: Match.objectLike({ type: 'String', default: '/site/hpc' }),
          serverName: Match.objectLike({ type: 'String', default: '' }),
          allowedServers: Match.objectLike({ type: 'String', default: '10.0.0.0/16' }),
          mountRoots: {
            type: 'String',
            default: '/data,/scratch,/shared,/fsx',
            description: Match.anyValue(),
            allowedPattern: '^(/[A-Za-z0-9_.-]+)+(,(/[A-Za-z0-9_.-]+)+)*$',
          },
          allowHome: {
            type: 'String',
            default: 'false',
            description: Match.anyValue(),
            allowedValues: ['true', 'false'],
          },
          readAheadKiB: {
            type: 'String',
            default: '15360',
            description: Match.anyValue(),
            allowedPattern: '^(0|[1-9][0-9]{0,6})$',
          },
        },
        mainSteps: [
          Match.objectLike({
            action: 'aws:runShellScript',
            precondition: { StringEquals: ['platformType', 'Linux'] },
          }),
        ],
      }),
    });
    const doc = Object.values(template.findResources('AWS::SSM::Document'))[0] as {
      Properties: { Content: { mainSteps: { inputs: { runCommand: string[] } }[] } };
    };
    const command = doc.Properties.Content.mainSteps[0].inputs.runCommand[0];
    expect(command).toContain(documentScript(SCRIPT).trimEnd());
    expect(command).toContain(
      `bash "$script" --cluster '{{ clusterName }}' --prefix '{{ prefix }}' --server '{{ serverName }}' ` +
        `--allowed-servers '{{ allowedServers }}' --mount-roots '{{ mountRoots }}' --read-ahead-kib '{{ readAheadKiB }}' "$@"`,
    );
  });

  test('the document carries the script less its opening description, and stays within SSM\'s 64KB', () => {
    const carried = documentScript(SCRIPT);
    const dropped = SCRIPT.split('\n').filter((line) => !carried.split('\n').includes(line));
    // Only comment lines go: the whole description, and nothing after the first line that is not a comment.
    expect(dropped.length).toBeGreaterThan(50);
    expect(dropped.every((line) => line.startsWith('#'))).toBe(true);
    expect(carried.split('\n').slice(2).join('\n')).toBe(SCRIPT.split('\n').slice(1 + dropped.length).join('\n'));
    expect(spawnSync('bash', ['-n'], { input: carried, encoding: 'utf8' }).status).toBe(0);
    const options = { script: SCRIPT, clusterName: 'hpc1', parameterPrefix: '/storage-server', allowedServers: '10.0.0.0/16' };
    const size = Buffer.byteLength(JSON.stringify(renderClientMountDocument(options)));
    console.log(`client-mount document: ${size} bytes of ${MAX_DOCUMENT_BYTES}`);
    expect(size).toBeLessThan(MAX_DOCUMENT_BYTES - 4096);
    // Parameter values count too: a long mountRoots list is refused at synth, naming AWS's limit.
    const roots = Array.from({ length: 300 }, (_, i) => `/data/project-number-${i}`);
    expect(() => renderClientMountDocument({ ...options, mountRoots: roots })).toThrow(
      /^The client-mount SSM document would hold \d+ bytes with its parameter values; SSM takes at most 64000 \(CreateDocument: 64KB\)/);
  });

  test.each([
    ['false', ''],
    ['true', ' --allow-home'],
  ])('the embedded step runs the script with the document parameters (allowHome %s)', (allowHome, flag) => {
    // GIVEN: the step with the parameters substituted as SSM would, and a script that echoes its arguments
    const command = (
      renderClientMountDocument({
        script: 'echo "args: $*"\n',
        clusterName: 'c',
        parameterPrefix: '/p',
        allowedServers: '10.0.0.0/16',
      }).mainSteps as { inputs: { runCommand: string[] } }[]
    )[0].inputs.runCommand[0]
      .replace('{{ clusterName }}', 'hpc1')
      .replace('{{ prefix }}', '/storage-server')
      .replace('{{ serverName }}', '')
      .replace('{{ allowedServers }}', '10.0.0.0/16,192.168.4.0/24')
      .replace('{{ mountRoots }}', '/data,/projects')
      .replace('{{ readAheadKiB }}', '4096')
      .replace('{{ allowHome }}', allowHome);

    // WHEN
    const out = spawnSync('sh', ['-c', command], { encoding: 'utf8' });

    // THEN
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      `args: --cluster hpc1 --prefix /storage-server --server  --allowed-servers 10.0.0.0/16,192.168.4.0/24 --mount-roots /data,/projects --read-ahead-kib 4096${flag}\n`,
    );
  });

  test('allowHomeMountPoints sets the default of allowHome and the association passes it', () => {
    const { stack } = clientMountStack({ allowHomeMountPoints: true });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SSM::Document', {
      Content: Match.objectLike({
        parameters: Match.objectLike({ allowHome: Match.objectLike({ default: 'true' }) }),
      }),
    });
    template.hasResourceProperties('AWS::SSM::Association', {
      Parameters: Match.objectLike({ allowHome: ['true'] }),
    });
  });

  test('mountRoots sets the default of the mountRoots parameter and the association passes it', () => {
    // GIVEN / WHEN
    const { stack } = clientMountStack({ mountRoots: ['/data', '/projects/hpc'] });
    const template = Template.fromStack(stack);

    // THEN
    template.hasResourceProperties('AWS::SSM::Document', {
      Content: Match.objectLike({
        parameters: Match.objectLike({ mountRoots: Match.objectLike({ default: '/data,/projects/hpc' }) }),
      }),
    });
    template.hasResourceProperties('AWS::SSM::Association', {
      Parameters: Match.objectLike({ mountRoots: ['/data,/projects/hpc'] }),
    });
  });

  test('the mountRoots parameter pattern admits comma lists of absolute paths and nothing a shell would read', () => {
    const content = renderClientMountDocument({ script: '', clusterName: 'c', parameterPrefix: '/p', allowedServers: '10.0.0.0/16' });
    const pattern = new RegExp((content.parameters as Record<string, { allowedPattern: string }>).mountRoots.allowedPattern);
    for (const good of ['/data', '/data,/scratch,/shared,/fsx', '/projects/hpc-1', '/a.b_c']) expect(pattern.test(good)).toBe(true);
    for (const bad of ['', '/', 'data', '/data,', ',/data', '/data /x', "/data'", '/data;reboot', '/data,/$(reboot)', '/data\n/x']) {
      expect({ bad, ok: pattern.test(bad) }).toEqual({ bad, ok: false });
    }
  });

  test('readAheadKiB sets the default of the readAheadKiB parameter and the association passes it; 0 is kept', () => {
    for (const [kib, text] of [[4096, '4096'], [0, '0']] as const) {
      const template = Template.fromStack(clientMountStack({ readAheadKiB: kib }).stack);
      template.hasResourceProperties('AWS::SSM::Document', {
        Content: Match.objectLike({ parameters: Match.objectLike({ readAheadKiB: Match.objectLike({ default: text }) }) }),
      });
      template.hasResourceProperties('AWS::SSM::Association', { Parameters: Match.objectLike({ readAheadKiB: [text] }) });
    }
  });

  test('the readAheadKiB parameter pattern admits plain whole numbers of up to 7 digits and nothing a shell would read', () => {
    const content = renderClientMountDocument({ script: '', clusterName: 'c', parameterPrefix: '/p', allowedServers: '10.0.0.0/16' });
    const pattern = new RegExp((content.parameters as Record<string, { allowedPattern: string }>).readAheadKiB.allowedPattern);
    for (const good of ['0', '128', '15360', '1048576', '9999999']) expect(pattern.test(good)).toBe(true);
    for (const bad of ['', '-1', '015360', '15360 ', '1e4', '15MiB', '10000000', "1'", '1;reboot', '$(reboot)', '1\n2']) {
      expect({ bad, ok: pattern.test(bad) }).toEqual({ bad, ok: false });
    }
  });

  test.each([
    [-1, 'got -1'], [1048577, 'got 1048577'], [1.5, 'got 1.5'], [NaN, 'got null'], ['15360', 'got "15360"'],
  ])('readAheadKiB %p is refused at synth, naming the prop and the range', (kib, got) => {
    expect(() => clientMountStack({ readAheadKiB: kib as number })).toThrow(
      `readAheadKiB must be a whole number of KiB from 0 (the kernel's own read-ahead) to 1048576 (1 GiB), ${got}.`,
    );
  });

  test("the script's read-ahead default and bound are DEFAULT_READ_AHEAD_KIB and MAX_READ_AHEAD_KIB", () => {
    const line = /^readonly DEFAULT_READ_AHEAD_KIB=([0-9]+) MAX_READ_AHEAD_KIB=([0-9]+)$/m.exec(SCRIPT);
    expect(line).not.toBeNull();
    expect([Number(line![1]), Number(line![2])]).toEqual([DEFAULT_READ_AHEAD_KIB, MAX_READ_AHEAD_KIB]);
  });

  test("the script's record checker knows the FSx DNS grammar the registration writes (lambda/register; the record's fields: record-schema.test.ts)", () => {
    const dns = /^FSX_DNS = re\.compile\(r'([^']*)'\)$/m.exec(SCRIPT);
    expect(dns).not.toBeNull();
    expect(`^${dns![1]}$`).toBe(FSX_DNS_NAME.source);
  });

  test('the app: -c clientReadAheadKiB reaches the association, -c nconnect the mount record; bad values are refused naming the key', () => {
    const template = Template.fromStack(appStack({ clientReadAheadKiB: '0', nconnect: '4' }));
    template.hasResourceProperties('AWS::SSM::Association', { Parameters: Match.objectLike({ readAheadKiB: ['0'] }) });
    expect(JSON.stringify(template.findResources('Custom::StorageServerRegistration'))).toContain('retrans=2,nconnect=4,_netdev');
    expect(() => appStack({ clientReadAheadKiB: '15728640' })).toThrow(
      'Invalid context value clientReadAheadKiB="15728640": allowed is a whole number of KiB from 0 (the kernel\'s own read-ahead) to 1048576.',
    );
    expect(() => appStack({ nconnect: '17' })).toThrow(
      'Invalid context value nconnect="17": allowed is a whole number of TCP connections per client mount from 1 (one connection: ' +
        'no nconnect option) to 16 (the Linux limit).',
    );
    expect(() => appStack({ nconnect: '8', backend: 'fsx-lustre', capacityTiB: '12' })).toThrow(
      /^Invalid context value nconnect="8": allowed is only for an NFS server \(backend ebs or instance-store\)/,
    );
  });

  test("the script's default mount roots are DEFAULT_MOUNT_ROOTS", () => {
    const line = /^readonly DEFAULT_MOUNT_ROOTS='([^']*)'$/m.exec(SCRIPT);
    expect(line).not.toBeNull();
    expect(line![1].split(',')).toEqual([...DEFAULT_MOUNT_ROOTS]);
  });

  test.each([
    [[], /mountRoots must name at least one concrete directory such as \/data, got \[\]/],
    [['/'], /mountRoots must be absolute directories outside the system directories, got "\/": not an absolute directory path/],
    [['/etc'], /mountRoots .*got "\/etc": a system directory \(\/etc\)/],
    [['/usr/local'], /mountRoots .*got "\/usr\/local": under a system directory \(\/usr\)/],
    [['/home'], /mountRoots .*got "\/home": a system directory \(\/home\).*set allowHomeMountPoint/],
    [['/data', 'scratch'], /mountRoots .*got "scratch": not an absolute directory path/],
    [['/data/../etc'], /mountRoots .*got "\/data\/..\/etc": not an absolute directory path/],
    [['/data', '/opt'], /mountRoots .*got "\/opt": a directory the FHS names for other files \(\/opt\)/],
  ])('mountRoots %j is refused at synth', (mountRoots, message) => {
    expect(() => clientMountStack({ mountRoots })).toThrow(message);
  });

  // A StorageServer's mountPoint becomes its record's: checked at synth against the clients' rule.
  test.each([
    ['/opt/aws', {}, /mountPoint must be an absolute directory path at or below one of mountRoots \(\/data \/scratch \/shared \/fsx\), got '\/opt\/aws': not a mount root or below one; the mount roots are \/data \/scratch \/shared \/fsx\./],
    ['/opt/parallelcluster', {}, /got '\/opt\/parallelcluster': not a mount root or below one/],
    ['/snap', {}, /got '\/snap': not a mount root or below one/],
    ['/nix/store', {}, /got '\/nix\/store': not a mount root or below one/],
    ['/mnt/data', {}, /got '\/mnt\/data': not a mount root or below one/],
    ['/database', {}, /got '\/database': not a mount root or below one/],
    ['/data', { mountRoots: ['/projects'] }, /mountRoots \(\/projects\), got '\/data': not a mount root or below one; the mount roots are \/projects\./],
    ['/home/x', {}, /got '\/home\/x': under a system directory \(\/home\).*set allowHomeMountPoint.*; a mount point must be a mount root or below one: \/data \/scratch \/shared \/fsx\./],
    ['/projects/a', { mountRoots: ['/projects', '/etc'] }, /mountRoots must be absolute directories outside the system directories, got '\/etc': a system directory \(\/etc\)/],
  ])('a StorageServer with mountPoint %s (%j) is refused at synth, naming the prop and the roots', (mountPoint, props, message) => {
    expect(() => serverStack({ mountPoint, ...props })).toThrow(message);
  });

  test.each([
    ['/data', {}],
    ['/scratch/hpc1', {}],
    ['/fsx', {}],
    ['/projects/a', { mountRoots: ['/projects'] }],
    ['/home', { allowHomeMountPoint: true }],
    ['/home/users', { allowHomeMountPoint: true }],
  ])('a StorageServer with mountPoint %s (%j) is accepted', (mountPoint, props) => {
    expect(() => serverStack({ mountPoint, ...props })).not.toThrow();
  });

  test('the app: -c mountRoots reaches the server check and the association; a bad root is refused naming the key', () => {
    // GIVEN / WHEN
    const template = Template.fromStack(appStack({ mountRoots: '/projects,/data', mountPoint: '/projects/hpc1' }));

    // THEN
    template.hasResourceProperties('AWS::SSM::Association', {
      Parameters: Match.objectLike({ mountRoots: ['/projects,/data'] }),
    });
    expect(() => appStack({ mountPoint: '/projects/hpc1' })).toThrow(
      /mountPoint must be an absolute directory path at or below one of mountRoots \(\/data \/scratch \/shared \/fsx\), got '\/projects\/hpc1'/,
    );
    expect(() => appStack({ mountRoots: '/data,/usr/local' })).toThrow(
      /Invalid context value mountRoots="\/data,\/usr\/local": allowed is a comma list of absolute directories outside the system directories \(bad: '\/usr\/local': under a system directory \(\/usr\)/,
    );
  });

  test("a new VPC's CIDR (a token) becomes the allowedServers default and association value", () => {
    // GIVEN
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });

    // WHEN
    new ClientMount(stack, 'ClientMount', {
      clusterName: 'hpc1',
      allowedServerCidrs: [vpc.vpcCidrBlock, '10.9.0.0/16'],
    });

    // THEN
    const joined = {
      'Fn::Join': [
        '',
        [
          { 'Fn::GetAtt': [stack.getLogicalId(vpc.node.defaultChild as ec2.CfnVPC), 'CidrBlock'] },
          ',10.9.0.0/16',
        ],
      ],
    };
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SSM::Association', {
      Parameters: Match.objectLike({ allowedServers: [joined] }),
    });
    template.hasResourceProperties('AWS::SSM::Document', {
      Content: Match.objectLike({
        parameters: Match.objectLike({ allowedServers: Match.objectLike({ default: joined }) }),
      }),
    });
  });

  // The document's allowedPattern and the script's own check of --allowed-servers accept the same values.
  test.each<[string, boolean]>([
    ['10.0.0.0/16', true],
    ['10.0.0.0/16,192.168.0.0/24', true],
    ['172.31.0.0/16', true],
    ['127.0.0.0/8', true],
    ['10.0.0.5/32', true],
    ['1.2.3.4/5', true],
    ['255.255.255.255/1', true],
    ['10.0.0.0/0', false],
    ['10.0.0.0/33', false],
    ['10.0.0.0', false],
    ['010.0.0.0/16', false],
    ['10.0.0.256/16', false],
    ['10.0.0.0/16,', false],
    [',10.0.0.0/16', false],
    ['10.0.0.0/16 ', false],
    ['10.0.0.0/16;reboot', false],
    ["10.0.0.0/16'", false],
    ['', false],
  ])('allowedServers %j: accepted = %s by the pattern and the script alike', (value, accepted) => {
    const content = renderClientMountDocument({
      script: SCRIPT,
      clusterName: 'c',
      parameterPrefix: '/p',
      allowedServers: '10.0.0.0/16',
    });
    const pattern = (content.parameters as Record<string, { allowedPattern: string }>).allowedServers
      .allowedPattern;
    expect(new RegExp(pattern).test(value)).toBe(accepted);
    // The script checks --allowed-servers before the (missing) fstab: either message tells.
    const run = spawnSync(
      'bash',
      [SCRIPT_PATH, '--cluster', 'c', '--allowed-servers', value, '--fstab', '/nonexistent'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(accepted ? "--fstab '/nonexistent' is not a file" : '--allowed-servers');
  });

  test("refuses a script holding SSM's parameter syntax or the heredoc delimiter", () => {
    const base = { clusterName: 'c', parameterPrefix: '/p', allowedServers: '10.0.0.0/16' };
    expect(() => renderClientMountDocument({ ...base, script: 'echo {{ x }}' })).toThrow(
      /must not contain '\{\{'/,
    );
    expect(() =>
      renderClientMountDocument({ ...base, script: 'a\nSTORAGE_SERVER_CLIENT_MOUNT_SH\n' }),
    ).toThrow(/heredoc delimiter/);
  });

  test('the script loads from lib/scripts and from a compiled copy one level down', () => {
    expect(loadClientMountScript()).toBe(SCRIPT);
    expect(loadClientMountScript(path.join(__dirname, '../../dist'))).toBe(SCRIPT);
    expect(() => loadClientMountScript('/nonexistent/x/y')).toThrow(/client-mount.sh not found; looked in/);
  });

  test('the script reads the configs with the AWS CLI and signs no request itself', () => {
    expect(SCRIPT).toContain('ssm get-parameters-by-path');
    expect(SCRIPT).not.toMatch(/AWS4-HMAC-SHA256|hmac|urllib|STORAGE_SERVER_SSM_CLIENT/);
  });
});

describe('ClientMount association', () => {
  test('targets the cluster tag, runs at once and every 30 minutes by default', () => {
    const { stack } = clientMountStack();
    const template = Template.fromStack(stack);
    const docId = Object.keys(template.findResources('AWS::SSM::Document'))[0];

    template.resourceCountIs('AWS::SSM::Association', 1);
    template.hasResourceProperties('AWS::SSM::Association', {
      Name: { Ref: docId },
      Targets: [{ Key: 'tag:cluster', Values: ['hpc1'] }],
      ScheduleExpression: 'rate(30 minutes)',
      ApplyOnlyAtCronInterval: false,
      Parameters: {
        clusterName: ['hpc1'],
        prefix: ['/storage-server'],
        allowedServers: ['10.0.0.0/16'],
        allowHome: ['false'],
        mountRoots: ['/data,/scratch,/shared,/fsx'],
        readAheadKiB: ['15360'],
        serverName: Match.absent(),
      },
    });
  });

  test('honours clientTagKey, serverName, parameterPrefix and schedule', () => {
    const { stack } = clientMountStack({
      clientTagKey: 'parallelcluster:cluster-name',
      serverName: 'fast1',
      parameterPrefix: '/site',
      schedule: Duration.hours(2),
    });
    Template.fromStack(stack).hasResourceProperties('AWS::SSM::Association', {
      Targets: [{ Key: 'tag:parallelcluster:cluster-name', Values: ['hpc1'] }],
      ScheduleExpression: 'rate(2 hours)',
      Parameters: {
        clusterName: ['hpc1'],
        prefix: ['/site'],
        serverName: ['fast1'],
        allowedServers: ['10.0.0.0/16'],
        allowHome: ['false'],
        mountRoots: ['/data,/scratch,/shared,/fsx'],
        readAheadKiB: ['15360'],
      },
    });
  });

  test.each([
    [Duration.minutes(30), 'rate(30 minutes)'],
    [Duration.minutes(90), 'rate(90 minutes)'],
    [Duration.hours(1), 'rate(1 hour)'],
    [Duration.hours(12), 'rate(12 hours)'],
    [Duration.days(1), 'rate(1 day)'],
    [Duration.days(7), 'rate(7 days)'],
  ])('schedule %s renders %s', (schedule, expected) => {
    expect(rateExpression(schedule)).toBe(expected);
  });
});

describe('ClientMount validation', () => {
  test.each<[string, Partial<ClientMountProps>, RegExp]>([
    [
      'clusterName charset',
      { clusterName: 'my cluster' },
      /clusterName must be 1-64 characters .* got "my cluster"/,
    ],
    [
      'clusterName token',
      { clusterName: Token.asString({ Ref: 'X' }) },
      /clusterName must be a concrete string, not a token/,
    ],
    [
      'parameterPrefix',
      { parameterPrefix: 'storage' },
      /parameterPrefix must start with '\/', got "storage"/,
    ],
    ['parameterPrefix reserved', { parameterPrefix: '/aws/x' }, /parameterPrefix must not start with 'aws'/],
    ['serverName', { serverName: 'a/b' }, /serverName must be 1-64 characters .* got "a\/b"/],
    [
      'clientTagKey reserved',
      { clientTagKey: 'aws:autoscaling:groupName' },
      /clientTagKey must be an EC2 tag key that State Manager can target: .* not starting with 'aws:', got "aws:autoscaling:groupName"/,
    ],
    ['clientTagKey empty', { clientTagKey: '' }, /clientTagKey must be an EC2 tag key/],
    ['clientTagKey with +', { clientTagKey: 'a+b' }, /clientTagKey must be an EC2 tag key .* got "a\+b"/],
    [
      'schedule too short',
      { schedule: Duration.minutes(29) },
      /schedule must be whole minutes, at least 30 .* got 29 minutes/,
    ],
    ['schedule not whole minutes', { schedule: Duration.seconds(1830) }, /schedule must be whole minutes/],
    [
      'allowedServerCidrs empty',
      { allowedServerCidrs: [] },
      /allowedServerCidrs must name at least one IPv4 CIDR .* got \[\]/,
    ],
    [
      'allowedServerCidrs without a prefix',
      { allowedServerCidrs: ['10.0.0.0'] },
      /allowedServerCidrs must be IPv4 CIDRs such as 10.0.0.0\/16 .* got "10.0.0.0"/,
    ],
    [
      'allowedServerCidrs /0',
      { allowedServerCidrs: ['10.0.0.0/16', '0.0.0.0/0'] },
      /prefix \/1-\/32\), got "0.0.0.0\/0"/,
    ],
    ['allowedServerCidrs leading zero', { allowedServerCidrs: ['10.0.01.0/24'] }, /got "10.0.01.0\/24"/],
    ['allowedServerCidrs with a space', { allowedServerCidrs: ['10.0.0.0/16 '] }, /got "10.0.0.0\/16 "/],
  ])('%s', (_name, props, message) => {
    expect(() => clientMountStack(props)).toThrow(message);
  });
});

describe('grantMount', () => {
  test("grants reading the cluster's storage path and nothing wider", () => {
    // GIVEN
    const { stack, mount } = clientMountStack({ parameterPrefix: '/site' });
    const role = new iam.Role(stack, 'NodeRole', {
      assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
    });

    // WHEN
    const grant = mount.grantMount(role);

    // THEN
    expect(grant.success).toBe(true);
    const arn = (suffix: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':ssm:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          `:parameter/site/hpc1/storage${suffix}`,
        ],
      ],
    });
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('NodeRole') }],
      PolicyDocument: {
        Statement: [{ Effect: 'Allow', Action: MOUNT_READ_ACTIONS, Resource: [arn(''), arn('/*')] }],
      },
    });
  });

  test('a managed read policy carries the same statement, for roles made outside CDK', () => {
    const { stack, mount } = clientMountStack();
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 1);
    template.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: MOUNT_READ_ACTIONS,
            Resource: [
              Match.objectLike({
                'Fn::Join': ['', Match.arrayWith([':parameter/storage-server/hpc1/storage'])],
              }),
              Match.objectLike({
                'Fn::Join': ['', Match.arrayWith([':parameter/storage-server/hpc1/storage/*'])],
              }),
            ],
          },
        ],
      },
    });
    expect(stack.resolve(mount.readPolicy.managedPolicyArn)).toEqual({
      Ref: stack.getLogicalId(mount.readPolicy.node.defaultChild as iam.CfnManagedPolicy),
    });
  });

  test('an Auto Scaling group grantee gets the statement on its instance role', () => {
    const { stack, mount } = clientMountStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const asg = new autoscaling.AutoScalingGroup(stack, 'Nodes', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: IMAGE,
    });
    mount.grantMount(asg);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('NodesInstanceRole') }],
      PolicyDocument: { Statement: [Match.objectLike({ Action: MOUNT_READ_ACTIONS })] },
    });
  });
});

describe('mountStorageOn', () => {
  test('an instance: user data with the known IP, NFS ingress from the instance, created after the server is ready', () => {
    // GIVEN
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const server = fakeServer(stack, vpc);
    const client = clientInstance(stack, vpc);

    // WHEN
    mountStorageOn(server, client);

    // THEN
    const template = Template.fromStack(stack);
    const userData = userDataOf(template, 'AWS::EC2::Instance', (p) => p.UserData);
    expect(userData).toContain("mkdir -p '/data'");
    // The IP is the server's attribute, resolved at deploy; the rest of the line is literal.
    expect(stack.resolve(server.mountAddress)).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^ServerEni/), 'PrimaryPrivateIpAddress'],
    });
    expect(userData).toContain(JSON.stringify(stack.resolve(server.mountAddress)));
    expect(userData).toContain(
      ':/export/data /data nfs4 nfsvers=4.1,hard,_netdev,nosuid,nodev 0 0 # storage-server:hpc1/storage1',
    );
    expect(userData).toMatch(/mount -T '\/etc\/fstab' '\/data'/);
    expect(userData).not.toContain('ssm');
    template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      IpProtocol: 'tcp',
      FromPort: 2049,
      ToPort: 2049,
      GroupId: {
        'Fn::GetAtt': [
          stack.getLogicalId(server.securityGroup.node.defaultChild as ec2.CfnSecurityGroup),
          'GroupId',
        ],
      },
      SourceSecurityGroupId: {
        'Fn::GetAtt': [Match.stringLikeRegexp('ClientInstanceSecurityGroup'), 'GroupId'],
      },
    });
    const [instance] = Object.values(template.findResources('AWS::EC2::Instance')) as {
      DependsOn?: string[];
    }[];
    expect(instance.DependsOn).toContain(stack.getLogicalId(server.ready));
    // No IAM: the address is known, nothing is read from SSM.
    template.resourcePropertiesCountIs(
      'AWS::IAM::Policy',
      {
        PolicyDocument: Match.objectLike({
          Statement: Match.arrayWith([Match.objectLike({ Action: MOUNT_READ_ACTIONS })]),
        }),
      },
      0,
    );
  });

  test('an Auto Scaling group: the launch template user data and ingress from the group', () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const server = fakeServer(stack, vpc);
    const asg = new autoscaling.AutoScalingGroup(stack, 'Nodes', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: IMAGE,
    });

    mountStorageOn(server, asg, { mountPoint: '/shared/scratch' });

    const template = Template.fromStack(stack);
    const userData = userDataOf(
      template,
      'AWS::EC2::LaunchTemplate',
      (p) => (p.LaunchTemplateData as { UserData: unknown }).UserData,
    );
    expect(userData).toContain("mkdir -p '/shared/scratch'");
    expect(userData).toContain(
      ':/export/data /shared/scratch nfs4 nfsvers=4.1,hard,_netdev,nosuid,nodev 0 0 # storage-server:hpc1/storage1',
    );
    template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: 2049,
      SourceSecurityGroupId: {
        'Fn::GetAtt': [Match.stringLikeRegexp('NodesInstanceSecurityGroup'), 'GroupId'],
      },
    });
  });

  test.each(['data', '/', '/a/../b', '/with space'])('refuses mountPoint %j', (mountPoint) => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    expect(() => mountStorageOn(fakeServer(stack, vpc), clientInstance(stack, vpc), { mountPoint })).toThrow(
      new RegExp(
        `mountPoint must be an absolute directory path .* got ${JSON.stringify(mountPoint).replace(/[.*/]/g, '\\$&')}`,
      ),
    );
  });

  test.each([
    ['nfsvers=4.1,hard,_netdev', 'nfsvers=4.1,hard,_netdev,nosuid,nodev'],
    ['nosuid,nfsvers=4.1,nodev,hard', 'nfsvers=4.1,hard,nosuid,nodev'],
    ['nodev,nodev,hard', 'hard,nosuid,nodev'],
    ['', 'nosuid,nodev'],
  ])('hardenMountOptions(%j) = %j: nosuid,nodev once each, at the end', (options, expected) => {
    expect(hardenMountOptions(options)).toBe(expected);
    expect(FORCED_MOUNT_OPTIONS).toEqual(['nosuid', 'nodev']);
  });

  test('hardenMountOptions appends to a token', () => {
    const stack = newStack();
    const options = Token.asString({ Ref: 'Options' });
    expect(stack.resolve(hardenMountOptions(options))).toEqual({
      'Fn::Join': ['', [{ Ref: 'Options' }, ',nosuid,nodev']],
    });
  });

  test('the rendered user data mounts with nosuid,nodev from the fstab line it writes', () => {
    const lines = renderMountUserData({
      server: '10.0.0.5',
      exportPath: '/export/data',
      mountPoint: '/data',
      options: 'nfsvers=4.1,hard,_netdev',
      tag: 'hpc1/storage1',
    }).join('\n');
    expect(lines).toContain(
      "'10.0.0.5:/export/data /data nfs4 nfsvers=4.1,hard,_netdev,nosuid,nodev 0 0 # storage-server:hpc1/storage1'",
    );
    expect(lines).toContain("mount -T '/etc/fstab' '/data'");
  });

  test.each([
    [true, 'nfsvers=4.1,hard,_netdev,nosuid,nodev', 2],
    [false, 'nfsvers=4.1,hard,nconnect=16,_netdev,nosuid,nodev', 1],
  ])('the user data on a kernel that refuses nconnect (%s): the line is rewritten without it and mounted', (refuses, written, calls) => {
    // GIVEN: a stand-in mount that fails as mount.nfs does when mount(2) refuses an option (exit 32), while the fstab
    // line has nconnect (on a kernel without it), and mounts otherwise
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mount-user-data-'));
    try {
      const fstab = path.join(dir, 'fstab');
      fs.writeFileSync(fstab, '# fstab\n');
      fs.mkdirSync(path.join(dir, 'bin'));
      fs.writeFileSync(path.join(dir, 'bin', 'mount'), [
        '#!/bin/bash',
        `echo "$*" >>${JSON.stringify(path.join(dir, 'calls'))}`,
        `if ${refuses} && grep -q nconnect= ${JSON.stringify(fstab)}; then echo 'mount.nfs: an incorrect mount option was specified' >&2; exit 32; fi`,
        '',
      ].join('\n'), { mode: 0o755 });
      const script = renderMountUserData({
        server: '10.0.0.5', exportPath: '/export/data', mountPoint: path.join(dir, 'mnt'), options: 'nfsvers=4.1,hard,nconnect=16,_netdev',
        tag: 'hpc1/storage1', fstab, attempts: 3,
      }).join('\n');

      // WHEN
      const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}` } });

      // THEN
      expect(r.status).toBe(0);
      expect(fs.readFileSync(fstab, 'utf8')).toBe(`# fstab\n10.0.0.5:/export/data ${dir}/mnt nfs4 ${written} 0 0 # storage-server:hpc1/storage1\n`);
      expect(fs.readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n')).toHaveLength(calls);
      expect(r.stdout.includes(`nconnect dropped for ${dir}/mnt: this kernel`)).toBe(refuses);
      expect(r.stdout).toContain(`mounted on ${dir}/mnt`);
      expect(r.stderr).not.toContain('failed (attempt'); // retried at once, without the 30 s wait
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses a Windows target', () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const windows = new ec2.Instance(stack, 'Win', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: ec2.MachineImage.genericWindows({ 'us-east-1': 'ami-12345678' }),
    });
    expect(() => mountStorageOn(fakeServer(stack, vpc), windows)).toThrow(
      /target Test\/Win must run Linux \(its osType is WINDOWS\)/,
    );
  });
});

describe('gates', () => {
  /** ClientMount, grantMount on an instance and an ASG, mountStorageOn both, in one stack. */
  function build(app: App): Stack {
    for (const [key, value] of Object.entries(CONTEXT)) app.node.setContext(key, value);
    const stack = newStack(app);
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0, restrictDefaultSecurityGroup: false });
    const mount = new ClientMount(stack, 'ClientMount', {
      clusterName: 'hpc1',
      allowedServerCidrs: [vpc.vpcCidrBlock],
    });
    const server = fakeServer(stack, vpc);
    const instance = new ec2.Instance(stack, 'Client', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: IMAGE,
      requireImdsv2: true,
      detailedMonitoring: true,
      blockDevices: [{ deviceName: '/dev/xvda', volume: ec2.BlockDeviceVolume.ebs(8, { encrypted: true }) }],
    });
    const asg = new autoscaling.AutoScalingGroup(stack, 'Nodes', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: IMAGE,
      requireImdsv2: true,
      blockDevices: [
        { deviceName: '/dev/xvda', volume: autoscaling.BlockDeviceVolume.ebs(8, { encrypted: true }) },
      ],
    });
    mount.grantMount(instance);
    mount.grantMount(asg);
    mountStorageOn(server, instance);
    mountStorageOn(server, asg);
    // Test scaffolding only (not created by the library): the VPC and the client nodes themselves.
    const scaffolding = 'test scaffolding, not created by the construct under test';
    Validations.of(vpc).acknowledge({ id: 'AwsSolutions-VPC7', reason: scaffolding });
    Validations.of(instance).acknowledge({ id: 'AwsSolutions-EC29', reason: scaffolding });
    Validations.of(asg).acknowledge({ id: 'AwsSolutions-AS3', reason: scaffolding });
    return stack;
  }

  test('cdk-nag AwsSolutions: no unacknowledged finding', () => {
    expect(nagFindings((app) => build(app))).toEqual([]);
  });

  test('the IAM5 acknowledgement is specific: the same statement added by hand is reported', () => {
    const findings = nagFindings((app) => {
      const stack = newStack(app);
      const mount = new ClientMount(stack, 'ClientMount', {
        clusterName: 'hpc1',
        allowedServerCidrs: ALLOWED,
      });
      const granted = new iam.Role(stack, 'Granted', {
        assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
      });
      mount.grantMount(granted);
      const byHand = new iam.Role(stack, 'ByHand', {
        assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
      });
      byHand.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: MOUNT_READ_ACTIONS,
          resources: [
            stack.formatArn({
              service: 'ssm',
              resource: 'parameter',
              resourceName: 'storage-server/hpc1/storage/*',
            }),
          ],
        }),
      );
    });
    expect(findings.map((f) => `${f.ruleId} ${f.resource}`)).toEqual([
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter/storage-server/hpc1/storage/*] Test/ByHand/DefaultPolicy/Resource',
    ]);
  });

  test('cfn-lint: no finding', () => {
    expect(cfnLint(Template.fromStack(build(new App())).toJSON())).toEqual([]);
  });
});

describe('client-mount.sh: shellcheck finds nothing', () => {
  const shellcheck = (file: string) => {
    const run = spawnSync(path.join(venvBin(), 'shellcheck'), [file], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  };
  test('whole, as the document carries it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mount-whole-'));
    try {
      fs.writeFileSync(path.join(dir, 'client-mount.sh'), SCRIPT);
      shellcheck(path.join(dir, 'client-mount.sh'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  test('in lib/scripts, following its parts (.shellcheckrc)', () => shellcheck(SCRIPT_PATH));
});

describe('the Lustre client install in user data (mountOn of an FSx for Lustre file system)', () => {
  // The lines run in bash, as cloud-init runs the user data, with stand-ins for the package managers.
  const runInstall = (programs: Record<string, string>) => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'lustre-ud-'));
    for (const [name, body] of Object.entries(programs)) {
      fs.writeFileSync(path.join(bin, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
    }
    const calls = path.join(bin, 'calls');
    const r = spawnSync('bash', ['-c', LUSTRE_CLIENT_INSTALL.join('\n')], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin`, CALLS: calls },
    });
    return { ...r, calls: fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [] };
  };
  const record = 'echo "$(basename "$0") $*" >>"$CALLS"';

  test('dnf (Amazon Linux 2023): installs lustre-client', () => {
    const r = runInstall({ dnf: record, 'apt-get': record });
    expect(r.status).toBe(0);
    expect(r.calls).toEqual(['dnf install -y -q lustre-client']);
  });

  test('apt-get with no package for the running kernel: an ATTENTION line naming the kernel', () => {
    const r = runInstall({ 'apt-get': `${record}\nexit 100`, uname: 'echo 6.1.0-99-cloud-amd64' });
    expect(r.calls).toEqual(['apt-get install -y -qq lustre-client-modules-6.1.0-99-cloud-amd64']);
    expect(r.stderr).toContain('storage-server: ATTENTION no Lustre client package for kernel 6.1.0-99-cloud-amd64');
  });

  test('mount.lustre present: nothing is installed', () => {
    const r = runInstall({ 'mount.lustre': 'exit 0', dnf: record });
    expect(r.calls).toEqual([]);
  });
});
