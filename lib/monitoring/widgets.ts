/**
 * The dashboard's widgets of one storage server: rows of graphs per backend, the alarms' thresholds drawn as lines.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { GP3_DEFAULTS } from '../gp3-defaults';
import type { ServerMetricFactory } from '../server-metrics';
import { ebsMetric, ebsMiBps, ec2Metric, fsxMetric, openZfsClientMBps, openZfsMetric } from './metrics';
import type { AlarmLimits, MonitoredFileSystem, MonitoredOpenZfs, MonitoredServer, VolumesByType } from './storage';

/** An EC2 server's rows: its health, its traffic, its EBS volumes or instance-store disks. */
export function serverWidgets(
  storage: MonitoredServer, metrics: ServerMetricFactory, used: cloudwatch.IMetric, volumes: VolumesByType, limits: AlarmLimits,
): cloudwatch.IWidget[][] {
  const { instance, dataVolumes, instanceStoreDisks } = storage;
  const { st1, gp3 } = volumes;
  const widgets: cloudwatch.IWidget[][] = [];
  widgets.push([
    graph('Export live (heartbeat)', [metrics.exportLive()]),
    graph('Status checks failed', ['StatusCheckFailed', 'StatusCheckFailed_System', 'StatusCheckFailed_Instance']
      .map((name) => ec2Metric(instance, name, cloudwatch.Stats.MAXIMUM))),
    graph('File system used %', [used, metrics.inodesUsedPercent()], [limits.warning, limits.critical]),
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
        ebsMetric(v, 'BurstBalance', cloudwatch.Stats.MINIMUM, `volume ${i}`)), [limits.burstLow])] : []),
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

/** An FSx file system's row: its used capacity, Lustre's bytes and operations. */
export function fileSystemWidgets(storage: MonitoredFileSystem, used: cloudwatch.IMetric, limits: AlarmLimits): cloudwatch.IWidget[][] {
  const { fileSystem } = storage;
  return [[
    graph('File system used %', [used], [limits.warning, limits.critical]),
    graph('Lustre bytes / min', ['DataReadBytes', 'DataWriteBytes'].map((name) =>
      fsxMetric(fileSystem, name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
    graph('Lustre operations / min', ['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'].map((name) =>
      fsxMetric(fileSystem, name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
  ]];
}

/**
 * An FSx for OpenZFS file system's row: used % of the file system and of its root volume; the file server's throughput
 * utilization, with lines at AWS's recommended average and at the alarm; the clients' MB/s against the throughput
 * capacity; and the bytes and operations the Lustre row shows, from their OpenZFS namesakes.
 */
export function openZfsWidgets(
  storage: MonitoredOpenZfs, used: readonly cloudwatch.IMetric[], utilization: readonly cloudwatch.IMetric[], limits: AlarmLimits,
): cloudwatch.IWidget[][] {
  const perMinute = (names: string[]): cloudwatch.IMetric[] =>
    names.map((name) => openZfsMetric(storage, name, cloudwatch.Stats.SUM, Duration.minutes(1)));
  return [[
    graph('Storage used %', [...used], [limits.warning, limits.critical]),
    graph('Throughput utilization % (lines: AWS\'s recommended average, the alarm)', [...utilization],
      [OPENZFS_RECOMMENDED_AVERAGE_UTILIZATION, limits.throughputHigh]),
    graph('Client throughput MB/s (line: provisioned)', [openZfsClientMBps(storage)], [storage.throughputCapacityMBps]),
    graph('OpenZFS bytes / min', perMinute(['DataReadBytes', 'DataWriteBytes'])),
    graph('OpenZFS operations / min', perMinute(['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'])),
  ]];
}

/**
 * AWS: "We recommend that you maintain an average throughput capacity utilization under 50%", for spikes and background
 * work such as snapshots. See "How to use FSx for OpenZFS metrics",
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/how_to_use_metrics.html.
 */
export const OPENZFS_RECOMMENDED_AVERAGE_UTILIZATION = 50;

function graph(title: string, left: cloudwatch.IMetric[], lines: number[] = []): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title,
    left,
    leftAnnotations: lines.map((value) => ({ value })),
    width: 6,
    height: 6,
  });
}
