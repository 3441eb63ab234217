/** ClientMount's SSM document: its parameters, the script it carries, and what synth refuses of them. */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ClientMount, loadClientMountScript, renderClientMountDocument } from '../../lib/client-mount';
import { DEFAULT_MOUNT_ROOTS, MAX_READ_AHEAD_KIB } from '../../lib/validation';
import { FSX_DNS_NAME } from '../../lambda/register/contract';
import { DEFAULT_READ_AHEAD_KIB } from '../../lib/sizing/nfs-client';
import { MAX_DOCUMENT_BYTES, documentScript } from '../../lib/client-mount/document';
import { SCRIPT, SCRIPT_PATH, clientMountStack, newStack } from '../support/client-mount-stacks';
import { appStack, serverStack } from '../support/stacks';

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
          readyTimeoutMinutes: {
            type: 'String',
            default: '10',
            description: Match.anyValue(),
            allowedPattern: '^[1-9][0-9]{0,3}$',
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
        `--allowed-servers '{{ allowedServers }}' --mount-roots '{{ mountRoots }}' --read-ahead-kib '{{ readAheadKiB }}' ` +
        `--ready-timeout-minutes '{{ readyTimeoutMinutes }}' "$@"`,
    );
  });

  test('the document carries the script less its comments, the same bash and Python, within SSM\'s 64KB', () => {
    const carried = documentScript(SCRIPT);
    const kept = new Set(carried.split('\n'));
    const dropped = SCRIPT.split('\n').filter((line) => !kept.has(line));
    expect(dropped.length).toBeGreaterThan(50);
    expect(dropped.every((line) => /^\s*#/.test(line))).toBe(true);
    // What runs is what the file says: Python's ast has no comments, and bash prints a function's body without them
    // (the Python part, a here-document, is a string to bash, so it is compared as Python).
    const python = (text: string) => /<<'PYTHON' \|\| true\n([\s\S]*?)\nPYTHON\n/.exec(text)![1];
    const pythonTree = (text: string) => spawnSync('python3', ['-c', 'import ast, sys; print(ast.dump(ast.parse(sys.stdin.read())))'],
      { input: python(text), encoding: 'utf8' });
    const [pyBefore, pyAfter] = [pythonTree(SCRIPT), pythonTree(carried)];
    expect(pyAfter.status).toBe(0);
    expect(pyAfter.stdout).toBe(pyBefore.stdout);
    const bashTree = (text: string) => spawnSync('bash', ['-c', 'eval "f() {\n$(cat)\n}" && declare -f f'],
      { input: text.replace(python(text), 'python part'), encoding: 'utf8' });
    const [before, after] = [bashTree(SCRIPT), bashTree(carried)];
    expect(after.status).toBe(0);
    expect(after.stdout.length).toBeGreaterThan((SCRIPT.length - python(SCRIPT).length) / 2);
    expect(after.stdout).toBe(before.stdout);
    expect(python(carried).length).toBeLessThan(python(SCRIPT).length);
    const options = { script: SCRIPT, clusterName: 'hpc1', parameterPrefix: '/storage-server', allowedServers: '10.0.0.0/16' };
    const size = Buffer.byteLength(JSON.stringify(renderClientMountDocument(options)));
    console.log(`client-mount document: ${size} bytes of ${MAX_DOCUMENT_BYTES}`);
    expect(size).toBeLessThan(MAX_DOCUMENT_BYTES - 4096);
    // Parameter values count too: a long mountRoots list is refused at synth, naming AWS's limit.
    const roots = Array.from({ length: 600 }, (_, i) => `/data/project-number-${i}`);
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
      .replace('{{ readyTimeoutMinutes }}', '25')
      .replace('{{ allowHome }}', allowHome);

    // WHEN
    const out = spawnSync('sh', ['-c', command], { encoding: 'utf8' });

    // THEN
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      `args: --cluster hpc1 --prefix /storage-server --server  --allowed-servers 10.0.0.0/16,192.168.4.0/24 --mount-roots /data,/projects --read-ahead-kib 4096 --ready-timeout-minutes 25${flag}\n`,
    );
  });

  test('allowHomeMountPoint sets the default of allowHome and the association passes it', () => {
    const { stack } = clientMountStack({ allowHomeMountPoint: true });
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
    // The script checks --allowed-servers before the missing fstab: either message tells.
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
