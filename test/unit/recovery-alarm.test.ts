import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { RecoveryAlarm } from '../../lib/recovery-alarm';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

function serverStack(app = new App(), blockDevices?: ec2.BlockDevice[]) {
  const stack = new Stack(app, 'TestStack', { env: { region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
    instanceType: new ec2.InstanceType(blockDevices ? 'd2.xlarge' : 'm4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    blockDevices,
  });
  return { stack, instance };
}

describe('RecoveryAlarm', () => {
  test('one alarm on StatusCheckFailed_System of the instance, 2 failed minutes, EC2 recover action', () => {
    // GIVEN
    const { stack, instance } = serverStack();

    // WHEN
    const recovery = new RecoveryAlarm(stack, 'Recovery', { instance });

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::CloudWatch::Alarm', 1);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/EC2',
      MetricName: 'StatusCheckFailed_System',
      Dimensions: [{ Name: 'InstanceId', Value: { Ref: stack.getLogicalId(instance.instance) } }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'missing',
      AlarmActions: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':automate:us-east-1:ec2:recover']] },
      ],
    });
    expect(recovery.alarm.alarmArn).toBeDefined();
  });

  test('an instance with instance-store volumes is rejected: EC2 recover needs EBS-only instances', () => {
    const { stack, instance } = serverStack(new App(), [
      { deviceName: '/dev/sdb', volume: ec2.BlockDeviceVolume.ephemeral(0) },
      { deviceName: '/dev/sdc', volume: ec2.BlockDeviceVolume.ephemeral(1) },
    ]);
    expect(() => new RecoveryAlarm(stack, 'Recovery', { instance })).toThrow(
      /instance TestStack\/Server maps instance-store volumes \(ephemeral0, ephemeral1\); the EC2 recover action supports only instances that use EBS storage exclusively/,
    );
    Template.fromStack(stack).resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });

  test('EBS block devices are accepted', () => {
    const { stack, instance } = serverStack(new App(), [
      {
        deviceName: '/dev/sdf',
        volume: ec2.BlockDeviceVolume.ebs(500, { volumeType: ec2.EbsDeviceVolumeType.ST1 }),
      },
    ]);
    new RecoveryAlarm(stack, 'Recovery', { instance });
    Template.fromStack(stack).hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'StatusCheckFailed_System',
      AlarmActions: Match.arrayWith([Match.objectLike({ 'Fn::Join': Match.anyValue() })]),
    });
  });

  test('no unacknowledged cdk-nag finding on the alarm', () => {
    const findings = nagFindings((app) => {
      const { stack, instance } = serverStack(app);
      new RecoveryAlarm(stack, 'Recovery', { instance });
    });
    expect(findings.filter((f) => f.resource.includes('/Recovery/'))).toEqual([]);
  });

  test('cfn-lint is clean', () => {
    const { stack, instance } = serverStack();
    new RecoveryAlarm(stack, 'Recovery', { instance });
    expect(cfnLint(Template.fromStack(stack).toJSON())).toEqual([]);
  });
});
