import { Aws, Tags, Token } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import type * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { type DataHolder, dataRemovalPolicy, keepWith } from '../deletion';
import type { UpdateGuard } from '../update-guard';
import { isLustreMetadataIops, isS3DataRepositoryPath, LUSTRE_METADATA_IOPS_TEXT } from '../validation';
import type { FsxLustrePlan } from '../sizing';
import { type RegistrationTarget, SERVER_ID_TAG, type ServerParts, type StorageBackend } from './backend';
import type { StorageServerProps } from '../storage-server/props';
import { backupRetentionDays, dataRepositoryAssociation, lustreFileSystem } from './fsx/file-system';
import { fsxUpdateGuard } from './fsx/guard';
import { MonitoredLustreFileSystem } from './fsx/monitoring';
import { securityGroupCompanions, subnetCompanions } from './kept-network';
import { isGiven } from './security-group';
import type { BackendInputs, BackendPlugin } from './plugin';
import { dailyBackups, noteRetention } from './snapshot-options';
import { refuseEc2OnlyProps } from './ec2-only-props';
import { checkLustrePlan, lustreRequestOptions, validateLustreOptionTypes } from './fsx/plan-check';
import { lustreSecurityGroup, warnIfLustreRulesDropped } from './fsx/network';
import { rootSquashOn, rootSquashResource, validateNoSquashNids, warnRootSquashOff } from './fsx/root-squash';
import { LUSTRE_QUOTAS, LustreQuotas } from './fsx/quotas';
import { SERVER_DEFAULTS } from '../server-defaults';

/**
 * Longest automatic backup retention FSx accepts, days, by the API's AutomaticBackupRetentionDays of 0-90:
 * LUSTRE-BACKUP-RETENTION.
 */
export const MAX_FSX_BACKUP_RETENTION_DAYS = 90;

/**
 * Client mount options of FSx for Lustre: the FSx for Lustre guide's `relatime,flock`, where flock gives POSIX locks
 * that every client sees; `_netdev`, to mount after the network; and `nosuid,nodev` as on every mount of this project.
 */
export const LUSTRE_MOUNT_OPTIONS = 'relatime,flock,_netdev,nosuid,nodev';

/** Backend `fsx-lustre`, its options `fsxLustre`: the EC2 NFS server's props are refused first, naming each. */
export const FSX_LUSTRE_PLUGIN: BackendPlugin = {
  optionsProp: 'fsxLustre',
  validateOptionTypes: validateLustreOptionTypes,
  requestOptions: lustreRequestOptions,
  checkPlan: (_scope, plan, asked) => checkLustrePlan(plan, asked),
  quotas: LUSTRE_QUOTAS,
  build: (scope, i) => {
    refuseEc2OnlyProps(i.server, 'fsx-lustre');
    return new FsxLustreServer(scope, 'FsxLustre', i);
  },
};

/**
 * The FSx for Lustre backend, built by {@link StorageServer}. It is an `aws-fsx.LustreFileSystem`, AWS's managed Lustre
 * rather than a hand-built cluster, in the server's subnet and encrypted at rest. Its security group admits Lustre, TCP
 * 988 and 1018-1023, from the clients only. The persistent types get daily automatic backups, kept `snapshots.retain`
 * days, unless linked to an S3 data repository, since FSx backs up no linked file system. The day-2 guard watches its
 * layout.
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
  public readonly monitored: MonitoredLustreFileSystem;
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
  /** The file system's CloudFormation resource: AVAILABLE, that is created, means mountable. */
  public readonly ready: fsx.CfnFileSystem;
  /** The day-2 guard of the file system's layout. */
  public readonly updateGuard: UpdateGuard;
  /** The S3 data repository association, on PERSISTENT_2 with `fsxLustre.dataRepositoryPath`. */
  public readonly dataRepositoryAssociation?: fsx.CfnDataRepositoryAssociation;
  /**
   * Sets the file system's root squash through the FSx API's UpdateFileSystem, since CloudFormation does not offer it:
   * {@link FSX_ROOT_SQUASH}, or {@link FSX_NO_ROOT_SQUASH} with `fsxLustre.rootSquash` false.
   */
  public readonly rootSquash: cr.AwsCustomResource;
  /** The quota document and its association on the cluster's nodes (LUSTRE-QUOTAS). */
  public readonly quotas: LustreQuotas;
  /** The file system, with what it still uses when a destroy keeps it: see lib/deletion.ts. */
  public readonly dataHolders: readonly DataHolder[];
  /** The file system, as the facade exposes it. */
  public readonly parts: ServerParts;

  constructor(scope: Construct, id: string, p: BackendInputs) {
    super(scope, id);
    const { server: props, plan, clusterName, serverName, subnet } = p;
    const options = plan.fsxLustre;
    if (plan.backend !== 'fsx-lustre' || !options) throw new Error('FsxLustreServer builds the fsx-lustre backend only');
    validateFsxProps(props, options);
    const persistent = options.deploymentType !== 'SCRATCH_2';
    const retainDays = backupRetentionDays(this, persistent, props.fsxLustre?.dataRepositoryPath, props.snapshots?.retain ?? 7);
    const securityGroup = lustreSecurityGroup(this, p);
    this.fileSystem = lustreFileSystem(this, p, options, securityGroup, retainDays);
    warnIfLustreRulesDropped(this, props);
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
    this.monitored = new MonitoredLustreFileSystem({ fileSystem: this.fileSystem, storageCapacityGiB: options.storageCapacityGiB });
    Tags.of(this.fileSystem).add(SERVER_ID_TAG, `${Aws.STACK_NAME}/${serverName}`);
    Tags.of(this.fileSystem).add('Name', `${clusterName}/${serverName}`);
    this.dataRepositoryAssociation = dataRepositoryAssociation(this, p, options, this.fileSystemId);
    this.quotas = new LustreQuotas(this, 'Quotas', {
      props, clusterName, mountName: this.mountName, mountPoint: props.mountPoint ?? SERVER_DEFAULTS.mountPoint,
    });
    this.parts = { fileSystem: this.fileSystem, quotaDocumentName: this.quotas.documentName };
    this.rootSquash = rootSquashResource(this, this.fileSystemId, rootSquashOn(props), props.fsxLustre?.noSquashNids);
    if (!rootSquashOn(props)) warnRootSquashOff(this, { prop: 'fsxLustre.rootSquash', key: 'fsxRootSquash' });
    // One change to the file system at a time: the association first, created or updated, then the squash.
    if (this.dataRepositoryAssociation) this.rootSquash.node.addDependency(this.dataRepositoryAssociation);
    this.updateGuard = fsxUpdateGuard(this, p, options, this.ready, retainDays);
    noteRetention(this, dailyBackups('FSx for Lustre'), retainDays, props.snapshots?.retain !== undefined);
    // Kept with the file system: its security group unless given, the rules among its servers, its S3 association, the
    // link a kept file system still exports through, and its subnet and VPC where this app makes them.
    const group = securityGroupCompanions(securityGroup, this, isGiven(securityGroup, props));
    const companions = [
      ...group.kept,
      ...(this.dataRepositoryAssociation ? [this.dataRepositoryAssociation] : []),
      ...subnetCompanions(props.vpc, [subnet]),
    ];
    keepWith(dataRemovalPolicy(props), companions);
    this.dataHolders = [{
      what: 'the FSx for Lustre file system', resource: this.ready, companions: [...companions, ...group.theirs],
      takesWith: persistent ? 'its automatic backups' : undefined,
    }];
  }
}

