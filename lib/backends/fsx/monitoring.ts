/**
 * What the monitoring watches of an FSx for Lustre file system, backend `fsx-lustre`: its alarms, its row of the
 * dashboard and the AWS metrics they read.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { IMonitoredStorage, IStorageAlarms } from '../../monitoring';
import { graph } from '../../monitoring/widgets';
import { validateFileSystemId, validatePositiveWhole } from '../../validation/fsx-monitoring';

/** Properties of a {@link MonitoredLustreFileSystem}. */
export interface MonitoredLustreFileSystemProps {
  /** The file system. */
  readonly fileSystem: fsx.IFileSystem;
  /** Its storage capacity, GiB, since FSx publishes only the free bytes. */
  readonly storageCapacityGiB: number;
}

/**
 * An FSx for Lustre file system as its dashboard and alarms watch it: alarms on the used capacity of its fullest
 * storage target (OST), from the free bytes FSx publishes; a row of its use, bytes and operations.
 */
export class MonitoredLustreFileSystem implements IMonitoredStorage {
  private readonly fileSystem: fsx.IFileSystem;
  private readonly storageCapacityGiB: number;

  constructor(props: MonitoredLustreFileSystemProps) {
    validateFileSystemId('MonitoredLustreFileSystem', 'fileSystem.fileSystemId', props.fileSystem.fileSystemId);
    validatePositiveWhole('MonitoredLustreFileSystem', 'storageCapacityGiB', props.storageCapacityGiB, 'GiB');
    this.fileSystem = props.fileSystem;
    this.storageCapacityGiB = props.storageCapacityGiB;
  }

  /** The alarms: the fullest storage target's used capacity; returns its row. */
  public watch(alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const used = lustreUsedPercent(this.fileSystem.fileSystemId, this.storageCapacityGiB);
    alarms.addFileSystemUsedAlarms(used.fullestTarget,
      `the fullest storage target (OST) of the FSx for Lustre file system (${this.storageCapacityGiB} GiB)`);
    const limits = alarms.thresholds;
    return [[
      graph('File system used %', [used.fullestTarget, used.fileSystem],
        [limits.fileSystemUsedWarningPercent, limits.fileSystemUsedCriticalPercent]),
      graph('Lustre bytes / min', ['DataReadBytes', 'DataWriteBytes'].map((name) =>
        this.metric(name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
      graph('Lustre operations / min', ['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'].map((name) =>
        this.metric(name, cloudwatch.Stats.SUM, Duration.minutes(1)))),
    ]];
  }

  private metric(metricName: string, statistic: string, period: Duration): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/FSx', metricName, statistic, period,
      dimensionsMap: { FileSystemId: this.fileSystem.fileSystemId },
    });
  }
}

/**
 * The used percent of an FSx for Lustre file system's fullest storage target (OST), which the alarms watch, and of the
 * whole file system. FSx publishes FreeDataStorageCapacity once a minute per OST: at a one-minute period `Minimum` is
 * the fullest OST's free bytes, `Sum` the file system's and `SampleCount` the number of OSTs ("Amazon FSx for Lustre
 * metrics and dimensions", https://docs.aws.amazon.com/fsx/latest/LustreGuide/fs-metrics.html). A file system's OSTs
 * are of one size, set by its deployment type (docs/sources/lustre-performance.md, (b)), so one holds the capacity over
 * their number.
 */
function lustreUsedPercent(fileSystemId: string, storageCapacityGiB: number): {
  fullestTarget: cloudwatch.MathExpression; fileSystem: cloudwatch.MathExpression;
} {
  const capacityBytes = storageCapacityGiB * 1024 ** 3;
  const free = (statistic: string): cloudwatch.Metric => new cloudwatch.Metric({
    namespace: 'AWS/FSx', metricName: 'FreeDataStorageCapacity', statistic, period: Duration.minutes(1),
    dimensionsMap: { FileSystemId: fileSystemId },
  });
  return {
    // LUSTRE-FULLEST-OST: a write striped on a full OST fails while the file system as a whole has room.
    fullestTarget: new cloudwatch.MathExpression({
      expression: `100 * (1 - fullest * targets / ${capacityBytes})`,
      usingMetrics: { fullest: free(cloudwatch.Stats.MINIMUM), targets: free(cloudwatch.Stats.SAMPLE_COUNT) },
      label: 'Fullest OST used %',
      period: Duration.minutes(1),
    }),
    fileSystem: new cloudwatch.MathExpression({
      expression: `100 * (1 - total / ${capacityBytes})`,
      usingMetrics: { total: free(cloudwatch.Stats.SUM) },
      label: 'File system used %',
      period: Duration.minutes(1),
    }),
  };
}
