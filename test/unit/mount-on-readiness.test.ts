/**
 * `mountOn` fails visibly (issue 45, item 2): the user data retries the mount a bounded number of times, then prints
 * `ATTENTION NOT-READY` and exits 1, which skips the rest of the user data; with `signalCreation` the target's creation
 * signal carries that status, and with `lifecycleHookName` the group's launch lifecycle action is abandoned. The user
 * data runs in bash with stand-ins for mount, sleep, curl and the AWS CLI, inside aws-cdk-lib's own exit trap; the permissions
 * go through the IAM simulator.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { mountStorageOn, renderMountUserData } from '../../lib/client-mount';
import { IMAGE, fakeServer, newStack } from '../support/client-mount-stacks';
import { TemplatePolicies } from '../support/iam-eval';

/**
 * Runs `userData` (aws-cdk-lib's rendering, its exit trap included) in bash with stand-ins: `mount` that fails unless
 * `mounts`, `curl` that answers IMDS, `aws` that records its arguments. Returns the status, stderr and the calls.
 */
function run(userData: ec2.UserData, stack: Stack, mounts: boolean): { status: number | null; stderr: string; stdout: string; calls: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mount-on-ready-'));
  try {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const stub = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!/bin/bash\necho "${name} $*" >>"$CALLS"\n${body}\n`, { mode: 0o755 });
    stub('mount', mounts ? 'exit 0' : 'echo "mount.nfs: Connection timed out" >&2; exit 32');
    stub('findmnt', 'exit 1');
    stub('curl', 'case "$*" in *instance-id*) echo i-0123456789abcdef0;; *) echo token;; esac');
    stub('aws', 'case "$*" in *describe-auto-scaling-instances*) echo Nodes-ASG;; esac');
    stub('systemctl', 'exit 0');
    // No waiting between attempts, and no directory made on the machine that runs the test.
    stub('sleep', 'exit 0');
    stub('mkdir', 'exit 0');
    fs.writeFileSync(path.join(dir, 'fstab'), '');
    // The tokens of the rendered script, as CloudFormation would resolve them.
    const script = (stack.resolve(userData.render()) as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1]
      .map((p) => (typeof p === 'string' ? p : 'us-east-1')).join('') ?? userData.render();
    const r = spawnSync('bash', ['-c', script.replace(/'\/etc\/fstab'/g, `'${dir}/fstab'`).replace(/\/opt\/aws\/bin\/cfn-signal/g, 'aws cfn-signal')], {
      encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin`, CALLS: path.join(dir, 'calls') },
    });
    const calls = fs.existsSync(path.join(dir, 'calls')) ? fs.readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n') : [];
    return { status: r.status, stderr: r.stderr, stdout: r.stdout, calls };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the user data fails visibly when the mount does not come', () => {
  const lines = (attempts: number) => renderMountUserData({
    server: '10.0.0.5', exportPath: '/export/data', mountPoint: '/data', options: 'nfsvers=4.1,hard,_netdev', tag: 'hpc1/storage1', attempts,
  });

  test('after its attempts: ATTENTION NOT-READY, exit 1, and nothing after it runs', () => {
    const stack = newStack();
    const userData = ec2.UserData.forLinux();
    userData.addCommands(...lines(1), 'echo "the scheduler starts"');
    const r = run(userData, stack, false);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('storage-server: ATTENTION NOT-READY hpc1/storage1: /data is not mounted after 1 attempts, 30 s apart');
    expect(r.stdout).not.toContain('the scheduler starts');
  });

  test('mounted: exit 0 and the rest runs', () => {
    const stack = newStack();
    const userData = ec2.UserData.forLinux();
    userData.addCommands(...lines(1), 'echo "the scheduler starts"');
    const r = run(userData, stack, true);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('the scheduler starts');
    expect(r.stderr).not.toContain('NOT-READY');
  });
});

