import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ServerMetricFactory, type ServerMetricIdentity } from './server-metrics';
import { GP3_DEFAULTS } from './gp3-defaults';
import type { DataVolumePlan } from './sizing';

/** Alarm thresholds and the dashboard switch of a storage server. */
export interface MonitoringOptions {
  /**
   * Make the server's CloudWatch dashboard (`StorageServer-<stack>-<server>`).
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
   * st1 burst bucket, percent, below which an st1 volume's alarm goes off (EBS backend): the volume is about to fall
   * back to its baseline throughput. gp3 volumes have no burst bucket (they deliver what is provisioned).
   * @default 20
   */
  readonly burstBalanceLowPercent?: number;
  /**
   * Minutes without the server's heartbeat (sent only while the export is live) before the export-down alarm.
   * @default 3
   */
  readonly exportDownMinutes?: number;
}

/** What is monitored: an EC2 NFS server, or an FSx for Lustre file system. */
export type MonitoredStorage =
  | {
    /** The server's instance. */
    readonly instance: ec2.Instance;
    /** The data volumes in stripe order (EBS backend); none for instance store. */
    readonly dataVolumes: readonly ec2.IVolume[];
    /**
     * Each data volume's type and provisioned performance, in the order of `dataVolumes`.
     * @default - every volume st1
     */
    readonly dataVolumePlans?: readonly DataVolumePlan[];
    /** Kernel names of the instance-store disks (`xvdb`, ... on d2; on d3 and d3en `nvme0n1`, ..., the root volume among them); none for EBS. */
    readonly instanceStoreDisks: readonly string[];
  }
  | {
    /** The file system. */
    readonly fileSystem: fsx.LustreFileSystem;
    /** Its storage capacity, GiB (FSx publishes only the free bytes). */
    readonly storageCapacityGiB: number;
  };

/** Properties of a {@link StorageMonitoring}. */
export interface StorageMonitoringProps extends MonitoringOptions {
  /** The server's cluster and name (the dimensions of its own metrics). */
  readonly identity: ServerMetricIdentity;
  /** What to watch. */
  readonly storage: MonitoredStorage;
  /**
   * Where the alarms notify (on ALARM and back to OK).
   * @default - no notification: the alarms show on the dashboard and in the CloudWatch console
   */
  readonly alarmTopic?: sns.ITopic;
}

/**
 * The dashboard and alarms of one storage server, in the manner of cdk-monitoring-constructs (metrics from a
 * factory, thresholds as props) without its dependency: a dozen widgets and five alarm kinds. Each alarm watches a
 * metric the backend has: the heartbeat, file system, memory and status checks of an EC2 server; the burst bucket
 * of each st1 volume (EBS; gp3 has none); the disks' throughput is on the dashboard only (gp3's beside what is provisioned); an FSx file system's free capacity.
 */
