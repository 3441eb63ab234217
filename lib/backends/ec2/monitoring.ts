/**
 * What the monitoring watches of an EC2 NFS server, backends `ebs` and `instance-store`: its alarms and its rows of
 * the dashboard.
 */
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import { GP3_DEFAULTS } from '../../gp3-defaults';
import type { IMonitoredStorage, IStorageAlarms } from '../../monitoring';
import { graph } from '../../monitoring/widgets';
import { ServerMetricFactory } from '../../server-metrics';
import { DataVolumeType } from '../../sizing/enums';
import type { DataVolumePlan } from '../../sizing/plan-types';
import { ebsMetric, ebsMiBps, ec2Metric } from './monitoring-metrics';

/** Properties of a {@link MonitoredEc2Server}. */
export interface MonitoredEc2ServerProps {
  /** The server's instance. */
  readonly instance: ec2.IInstance;
  /**
   * The data volumes in stripe order, on the EBS backend.
   * @default - none: an instance-store server
   */
  readonly dataVolumes?: ec2.IVolume[];
  /**
   * Each data volume's type and provisioned performance, in the order of `dataVolumes`.
   * @default - every volume st1
   */
  readonly dataVolumePlans?: DataVolumePlan[];
  /**
   * Kernel names of the instance-store disks: `xvdb` and on on d2; `nvme0n1` and on on d3 and d3en, the root volume
   * among them.
   * @default - none: an EBS server
   */
  readonly instanceStoreDisks?: string[];
}

/** Each st1 and each gp3 data volume: its stripe index, the volume and its plan. */
interface VolumesByType {
  readonly st1: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
  readonly gp3: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
}

/**
 * An EC2 NFS server as its dashboard and alarms watch it: alarms on its heartbeat, file system, status checks and
 * each st1 volume's burst bucket; rows of its health, its traffic, and its EBS volumes or instance-store disks.
 */
export class MonitoredEc2Server implements IMonitoredStorage {
  private readonly instance: ec2.IInstance;
  private readonly dataVolumes: readonly ec2.IVolume[];
  private readonly instanceStoreDisks: readonly string[];
  private readonly volumes: VolumesByType;

  constructor(props: MonitoredEc2ServerProps) {
    this.instance = props.instance;
    this.dataVolumes = props.dataVolumes ?? [];
    this.instanceStoreDisks = props.instanceStoreDisks ?? [];
    this.volumes = dataVolumesByType(this.dataVolumes, props.dataVolumePlans);
  }

  /** The alarms: heartbeat, file system, status checks, st1 burst buckets; returns the server's rows. */
  public watch(alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const limits = alarms.thresholds;
    const metrics = new ServerMetricFactory(alarms.identity);
    const used = metrics.fileSystemUsedPercent();
    alarms.addAlarm('ExportDown', {
      alarmDescription: `no heartbeat for ${limits.exportDownMinutes} minutes: the export is not live ` +
        '(bootstrap failed, nfsd down, file system unmounted) or the server is down.',
      metric: metrics.exportLive(),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      threshold: 1,
      evaluationPeriods: limits.exportDownMinutes,
      // The heartbeat is sent only while the export is live: its absence is the failure.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
    alarms.addFileSystemUsedAlarms(used);
    alarms.addAlarm('StatusCheckFailed', {
      alarmDescription: 'an EC2 status check (system or instance) failed for 2 minutes.',
      metric: ec2Metric(this.instance, 'StatusCheckFailed', cloudwatch.Stats.MAXIMUM),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      threshold: 1,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    });
    this.volumes.st1.forEach(([i, volume]) => alarms.addAlarm(`BurstBalanceLow${i}`, {
      alarmDescription: `data volume ${i} has less than ${limits.burstBalanceLowPercent}% of its st1 burst bucket ` +
        'left; it falls back to its baseline throughput when the bucket is empty.',
      metric: ebsMetric(volume, 'BurstBalance', cloudwatch.Stats.MINIMUM),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      threshold: limits.burstBalanceLowPercent,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    }));
    return this.widgets(metrics, used, alarms);
  }

  /** The server's rows: its health, its traffic, its EBS volumes or instance-store disks. */
  private widgets(metrics: ServerMetricFactory, used: cloudwatch.IMetric, alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const { instance, dataVolumes, instanceStoreDisks } = this;
    const { st1, gp3 } = this.volumes;
    const limits = alarms.thresholds;
    const widgets: cloudwatch.IWidget[][] = [];
    widgets.push([
      graph('Export live (heartbeat)', [metrics.exportLive()]),
      graph('Status checks failed', ['StatusCheckFailed', 'StatusCheckFailed_System', 'StatusCheckFailed_Instance']
        .map((name) => ec2Metric(instance, name, cloudwatch.Stats.MAXIMUM))),
      graph('File system used %', [used, metrics.inodesUsedPercent(), metrics.quotaFullestUserPercent()],
        [limits.fileSystemUsedWarningPercent, limits.fileSystemUsedCriticalPercent]),
      graph('Memory used %', [metrics.memoryUsedPercent()]),
    ]);
    widgets.push([
      graph('Network bytes / min', ['NetworkIn', 'NetworkOut'].map((name) => ec2Metric(instance, name, cloudwatch.Stats.SUM))),
      graph('NFS operations / min', [metrics.nfsOps()]),
      graph('NFS bytes / min', [metrics.nfsReadBytes(), metrics.nfsWriteBytes()]),
    ]);
    if (dataVolumes.length > 0) {
      widgets.push([
        // EBS metrics are read at five minutes (ebsMetric), so the sums are per five minutes.
        graph('EBS bytes / 5 min per volume', dataVolumes.flatMap((v, i) => [
          ebsMetric(v, 'VolumeReadBytes', cloudwatch.Stats.SUM, `volume ${i} read`),
          ebsMetric(v, 'VolumeWriteBytes', cloudwatch.Stats.SUM, `volume ${i} write`),
        ])),
        graph('EBS queue length per volume', dataVolumes.map((v, i) =>
          ebsMetric(v, 'VolumeQueueLength', cloudwatch.Stats.AVERAGE, `volume ${i}`))),
        ...(st1.length > 0 ? [graph('st1 burst balance % per volume', st1.map(([i, v]) =>
          ebsMetric(v, 'BurstBalance', cloudwatch.Stats.MINIMUM, `volume ${i}`)), [limits.burstBalanceLowPercent])] : []),
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
    return widgets;
  }
}

/** Each st1 and each gp3 data volume with its stripe index and plan: alarms and labels keep the volume's number. */
function dataVolumesByType(dataVolumes: readonly ec2.IVolume[], dataVolumePlans: readonly DataVolumePlan[] | undefined): VolumesByType {
  const plans = dataVolumePlans ?? dataVolumes.map((): DataVolumePlan => ({ volumeType: DataVolumeType.ST1, sizeGiB: 0 }));
  if (plans.length !== dataVolumes.length) {
    throw new Error(`monitoring: dataVolumePlans must give one entry per data volume (${dataVolumes.length}), got ${plans.length}`);
  }
  const ofType = (type: DataVolumePlan['volumeType']): VolumesByType['st1'] =>
    dataVolumes.flatMap((v, i) => (plans[i].volumeType === type ? [[i, v, plans[i]] as const] : []));
  return { st1: ofType(DataVolumeType.ST1), gp3: ofType(DataVolumeType.GP3) };
}
