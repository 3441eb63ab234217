import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
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

/** The one alarm a RecoveryAlarm on `instance` must make: system status check, 2 of 2 minutes, EC2 recover. */
function expectRecoverAlarm(stack: Stack, instance: ec2.Instance, recovery: RecoveryAlarm): void {
  const template = Template.fromStack(stack);
  const alarms = template.findResources('AWS::CloudWatch::Alarm');
  expect(Object.keys(alarms)).toHaveLength(1);
  const [[logicalId, alarm]] = Object.entries(alarms);
  expect(alarm.Properties).toEqual({
    AlarmDescription: expect.stringMatching(/^Recovers the storage server onto healthy hardware/),
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
    AlarmActions: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':automate:us-east-1:ec2:recover']] }],
  });
  // The construct hands out that alarm, to add notification actions to, and not another one.
  expect(stack.resolve(recovery.alarm.alarmArn)).toEqual({ 'Fn::GetAtt': [logicalId, 'Arn'] });
}

describe('RecoveryAlarm', () => {
  test('one alarm on StatusCheckFailed_System of the instance, 2 failed minutes, EC2 recover action', () => {
    // GIVEN
    const { stack, instance } = serverStack();

    // WHEN
    const recovery = new RecoveryAlarm(stack, 'Recovery', { instance });

    // THEN
    expectRecoverAlarm(stack, instance, recovery);
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

  test('EBS block devices are accepted: the instance gets the same recover alarm', () => {
    const { stack, instance } = serverStack(new App(), [
      { deviceName: '/dev/sdf', volume: ec2.BlockDeviceVolume.ebs(500, { volumeType: ec2.EbsDeviceVolumeType.ST1 }) },
      { deviceName: '/dev/sdg', volume: ec2.BlockDeviceVolume.ebs(500, { volumeType: ec2.EbsDeviceVolumeType.ST1 }) },
    ]);
    expectRecoverAlarm(stack, instance, new RecoveryAlarm(stack, 'Recovery', { instance }));
  });

  test('one instance-store volume among EBS ones is enough to be rejected, and is named', () => {
    const { stack, instance } = serverStack(new App(), [
      { deviceName: '/dev/sdf', volume: ec2.BlockDeviceVolume.ebs(500, { volumeType: ec2.EbsDeviceVolumeType.ST1 }) },
      { deviceName: '/dev/sdb', volume: ec2.BlockDeviceVolume.ephemeral(1) },
    ]);
    expect(() => new RecoveryAlarm(stack, 'Recovery', { instance })).toThrow(/maps instance-store volumes \(ephemeral1\);/);
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
