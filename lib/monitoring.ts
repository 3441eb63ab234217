import { Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ServerMetricFactory, type ServerMetricIdentity } from './server-metrics';
import type { DataVolumePlan } from './sizing';
import {
  ebsMetric, ec2Metric, fileSystemUsedPercent, higherOf, openZfsStorageUsedPercent, openZfsThroughputUtilization,
} from './monitoring/metrics';
import type {
  AlarmLimits, MonitoredFileSystem, MonitoredOpenZfs, MonitoredServer, MonitoredStorage, VolumesByType,
} from './monitoring/storage';
import { fileSystemWidgets, openZfsWidgets, serverWidgets } from './monitoring/widgets';

export type { MonitoredStorage } from './monitoring/storage';

/** Alarm thresholds and the dashboard switch of a storage server. */
export interface MonitoringOptions {
  /**
   * Make the server's CloudWatch dashboard, `StorageServer-<stack>-<server>`.
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
   * st1 burst bucket, percent, below which an st1 volume's alarm goes off on the EBS backend: the volume is about to
   * fall back to its baseline throughput. gp3 volumes have no burst bucket, since they deliver what is provisioned.
   * @default 20
   */
  readonly burstBalanceLowPercent?: number;
  /**
   * Minutes without the server's heartbeat before the export-down alarm; the heartbeat is sent only while the export is
   * live.
   * @default 3
   */
  readonly exportDownMinutes?: number;
  /**
   * FSx for OpenZFS: the file server's throughput utilization at which the alarm goes off when it lasts 30 minutes, as
   * a percent of what its throughput capacity allows, network or disk, whichever is higher. Raise the throughput
   * capacity then, a live change. AWS recommends an average under 50 %; short bursts to 100 % are what a
   * throughput-bound job does.
   * @default 80
   */
  readonly throughputUtilizationHighPercent?: number;
}

/** Properties of a {@link StorageMonitoring}. */
export interface StorageMonitoringProps extends MonitoringOptions {
  /** The server's cluster and name, the dimensions of its own metrics. */
  readonly identity: ServerMetricIdentity;
  /** What to watch. */
  readonly storage: MonitoredStorage;
  /**
   * Where the alarms notify, on ALARM and back to OK.
   * @default - no notification: the alarms show on the dashboard and in the CloudWatch console
   */
  readonly alarmTopic?: sns.ITopic;
}

/**
 * The dashboard and alarms of one storage server, in the manner of cdk-monitoring-constructs without its dependency:
 * metrics from a factory, thresholds as props, a dozen widgets and five alarm kinds. Each alarm watches a metric the
 * backend has:
 * - an EC2 server: the heartbeat, file system, memory and status checks;
 * - each st1 volume on EBS: the burst bucket, which gp3 lacks; the disks' throughput is on the dashboard only, gp3's
 *   beside what is provisioned;
 * - an FSx file system: its free capacity;
 * - an FSx for OpenZFS file system: its own and its root volume's used capacity, and its file server's throughput
 *   utilization.
 */