describe('signalCreation', () => {
  test('an instance: a CreationPolicy for one signal, and cfn-signal with the exit status, 1 when the mount failed', () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const node = new ec2.Instance(stack, 'Node', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    mountStorageOn(fakeServer(stack, vpc), node, { signalCreation: true });
    const [resource] = Object.values(Template.fromStack(stack).findResources('AWS::EC2::Instance'));
    expect(resource.CreationPolicy).toEqual({ ResourceSignal: { Count: 1, Timeout: 'PT15M' } });
    expect(run(node.userData, stack, false).calls).toContainEqual(expect.stringMatching(/^aws cfn-signal --stack \S+ --resource \S+ --region us-east-1 -e 1$/));
    expect(run(node.userData, stack, true).calls).toContainEqual(expect.stringMatching(/ -e 0$/));
  });

  test("an instance's own CreationPolicy is kept", () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const node = new ec2.Instance(stack, 'Node', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    (node.node.defaultChild as ec2.CfnInstance).cfnOptions.creationPolicy = { resourceSignal: { count: 1, timeout: 'PT30M' } };
    mountStorageOn(fakeServer(stack, vpc), node, { signalCreation: true });
    expect(Object.values(Template.fromStack(stack).findResources('AWS::EC2::Instance'))[0].CreationPolicy).toEqual({ ResourceSignal: { Count: 1, Timeout: 'PT30M' } });
  });

  test('a group without signals is refused, naming the prop that counts them', () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const nodes = new autoscaling.AutoScalingGroup(stack, 'Nodes', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    expect(() => mountStorageOn(fakeServer(stack, vpc), nodes, { signalCreation: true })).toThrow(/give it `signals: autoscaling.Signals.waitForAll\(\)`/);
  });
});

describe('lifecycleHookName', () => {
  const build = () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const nodes = new autoscaling.AutoScalingGroup(stack, 'Nodes', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    mountStorageOn(fakeServer(stack, vpc), nodes, { lifecycleHookName: 'storage-ready' });
    return { stack, nodes };
  };

  test.each([[false, 'ABANDON'], [true, 'CONTINUE']])('mounted %s: the launch action is completed with %s', (mounts, result) => {
    const { stack, nodes } = build();
    expect(run(nodes.userData, stack, mounts).calls).toContainEqual(
      `aws autoscaling complete-lifecycle-action --region us-east-1 --auto-scaling-group-name Nodes-ASG --lifecycle-hook-name storage-ready --instance-id i-0123456789abcdef0 --lifecycle-action-result ${result}`,
    );
  });

  test('the role may complete it on its own group, by the tag on it, and on no other', async () => {
    const { stack, nodes } = build();
    const json = Template.fromStack(stack).toJSON();
    const t = new TemplatePolicies(json, 'Test');
    const role = t.logicalId('AWS::IAM::Role', /NodesInstanceRole/);
    const group = (tag: string) => ({
      arn: t.arn('autoscaling', 'autoScalingGroup:11111111-2222-3333-4444-555555555555:autoScalingGroupName/Nodes-ASG'),
      context: { 'aws:ResourceTag/storage-server:lifecycle-group': tag },
    });
    const ask = (tag: string) => t.decide({ principal: t.roleArn(role), identityPolicies: t.identityPolicies(role), action: 'autoscaling:CompleteLifecycleAction', resources: [group(tag)] });
    expect(await ask(nodes.node.addr)).toBe('Allowed');
    expect(await ask('another-group')).toBe('ImplicitlyDenied');
  });

  test('an instance has no lifecycle hook, and a name out of grammar is refused', () => {
    const stack = newStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const node = new ec2.Instance(stack, 'Node', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    const server = fakeServer(stack, vpc);
    expect(() => mountStorageOn(server, node, { lifecycleHookName: 'x' })).toThrow(/lifecycleHookName is for an Auto Scaling group/);
    const nodes = new autoscaling.AutoScalingGroup(stack, 'Nodes', { vpc, instanceType: new ec2.InstanceType('c5.large'), machineImage: IMAGE });
    expect(() => mountStorageOn(server, nodes, { lifecycleHookName: "a'b" })).toThrow(/lifecycleHookName must be 1-255 characters/);
  });
});
