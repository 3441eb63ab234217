/**
 * What the monitoring watches of an FSx for OpenZFS file system, backend `fsx-openzfs`: its alarms and its row of
 * the dashboard.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IMonitoredStorage, IStorageAlarms } from '../../monitoring';
import { graph } from '../../monitoring/widgets';
import { VOLUME_ID } from '../../../lambda/openzfs-export/contract';
import { validateFileSystemId, validateId, validateOneOf, validatePositiveWhole } from '../../validation/fsx-monitoring';
import {
  higherOf, openZfsClientMBps, openZfsMetric, openZfsStorageUsedPercent, openZfsThroughputUtilization,
} from './monitoring-metrics';
import { FSX_OPENZFS_DEPLOYMENT_TYPES } from './sizing/options';

/** Properties of a {@link MonitoredOpenZfsFileSystem}: the file system by its ids, which is all the metrics need. */
export interface MonitoredOpenZfsFileSystemProps {
  /** The file system's id, `CfnFileSystem.ref`. */
  readonly fileSystemId: string;
  /** Its root volume's id, `CfnFileSystem.attrRootVolumeId`: the export. */
  readonly rootVolumeId: string;
  /** Its SSD storage capacity, GiB, as planned; the used % reads the capacity FSx publishes, which follows growth. */
  readonly storageCapacityGiB: number;
  /** Its throughput capacity, MB/s: the line on the throughput graph. */
  readonly throughputCapacityMBps: number;
  /** Its deployment type: SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2 or MULTI_AZ_1. */
  readonly deploymentType: string;
}

/**
 * AWS: "We recommend that you maintain an average throughput capacity utilization under 50%", for spikes and background
 * work such as snapshots. See "How to use FSx for OpenZFS metrics",
 * https://docs.aws.amazon.com/fsx/latest/OpenZFSGuide/how_to_use_metrics.html.
 */
export const OPENZFS_RECOMMENDED_AVERAGE_UTILIZATION = 50;

/**
 * An FSx for OpenZFS file system as its dashboard and alarms watch it. Alarms watch its used capacity, the file
 * system's or the root volume's, whichever is fuller, and its file server's sustained throughput utilization. A row
 * shows its use, utilization, client throughput, bytes and operations.
 */
export class MonitoredOpenZfsFileSystem implements IMonitoredStorage {
  private readonly props: MonitoredOpenZfsFileSystemProps;

  constructor(props: MonitoredOpenZfsFileSystemProps) {
    const owner = 'MonitoredOpenZfsFileSystem';
    validateFileSystemId(owner, 'fileSystemId', props.fileSystemId);
    validateId(owner, 'rootVolumeId', props.rootVolumeId, VOLUME_ID, 'an FSx volume id such as \'fsvol-0123456789abcdef0\'');
    validatePositiveWhole(owner, 'storageCapacityGiB', props.storageCapacityGiB, 'GiB');
    validatePositiveWhole(owner, 'throughputCapacityMBps', props.throughputCapacityMBps, 'MB/s');
    validateOneOf(owner, 'deploymentType', props.deploymentType, FSX_OPENZFS_DEPLOYMENT_TYPES);
    this.props = props;
  }

  /** The alarms: storage used, throughput utilization; returns the file system's row. */
  public watch(alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const storage = this.props;
    const limits = alarms.thresholds;
    const used = openZfsStorageUsedPercent(storage);
    const fuller = higherOf('Storage used % (file system or root volume)', used.fileSystem, used.rootVolume);
    alarms.addFileSystemUsedAlarms(fuller,
      `the FSx for OpenZFS file system (${storage.storageCapacityGiB} GiB planned) or its root volume`);
    const utilization = openZfsThroughputUtilization(storage);
    // Six five-minute averages in a row make a half-hour: past the bursts a throughput-bound job makes, yet soon
    // enough for the live throughput change to help the same day's jobs.
    alarms.addAlarm('ThroughputUtilizationHigh', {
      alarmDescription: `the FSx for OpenZFS ${storage.deploymentType} file server used ` +
        `${limits.throughputUtilizationHighPercent}% or more of its ${storage.throughputCapacityMBps} MB/s throughput capacity (network or disk) ` +
        'for 30 minutes: raise its throughput capacity (live).',
      metric: higherOf('Throughput utilization % (network or disk)', utilization.network, utilization.disk),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      threshold: limits.throughputUtilizationHighPercent,
      evaluationPeriods: 6,
      datapointsToAlarm: 6,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    });
    return this.widgets([used.fileSystem, used.rootVolume], [utilization.network, utilization.disk], alarms);
  }

  /**
   * The file system's row: used % of the file system and of its root volume; the file server's throughput
   * utilization, with lines at AWS's recommended average and at the alarm; the clients' MB/s against the throughput
   * capacity; and the bytes and operations the Lustre row shows, from their OpenZFS namesakes.
   */
  private widgets(used: cloudwatch.IMetric[], utilization: cloudwatch.IMetric[], alarms: IStorageAlarms): cloudwatch.IWidget[][] {
    const storage = this.props;
    const limits = alarms.thresholds;
    const perMinute = (names: string[]): cloudwatch.IMetric[] =>
      names.map((name) => openZfsMetric(storage, name, cloudwatch.Stats.SUM, Duration.minutes(1)));
    return [[
      graph('Storage used %', [...used], [limits.fileSystemUsedWarningPercent, limits.fileSystemUsedCriticalPercent]),
      graph('Throughput utilization % (lines: AWS\'s recommended average, the alarm)', [...utilization],
        [OPENZFS_RECOMMENDED_AVERAGE_UTILIZATION, limits.throughputUtilizationHighPercent]),
      graph('Client throughput MB/s (line: provisioned)', [openZfsClientMBps(storage)], [storage.throughputCapacityMBps]),
      graph('OpenZFS bytes / min', perMinute(['DataReadBytes', 'DataWriteBytes'])),
      graph('OpenZFS operations / min', perMinute(['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'])),
    ]];
  }
}