export class StorageMonitoring extends Construct {
  /** Every alarm this construct made, in the order made. */
  public readonly alarms: cloudwatch.Alarm[] = [];
  /** The dashboard, unless turned off. */
  public readonly dashboard?: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: StorageMonitoringProps) {
    super(scope, id);
    const limits = alarmLimits(props);
    const server = props.identity.serverName;
    const { storage } = props;
    const widgets = 'instance' in storage ? this.watchServer(storage, server, props, limits)
      : 'openZfs' in storage ? this.watchOpenZfs(storage.openZfs, server, limits, props.alarmTopic)
        : this.watchFileSystem(storage, server, limits, props.alarmTopic);
    if (props.dashboard ?? true) {
      const dashboardName = `StorageServer-${Stack.of(this).stackName}-${server}`;
      // A name is one dashboard per account and Region, per PutDashboard in the CloudWatch API Reference. A second one
      // of the same stack would fail its deploy, or overwrite the first.
      const taken = Stack.of(this).node.findAll().find((c): c is cloudwatch.CfnDashboard => c instanceof cloudwatch.CfnDashboard && c.dashboardName === dashboardName);
      if (taken !== undefined) {
        throw new Error(`monitoring.dashboard: the dashboard name '${dashboardName}' is taken in this stack by ${taken.node.path} ` +
          '(CloudWatch dashboard names are unique per account and Region): give this server another serverName, or set ' +
          'monitoring: { dashboard: false }.');
      }
      this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName, widgets });
    }
  }

  /** An EC2 server's alarms on the heartbeat, file system, status checks and st1 burst buckets; returns its widgets. */
  private watchServer(
    storage: MonitoredServer, server: string, props: StorageMonitoringProps, limits: AlarmLimits,
  ): cloudwatch.IWidget[][] {
    const volumes = dataVolumesByType(storage);
    const metrics = new ServerMetricFactory(props.identity);
    const used = metrics.fileSystemUsedPercent();
    this.alarm('ExportDown', {
      alarmDescription: `Storage server ${server}: no heartbeat for ${limits.downMinutes} minutes: the export is not live ` +
        '(bootstrap failed, nfsd down, file system unmounted) or the server is down.',
      metric: metrics.exportLive(),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      threshold: 1,
      evaluationPeriods: limits.downMinutes,
      // The heartbeat is sent only while the export is live: its absence is the failure.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    }, props.alarmTopic);
    this.fileSystemAlarms(server, used, limits.warning, limits.critical, props.alarmTopic);
    this.alarm('StatusCheckFailed', {
      alarmDescription: `Storage server ${server}: an EC2 status check (system or instance) failed for 2 minutes.`,
      metric: ec2Metric(storage.instance, 'StatusCheckFailed', cloudwatch.Stats.MAXIMUM),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      threshold: 1,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    }, props.alarmTopic);
    volumes.st1.forEach(([i, volume]) => this.alarm(`BurstBalanceLow${i}`, {
      alarmDescription: `Storage server ${server}: data volume ${i} has less than ${limits.burstLow}% of its st1 burst bucket ` +
        'left; it falls back to its baseline throughput when the bucket is empty.',
      metric: ebsMetric(volume, 'BurstBalance', cloudwatch.Stats.MINIMUM),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      threshold: limits.burstLow,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    }, props.alarmTopic));
    return serverWidgets(storage, metrics, used, volumes, limits);
  }

  /** An FSx file system's alarm on its used capacity, from the free bytes FSx publishes; returns its widgets. */
  private watchFileSystem(
    storage: MonitoredFileSystem, server: string, limits: AlarmLimits, topic: sns.ITopic | undefined,
  ): cloudwatch.IWidget[][] {
    const used = fileSystemUsedPercent(storage);
    this.fileSystemAlarms(server, used, limits.warning, limits.critical, topic);
    return fileSystemWidgets(storage, used, limits);
  }

  /**
   * An FSx for OpenZFS file system's alarms: the used capacity of the file system or the root volume, whichever is
   * fuller, and the file server's sustained throughput utilization. Returns its widgets.
   */
  private watchOpenZfs(
    storage: MonitoredOpenZfs, server: string, limits: AlarmLimits, topic: sns.ITopic | undefined,
  ): cloudwatch.IWidget[][] {
    const used = openZfsStorageUsedPercent(storage);
    const fuller = higherOf('Storage used % (file system or root volume)', used.fileSystem, used.rootVolume);
    this.fileSystemAlarms(server, fuller, limits.warning, limits.critical, topic,
      `the FSx for OpenZFS file system (${storage.storageCapacityGiB} GiB planned) or its root volume`);
    const utilization = openZfsThroughputUtilization(storage);
    // Six five-minute averages in a row: a half-hour, past the bursts a throughput-bound job makes, yet soon enough
    // for the live throughput change to help the same day's jobs.
    this.alarm('ThroughputUtilizationHigh', {
      alarmDescription: `Storage server ${server}: the FSx for OpenZFS ${storage.deploymentType} file server used ` +
        `${limits.throughputHigh}% or more of its ${storage.throughputCapacityMBps} MB/s throughput capacity (network or disk) ` +
        'for 30 minutes: raise its throughput capacity (live).',
      metric: higherOf('Throughput utilization % (network or disk)', utilization.network, utilization.disk),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      threshold: limits.throughputHigh,
      evaluationPeriods: 6,
      datapointsToAlarm: 6,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    }, topic);
    return openZfsWidgets(storage, [used.fileSystem, used.rootVolume], [utilization.network, utilization.disk], limits);
  }

  private fileSystemAlarms(
    server: string, used: cloudwatch.IMetric, warning: number, critical: number, topic: sns.ITopic | undefined,
    subject = 'the file system',
  ): void {
    for (const [id, threshold] of [['FileSystemUsedWarning', warning], ['FileSystemUsedCritical', critical]] as const) {
      this.alarm(id, {
        alarmDescription: `Storage server ${server}: ${subject} is ${threshold}% full or more.`,
        metric: used,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        threshold,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.MISSING,
      }, topic);
    }
  }

  private alarm(id: string, props: cloudwatch.AlarmProps, topic: sns.ITopic | undefined): void {
    const alarm = new cloudwatch.Alarm(this, id, props);
    if (topic) {
      alarm.addAlarmAction(new cloudwatchActions.SnsAction(topic));
      alarm.addOkAction(new cloudwatchActions.SnsAction(topic));
    }
    this.alarms.push(alarm);
  }
}

/** The alarms' thresholds, checked. */
function alarmLimits(props: MonitoringOptions): AlarmLimits {
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
  return { warning, critical, burstLow, downMinutes, throughputHigh };
}

function percent(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0 || value >= 100) {
    throw new Error(`monitoring: ${name} must be a percentage above 0 and below 100, got ${value}`);
  }
  return value;
}

/** Each st1 and each gp3 data volume with its stripe index and plan: alarms and labels keep the volume's number. */
function dataVolumesByType(storage: MonitoredServer): VolumesByType {
  const { dataVolumes } = storage;
  const plans = storage.dataVolumePlans ?? dataVolumes.map((): DataVolumePlan => ({ volumeType: 'st1', sizeGiB: 0 }));
  if (plans.length !== dataVolumes.length) {
    throw new Error(`monitoring: dataVolumePlans must give one entry per data volume (${dataVolumes.length}), got ${plans.length}`);
  }
  const ofType = (type: DataVolumePlan['volumeType']): VolumesByType['st1'] =>
    dataVolumes.flatMap((v, i) => (plans[i].volumeType === type ? [[i, v, plans[i]] as const] : []));
  return { st1: ofType('st1'), gp3: ofType('gp3') };
}
