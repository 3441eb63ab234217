import { warnRootSquashOff } from './fsx/root-squash';
import { Aws, type CfnResource, type CustomResource, Tags, Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import { Construct } from 'constructs';
import { type DataHolder, dataRemovalPolicy, keepWith } from '../deletion';
import type { UpdateGuard } from '../update-guard';
import { type RegistrationTarget, SERVER_ID_TAG, type ServerParts, type StorageBackend } from './backend';
import type { StorageServerProps } from '../storage-server/props';
import { rootVolumeExportResource } from './openzfs/export-resource';
import { OPENZFS_QUOTAS, openZfsQuotas } from './openzfs/quotas';
import { openZfsFileSystem } from './openzfs/file-system';
import { securityGroupCompanions, subnetCompanions } from './kept-network';
import { isGiven } from './security-group';
import type { BackendInputs, BackendPlugin } from './plugin';
import { dailyBackups, noteRetention } from './snapshot-options';
import { refuseEc2OnlyProps } from './ec2-only-props';
import { checkOpenZfsPlan, openZfsRequestOptions, validateOpenZfsOptionTypes } from './openzfs/plan-check';
import { openZfsUpdateGuard } from './openzfs/guard';
import { MonitoredOpenZfsFileSystem } from './openzfs/monitoring';
import { openZfsMountOptions } from './openzfs/mount-options';
import { openZfsSecurityGroup } from './openzfs/network';
import { rootVolumeExport } from './openzfs/nfs-export';
import { openZfsSubnets } from './openzfs/subnets';
import { tagRouteTablesForFsx } from './openzfs/route-tags';
import { checkOpenZfsLimits } from './openzfs/aws-limits';
import { ownVpcCidr } from './client-access';

/**
 * Longest automatic backup retention FSx for OpenZFS accepts, days, by the API's AutomaticBackupRetentionDays of 0-90:
 * OPENZFS-BACKUP-RETENTION.
 */
export const MAX_OPENZFS_BACKUP_RETENTION_DAYS = 90;

/**
 * The root volume's path, which clients mount; the FSx for OpenZFS User Guide says "use /fsx to mount the root volume".
 */
export const OPENZFS_ROOT_VOLUME_PATH = '/fsx';

/** Backend `fsx-openzfs`, its options `fsxOpenZfs`: the EC2 NFS server's props are refused first, naming each. */
export const FSX_OPENZFS_PLUGIN: BackendPlugin = {
  optionsProp: 'fsxOpenZfs',
  quotas: OPENZFS_QUOTAS,
  validateOptionTypes: validateOpenZfsOptionTypes,
  requestOptions: openZfsRequestOptions,
  checkPlan: (_scope, plan, asked) => checkOpenZfsPlan(plan, asked),
  build: (scope, i) => {
    refuseEc2OnlyProps(i.server, 'fsx-openzfs');
    return new FsxOpenZfsServer(scope, 'FsxOpenZfs', i);
  },
};

/**
 * The FSx for OpenZFS backend, built by {@link StorageServer}. It is an `AWS::FSx::FileSystem` of type OPENZFS, AWS's
 * managed NFS file server, in the server's subnet, with a standby subnet in another zone on MULTI_AZ_1. It is encrypted
 * at rest. Its root volume is exported over NFS to the client CIDRs only, with root squash, and UpdateVolume keeps that
 * export live. Its security group admits NFS from the clients only. Daily automatic backups are kept `snapshots.retain`
 * days, and the day-2 guard watches its layout.
 */
export class FsxOpenZfsServer extends Construct implements StorageBackend {
  /** Always `nfs4`. */
  public readonly fsType = 'nfs4' as const;
  /** The file system's DNS name. */
  public readonly mountAddress: string;
  /** The root volume, `/fsx`. */
  public readonly exportPath = OPENZFS_ROOT_VOLUME_PATH;
  /** {@link openZfsMountOptions} of the plan's throughput capacity. */
  public readonly mountOptions: string;
  /** The file system, by id and DNS name. */
  public readonly registrationTarget: RegistrationTarget;
  /** What the dashboard and alarms watch: the file system, its root volume, capacity and throughput. */
  public readonly monitored: MonitoredOpenZfsFileSystem;
  /** The file system's CloudFormation resource: AVAILABLE, that is created, means mountable. */
  public readonly fileSystem: fsx.CfnFileSystem;
  /** The file system's id, `fs-...`. */
  public readonly fileSystemId: string;
  /** The file system's DNS name, which clients mount. */
  public readonly dnsName: string;
  /** NFS from the clients. The default port is NFS, TCP 2049, which is what an NFSv4.1 client needs. */
  public readonly connections: ec2.Connections;
  /**
   * The root volume's export, the CloudFormation resource of {@link rootVolumeExport}. It completes when the file
   * system is created and exported to the clients, so the registration and mountOn wait for it.
   */
  public readonly ready: CfnResource;
  /**
   * Sets the root volume's NFS export to the clients, `clientCidrs` or the VPC's CIDR, with root squash or not. It does
   * so through FSx UpdateVolume on create and on every change, and completes when DescribeVolumes shows the export in
   * effect. The template's own export is a constant, since CloudFormation would replace the file system to change it.
   */
  public readonly rootVolumeExport: CustomResource;
  /** The day-2 guard of the file system's layout. */
  public readonly updateGuard: UpdateGuard;
  /** The file system, with what it still uses when a destroy keeps it: see lib/deletion.ts. */
  public readonly dataHolders: readonly DataHolder[];
  /** The file system, as the facade exposes it. */
  public readonly parts: ServerParts;

  constructor(scope: Construct, id: string, p: BackendInputs) {
    super(scope, id);
    const { server: props, plan, clusterName, serverName, subnet } = p;
    const options = plan.fsxOpenZfs;
    if (plan.backend !== 'fsx-openzfs' || !options) throw new Error('FsxOpenZfsServer builds the fsx-openzfs backend only');
    validateOpenZfsProps(props);
    checkOpenZfsLimits(this, {
      plan: options,
      tierSetting: props.fsxOpenZfs?.throughputCapacityMBps !== undefined
        ? { prop: 'fsxOpenZfs.throughputCapacityMBps', key: 'openZfsThroughputCapacityMBps' }
        : { prop: 'throughputMBps', key: 'throughputMBps' },
      clientCidrs: props.clientCidrs,
      vpcCidr: ownVpcCidr(props.vpc),
    });
    const network = openZfsSubnets(p, options);
    const securityGroup = openZfsSecurityGroup(this, p);
    const retainDays = props.snapshots?.retain ?? 7;
    this.fileSystem = openZfsFileSystem(this, p, options, network, securityGroup, retainDays);
    this.parts = { openZfsFileSystem: this.fileSystem };
    this.rootVolumeExport = rootVolumeExportResource(this, this.fileSystem, rootVolumeExport(props), openZfsQuotas(this, props.quotas));
    if (props.fsxOpenZfs?.rootSquash === false) warnRootSquashOff(this, { prop: 'fsxOpenZfs.rootSquash', key: 'openZfsRootSquash' });
    this.ready = this.rootVolumeExport.node.defaultChild as CfnResource;
    this.fileSystemId = this.fileSystem.ref;
    this.dnsName = this.fileSystem.attrDnsName;
    this.connections = new ec2.Connections({ securityGroups: [securityGroup], defaultPort: ec2.Port.tcp(2049) });
    this.mountAddress = this.dnsName;
    this.mountOptions = openZfsMountOptions(options.throughputCapacityMBps);
    this.registrationTarget = {
      fileSystem: {
        fileSystemId: this.fileSystemId,
        dnsName: this.dnsName,
        mountName: '',
        availabilityZone: subnet.availabilityZone,
        deployment: plan.instanceType,
      },
    };
    this.monitored = new MonitoredOpenZfsFileSystem({
      fileSystemId: this.fileSystemId,
      rootVolumeId: this.fileSystem.attrRootVolumeId,
      storageCapacityGiB: options.storageCapacityGiB,
      throughputCapacityMBps: options.throughputCapacityMBps,
      deploymentType: options.deploymentType,
    });
    Tags.of(this.fileSystem).add(SERVER_ID_TAG, `${Aws.STACK_NAME}/${serverName}`);
    Tags.of(this.fileSystem).add('Name', `${clusterName}/${serverName}`);
    this.updateGuard = openZfsUpdateGuard(this, {
      plan: options,
      encryptionKeyArn: props.kmsKey?.keyArn,
      subnetIds: network.subnets.map((s) => s.subnetId),
      availabilityZone: subnet.availabilityZone,
      backupRetentionDays: retainDays,
      acceptDataLoss: props.acceptDataLoss,
      acceptFewerSnapshots: props.acceptFewerSnapshots,
      clusterName,
      serverName,
    }, this.fileSystem);
    noteRetention(this, dailyBackups('FSx for OpenZFS'), retainDays, props.snapshots?.retain !== undefined);
    // The guard is updated first, as for everything that touches the file system.
    this.rootVolumeExport.node.addDependency(this.updateGuard.resource);
    // Kept with the file system where this app makes them: its security group unless given, its subnets, the VPC and, for
    // MULTI_AZ_1, the route tables its endpoint is routed through.
    const routed = network.routeTableIds.length > 0
      ? [...network.subnets, ...props.vpc.privateSubnets, ...props.vpc.publicSubnets, ...props.vpc.isolatedSubnets] : [];
    tagRouteTablesForFsx(this, routed);
    const group = securityGroupCompanions(securityGroup, this, isGiven(securityGroup, props));
    const companions = [...group.kept, ...subnetCompanions(props.vpc, network.subnets, routed)];
    keepWith(dataRemovalPolicy(props), companions);
    this.dataHolders = [{
      what: 'the FSx for OpenZFS file system', resource: this.fileSystem, companions: [...companions, ...group.theirs],
      takesWith: 'its automatic backups',
    }];
  }
}

/**
 * Refuses the props an FSx for OpenZFS file system cannot honour, naming the prop and the allowed values. The facade
 * refuses the EC2-only props before it builds this backend.
 */
function validateOpenZfsProps(props: StorageServerProps): void {
  const retain = props.snapshots?.retain;
  if (retain !== undefined && !Token.isUnresolved(retain) && retain > MAX_OPENZFS_BACKUP_RETENTION_DAYS) {
    throw new Error(`snapshots.retain is the automatic backup retention in days on FSx for OpenZFS: 0 (off) to ` +
      `${MAX_OPENZFS_BACKUP_RETENTION_DAYS}, got ${retain}.`);
  }
  if (props.snapshots?.intervalHours !== undefined && props.snapshots.intervalHours !== 24) {
    throw new Error(`snapshots.intervalHours: FSx for OpenZFS backs up once a day; only 24 applies, got ${props.snapshots.intervalHours}.`);
  }
  if (props.snapshots?.crossRegionCopy !== undefined) {
    throw new Error('snapshots.crossRegionCopy applies to EBS snapshots only; FSx for OpenZFS backups are not copied by this construct.');
  }
  const squash = props.fsxOpenZfs?.rootSquash;
  if (squash !== undefined && squash !== true && squash !== false) {
    throw new Error(`fsxOpenZfs.rootSquash must be true or false, got ${JSON.stringify(squash)}.`);
  }
}
