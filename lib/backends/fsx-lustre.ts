import { Annotations, Aws, Duration, RemovalPolicy, Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { AWS_MANAGED_FSX_KEY } from '../../lambda/update-guard/contract';
import { acknowledgeCompliance, logEncryptionKey } from '../compliance';
import { ignoreRoleDependsOnLint } from '../handler-function';
import { UpdateGuard } from '../update-guard';
import { isS3DataRepositoryPath } from '../validation';
import type { FsxLustrePlan, StoragePlan } from '../sizing';
import type { StorageServerProps } from '../storage-server';
import type { MonitoredStorage } from '../monitoring';
import type { RegistrationTarget, StorageBackend } from './backend';
import { SERVER_ID_TAG } from './ec2-nfs-server';

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
 * `UID:GID` root on a client becomes with root squash on: 65534, nobody and nogroup (nfsnobody), as NFS's
 * root_squash maps it. FSx API reference, LustreRootSquashConfiguration: "A non-zero value for UID and GID enables
 * root squash"; "A value of 0 (zero) for UID and GID indicates root, and therefore disables root squash"
 * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_LustreRootSquashConfiguration.html).
 */
export const FSX_ROOT_SQUASH = '65534:65534';
/** `UID:GID` that turns root squash off (the same reference). */
export const FSX_NO_ROOT_SQUASH = '0:0';
/** At most 64 NIDs, each 11-43 characters matching this (API reference, LustreRootSquashConfiguration.NoSquashNids). */
const NO_SQUASH_NID = /^([0-9[\]-]*\.){3}([0-9[\]-]*)@tcp$/;
const MAX_NO_SQUASH_NIDS = 64;


/** What the facade ({@link StorageServer}) has settled before it builds the file system. */
export interface FsxLustreServerProps {
  /** The facade's props, validated. */
  readonly server: StorageServerProps;
  /** The plan: backend `fsx-lustre`, with its `fsxLustre` options and capacity. */
  readonly plan: StoragePlan;
  /** The cluster the file system belongs to. */
  readonly clusterName: string;
  /** The server's name in the cluster (its identity is `<stack>/<serverName>`). */
  readonly serverName: string;
  /** The one subnet the file system lives in. */
  readonly subnet: ec2.ISubnet;
}

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
    const clients: ec2.IPeer[] = [];
    if (props.clientCidrs !== undefined || props.clientPeers === undefined) {
      const cidrs = props.clientCidrs ?? [props.vpc.vpcCidrBlock];
      for (const cidr of cidrs) clients.push(ec2.Peer.ipv4(cidr));
      if (cidrs.some((c) => Token.isUnresolved(c))) {
        // cdk-nag cannot evaluate a CIDR that is a token (the new VPC's own CIDR) and reports the rule as failed.
        Validations.of(securityGroup).acknowledge({
          id: 'AwsSolutions-EC23',
          reason: 'The only token CIDR is the VPC\'s own CIDR block (Fn::GetAtt of the VPC); every literal client CIDR is validated at synth and /0 is refused.',
        });
      }
    }
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

