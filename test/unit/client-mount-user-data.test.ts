/**
 * mountStorageOn: the user data that mounts a storage server on an instance or an Auto Scaling group, the ingress and
 * ordering it adds, and the Lustre client install the user data runs.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Stack, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import {
  FORCED_MOUNT_OPTIONS,
  LUSTRE_CLIENT_INSTALL,
  MOUNT_READ_ACTIONS,
  hardenMountOptions,
  mountStorageOn,
  renderMountUserData,
} from '../../lib/client-mount';
import { IMAGE, fakeServer, newStack } from '../support/client-mount-stacks';

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
    // GIVEN: a stand-in mount that fails as mount.nfs does, exit 32, when mount(2) refuses an option, while the fstab
    // line has nconnect on a kernel without it; and that mounts otherwise
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
