/**
 * What a storage server's monitoring watches, and how it adds its alarms. Each backend gives its own, in its folder of
 * lib/backends. The shared construct passes it the thresholds and one way to make an alarm.
 */
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ServerMetricIdentity } from '../server-metrics';

/** The alarms' thresholds, checked, with their defaults applied: each is documented on {@link MonitoringOptions}. */
export interface AlarmThresholds {
  /** File system use, percent, of the warning alarm. */
  readonly fileSystemUsedWarningPercent: number;
  /** File system use, percent, of the critical alarm: above the warning. */
  readonly fileSystemUsedCriticalPercent: number;
  /** Burst bucket, percent, below which a volume's alarm goes off. */
  readonly burstBalanceLowPercent: number;
  /** Minutes without the server's heartbeat before the export-down alarm: 1 to 60. */
  readonly exportDownMinutes: number;
  /** Throughput utilization, percent, of the file server's alarm. */
  readonly throughputUtilizationHighPercent: number;
}

/**
 * How a monitored storage adds its alarms, so that their naming, their topic and their thresholds are decided in one
 * place for every backend: each alarm made here notifies the alarm topic and is listed in `StorageMonitoring.alarms`.
 */
export interface IStorageAlarms {
  /** The server's cluster and name: the dimensions of its own metrics. */
  readonly identity: ServerMetricIdentity;
  /** The thresholds the alarms and the dashboard's lines use. */
  readonly thresholds: AlarmThresholds;
  /**
   * Adds an alarm with this construct id; its description, when given, is prefixed with
   * `Storage server <serverName>: `.
   */
  addAlarm(id: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm;
  /**
   * Adds the warning and the critical alarm, `FileSystemUsedWarning` and `FileSystemUsedCritical`, on a used-percent
   * metric.
   * @param used the percent of the storage in use
   * @param subject what is full, in the alarms' descriptions; `the file system` by default
   */
  addFileSystemUsedAlarms(used: cloudwatch.IMetric, subject?: string): void;
}

/**
 * What a storage server's dashboard and alarms watch. Each backend implements it, such as an EC2 server or an FSx file
 * system, and the shared {@link StorageMonitoring} calls it once.
 */
export interface IMonitoredStorage {
  /**
   * Adds this storage's alarms through `alarms` and returns its rows of the dashboard, in order.
   * @param alarms where the alarms are made, with the thresholds they use
   */
  watch(alarms: IStorageAlarms): cloudwatch.IWidget[][];
}
