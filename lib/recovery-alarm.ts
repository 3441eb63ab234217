import { Duration, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';

/** Properties of a {@link RecoveryAlarm}. */
export interface RecoveryAlarmProps {
  /** The EBS-only storage server to recover. */
  readonly instance: ec2.Instance;
}

/**
 * A CloudWatch alarm on the instance's system status check, StatusCheckFailed_System, whose action is EC2 recover. AWS
 * moves the instance to healthy hardware, keeping its id, private IP and EBS volumes, so clients remount the same
 * export. Only for EBS-only instances.
 */
export class RecoveryAlarm extends Construct {
  /** The alarm; add notification actions to it as needed. */
  public readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: RecoveryAlarmProps) {
    super(scope, id);
    validateEbsOnly(props.instance);

    this.alarm = new cloudwatch.Alarm(this, 'Alarm', {
      alarmDescription:
        'Recovers the storage server onto healthy hardware when its EC2 system status check has failed ' +
        'for 2 minutes (same instance id, private IP and EBS volumes).',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/EC2',
        metricName: 'StatusCheckFailed_System',
        dimensionsMap: { InstanceId: props.instance.instanceId },
        statistic: cloudwatch.Stats.MAXIMUM,
        period: Duration.minutes(1),
      }),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      threshold: 1,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      // No data means no check result, as when the instance is stopped, not a failure.
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    });
    this.alarm.addAlarmAction(new cloudwatchActions.Ec2Action(cloudwatchActions.Ec2InstanceAction.RECOVER));
  }
}

/** Throws if the instance maps instance-store volumes, ephemeralN, which EC2 recovery does not support. */
function validateEbsOnly(instance: ec2.Instance): void {
  const mappings = instance.instance.blockDeviceMappings;
  if (mappings === undefined || Token.isUnresolved(mappings)) return;
  const ephemeral = (mappings as Array<ec2.CfnInstance.BlockDeviceMappingProperty | object>)
    .map((m) => (m as ec2.CfnInstance.BlockDeviceMappingProperty).virtualName)
    .filter((name): name is string => typeof name === 'string' && !Token.isUnresolved(name))
    .filter((name) => name.startsWith('ephemeral'));
  if (ephemeral.length > 0) {
    throw new Error(
      `instance ${instance.node.path} maps instance-store volumes (${ephemeral.join(', ')}); the EC2 recover ` +
        `action supports only instances that use EBS storage exclusively, so it cannot recover this one.`,
    );
  }
}
