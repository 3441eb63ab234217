/**
 * What the monitoring watches of an FSx for Lustre file system, backend `fsx-lustre`: its alarms, its row of the
 * dashboard and the AWS metrics they read.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { IMonitoredStorage, IStorageAlarms } from '../../monitoring';
import { graph } from '../../monitoring/widgets';

/** Properties of a {@link MonitoredLustreFileSystem}. */
export interface MonitoredLustreFileSystemProps {
  /** The file system. */
  readonly fileSystem: fsx.IFileSystem;
  /** Its storage capacity, GiB, since FSx publishes only the free bytes. */
  readonly storageCapacityGiB: number;
}

/**
 * An FSx for Lustre file system as its dashboard and alarms watch it: alarms on its used capacity, from the free
 * bytes FSx publishes; a row of its use, bytes and operations.
 */
export class MonitoredLustreFileSystem implements IMonitoredStorage {
  private readonly fileSystem: fsx.IFileSystem;
  private readonly storageCapacityGiB: number;

  constructor(props: MonitoredLustreFileSystemProps) {
    this.fileSystem = props.fileSystem;
    this.storageCapacityGiB = props.storageCapacityGiB;
  }

  /** The alarms: the file system's used capacity; returns its row. */
  public watch(alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const used = this.usedPercent();
    alarms.addFileSystemUsedAlarms(used);
    const limits = alarms.thresholds;
    return [[
      graph('File system used %', [used], [limits.fileSystemUsedWarningPercent, limits.fileSystemUsedCriticalPercent]),
      graph('Lustre bytes / min', ['DataReadBytes', 'DataWriteBytes'].map((name) =>
        this.metric(name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
      graph('Lustre operations / min', ['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'].map((name) =>
        this.metric(name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
    ]];
  }

  /** The file system's used percent, from the free bytes FSx publishes and the capacity it was made with. */
  private usedPercent(): cloudwatch.MathExpression {
    const free = this.metric('FreeDataStorageCapacity', cloudwatch.Stats.MINIMUM, Duration.minutes(5));
    return new cloudwatch.MathExpression({
      expression: `100 * (1 - free / ${this.storageCapacityGiB * 1024 ** 3})`,
      usingMetrics: { free },
      label: 'File system used %',
      period: Duration.minutes(5),
    });
  }

  private metric(metricName: string, statistic: string, period: Duration): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/FSx', metricName, statistic, period,
      dimensionsMap: { FileSystemId: this.fileSystem.fileSystemId },
    });
  }
}
