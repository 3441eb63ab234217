import { Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { ServerMetricIdentity } from './server-metrics';
import { StorageAlarms } from './monitoring/alarms';
import type { AlarmThresholds, IMonitoredStorage } from './monitoring/storage';

export type { AlarmThresholds, IMonitoredStorage, IStorageAlarms } from './monitoring/storage';

/** Alarm thresholds and the dashboard switch of a storage server. */
export interface MonitoringOptions {
  /**
   * Make the server's CloudWatch dashboard, named `StorageServer-<stack>-<server>`.
   * @default true
   */
  readonly dashboard?: boolean;
  /**
   * File system use, percent, at which the warning alarm goes off.
   * @default 85
   */
  readonly fileSystemUsedWarningPercent?: number;
  /**
   * File system use, percent, at which the critical alarm goes off.
   * @default 95
   */
  readonly fileSystemUsedCriticalPercent?: number;
  /**
   * st1 burst bucket, percent, below which an st1 volume's alarm goes off on the EBS backend. The volume is then about
   * to fall back to its baseline throughput. gp3 volumes have no burst bucket: they deliver what is provisioned.
   * @default 20
   */
  readonly burstBalanceLowPercent?: number;
  /**
   * Minutes without the server's heartbeat before the export-down alarm. The heartbeat is sent only while the export
   * is live.
   * @default 3
   */
  readonly exportDownMinutes?: number;
  /**
   * FSx for OpenZFS: the file server's throughput utilization at which the alarm goes off when it lasts 30 minutes. It
   * is the percent of what the throughput capacity allows, network or disk, whichever is higher. The remedy is to raise
   * the throughput capacity, a live change. AWS recommends an average under 50 %; short bursts to 100 % are what a
   * throughput-bound job does.
   * @default 80
   */
  readonly throughputUtilizationHighPercent?: number;
}

/** Properties of a {@link StorageMonitoring}. */
export interface StorageMonitoringProps extends MonitoringOptions {
  /** The server's cluster and name: the dimensions of its own metrics. */
  readonly identity: ServerMetricIdentity;
  /** What to watch: the backend's own, such as `MonitoredEc2Server`. */
  readonly storage: IMonitoredStorage;
  /**
   * Where the alarms notify, on ALARM and back to OK.
   * @default - no notification: the alarms show on the dashboard and in the CloudWatch console
   */
  readonly alarmTopic?: sns.ITopic;
}

/**
 * The dashboard and alarms of one storage server: a dozen widgets and five alarm kinds. It follows
 * cdk-monitoring-constructs, with metrics from a factory and thresholds as props, without depending on it.
 *
 * Each alarm watches a metric the backend has:
 * - an EC2 server's heartbeat, file system, memory and status checks;
 * - the burst bucket of each st1 volume on EBS, as gp3 has none;
 * - an FSx for Lustre file system's fullest storage target (OST);
 * - an FSx for OpenZFS file system's used capacity, its own and its root volume's, and its file server's throughput
 *   utilization.
 *
 * The disks' throughput is on the dashboard only, gp3's beside what is provisioned.
 */
export class StorageMonitoring extends Construct {
  /** Every alarm this construct made, in the order made. */
  public readonly alarms: cloudwatch.Alarm[];
  /** The dashboard, unless turned off. */
  public readonly dashboard?: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: StorageMonitoringProps) {
    super(scope, id);
    const alarms = new StorageAlarms(this, props.identity, alarmThresholds(props), props.alarmTopic);
    this.alarms = alarms.alarms;
    const server = props.identity.serverName;
    const widgets = props.storage.watch(alarms);
    if (props.dashboard ?? true) {
      const dashboardName = `StorageServer-${Stack.of(this).stackName}-${server}`;
      // A name is one dashboard per account, in every Region: "All dashboards in your account are global, not
      // region-specific" (AWS::CloudWatch::Dashboard, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-cloudwatch-dashboard.html).
      // A second one of the same stack would fail its deploy, or overwrite the first.
      const taken = Stack.of(this).node.findAll().find((c): c is cloudwatch.CfnDashboard => c instanceof cloudwatch.CfnDashboard && c.dashboardName === dashboardName);
      if (taken !== undefined) {
        throw new Error(`monitoring.dashboard: the dashboard name '${dashboardName}' is taken in this stack by ${taken.node.path} ` +
          '(CloudWatch dashboard names are unique per account, across all Regions): give this server another serverName, or set ' +
          'monitoring: { dashboard: false }.');
      }
      this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName, widgets });
    }
  }
}

/** The alarms' thresholds, checked. */
function alarmThresholds(props: MonitoringOptions): AlarmThresholds {
  const warning = percent(props.fileSystemUsedWarningPercent ?? 85, 'fileSystemUsedWarningPercent');
  const critical = percent(props.fileSystemUsedCriticalPercent ?? 95, 'fileSystemUsedCriticalPercent');
  if (warning >= critical) {
    throw new Error(`monitoring: fileSystemUsedWarningPercent (${warning}) must be below fileSystemUsedCriticalPercent (${critical})`);
  }
  const burstLow = percent(props.burstBalanceLowPercent ?? 20, 'burstBalanceLowPercent');
  const downMinutes = props.exportDownMinutes ?? 3;
  if (!Number.isInteger(downMinutes) || downMinutes < 1 || downMinutes > 60) {
    throw new Error(`monitoring: exportDownMinutes must be a whole number of minutes from 1 to 60, got ${downMinutes}`);
  }
  const throughputHigh = percent(props.throughputUtilizationHighPercent ?? 80, 'throughputUtilizationHighPercent');
  return {
    fileSystemUsedWarningPercent: warning,
    fileSystemUsedCriticalPercent: critical,
    burstBalanceLowPercent: burstLow,
    exportDownMinutes: downMinutes,
    throughputUtilizationHighPercent: throughputHigh,
  };
}

function percent(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0 || value >= 100) {
    throw new Error(`monitoring: ${name} must be a percentage above 0 and below 100, got ${value}`);
  }
  return value;
}