/** Refuses the props an FSx for Lustre file system cannot honour, naming the prop and the allowed values. */
function validateFsxProps(props: StorageServerProps, options: FsxLustrePlan): void {
  const ec2Only: (keyof StorageServerProps)[] = [
    'instanceType', 'keyPair', 'placementGroup', 'dataVolumeSnapshotIds', 'machineImageId', 'machineImage',
    'dataVolumeCount', 'legacyVolumeAttachments', 'clusterware', 'nfs', 'exportPath', 'terminationProtection',
    'encryptInstanceStore',
  ];
  // `false` is what the app passes for an unset boolean key: the same as leaving it out.
  const given = ec2Only.filter((k) => props[k] !== undefined && props[k] !== false);
  if (given.length > 0) {
    throw new Error(`${given.join(', ')}: ${given.length > 1 ? 'these apply' : 'this applies'} to the EC2 NFS server backends ` +
      "(ebs, instance-store) only, not to backend 'fsx-lustre'; leave them out.");
  }
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

/** Root squash is on unless `fsxLustre.rootSquash` is false. */
function rootSquashOn(props: StorageServerProps): boolean {
  return props.fsxLustre?.rootSquash ?? true;
}

/** `noSquashNids`: only with root squash on, at most 64, each a Lustre NID as the FSx API accepts it. */
function validateNoSquashNids(rootSquash: boolean, nids: string[] | undefined): void {
  if (nids === undefined || Token.isUnresolved(nids)) return;
  if (!rootSquash && nids.length > 0) {
    throw new Error('fsxLustre.noSquashNids applies only with root squash on: leave it out, or set fsxLustre.rootSquash ' +
      `to true (-c fsxRootSquash=true); got rootSquash false and ${JSON.stringify(nids)}.`);
  }
  if (nids.length > MAX_NO_SQUASH_NIDS) {
    throw new Error(`fsxLustre.noSquashNids takes at most ${MAX_NO_SQUASH_NIDS} NIDs, got ${nids.length}.`);
  }
  const bad = nids.find((n) => !Token.isUnresolved(n) && (n.length < 11 || n.length > 43 || !NO_SQUASH_NID.test(n)));
  if (bad !== undefined) {
    throw new Error('fsxLustre.noSquashNids entries must be Lustre NIDs of 11-43 characters, an IPv4 address or a range ' +
      `with @tcp such as 10.0.1.6@tcp or 10.0.[2-10].[1-255]@tcp; got ${JSON.stringify(bad)}.`);
  }
}

/**
 * Root squash on the file system, through the FSx API: CloudFormation's AWS::FSx::FileSystem has no
 * RootSquashConfiguration (its LustreConfiguration in the resource specification aws-cdk-lib is built from lists
 * none), and FSx creates a file system with root squash off ("When you create a new FSx for Lustre file system,
 * root squash is disabled by default", FSx for Lustre guide, "Lustre root squash",
 * https://docs.aws.amazon.com/fsx/latest/LustreGuide/root-squash.html). aws-cdk-lib's AwsCustomResource calls
 * UpdateFileSystem on create and on every change of the setting; on delete it calls nothing (the file system is
 * retained or deleted by its own resource). The call may update this one file system only.
 *
 * FSx applies the update after UpdateFileSystem returns; nothing here waits for it (the registration does not either).
 */
function rootSquashResource(scope: Construct, fileSystemId: string, squash: boolean, nids: string[] | undefined): cr.AwsCustomResource {
  const { role, logGroup } = rootSquashFunctionParts(scope);
  const call: cr.AwsSdkCall = {
    service: 'FSx',
    action: 'UpdateFileSystem',
    parameters: {
      FileSystemId: fileSystemId,
      LustreConfiguration: {
        // With squash on, an empty list clears NIDs an earlier deployment set.
        RootSquashConfiguration: squash ? { RootSquash: FSX_ROOT_SQUASH, NoSquashNids: nids ?? [] } : { RootSquash: FSX_NO_ROOT_SQUASH },
      },
    },
    physicalResourceId: cr.PhysicalResourceId.of(fileSystemId),
    // The response describes the whole file system; only the setting is kept (a custom resource's response is small).
    outputPaths: ['FileSystem.LustreConfiguration.RootSquashConfiguration.RootSquash'],
  };
  const resource = new cr.AwsCustomResource(scope, 'RootSquash', {
    resourceType: 'Custom::FsxLustreRootSquash',
    onCreate: call,
    onUpdate: call,
    policy: cr.AwsCustomResourcePolicy.fromStatements([
      new iam.PolicyStatement({
        actions: ['fsx:UpdateFileSystem'],
        resources: [Stack.of(scope).formatArn({ service: 'fsx', resource: 'file-system', resourceName: fileSystemId })],
      }),
    ]),
    role,
    logGroup,
    // The runtime's own SDK has UpdateFileSystem's RootSquashConfiguration; no download at deploy time.
    installLatestAwsSdk: false,
    timeout: Duration.minutes(2),
  });
  const fn = Stack.of(scope).node.findChild(`AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
  acknowledgeCompliance(fn, 'LambdaInsideVPC',
    'The AwsCustomResource function calls only the FSx API (UpdateFileSystem); nothing it needs is in a VPC, and ' +
    'placing it in one would add network interfaces and an FSx endpoint or NAT path, and protect nothing.');
  acknowledgeCompliance(fn, 'LambdaDLQ',
    'Invoked by CloudFormation for one stack operation; a failed call fails the operation, which rolls back with the ' +
    'error in the stack events and the function\'s log group. A queued event could not be replayed: its response URL ' +
    'belongs to that operation.');
  acknowledgeCompliance(fn, 'LambdaConcurrency',
    'Invoked only by CloudFormation, once per file system when it is created or its root squash changes, so there is ' +
    'no load to cap; reserving concurrency would take it from the account\'s unreserved pool.');
  ignoreRoleDependsOnLint(fn);
  acknowledgeCompliance(resource.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy',
    "Written by aws-cdk-lib's AwsCustomResource: fsx:UpdateFileSystem on this one file system, for its root squash. " +
    'It belongs to the custom resource alone and lives and dies with it.');
  return resource;
}

/** The stack's one role and encrypted log group for aws-cdk-lib's AwsCustomResource function, a singleton per stack. */
function rootSquashFunctionParts(scope: Construct): { role: iam.IRole; logGroup: logs.ILogGroup } {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('FsxRootSquashRole');
  if (existing instanceof iam.Role) return { role: existing, logGroup: stack.node.findChild('FsxRootSquashLogs') as logs.LogGroup };
  const role = new iam.Role(stack, 'FsxRootSquashRole', {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: 'AwsCustomResource function that sets root squash on the FSx for Lustre file systems of this stack',
  });
  const logGroup = new logs.LogGroup(stack, 'FsxRootSquashLogs', {
    retention: logs.RetentionDays.ONE_YEAR,
    encryptionKey: logEncryptionKey(stack),
  });
  logGroup.grantWrite(role);
  acknowledgeCompliance(role.node.findChild('DefaultPolicy'), 'IAMNoInlinePolicy',
    "Written by grantWrite of the function's own log group into its role's own policy; it belongs to this role " +
    'alone and lives and dies with it.');
  return { role, logGroup };
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