export class StorageMonitoring extends Construct {
  /** Every alarm this construct made, in the order made. */
  public readonly alarms: cloudwatch.Alarm[] = [];
  /** The dashboard, unless turned off. */
  public readonly dashboard?: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: StorageMonitoringProps) {
    super(scope, id);
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
    const server = props.identity.serverName;
    const widgets: cloudwatch.IWidget[][] = [];

    if ('instance' in props.storage) {
      const { instance, dataVolumes, instanceStoreDisks } = props.storage;
      const plans = props.storage.dataVolumePlans ?? dataVolumes.map((): DataVolumePlan => ({ volumeType: 'st1', sizeGiB: 0 }));
      if (plans.length !== dataVolumes.length) {
        throw new Error(`monitoring: dataVolumePlans must give one entry per data volume (${dataVolumes.length}), got ${plans.length}`);
      }
      // Stripe index and volume of each type: alarms and labels keep the volume's number in the stripe.
      const ofType = (type: DataVolumePlan['volumeType']): [number, ec2.IVolume, DataVolumePlan][] =>
        dataVolumes.flatMap((v, i) => (plans[i].volumeType === type ? [[i, v, plans[i]]] : []));
      const st1 = ofType('st1');
      const gp3 = ofType('gp3');
      const metrics = new ServerMetricFactory(props.identity);
      const used = metrics.fileSystemUsedPercent();
      this.alarm('ExportDown', {
        alarmDescription: `Storage server ${server}: no heartbeat for ${downMinutes} minutes: the export is not live ` +
          '(bootstrap failed, nfsd down, file system unmounted) or the server is down.',
        metric: metrics.exportLive(),
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        threshold: 1,
        evaluationPeriods: downMinutes,
        // The heartbeat is sent only while the export is live: its absence is the failure.
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }, props.alarmTopic);
      this.fileSystemAlarms(server, used, warning, critical, props.alarmTopic);
      this.alarm('StatusCheckFailed', {
        alarmDescription: `Storage server ${server}: an EC2 status check (system or instance) failed for 2 minutes.`,
        metric: ec2Metric(instance, 'StatusCheckFailed', cloudwatch.Stats.MAXIMUM),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        threshold: 1,
        evaluationPeriods: 2,
        treatMissingData: cloudwatch.TreatMissingData.MISSING,
      }, props.alarmTopic);
      st1.forEach(([i, volume]) => this.alarm(`BurstBalanceLow${i}`, {
        alarmDescription: `Storage server ${server}: data volume ${i} has less than ${burstLow}% of its st1 burst bucket ` +
          'left; it falls back to its baseline throughput when the bucket is empty.',
        metric: ebsMetric(volume, 'BurstBalance', cloudwatch.Stats.MINIMUM),
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        threshold: burstLow,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.MISSING,
      }, props.alarmTopic));

      widgets.push([
        graph('Export live (heartbeat)', [metrics.exportLive()]),
        graph('Status checks failed', ['StatusCheckFailed', 'StatusCheckFailed_System', 'StatusCheckFailed_Instance']
          .map((name) => ec2Metric(instance, name, cloudwatch.Stats.MAXIMUM))),
        graph('File system used %', [used, metrics.inodesUsedPercent()], [warning, critical]),
        graph('Memory used %', [metrics.memoryUsedPercent()]),
      ]);
      widgets.push([
        graph('Network bytes / min', ['NetworkIn', 'NetworkOut'].map((name) => ec2Metric(instance, name, cloudwatch.Stats.SUM))),
        graph('NFS operations / min', [metrics.nfsOps()]),
        graph('NFS bytes / min', [metrics.nfsReadBytes(), metrics.nfsWriteBytes()]),
      ]);
      if (dataVolumes.length > 0) {
        widgets.push([
          graph('EBS bytes / min per volume', dataVolumes.flatMap((v, i) => [
            ebsMetric(v, 'VolumeReadBytes', cloudwatch.Stats.SUM, `volume ${i} read`),
            ebsMetric(v, 'VolumeWriteBytes', cloudwatch.Stats.SUM, `volume ${i} write`),
          ])),
          graph('EBS queue length per volume', dataVolumes.map((v, i) =>
            ebsMetric(v, 'VolumeQueueLength', cloudwatch.Stats.AVERAGE, `volume ${i}`))),
          ...(st1.length > 0 ? [graph('st1 burst balance % per volume', st1.map(([i, v]) =>
            ebsMetric(v, 'BurstBalance', cloudwatch.Stats.MINIMUM, `volume ${i}`)), [burstLow])] : []),
          ...(gp3.length > 0 ? [graph('gp3 throughput MiB/s per volume (lines: provisioned)', gp3.map(([i, v, plan]) =>
            ebsMiBps(v, i, `volume ${i} (${plan.throughputMiBps ?? GP3_DEFAULTS.throughputMiBps} MiB/s provisioned)`)),
          [...new Set(gp3.map(([, , plan]) => plan.throughputMiBps ?? GP3_DEFAULTS.throughputMiBps))])] : []),
        ]);
      }
      if (instanceStoreDisks.length > 0) {
        widgets.push([
          graph('Instance-store bytes / min per disk', instanceStoreDisks.flatMap((d) => [metrics.diskReadBytes(d), metrics.diskWriteBytes(d)])),
        ]);
      }
    } else {
      const { fileSystem, storageCapacityGiB } = props.storage;
      const free = fsxMetric(fileSystem, 'FreeDataStorageCapacity', cloudwatch.Stats.MINIMUM, Duration.minutes(5));
      const used = new cloudwatch.MathExpression({
        expression: `100 * (1 - free / ${storageCapacityGiB * 1024 ** 3})`,
        usingMetrics: { free },
        label: 'File system used %',
        period: Duration.minutes(5),
      });
      this.fileSystemAlarms(server, used, warning, critical, props.alarmTopic);
      widgets.push([
        graph('File system used %', [used], [warning, critical]),
        graph('Lustre bytes / min', ['DataReadBytes', 'DataWriteBytes'].map((name) =>
          fsxMetric(fileSystem, name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
        graph('Lustre operations / min', ['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'].map((name) =>
          fsxMetric(fileSystem, name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
      ]);
    }

    if (props.dashboard ?? true) {
      this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
        dashboardName: `StorageServer-${Stack.of(this).stackName}-${server}`,
        widgets,
      });
    }
  }

  private fileSystemAlarms(
    server: string, used: cloudwatch.IMetric, warning: number, critical: number, topic: sns.ITopic | undefined,
  ): void {
    for (const [id, threshold] of [['FileSystemUsedWarning', warning], ['FileSystemUsedCritical', critical]] as const) {
      this.alarm(id, {
        alarmDescription: `Storage server ${server}: the file system is ${threshold}% full or more.`,
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

function percent(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0 || value >= 100) {
    throw new Error(`monitoring: ${name} must be a percentage above 0 and below 100, got ${value}`);
  }
  return value;
}

function graph(title: string, left: cloudwatch.IMetric[], lines: number[] = []): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title,
    left,
    leftAnnotations: lines.map((value) => ({ value })),
    width: 6,
    height: 6,
  });
}

function ec2Metric(instance: ec2.Instance, metricName: string, statistic: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EC2', metricName, statistic, period: Duration.minutes(1),
    dimensionsMap: { InstanceId: instance.instanceId },
  });
}

function ebsMetric(volume: ec2.IVolume, metricName: string, statistic: string, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EBS', metricName, statistic, label,
    // Five minutes: a burst bucket drains over hours, and a short spike of queue length is no news.
    period: Duration.minutes(5),
    dimensionsMap: { VolumeId: volume.volumeId },
  });
}

/** A volume's read plus write throughput, MiB/s, averaged over each five minutes of `ebsMetric`. */
function ebsMiBps(volume: ec2.IVolume, index: number, label: string): cloudwatch.MathExpression {
  const seconds = 300;
  // Ids are per graph: each volume's own.
  return new cloudwatch.MathExpression({
    expression: `(r${index} + w${index}) / ${seconds} / ${1024 ** 2}`,
    usingMetrics: {
      [`r${index}`]: ebsMetric(volume, 'VolumeReadBytes', cloudwatch.Stats.SUM),
      [`w${index}`]: ebsMetric(volume, 'VolumeWriteBytes', cloudwatch.Stats.SUM),
    },
    label,
    period: Duration.seconds(seconds),
  });
}

function fsxMetric(fileSystem: fsx.LustreFileSystem, metricName: string, statistic: string, period: Duration): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/FSx', metricName, statistic, period,
    dimensionsMap: { FileSystemId: fileSystem.fileSystemId },
  });
}
