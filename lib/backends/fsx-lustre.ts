import { Annotations, Aws, Duration, RemovalPolicy, Tags, Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import type * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { AWS_MANAGED_FSX_KEY } from '../../lambda/update-guard/contract';
import { UpdateGuard } from '../update-guard';
import { isS3DataRepositoryPath } from '../validation';
import type { FsxLustrePlan } from '../sizing';
import type { MonitoredStorage } from '../monitoring';
import { type RegistrationTarget, SERVER_ID_TAG, type StorageBackend } from './backend';
import { acknowledgeTokenCidrs, admittedCidrs } from './client-access';
import type { FsxLustreServerProps, FsxLustreServerRequest } from './fsx-lustre-props';
import { rootSquashOn, rootSquashResource, validateNoSquashNids } from './fsx-root-squash';

export type { FsxLustreServerProps } from './fsx-lustre-props';

/** Lustre's ports: LNET on TCP 988, and 1018-1023 (FSx for Lustre guide, "File system access control with Amazon VPC"). */
export const LUSTRE_PORTS: readonly ec2.Port[] = [ec2.Port.tcp(988), ec2.Port.tcpRange(1018, 1023)];

/** Longest automatic backup retention FSx accepts, days (API: AutomaticBackupRetentionDays 0-90). */
export const MAX_FSX_BACKUP_RETENTION_DAYS = 90;

/**
 * Client mount options of FSx for Lustre: the FSx for Lustre guide's `relatime,flock` (flock: POSIX locks that
 * every client sees), `_netdev` (mount after the network), and `nosuid,nodev` as on every mount of this project.
 */
export const LUSTRE_MOUNT_OPTIONS = 'relatime,flock,_netdev,nosuid,nodev';

/**
 * The FSx for Lustre backend: an `aws-fsx.LustreFileSystem` (AWS's managed Lustre, not a hand-built cluster) in
 * the server's subnet, encrypted at rest, its security group admitting Lustre (TCP 988 and 1018-1023) from the
 * clients only, daily automatic backups on the persistent types (kept `snapshots.retain` days) unless linked to an
 * S3 data repository (FSx backs up no linked file system), and the day-2 guard of its layout. Built by
 * {@link StorageServer}.
 */
export class FsxLustreServer extends Construct implements StorageBackend {
  /** Always `lustre`. */
  public readonly fsType = 'lustre' as const;
  /** The file system's DNS name. */
  public readonly mountAddress: string;
  /** `/` and the mount name. */
  public readonly exportPath: string;
  /** {@link LUSTRE_MOUNT_OPTIONS}. */
  public readonly mountOptions = LUSTRE_MOUNT_OPTIONS;
  /** The file system, by id, DNS name and mount name. */
  public readonly registrationTarget: RegistrationTarget;
  /** What the dashboard and alarms watch: the file system and its capacity. */
  public readonly monitored: MonitoredStorage;
  /** The file system. */
  public readonly fileSystem: fsx.LustreFileSystem;
  /** The file system's id, `fs-...`. */
  public readonly fileSystemId: string;
  /** The file system's DNS name, which clients mount. */
  public readonly dnsName: string;
  /** The file system's Lustre mount name. */
  public readonly mountName: string;
  /**
   * Lustre from the clients. The default port is the CDK's Lustre range, TCP 988-1023, which
   * `allowDefaultPortFrom` opens; the clients named in the props get exactly 988 and 1018-1023.
   */
  public readonly connections: ec2.Connections;
  /** The file system's CloudFormation resource: AVAILABLE (created) means mountable. */
  public readonly ready: fsx.CfnFileSystem;
  /** The day-2 guard of the file system's layout. */
  public readonly updateGuard: UpdateGuard;
  /** The S3 data repository association (PERSISTENT_2 with `fsxLustre.dataRepositoryPath`). */
  public readonly dataRepositoryAssociation?: fsx.CfnDataRepositoryAssociation;
  /**
   * Sets the file system's root squash through the FSx API (UpdateFileSystem), which CloudFormation does not
   * offer: {@link FSX_ROOT_SQUASH}, or {@link FSX_NO_ROOT_SQUASH} with `fsxLustre.rootSquash` false.
   */
  public readonly rootSquash: cr.AwsCustomResource;

  constructor(scope: Construct, id: string, p: FsxLustreServerProps) {
    super(scope, id);
    const { server: props, plan, clusterName, serverName, subnet } = p;
    const options = plan.fsxLustre;
    if (plan.backend !== 'fsx-lustre' || !options) throw new Error('FsxLustreServer builds the fsx-lustre backend only');
    validateFsxProps(props, options);
    const persistent = options.deploymentType !== 'SCRATCH_2';
    const repository = props.fsxLustre?.dataRepositoryPath;
    const retainDays = backupRetentionDays(this, persistent, repository, props.snapshots?.retain ?? 7);

    const securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: `FSx for Lustre file system ${serverName} of cluster ${clusterName}`,
      // The file servers talk Lustre among themselves (the L2 adds the ingress from the group itself); they call
      // nothing else through this group.
      allowAllOutbound: false,
    });
    for (const port of LUSTRE_PORTS) securityGroup.addEgressRule(securityGroup, port, 'Lustre between the file servers');
    const cidrs = admittedCidrs(props);
    const clients: ec2.IPeer[] = cidrs.map((cidr) => ec2.Peer.ipv4(cidr));
    acknowledgeTokenCidrs(securityGroup, cidrs);
    for (const peer of props.clientPeers ?? []) {
      for (const sg of peer.connections.securityGroups) clients.push(sg);
      if (peer.connections.securityGroups.length === 0) throw new Error(`clientPeers: ${peer.connections.toString()} has no security group to admit`);
    }
    for (const peer of clients) {
      for (const port of LUSTRE_PORTS) securityGroup.addIngressRule(peer, port, 'Lustre from cluster clients');
    }

    this.fileSystem = new fsx.LustreFileSystem(this, 'FileSystem', {
      vpc: props.vpc,
      vpcSubnet: subnet,
      securityGroup,
      storageCapacityGiB: options.storageCapacityGiB,
      storageType: options.storageType === 'HDD' ? fsx.StorageType.HDD : fsx.StorageType.SSD,
      // SCRATCH_2 takes no key: FSx encrypts it with its own (it refuses KmsKeyId on scratch types).
      kmsKey: persistent ? props.encryptionKey : undefined,
      removalPolicy: props.dataVolumeRemovalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      lustreConfiguration: {
        deploymentType: fsx.LustreDeploymentType[options.deploymentType],
        perUnitStorageThroughput: persistent ? options.perUnitStorageThroughput : undefined,
        ...(retainDays > 0
          ? {
            automaticBackupRetention: Duration.days(retainDays),
            dailyAutomaticBackupStartTime: backupStartTime(props.snapshots?.startTimeUtc ?? '03:00'),
            copyTagsToBackups: true,
          }
          : persistent ? { automaticBackupRetention: Duration.days(0) } : {}),
        // PERSISTENT_2 links a repository with an association (below); the older types on the file system.
        ...(repository !== undefined && options.deploymentType !== 'PERSISTENT_2'
          ? { importPath: repository, exportPath: repository, autoImportPolicy: fsx.LustreAutoImportPolicy.NEW_CHANGED_DELETED }
          : {}),
      },
    });
    this.ready = this.fileSystem.node.defaultChild as fsx.CfnFileSystem;
    this.fileSystemId = this.fileSystem.fileSystemId;
    this.dnsName = this.fileSystem.dnsName;
    this.mountName = this.fileSystem.mountName;
    this.connections = this.fileSystem.connections;
    this.mountAddress = this.dnsName;
    this.exportPath = `/${this.mountName}`;
    this.registrationTarget = {
      fileSystem: {
        fileSystemId: this.fileSystemId,
        dnsName: this.dnsName,
        mountName: this.mountName,
        availabilityZone: subnet.availabilityZone,
        deployment: plan.instanceType,
      },
    };
    this.monitored = { fileSystem: this.fileSystem, storageCapacityGiB: options.storageCapacityGiB };
    Tags.of(this.fileSystem).add(SERVER_ID_TAG, `${Aws.STACK_NAME}/${serverName}`);
    Tags.of(this.fileSystem).add('Name', `${clusterName}/${serverName}`);

    if (repository !== undefined && options.deploymentType === 'PERSISTENT_2') {
      this.dataRepositoryAssociation = new fsx.CfnDataRepositoryAssociation(this, 'DataRepository', {
        fileSystemId: this.fileSystemId,
        fileSystemPath: '/',
        dataRepositoryPath: repository,
        batchImportMetaDataOnCreate: true,
        s3: {
          autoImportPolicy: { events: ['NEW', 'CHANGED', 'DELETED'] },
          autoExportPolicy: { events: ['NEW', 'CHANGED', 'DELETED'] },
        },
      });
    }

    this.rootSquash = rootSquashResource(this, this.fileSystemId, rootSquashOn(props), props.fsxLustre?.noSquashNids);
    // One change to the file system at a time: the association (created or updated) first, then the squash.
    if (this.dataRepositoryAssociation) this.rootSquash.node.addDependency(this.dataRepositoryAssociation);

    this.updateGuard = new UpdateGuard(this, 'UpdateGuard', {
      layout: {
        backend: 'fsx-lustre',
        instanceStoreType: '',
        dataVolumes: [],
        snapshotIds: [],
        encryptionKey: persistent && props.encryptionKey ? props.encryptionKey.keyArn : AWS_MANAGED_FSX_KEY,
        availabilityZone: subnet.availabilityZone,
        imageId: '',
        keyPair: '',
        placementGroup: '',
        volumeAttachment: 'stack',
        fileSystemType: `${options.deploymentType}/${options.storageType}`,
        perUnitStorageThroughput: persistent ? String(options.perUnitStorageThroughput) : '',
        storageCapacityGiB: String(options.storageCapacityGiB),
        instanceStoreEncryption: '',
        subnetId: subnet.subnetId,
      },
      acceptDataLoss: props.acceptDataLoss,
      // The file system, watched by CloudFormation's replacement rules (its subnet, key, security group, ...).
      watch: [{ role: 'FileSystem', resource: this.ready }],
      identity: { clusterName, serverName, serverId: `${Aws.STACK_NAME}/${serverName}` },
    });
    // The guard is updated first: a refused change fails the update before the file system is touched.
    this.ready.node.addDependency(this.updateGuard.resource);
  }
}

