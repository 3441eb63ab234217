import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import type { ClusterwareRing } from '../clusterware';
import { RecoveryAlarm } from '../recovery-alarm';
import type { SnapshotPolicy } from '../snapshot-policy';
import type { DataHolder } from '../deletion';
import type { UpdateGuard } from '../update-guard';
import type { RegistrationTarget, ServerParts, StorageBackend } from './backend';
import type { Ec2NfsServerProps } from './ec2/props';
import { ec2DataHolders, protectFromDestroy } from './ec2/destroy';
import { ec2UpdateGuard } from './ec2/guard';
import { MonitoredEc2Server } from './ec2/monitoring';
import { serverInstance } from './ec2/instance';
import { DEFAULT_EXPORT_PATH, clientMountOptions } from './ec2/mount-options';
import { ec2ServerLayout, instanceStoreDiskNames } from './ec2/layout';
import { serverNetwork, stableInterface } from './ec2/network';
import { joinClusterware } from './ec2/clusterware-member';
import { denyOtherDocuments, grantTakeOver, serverRole } from './ec2/role';
import { serverSettings } from './ec2/settings';
import { XFS_QUOTAS } from './ec2/quotas';
import { EBS_RETENTION, scheduledSnapshots } from './ec2/snapshots';
import { dataVolumes, legacyAttachments } from './ec2/volumes';
import { noteTier, planOnOverride } from './ec2/plan-check';
import type { BackendPlugin } from './plugin';
import { noteRetention } from './snapshot-options';
import { DEFAULT_NCONNECT } from '../sizing/nfs-client';

/**
 * Backends `ebs` and `instance-store`. The id 'Default' keeps the logical ids the resources had when the facade made
 * them itself, since CloudFormation would otherwise replace them, data volumes included. The export path and the client
 * mount options get their defaults here; an `instanceType` override, its plan.
 */
export const EC2_NFS_PLUGIN: BackendPlugin = {
  checkPlan: planOnOverride,
  warnAboutPlan: noteTier,
  quotas: XFS_QUOTAS,
  build: (scope, i) => new Ec2NfsServer(scope, 'Default', {
    ...i,
    exportPath: i.server.exportPath ?? DEFAULT_EXPORT_PATH,
    mountOptions: clientMountOptions(i.server.nfs?.version ?? '4.1', i.server.nfs?.nconnect ?? DEFAULT_NCONNECT),
  }),
};

/**
 * The EC2 NFS server backend, on EBS st1 or gp3 volumes or on instance store. It is made of the instance, its data
 * volumes, its stable network interface, the instance role, the settings document that bootstraps it and the day-2
 * guard of its layout; on EBS also its recovery alarm and snapshot policy. {@link StorageServer} builds it with the id
 * `Default`, so that its resources keep the logical ids they had when the facade made them itself.
 */
export class Ec2NfsServer extends Construct implements StorageBackend {
  /** Always `nfs4`. */
  public readonly fsType = 'nfs4' as const;
  /** The stable interface's private IP: {@link privateIp}. */
  public readonly mountAddress: string;
  /** The directory the server exports. */
  public readonly exportPath: string;
  /** The client mount options the server publishes. */
  public readonly mountOptions: string;
  /** The instance and its stable interface. */
  public readonly registrationTarget: RegistrationTarget;
  /** What the dashboard and alarms watch: the instance, its EBS volumes or its instance-store disks. */
  public readonly monitored: MonitoredEc2Server;
  /** The server's EC2 instance; an image, key pair or placement group change replaces it with a new one. */
  public readonly instance: ec2.Instance;
  /** NFS on TCP 2049 from the clients, on both the stable interface and the instance's own. */
  public readonly connections: ec2.Connections;
  /** The stable network interface's private IP: the address clients mount. */
  public readonly privateIp: string;
  /** The stable network interface, tagged with the server's identity; the server attaches it to itself. */
  public readonly networkInterfaceId: string;
  /** The EBS data volumes in stripe order, st1 or gp3 as planned; none for instance store. */
  public readonly dataVolumes: ec2.Volume[];
  /** The State Manager association that applies the settings; CloudFormation waits for its first run. */
  public readonly ready: ssm.CfnAssociation;
  /** The DLM snapshot policy of the data volumes, on EBS with snapshots on. */
  public readonly snapshotPolicy?: SnapshotPolicy;
  /** The clusterware ring membership, when the server joins one. */
  public readonly clusterware?: ClusterwareRing;
  /** The day-2 guard of the server's storage layout. */
  public readonly updateGuard: UpdateGuard;
  /** The EBS data volumes, or the instance-store instance: what `cdk destroy` keeps, deletes or refuses to delete. */
  public readonly dataHolders: readonly DataHolder[];
  /** The instance, its interface and address, its volumes, their snapshot policy and the clusterware ring. */
  public readonly parts: ServerParts;

  constructor(scope: Construct, id: string, p: Ec2NfsServerProps) {
    super(scope, id);
    const layout = ec2ServerLayout(p);
    this.exportPath = p.exportPath;
    this.mountOptions = p.mountOptions;
    const { securityGroup, connections } = serverNetwork(this, p);
    this.connections = connections;
    const role = serverRole(this, p);
    const iface = stableInterface(this, p, securityGroup, layout.identity);
    this.networkInterfaceId = iface.ref;
    this.instance = serverInstance(this, p, layout, { facadePath: scope.node.path, securityGroup, role, iface });
    this.privateIp = iface.attrPrimaryPrivateIpAddress;
    this.mountAddress = this.privateIp;
    this.dataVolumes = dataVolumes(this, p, layout, this.instance);
    grantTakeOver(role, layout.identity, iface, this.dataVolumes, p.server.kmsKey);
    const attachments = legacyAttachments(this, p, layout, this.instance, this.dataVolumes);
    const clusterware = joinClusterware(this, p, this.instance, securityGroup);
    this.clusterware = clusterware?.ring;
    const settings = serverSettings(this, p, layout, {
      instance: this.instance, dataVolumes: this.dataVolumes, iface, legacyAttachments: attachments,
      clusterwareCommands: clusterware?.commands ?? [],
    });
    denyOtherDocuments(role, settings.document);
    this.ready = settings.association;
    this.registrationTarget = { instance: this.instance, networkInterfaceId: this.networkInterfaceId };
    this.monitored = new MonitoredEc2Server({
      instance: this.instance, dataVolumes: this.dataVolumes, dataVolumePlans: p.plan.dataVolumes,
      instanceStoreDisks: instanceStoreDiskNames(layout),
    });
    this.updateGuard = ec2UpdateGuard(this, p, layout, {
      instance: this.instance, iface, dataVolumes: this.dataVolumes, legacyAttachments: attachments, settings,
    });
    this.dataHolders = ec2DataHolders(layout, this.instance, this.dataVolumes);
    protectFromDestroy(this, layout);
    // The instance-store data-loss warning is the facade's, in lib/plan-warnings.ts, with the plan's other warnings.
    if (!layout.instanceStore) {
      new RecoveryAlarm(this, 'Recovery', { instance: this.instance });
      this.snapshotPolicy = scheduledSnapshots(this, p, this.instance);
      noteRetention(this, EBS_RETENTION, p.server.snapshots?.retain ?? 7, p.server.snapshots?.retain !== undefined);
    }
    this.parts = {
      instance: this.instance, privateIp: this.privateIp, networkInterfaceId: this.networkInterfaceId, dataVolumes: this.dataVolumes,
      snapshotPolicy: this.snapshotPolicy, clusterware: this.clusterware,
    };
  }
}
