import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import type { Construct } from 'constructs';
import { dataRemovalPolicy } from '../../deletion';
import type { FsxOpenZfsPlan } from './sizing/options';
import type { BackendInputs } from '../plugin';
import { templateExport } from './nfs-export';
import type { OpenZfsSubnets } from './subnets';

// The FSx for OpenZFS file system: its type, storage, throughput, subnets, encryption, removal policy, automatic
// backups and root volume. aws-cdk-lib has no OpenZFS L2, since aws-fsx offers LustreFileSystem only, so this is the
// CloudFormation resource.

/**
 * The root volume's data compression: LZ4. FSx offers NONE, its default, ZSTD and LZ4.
 * OpenZFSCreateRootVolumeConfiguration.DataCompressionType in the FSx API reference says: "ZSTD ... Compared to LZ4,
 * Z-Standard provides a better compression ratio to minimize on-disk storage utilization"; "LZ4 ... Compared to
 * Z-Standard, LZ4 is less compute-intensive and delivers higher write throughput speeds". Compression lifts the
 * throughput from disk, roughly by the compression ratio, per the FSx for OpenZFS User Guide, "Performance", "Data
 * compression". LZ4 costs the least file server CPU, so it keeps the write throughput of the tier and still gains on
 * compressible data. Data already compressed is stored as it is.
 */
export const OPENZFS_DATA_COMPRESSION = 'LZ4';

/** Builds the file system `FileSystem` of the plan, in its subnets and security group, with `retainDays` of backups. */
export function openZfsFileSystem(
  scope: Construct, p: BackendInputs, options: FsxOpenZfsPlan, network: OpenZfsSubnets,
  securityGroup: ec2.ISecurityGroup, retainDays: number,
): fsx.CfnFileSystem {
  const { server: props } = p;
  const [preferred] = network.subnets;
  const multiAz = options.deploymentType === 'MULTI_AZ_1';
  const fileSystem = new fsx.CfnFileSystem(scope, 'FileSystem', {
    fileSystemType: 'OPENZFS',
    storageCapacity: options.storageCapacityGiB,
    storageType: 'SSD',
    subnetIds: network.subnets.map((s) => s.subnetId),
    securityGroupIds: [securityGroup.securityGroupId],
    // Always encrypted at rest: with the key given, else FSx's AWS managed key, aws/fsx.
    kmsKeyId: props.kmsKey?.keyId,
    openZfsConfiguration: {
      deploymentType: options.deploymentType,
      throughputCapacity: options.throughputCapacityMBps,
      // The SSD IOPS the plan of sizing/plan.ts provisions, up to the tier's disk IOPS; else FSx's automatic 3 IOPS per
      // GiB.
      diskIopsConfiguration: options.userProvisionedIops === undefined
        ? { mode: 'AUTOMATIC' }
        : { mode: 'USER_PROVISIONED', iops: options.userProvisionedIops },
      // MULTI_AZ_1: no EndpointIpAddressRange, so the endpoint that the DNS name resolves to stays in the VPC's CIDR,
      // where the clients' allowed servers are. CreateFileSystemOpenZFSConfiguration.EndpointIpAddressRange in the FSx
      // API reference says: "By default in the Amazon FSx API and Amazon FSx console, Amazon FSx selects an available
      // /28 IP address range for you from one of the VPC's CIDR ranges".
      ...(multiAz ? { preferredSubnetId: preferred.subnetId, routeTableIds: [...network.routeTableIds] } : {}),
      automaticBackupRetentionDays: retainDays,
      ...(retainDays > 0 ? { dailyAutomaticBackupStartTime: props.snapshots?.startTimeUtc ?? '03:00' } : {}),
      copyTagsToBackups: true,
      copyTagsToVolumes: true,
      rootVolumeConfiguration: {
        dataCompressionType: OPENZFS_DATA_COMPRESSION,
        copyTagsToSnapshots: true,
        // A constant: any change here replaces the file system. The clients' export is applied by UpdateVolume.
        nfsExports: [templateExport(props.vpc)],
      },
    },
  });
  fileSystem.applyRemovalPolicy(dataRemovalPolicy(props));
  return fileSystem;
}
