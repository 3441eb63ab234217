import { CfnResource, Token } from 'aws-cdk-lib';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { BACKEND_PLUGINS } from './backends/registry';
import { DEFAULT_PARAMETER_PREFIX } from '../lambda/register/contract';
import { MountOnOptions, mountStorageOn } from './client-mount';
import { type FsType, fsTypeOf } from './client-mount/fs-type';
import { grantServerMountRead } from './client-mount/grant';
import { ImportedStorageServer, type IStorageServer, type StorageServerAttributes } from './client-mount/imported-server';
import { BenchDocument } from './bench-document';
import { CopyDocument } from './copy-document';
import { ClusterwareRing } from './clusterware';
import { checkDestroy } from './deletion';
import { alarmTopicFor } from './alarm-topic';
import { StorageMonitoring } from './monitoring';
import { applyServerCompliance } from './compliance';
import { checkQuotas, NO_QUOTAS } from './quotas';
import { ServerRegistration, validateRecordNames, validateRecordsInApp } from './registration';
import { SnapshotPolicy } from './snapshot-policy';
import type { StoragePlan } from './sizing';
import { planServer } from './storage-server/plan';
import type { StorageServerProps } from './storage-server/props';
import { DeployTimeCheck } from './deploy-check';
import { SERVER_DEFAULTS } from './server-defaults';
import { warnInboundRuleQuota } from './storage-server/rule-quota';
import { validateIsObject, validateServerProps } from './storage-server/validation';

// The props, beside the construct that takes them; each option group is exported from its backend's module.
export type { StorageServerProps } from './storage-server/props';

/**
 * Shared storage for an HPC cluster, sized from the requested capacity and throughput. It is one of:
 * - one NFS server: a d2, d3 or d3en instance with its instance-store disks striped into one XFS volume, or an m4 or
 *   m6i instance with st1 or gp3 EBS volumes that outlive it;
 * - an Amazon FSx for Lustre file system, where one server does not do;
 * - an Amazon FSx for OpenZFS file system, AWS's managed NFS, when asked for by `backend: 'fsx-openzfs'`.
 *
 * It registers itself in SSM Parameter Store so that clients can find and mount it.
 */
export class StorageServer extends Construct implements IStorageServer {
  /** The `parameterPrefix` a server registers its records under when none is given. */
  public static readonly DEFAULT_PARAMETER_PREFIX: string = DEFAULT_PARAMETER_PREFIX;

  /**
   * A server another stack or app deployed, from the values of its mount record and its security group, to mount on
   * this app's instances and grant them its record. Names and the mount point must be literal; the address, export
   * path and options may be tokens (another stack's outputs), checked at deploy before anything that carries them.
   */
  public static fromStorageServerAttributes(scope: Construct, id: string, attrs: StorageServerAttributes): IStorageServer {
    return new ImportedStorageServer(scope, id, attrs);
  }

  /** The EC2 instance serving NFS on backends `ebs` and `instance-store`; undefined for `fsx-lustre`. */
  public readonly instance?: ec2.Instance;
  /** The subnet the server or the file system is in: the first of `vpcSubnets`, or the VPC's first private one. */
  public readonly subnet: ec2.ISubnet;
  /** The FSx for Lustre file system of backend `fsx-lustre`; undefined otherwise. */
  public readonly fileSystem?: fsx.LustreFileSystem;
  /**
   * The id of the FSx file system, `fs-...`, on either FSx backend; undefined for an NFS server. `fileSystem` and
   * `openZfsFileSystem` give each backend's own resource.
   */
  public readonly fileSystemId?: string;
  /** The FSx for OpenZFS file system of backend `fsx-openzfs`, undefined otherwise. Its `ref` is the file system id. */
  public readonly openZfsFileSystem?: fsx.CfnFileSystem;
  /** How clients mount it: `nfs4`, or `lustre` for FSx for Lustre. */
  public readonly fsType: FsType;
  /**
   * What clients mount: the NFS server's stable private IP, {@link privateIp}, or the FSx file system's DNS name.
   */
  public readonly mountAddress: string;
  /** The cluster this server serves. */
  public readonly clusterName: string;
  /** This server's name in the cluster ring. */
  public readonly serverName: string;
  /** The plan the server was built from: backend, instance type, volumes, throughput, cost. */
  public readonly plan: StoragePlan;
  /** The exported directory on the server; for FSx for Lustre `/` and its mount name. */
  public readonly exportPath: string;
  /** The directory clients mount on. */
  public readonly mountPoint: string;
  /** Mount options clients should use. */
  public readonly mountOptions: string;
  /**
   * Network access to the storage: `server.connections.allowDefaultPortFrom(peer)` opens NFS on TCP 2049, or for FSx
   * for Lustre the CDK's Lustre range, TCP 988-1023.
   */
  public readonly connections: ec2.Connections;
  /**
   * The server's private IP address: the primary address of its stable network interface. Every instance of the server
   * attaches that interface to itself, so the address stays the same when the instance is replaced. Clients mount it.
   * EC2 backends only: FSx for Lustre is mounted by its DNS name, {@link mountAddress}.
   */
  public readonly privateIp?: string;
  /**
   * The server's stable network interface, `eni-...`, carrying {@link privateIp} and the NFS security group on the EC2
   * backends.
   */
  public readonly networkInterfaceId?: string;
  /** The EBS data volumes in stripe order; empty for instance store and FSx for Lustre. */
  public readonly dataVolumes: ec2.Volume[];
  /** SSM parameter holding this server's ring record. */
  public readonly ringParameterName: string;
  /** SSM parameter holding this server's mount configuration. */
  public readonly mountParameterName: string;
  /**
   * Completes when the storage is mountable. On the EC2 backends it is the State Manager association that applies the
   * server's settings at creation and at every update that changes a setting, only when the bootstrap reports the
   * export live. On FSx for Lustre it is the file system itself, AVAILABLE once created.
   */
  public readonly ready: CfnResource;
  /** The snapshot policy of the EBS backend with snapshots on. */
  public readonly snapshotPolicy?: SnapshotPolicy;
  /** The clusterware ring membership, when `clusterware` was given. */
  public readonly clusterware?: ClusterwareRing;
  /** The dashboard and the alarms. */
  public readonly monitoring: StorageMonitoring;
  /** The topic the alarms notify: `alarmTopic`, or the one this construct made; subscribe to it. */
  public readonly alarmTopic: sns.ITopic;
  /**
   * The name of the cluster benchmark's SSM document, in which each node runs fio on the storage it mounts: what
   * `npm run bench:cluster` reads from a stack's `BenchDocumentName` output.
   */
  public readonly benchDocumentName: string;
  /**
   * The name of the copy's SSM document, in which one cluster node copies another server of the cluster into this one:
   * what `npm run copy` reads from the target stack's `CopyDocumentName` output.
   */
  public readonly copyDocumentName: string;
  /**
   * FSx for Lustre only: the name of the quota document, which the cluster's nodes run to set the `quotas` limits and
   * which prints use and limit by id with `action=report`; undefined on the other backends.
   */
  public readonly quotaDocumentName?: string;

