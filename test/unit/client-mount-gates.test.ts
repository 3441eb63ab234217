/** ClientMount and mountStorageOn through the gates: cdk-nag, cfn-lint, and shellcheck on client-mount.sh. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ClientMount, MOUNT_READ_ACTIONS, mountStorageOn } from '../../lib/client-mount';
import { cfnLint } from '../support/cfn-lint';
import { ALLOWED, CONTEXT, IMAGE, SCRIPT, SCRIPT_PATH, fakeServer, newStack } from '../support/client-mount-stacks';
import { nagFindings } from '../support/nag';
import { venvBin } from '../support/venv';

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
    // Test scaffolding only, which the library does not create: the VPC and the client nodes themselves.
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
