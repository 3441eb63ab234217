/**
 * The one place a storage server's alarms are made, each backend's through it: their descriptions named after the
 * server, their topic's actions, their list.
 */
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { ServerMetricIdentity } from '../server-metrics';
import type { AlarmThresholds, IStorageAlarms } from './storage';

/** The alarms of one server, made under `scope` with the construct ids the backends give. */
export class StorageAlarms implements IStorageAlarms {
  /** Every alarm made, in the order made. */
  public readonly alarms: cloudwatch.Alarm[] = [];

  constructor(
    private readonly scope: Construct,
    public readonly identity: ServerMetricIdentity,
    public readonly thresholds: AlarmThresholds,
    private readonly topic: sns.ITopic | undefined,
  ) {}

  public addAlarm(id: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm {
    const alarmDescription = props.alarmDescription === undefined ? undefined
      : `Storage server ${this.identity.serverName}: ${props.alarmDescription}`;
    const alarm = new cloudwatch.Alarm(this.scope, id, { ...props, alarmDescription });
    if (this.topic) {
      alarm.addAlarmAction(new cloudwatchActions.SnsAction(this.topic));
      alarm.addOkAction(new cloudwatchActions.SnsAction(this.topic));
    }
    this.alarms.push(alarm);
    return alarm;
  }

  public addFileSystemUsedAlarms(used: cloudwatch.IMetric, subject = 'the file system'): void {
    const { fileSystemUsedWarningPercent: warning, fileSystemUsedCriticalPercent: critical } = this.thresholds;
    for (const [id, threshold] of [['FileSystemUsedWarning', warning], ['FileSystemUsedCritical', critical]] as const) {
      this.addAlarm(id, {
        alarmDescription: `${subject} is ${threshold}% full or more.`,
        metric: used,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        threshold,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.MISSING,
      });
    }
  }
}
