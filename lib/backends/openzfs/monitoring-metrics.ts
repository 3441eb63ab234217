/**
 * The AWS metrics an FSx for OpenZFS file system's monitoring reads, at the periods its alarms and widgets use.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/*
 * FSx for OpenZFS, from AWS's list of its metrics in the AWS/FSx namespace, "Amazon FSx for OpenZFS metrics and
 * dimensions": https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/fsx-openzfs-metrics.html. There is one data point a
 * minute per file system, by dimension FileSystemId, and per volume, by FileSystemId with VolumeId:
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/monitoring-cloudwatch.html.
 */

/** What the metrics name: the file system, its root volume, and its throughput capacity for the labels. */
export interface OpenZfsIds {
  readonly fileSystemId: string;
  readonly rootVolumeId: string;
  readonly throughputCapacityMBps: number;
}

/** An FSx for OpenZFS metric of the file system, or of one of its volumes. */
export function openZfsMetric(
  storage: OpenZfsIds, metricName: string, statistic: string, period: Duration, options: { volumeId?: string; label?: string } = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/FSx', metricName, statistic, period, label: options.label,
    dimensionsMap: { FileSystemId: storage.fileSystemId, ...(options.volumeId ? { VolumeId: options.volumeId } : {}) },
  });
}

/**
 * Used per cent of the file system and of its root volume, the export, each as UsedStorageCapacity over the
 * StorageCapacity FSx publishes beside it. Unlike Lustre's free bytes over the planned capacity, it follows a live
 * storage growth. Both are watched, as the root volume can have a quota below the file system's capacity.
 */
export function openZfsStorageUsedPercent(storage: OpenZfsIds): { fileSystem: cloudwatch.MathExpression; rootVolume: cloudwatch.MathExpression } {
  const usedPercent = (id: string, label: string, volumeId?: string): cloudwatch.MathExpression => new cloudwatch.MathExpression({
    expression: `100 * ${id}Used / ${id}Capacity`,
    usingMetrics: {
      // Average: AWS lists Average and Minimum as the valid statistics of both.
      [`${id}Used`]: openZfsMetric(storage, 'UsedStorageCapacity', cloudwatch.Stats.AVERAGE, Duration.minutes(5), { volumeId }),
      [`${id}Capacity`]: openZfsMetric(storage, 'StorageCapacity', cloudwatch.Stats.AVERAGE, Duration.minutes(5), { volumeId }),
    },
    label,
    period: Duration.minutes(5),
  });
  return {
    fileSystem: usedPercent('fs', 'File system used %'),
    rootVolume: usedPercent('root', 'Root volume used %', storage.rootVolumeId),
  };
}

/**
 * The higher of two five-minute series at each point: metric math's MAX of an array of time series, as in
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html.
 */
export function higherOf(label: string, a: cloudwatch.IMetric, b: cloudwatch.IMetric): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({ expression: 'MAX([a, b])', usingMetrics: { a, b }, label, period: Duration.minutes(5) });
}

/**
 * The file server's throughput utilization, per cent of the limit its throughput capacity sets. Network is
 * NetworkThroughputUtilization, which counts Multi-AZ replication too. Disk is FileServerDiskThroughputUtilization,
 * between the file server and its SSDs, which is what the cache misses. AWS publishes both as percentages, Average and
 * Maximum.
 */
export function openZfsThroughputUtilization(storage: OpenZfsIds): { network: cloudwatch.Metric; disk: cloudwatch.Metric } {
  return {
    network: openZfsMetric(storage, 'NetworkThroughputUtilization', cloudwatch.Stats.AVERAGE, Duration.minutes(5), { label: 'Network %' }),
    disk: openZfsMetric(storage, 'FileServerDiskThroughputUtilization', cloudwatch.Stats.AVERAGE, Duration.minutes(5), { label: 'Disk %' }),
  };
}

/**
 * The clients' read plus write throughput over each five minutes, MB/s: the unit AWS sizes throughput capacity in,
 * MBps, read as 10^6 bytes a second. AWS's own recipe for throughput is SUM(DataReadBytes + DataWriteBytes) / period:
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/how_to_use_metrics.html.
 */
export function openZfsClientMBps(storage: OpenZfsIds): cloudwatch.MathExpression {
  const seconds = 300;
  return new cloudwatch.MathExpression({
    expression: `(r + w) / ${seconds} / ${1000 ** 2}`,
    usingMetrics: {
      r: openZfsMetric(storage, 'DataReadBytes', cloudwatch.Stats.SUM, Duration.seconds(seconds)),
      w: openZfsMetric(storage, 'DataWriteBytes', cloudwatch.Stats.SUM, Duration.seconds(seconds)),
    },
    label: `Client MB/s (${storage.throughputCapacityMBps} MB/s provisioned)`,
    period: Duration.seconds(seconds),
  });
}
