/**
 * What a storage server's monitoring watches (each backend gives it: lib/backends), and the shapes the monitoring's
 * parts share: the alarms' thresholds, the data volumes by type.
 */
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import type { DataVolumePlan } from '../sizing';

/** What is monitored: an EC2 NFS server, an FSx for Lustre file system, or an FSx for OpenZFS file system. */
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
  }
  | {
    /** An FSx for OpenZFS file system (issue 30, the common brief's interface 3). */
    readonly openZfs: {
      /** The file system's id. */
      readonly fileSystemId: string;
      /** Its root volume's id (the CfnFileSystem's `attrRootVolumeId`). */
      readonly rootVolumeId: string;
      /** Its storage capacity, GiB. */
      readonly storageCapacityGiB: number;
      /** Its throughput capacity, MB/s. */
      readonly throughputCapacityMBps: number;
      /** Its deployment type. */
      readonly deploymentType: string;
    };
  };

/** The EC2 server of {@link MonitoredStorage}. */
export type MonitoredServer = Extract<MonitoredStorage, { readonly instance: ec2.Instance }>;

/** The FSx file system of {@link MonitoredStorage}. */
export type MonitoredFileSystem = Extract<MonitoredStorage, { readonly fileSystem: fsx.LustreFileSystem }>;

/** The alarms' thresholds, checked (lib/monitoring.ts): file system used, st1 burst bucket, minutes without heartbeat. */
export interface AlarmLimits {
  readonly warning: number;
  readonly critical: number;
  readonly burstLow: number;
  readonly downMinutes: number;
}

/** Each st1 and each gp3 data volume: its stripe index, the volume and its plan. */
export interface VolumesByType {
  readonly st1: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
  readonly gp3: readonly (readonly [number, ec2.IVolume, DataVolumePlan])[];
}
