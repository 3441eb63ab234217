/**
 * What a storage server's monitoring watches, which each backend in lib/backends gives it, and the shapes the
 * monitoring's parts share: the alarms' thresholds, the data volumes by type.
 */
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { DataVolumePlan } from '../sizing';

/** What is monitored: an EC2 NFS server, an FSx for Lustre file system, or an FSx for OpenZFS file system. */
export type MonitoredStorage =
  | {
    /** The server's instance. */
    readonly instance: ec2.Instance;
    /** The data volumes in stripe order on the EBS backend; none for instance store. */
    readonly dataVolumes: readonly ec2.IVolume[];
    /**
     * Each data volume's type and provisioned performance, in the order of `dataVolumes`.
     * @default - every volume st1
     */
    readonly dataVolumePlans?: readonly DataVolumePlan[];
    /**
     * Kernel names of the instance-store disks: `xvdb` and on on d2; `nvme0n1` and on on d3 and d3en, the root volume
     * among them. None for EBS.
     */
    readonly instanceStoreDisks: readonly string[];
  }
  | {
    /** The file system. */
    readonly fileSystem: fsx.LustreFileSystem;
    /** Its storage capacity, GiB, since FSx publishes only the free bytes. */
    readonly storageCapacityGiB: number;
  }
  | {
    /** An FSx for OpenZFS file system of backend `fsx-openzfs`, by its ids: the metrics need no more. */
    readonly openZfs: {
      /** The file system's id, `CfnFileSystem.ref`. */
      readonly fileSystemId: string;
      /** Its root volume's id, `CfnFileSystem.attrRootVolumeId`: the export. */
      readonly rootVolumeId: string;
      /**
       * Its SSD storage capacity, GiB, as planned; the used % reads the capacity FSx publishes, which follows growth.
       */
      readonly storageCapacityGiB: number;
      /** Its throughput capacity, MB/s: the line on the throughput graph. */
      readonly throughputCapacityMBps: number;
      /** Its deployment type: SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2 or MULTI_AZ_1. */
      readonly deploymentType: string;
    };
  };

/** The EC2 server of {@link MonitoredStorage}. */
export type MonitoredServer = Extract<MonitoredStorage, { readonly instance: ec2.Instance }>;

/** The FSx file system of {@link MonitoredStorage}. */
export type MonitoredFileSystem = Extract<MonitoredStorage, { readonly fileSystem: fsx.LustreFileSystem }>;

/** The FSx for OpenZFS file system of {@link MonitoredStorage}. */
export type MonitoredOpenZfs = Extract<MonitoredStorage, { readonly openZfs: unknown }>['openZfs'];

/**
 * The alarms' thresholds, checked in lib/monitoring.ts: file system used, st1 burst bucket, minutes without heartbeat,
 * and FSx for OpenZFS throughput utilization.
 */
export interface AlarmLimits {
  readonly warning: number;
  readonly critical: number;
  readonly burstLow: number;
  readonly downMinutes: number;
  readonly throughputHigh: number;
}

/** Each st1 and each gp3 data volume: its stripe index, the volume and its plan. */
export interface VolumesByType {
  readonly st1: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
  readonly gp3: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
}
