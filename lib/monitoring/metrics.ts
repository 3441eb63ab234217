/**
 * The AWS metrics the monitoring reads, of EC2, EBS, FSx for Lustre and FSx for OpenZFS, at the periods its alarms and
 * widgets use. The server's own metrics come from lib/server-metrics.ts.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { MonitoredFileSystem, MonitoredOpenZfs } from './storage';

export function ec2Metric(instance: ec2.Instance, metricName: string, statistic: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EC2', metricName, statistic, period: Duration.minutes(1),
    dimensionsMap: { InstanceId: instance.instanceId },
  });
}

export function ebsMetric(volume: ec2.IVolume, metricName: string, statistic: string, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EBS', metricName, statistic, label,
    // Five minutes: a burst bucket drains over hours, and a short spike of queue length is no news.
    period: Duration.minutes(5),
    dimensionsMap: { VolumeId: volume.volumeId },
  });
}

/** A volume's read plus write throughput, MiB/s, averaged over each five minutes of `ebsMetric`. */
export function ebsMiBps(volume: ec2.IVolume, index: number, label: string): cloudwatch.MathExpression {
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

export function fsxMetric(fileSystem: fsx.LustreFileSystem, metricName: string, statistic: string, period: Duration): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/FSx', metricName, statistic, period,
    dimensionsMap: { FileSystemId: fileSystem.fileSystemId },
  });
}

/** An FSx file system's used percent, from the free bytes FSx publishes and the capacity it was made with. */
export function fileSystemUsedPercent(storage: MonitoredFileSystem): cloudwatch.MathExpression {
  const free = fsxMetric(storage.fileSystem, 'FreeDataStorageCapacity', cloudwatch.Stats.MINIMUM, Duration.minutes(5));
  return new cloudwatch.MathExpression({
    expression: `100 * (1 - free / ${storage.storageCapacityGiB * 1024 ** 3})`,
    usingMetrics: { free },
    label: 'File system used %',
    period: Duration.minutes(5),
  });
}

/*
 * FSx for OpenZFS, from AWS's list of its metrics in the AWS/FSx namespace, "Amazon FSx for OpenZFS metrics and
 * dimensions": https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/fsx-openzfs-metrics.html. There is one data point a
 * minute per file system, by dimension FileSystemId, and per volume, by FileSystemId with VolumeId:
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/monitoring-cloudwatch.html.
 */

/** An FSx for OpenZFS metric of the file system, or of one of its volumes. */
export function openZfsMetric(
  storage: MonitoredOpenZfs, metricName: string, statistic: string, period: Duration, options: { volumeId?: string; label?: string } = {},
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
export function openZfsStorageUsedPercent(storage: MonitoredOpenZfs): { fileSystem: cloudwatch.MathExpression; rootVolume: cloudwatch.MathExpression } {
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
 * The higher of two five-minute series at each point: metric math's MAX of an array of time series
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html).
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
export function openZfsThroughputUtilization(storage: MonitoredOpenZfs): { network: cloudwatch.Metric; disk: cloudwatch.Metric } {
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
export function openZfsClientMBps(storage: MonitoredOpenZfs): cloudwatch.MathExpression {
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