  constructor(scope: Construct, id: string, props: StorageServerProps) {
    super(scope, id);
    validateIsObject(props);
    const capacityTiB = props.capacityTiB ?? SERVER_DEFAULTS.capacityTiB;
    const clusterName = (this.clusterName = props.clusterName ?? SERVER_DEFAULTS.clusterName);
    const serverName = (this.serverName = props.serverName ?? SERVER_DEFAULTS.serverName);
    this.mountPoint = props.mountPoint ?? SERVER_DEFAULTS.mountPoint;
    const atDeploy = validateServerProps(this, props, { clusterName, serverName, mountPoint: this.mountPoint });
    this.plan = planServer(this, props, capacityTiB);
    const selectedSubnets = serverSubnets(props);
    const subnet = (this.subnet = selectedSubnets[0]);
    validateUniqueInCluster(this);
    const recordNames = { prefix: props.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX, clusterName, serverName };
    validateRecordNames(recordNames);
    validateRecordsInApp(this, recordNames);

    checkQuotas(this, props.quotas, this.plan.backend, BACKEND_PLUGINS[this.plan.backend].quotas ?? NO_QUOTAS);
    // The backend the plan names, behind the one small interface the registration and the client mount use.
    const backend = BACKEND_PLUGINS[this.plan.backend].build(this, {
      server: props, plan: this.plan, capacityTiB, clusterName, serverName, subnet, selectedSubnets,
    });
    const parts = backend.parts;
    this.instance = parts.instance;
    this.privateIp = parts.privateIp;
    this.networkInterfaceId = parts.networkInterfaceId;
    this.dataVolumes = parts.dataVolumes ?? [];
    this.snapshotPolicy = parts.snapshotPolicy;
    this.clusterware = parts.clusterware;
    this.fileSystem = parts.fileSystem;
    this.openZfsFileSystem = parts.openZfsFileSystem;
    this.quotaDocumentName = parts.quotaDocumentName;
    this.fileSystemId = backend.fileSystemId;
    this.fsType = fsTypeOf(backend.fsType);
    this.mountAddress = backend.mountAddress;
    this.exportPath = backend.exportPath;
    this.mountOptions = backend.mountOptions;
    this.connections = backend.connections;
    warnInboundRuleQuota(this, this.connections.securityGroups);
    this.ready = backend.ready;
    // What cdk destroy does to the data, checked once every aspect has run, so RemovalPolicies from outside count.
    checkDestroy(this, backend.dataHolders, props.deleteDataOnDestroy === true);
    this.alarmTopic = alarmTopicFor(this, props);
    this.benchDocumentName = new BenchDocument(this, 'Bench', { mountPoint: this.mountPoint }).documentName;
    this.copyDocumentName = new CopyDocument(this, 'Copy').documentName;
    this.monitoring = new StorageMonitoring(this, 'Monitoring', {
      ...props.monitoring,
      identity: { clusterName, serverName },
      storage: backend.monitored,
      alarmTopic: this.alarmTopic,
    });

    const registration = new ServerRegistration(this, 'Registration', {
      ...backend.registrationTarget,
      clusterName,
      serverName,
      parameterPrefix: props.parameterPrefix,
      exportPath: this.exportPath,
      mountPoint: this.mountPoint,
      mountOptions: this.mountOptions,
      backend: this.plan.backend,
    });
    // After the guard, and after the storage is mountable. An FSx registration names the file system, which orders it
    // already when `ready` is the file system; a DependsOn on top would be redundant, cfn-lint W3005. FSx for OpenZFS
    // is ready when FSx has accepted its export by UpdateVolume, which the registration does not name.
    registration.resource.node.addDependency(backend.updateGuard.resource);
    const namesReady = 'fileSystem' in backend.registrationTarget && this.ready.cfnResourceType === 'AWS::FSx::FileSystem';
    if (!namesReady) registration.resource.node.addDependency(this.ready);
    // Tokens are checked when they resolve, before any resource that carries one: see lib/deploy-check.ts.
    DeployTimeCheck.addTo(this, 'DeployTimeCheck', atDeploy, { allowPublic: props.allowPublicClientCidrs ?? false });
    this.ringParameterName = registration.ringParameterName;
    this.mountParameterName = registration.mountParameterName;
    applyServerCompliance(this, props.securityGroup);
  }