/**
 * Refuses the props an FSx for Lustre file system cannot honour, naming the prop and the allowed values (the
 * EC2-only props the facade refuses before it builds this backend).
 */
function validateFsxProps(props: FsxLustreServerRequest, options: FsxLustrePlan): void {
  if (options.deploymentType === 'SCRATCH_2' && props.encryptionKey !== undefined) {
    throw new Error("encryptionKey: SCRATCH_2 file systems are encrypted with FSx's own key and take no KMS key; use " +
      "fsxLustre.deploymentType 'PERSISTENT_2' or 'PERSISTENT_1' for a key of your own, or leave encryptionKey out.");
  }
  const retain = props.snapshots?.retain;
  if (retain !== undefined && !Token.isUnresolved(retain) && retain > MAX_FSX_BACKUP_RETENTION_DAYS) {
    throw new Error(`snapshots.retain is the automatic backup retention in days on FSx for Lustre: 0 (off) to ` +
      `${MAX_FSX_BACKUP_RETENTION_DAYS}, got ${retain}.`);
  }
  if (props.snapshots?.intervalHours !== undefined && props.snapshots.intervalHours !== 24) {
    throw new Error(`snapshots.intervalHours: FSx for Lustre backs up once a day; only 24 applies, got ${props.snapshots.intervalHours}.`);
  }
  if (props.snapshots?.crossRegionCopy !== undefined) {
    throw new Error('snapshots.crossRegionCopy applies to EBS snapshots only; FSx for Lustre backups are not copied by this construct.');
  }
  const path = props.fsxLustre?.dataRepositoryPath;
  if (path !== undefined && !Token.isUnresolved(path) && !isS3DataRepositoryPath(path)) {
    throw new Error(`fsxLustre.dataRepositoryPath must be an S3 path s3://<bucket>[/<prefix>] of at most 900 characters, got ${JSON.stringify(path)}.`);
  }
  validateNoSquashNids(rootSquashOn(props), props.fsxLustre?.noSquashNids);
}