/**
 * Refuses the props an FSx for Lustre file system cannot honour, naming the prop and the allowed values. The facade
 * refuses the EC2-only props before it builds this backend.
 */
function validateFsxProps(props: StorageServerProps, options: FsxLustrePlan): void {
  if (options.deploymentType === 'SCRATCH_2' && props.kmsKey !== undefined) {
    throw new Error("kmsKey: SCRATCH_2 file systems are encrypted with FSx's own key and take no KMS key; use " +
      "fsxLustre.deploymentType 'PERSISTENT_2' or 'PERSISTENT_1' for a key of your own, or leave kmsKey out.");
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
  validateNoSquashNids(rootSquashOn(props), props.fsxLustre?.noSquashNids, props.clientCidrs);
  const version = props.fsxLustre?.fileSystemTypeVersion;
  checkEnumMember('fsxLustre.fileSystemTypeVersion', 'fsx.FileSystemTypeVersion', fsx.FileSystemTypeVersion, version);
  if (version === fsx.FileSystemTypeVersion.V_2_10 && options.deploymentType === 'PERSISTENT_2') {
    throw new Error("fsxLustre.fileSystemTypeVersion 2.10 is for PERSISTENT_1 and SCRATCH_2 only (\"2.10 is supported by the Scratch and " +
      'Persistent_1 Lustre deployment types", FSx API reference); the deployment type is PERSISTENT_2: use ' +
      'fsx.FileSystemTypeVersion.V_2_15 (-c fsxFileSystemTypeVersion=2.15), or leave it out.');
  }
  checkEnumMember('fsxLustre.dataCompressionType', 'fsx.LustreDataCompressionType', fsx.LustreDataCompressionType, props.fsxLustre?.dataCompressionType);
  validateMetadataIops(props.fsxLustre?.metadataIops, options);
}

/** LUSTRE-METADATA: PERSISTENT_2 SSD only, and one of the Metadata IOPS the API takes, where 0 is AUTOMATIC. */
function validateMetadataIops(iops: number | undefined, options: FsxLustrePlan): void {
  if (iops === undefined) return;
  if (!isLustreMetadataIops(iops)) {
    throw new Error(`fsxLustre.metadataIops (-c fsxMetadataIops) must be 0 (AUTOMATIC) or ${LUSTRE_METADATA_IOPS_TEXT}, got ${JSON.stringify(iops) ?? String(iops)}.`);
  }
  if (options.deploymentType !== 'PERSISTENT_2' || options.storageType !== 'SSD') {
    throw new Error(`fsxLustre.metadataIops (-c fsxMetadataIops) applies to PERSISTENT_2 SSD file systems only ("The Lustre metadata ` +
      `performance configuration of an Amazon FSx for Lustre file system using a PERSISTENT_2 deployment type", FSx API reference); ` +
      `the plan is ${options.deploymentType} ${options.storageType}: use fsxLustre.deploymentType PERSISTENT_2 (-c fsxDeploymentType=PERSISTENT_2), or leave it out.`);
  }
}

/** Refuses a value that is not a member of aws-cdk-lib's enum `enumName`, naming the prop and the members. */
function checkEnumMember(prop: string, enumName: string, members: Record<string, string>, value: unknown): void {
  if (value === undefined || (Object.values(members) as unknown[]).includes(value)) return;
  throw new Error(`${prop} must be one of ${Object.keys(members).map((k) => `${enumName}.${k}`).join(', ')}, ` +
    `got ${JSON.stringify(value) ?? String(value)}.`);
}