  /**
   * Mounts this storage on an instance, or on every instance of an Auto Scaling group. It adds the mount to its user
   * data with the server's known address, so there is no SSM lookup and no IAM. It installs the Lustre client for FSx
   * for Lustre where it is missing, opens NFS or Lustre from it, and makes it wait until the storage is mountable.
   */
  public mountOn(target: ec2.Instance | autoscaling.AutoScalingGroup, options: MountOnOptions = {}): void {
    mountStorageOn(this, target, options);
  }

  /**
   * Lets `grantee`, a client node's role, instance or Auto Scaling group, read this server's mount record
   * (`mountParameterName`), as `client-mount.sh --server <serverName>` does. {@link ClientMount.grantMount} grants
   * the records of every server of the cluster.
   */
  public grantMount(grantee: iam.IGrantable): iam.Grant {
    return grantServerMountRead(this, grantee, this.mountParameterName);
  }
}

/**
 * The subnets selected, `vpcSubnets` or the VPC's private ones. The server or the file system lives in the first; a
 * MULTI_AZ_1 OpenZFS file system finds its standby among the others.
 */
function serverSubnets(props: StorageServerProps): ec2.ISubnet[] {
  const subnets = props.vpc.selectSubnets(props.vpcSubnets ?? { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS }).subnets;
  if (subnets.length === 0) throw new Error('vpcSubnets: the selection matches no subnet in the VPC; select at least one subnet.');
  return subnets;
}

/**
 * Two servers of one cluster in one app, such as home beside scratch in one stack or two, must differ in name, since
 * the name makes their SSM parameter paths. Neither's mount point may be or lie below the other's: every node mounts
 * every server of its cluster, and client-mount.sh refuses such a pair too.
 */
function validateUniqueInCluster(server: StorageServer): void {
  if ([server.clusterName, server.serverName, server.mountPoint].some((v) => Token.isUnresolved(v))) return;
  for (const other of server.node.root.node.findAll()) {
    if (other === server || !(other instanceof StorageServer) || other.clusterName !== server.clusterName) continue;
    // A server whose constructor threw, in an app that caught the error, stays in the tree half made: not a server.
    if (typeof other.serverName !== 'string' || typeof other.mountPoint !== 'string') continue;
    if (other.serverName === server.serverName) {
      throw new Error(`serverName '${server.serverName}' is taken in cluster '${server.clusterName}' by ${other.node.path}: ` +
        'give each server of a cluster its own serverName (it names its SSM parameters and its mount config).');
    }
    if (other.mountPoint === server.mountPoint) {
      throw new Error(`mountPoint '${server.mountPoint}' is taken in cluster '${server.clusterName}' by ${other.node.path} ` +
        `(server '${other.serverName}'): give server '${server.serverName}' another mountPoint, e.g. '/scratch' ` +
        '(every node of the cluster mounts every server).');
    }
    const [outer, inner] = server.mountPoint.startsWith(`${other.mountPoint}/`) ? [other, server]
      : other.mountPoint.startsWith(`${server.mountPoint}/`) ? [server, other] : [];
    if (outer && inner) {
      throw new Error(`mountPoint '${inner.mountPoint}' (server '${inner.serverName}', ${inner.node.path}) lies below mountPoint ` +
        `'${outer.mountPoint}' (server '${outer.serverName}', ${outer.node.path}) in cluster '${server.clusterName}': every node ` +
        'mounts every server of its cluster, and the outer mount would hide the inner one; give each a mountPoint outside ' +
        "the other's, e.g. '/data/home' beside '/data/scratch'.");
    }
  }
}
