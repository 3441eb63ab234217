import { Annotations, Duration, Token } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import type { Construct } from 'constructs';
import { dataRemovalPolicy } from '../../deletion';
import { type Setting, SettingNames } from '../../setting-names';
import type { FsxLustrePlan } from '../../sizing';
import type { BackendInputs } from '../plugin';
import { SNAPSHOT_RETAIN } from '../snapshot-options';

const DATA_REPOSITORY_PATH: Setting = { prop: 'fsxLustre.dataRepositoryPath', key: 'fsxDataRepositoryPath' };

// The FSx for Lustre file system: its storage, encryption, removal policy, automatic backups and S3 data repository.
// The older types link the repository on the file system; PERSISTENT_2 links it with an association.

/** Builds the file system `FileSystem` of the plan, in the subnet and security group, with `retainDays` of backups. */
export function lustreFileSystem(
  scope: Construct, p: BackendInputs, options: FsxLustrePlan, securityGroup: ec2.ISecurityGroup, retainDays: number,
): fsx.LustreFileSystem {
  const { server: props, subnet } = p;
  const persistent = options.deploymentType !== 'SCRATCH_2';
  const repository = props.fsxLustre?.dataRepositoryPath;
  const fileSystem = new fsx.LustreFileSystem(scope, 'FileSystem', {
    vpc: props.vpc,
    vpcSubnet: subnet,
    securityGroup,
    storageCapacityGiB: options.storageCapacityGiB,
    storageType: options.storageType === 'HDD' ? fsx.StorageType.HDD : fsx.StorageType.SSD,
    // SCRATCH_2 takes no key: FSx encrypts it with its own, and refuses KmsKeyId on scratch types.
    kmsKey: persistent ? props.kmsKey : undefined,
    removalPolicy: dataRemovalPolicy(props),
    // LUSTRE-VERSION: a change replaces the file system, so the guard refuses it.
    fileSystemTypeVersion: props.fsxLustre?.fileSystemTypeVersion,
    lustreConfiguration: {
      deploymentType: fsx.LustreDeploymentType[options.deploymentType],
      perUnitStorageThroughput: persistent ? options.perUnitStorageThroughput : undefined,
      // LUSTRE-COMPRESSION: changed in place per the resource specification, for new files only.
      dataCompressionType: props.fsxLustre?.dataCompressionType,
      ...(retainDays > 0
        ? {
          automaticBackupRetention: Duration.days(retainDays),
          dailyAutomaticBackupStartTime: backupStartTime(props.snapshots?.startTimeUtc ?? '03:00'),
          copyTagsToBackups: true,
        }
        : persistent ? { automaticBackupRetention: Duration.days(0) } : {}),
      // PERSISTENT_2 links a repository with the association below; the older types link it on the file system.
      ...(repository !== undefined && options.deploymentType !== 'PERSISTENT_2'
        ? { importPath: repository, exportPath: repository, autoImportPolicy: fsx.LustreAutoImportPolicy.NEW_CHANGED_DELETED }
        : {}),
    },
  });
  // LUSTRE-METADATA: the L2 has no metadata configuration. It is changed in place per the resource specification, and
  // only raised.
  const metadataIops = props.fsxLustre?.metadataIops;
  if (metadataIops !== undefined) {
    (fileSystem.node.defaultChild as fsx.CfnFileSystem).addPropertyOverride('LustreConfiguration.MetadataConfiguration',
      metadataIops === 0 ? { Mode: 'AUTOMATIC' } : { Mode: 'USER_PROVISIONED', Iops: metadataIops });
  }
  return fileSystem;
}

/** The S3 data repository association `DataRepository` of a PERSISTENT_2 file system linked to a bucket; else none. */
export function dataRepositoryAssociation(
  scope: Construct, p: BackendInputs, options: FsxLustrePlan, fileSystemId: string,
): fsx.CfnDataRepositoryAssociation | undefined {
  const repository = p.server.fsxLustre?.dataRepositoryPath;
  if (repository === undefined || options.deploymentType !== 'PERSISTENT_2') return undefined;
  return new fsx.CfnDataRepositoryAssociation(scope, 'DataRepository', {
    fileSystemId,
    fileSystemPath: '/',
    dataRepositoryPath: repository,
    batchImportMetaDataOnCreate: true,
    s3: {
      autoImportPolicy: { events: ['NEW', 'CHANGED', 'DELETED'] },
      autoExportPolicy: { events: ['NEW', 'CHANGED', 'DELETED'] },
    },
  });
}

/**
 * The automatic backup retention FSx is given: `retain` days on a persistent type. It is none on SCRATCH_2, since FSx
 * backs up no scratch file system. It is none on a file system linked to an S3 data repository too: "With Amazon FSx
 * for Lustre, you can take automatic daily backups and user-initiated backups of persistent file systems that are not
 * linked to an Amazon S3 durable data repository", per the FSx for Lustre guide, "Working with backups",
 * https://docs.aws.amazon.com/fsx/latest/LustreGuide/using-backups-fsx.html. A linked file system's retention is turned
 * off with a synth warning rather than refused. `retain` is 7 unless set, as is the app's `snapshotRetain`, so a
 * refusal would fail every linked file system that did not also say `0`.
 */
export function backupRetentionDays(scope: Construct, persistent: boolean, repository: string | undefined, retain: number): number {
  if (!persistent) return 0;
  if (repository === undefined) return retain;
  if (Token.isUnresolved(retain) || retain > 0) {
    const names = SettingNames.of(scope);
    Annotations.of(scope).addWarningV2('storage-server:fsxBackupsOffWithDataRepository',
      `${names.name(SNAPSHOT_RETAIN)} ${Token.isUnresolved(retain) ? '' : `${retain} `}is not applied: FSx for ` +
      `Lustre takes no backups of a file system linked to an S3 data repository (${names.name(DATA_REPOSITORY_PATH)} ` +
      `${repository}), so its automatic daily backups are off. The bucket holds what the file system exports ` +
      '(new, changed and deleted files, asynchronously); turn on S3 Versioning on it to keep overwritten and deleted ' +
      `files. Set ${names.set(SNAPSHOT_RETAIN, '0')} to silence this warning.`);
  }
  return 0;
}

/** `HH:MM`, validated by the facade's snapshot options, as the L2's backup start time. */
function backupStartTime(hhmm: string): fsx.DailyAutomaticBackupStartTime {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) throw new Error(`snapshots.startTimeUtc must be HH:MM (UTC), got ${JSON.stringify(hhmm)}.`);
  return new fsx.DailyAutomaticBackupStartTime({ hour: Number(m[1]), minute: Number(m[2]) });
}