/**
 * The automatic backup retention FSx is given: `retain` days on a persistent type, none on SCRATCH_2 (FSx backs
 * up no scratch file system), and none on a file system linked to an S3 data repository: "With Amazon FSx for
 * Lustre, you can take automatic daily backups and user-initiated backups of persistent file systems that are not
 * linked to an Amazon S3 durable data repository" (FSx for Lustre guide, "Working with backups",
 * https://docs.aws.amazon.com/fsx/latest/LustreGuide/using-backups-fsx.html). A linked file system's retention is
 * turned off with a synth warning rather than refused: `retain` is 7 unless set (the app's `snapshotRetain` too),
 * so a refusal would fail every linked file system that did not also say `0`.
 */
function backupRetentionDays(scope: Construct, persistent: boolean, repository: string | undefined, retain: number): number {
  if (!persistent) return 0;
  if (repository === undefined) return retain;
  if (Token.isUnresolved(retain) || retain > 0) {
    Annotations.of(scope).addWarningV2('storage-server:fsxBackupsOffWithDataRepository',
      `snapshots.retain (-c snapshotRetain) ${Token.isUnresolved(retain) ? '' : `${retain} `}is not applied: FSx for ` +
      `Lustre takes no backups of a file system linked to an S3 data repository (fsxLustre.dataRepositoryPath ` +
      `${repository}), so its automatic daily backups are off. The bucket holds what the file system exports ` +
      '(new, changed and deleted files, asynchronously); turn on S3 Versioning on it to keep overwritten and deleted ' +
      'files. Set snapshots.retain to 0 (-c snapshotRetain=0) to silence this warning.');
  }
  return 0;
}

/** `HH:MM` (validated by the facade's snapshot options) as the L2's backup start time. */
function backupStartTime(hhmm: string): fsx.DailyAutomaticBackupStartTime {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) throw new Error(`snapshots.startTimeUtc must be HH:MM (UTC), got ${JSON.stringify(hhmm)}.`);
  return new fsx.DailyAutomaticBackupStartTime({ hour: Number(m[1]), minute: Number(m[2]) });
}
