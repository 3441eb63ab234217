/**
 * The context key table: every key the app reads with `cdk synth|deploy -c key=value`, with its default, and the key's
 * type. StorageServerContext, in lib/context/storage-server-context.ts, documents the keys and their allowed values.
 * A backend's own keys are documented in its descriptor's `BackendSizing.context`, read through lib/sizing/registry.ts.
 * The parsers beside this file read the keys, and checkContextKeys refuses any other.
 */
import { SERVER_DEFAULTS } from '../server-defaults';
import { DEFAULT_NCONNECT, DEFAULT_READ_AHEAD_KIB } from '../sizing/nfs-client';
import { BACKEND_SIZING } from '../sizing/registry';
import type { ContextDefaults } from './backend-context';
import type { BackendContextSlices } from './storage-server-context';

/** Every backend's own keys with their defaults, in the registry's order: what each descriptor's `context.keys` lists. */
const BACKEND_DEFAULTS: ContextDefaults<BackendContextSlices> = Object.assign(
  {}, ...Object.values(BACKEND_SIZING).map((descriptor) => descriptor.context?.keys?.defaults),
);

/** Every context key the app reads, with its default; undefined means absent unless given. */
export const CONTEXT_DEFAULTS = {
  /** Usable capacity wanted, in TiB. */
  capacityTiB: SERVER_DEFAULTS.capacityTiB,
  /** The planner chooses the backend from the capacity. */
  backend: 'auto',
  /** Cluster the server serves. */
  clusterName: SERVER_DEFAULTS.clusterName,
  /** This server's name in the cluster ring. */
  serverName: SERVER_DEFAULTS.serverName,
  /** Absent: the stack creates a new VPC. */
  vpcId: undefined,
  /** Absent: the VPC's first private subnet with egress. */
  subnetId: undefined,
  /** Absent: the stack's own VPC. */
  vpcFrom: undefined,
  /** Absent: a new VPC spans the region's first two zones. */
  availabilityZone: undefined,
  /** Absent: the VPC's CIDR may mount, unless a client security group is given. */
  clientCidrs: undefined,
  /** Absent: every client is root squashed. */
  rootClientCidrs: undefined,
  /** Absent: no client security group is admitted. */
  clientSecurityGroupId: undefined,
  /** Client CIDRs and the clusterware master must be in private address space or the looked-up VPC. */
  allowPublicClientCidrs: false,
  /** EC2 tag key that selects client nodes; the value is the cluster name. */
  clientTagKey: 'cluster',
  /** Absent: the server does not join a clusterware ring. */
  loginIp: undefined,
  /** Absent: no SSH key pair, since SSM Session Manager needs none. */
  keyPair: undefined,
  /** Absent: no placement group. */
  placementGroup: undefined,
  /** EBS snapshot sets kept; 0 turns snapshots off. */
  snapshotRetain: 7,
  /** Absent: the construct's default, on for instance store and off for EBS. */
  terminationProtection: undefined,
  /** Absent: the construct's default, encrypted on d2. */
  encryptInstanceStore: undefined,
  /** Absent: the alarm topic has no subscription; subscribe to the AlarmTopicArn output. */
  alarmEmail: undefined,
  /** Absent: the stack's own alarm topic. */
  alarmTopicArn: undefined,
  /** Absent: new, blank data volumes. */
  restoreSnapshotIds: undefined,
  /** Absent: the image resolved at the server's creation. */
  machineImageId: undefined,
  /** The update guard refuses changes that lose data. */
  acceptDataLoss: false,
  /** The update guard refuses a lower snapshotRetain, which deletes the older snapshot sets or backups. */
  acceptFewerSnapshots: false,
  /** cdk destroy keeps the data of EBS volumes and FSx file systems, and is refused on instance store. */
  deleteDataOnDestroy: false,
  /** The server attaches its own volumes, with no AWS::EC2::VolumeAttachment. */
  legacyVolumeAttachments: false,
  /** Absent: as many volumes as the capacity needs. */
  dataVolumeCount: undefined,
  /** Absent: the plan follows capacity alone. */
  throughputMBps: undefined,
  /** Absent: no quotas. */
  quotaLimits: undefined,
  /** Absent: no default user quota. */
  quotaDefaultUserGiB: undefined,
  /** Absent: the construct's default, /data. */
  mountPoint: undefined,
  /** /home is a system directory unless this is true. */
  allowHomeMountPoint: false,
  /** Absent: DEFAULT_MOUNT_ROOTS, /data, /scratch, /shared and /fsx. */
  mountRoots: undefined,
  /** TCP connections per client mount of an NFS server, the Linux maximum; 1: one, no nconnect option. */
  nconnect: DEFAULT_NCONNECT,
  /** NFS read-ahead on the client nodes, KiB: 15 x rsize, as AWS's efs-utils sets it; 0: the kernel's own. */
  clientReadAheadKiB: DEFAULT_READ_AHEAD_KIB,
  /** The original template's families, d2 and m4. */
  generation: 'previous',
  /** Absent: the planner's choice. */
  instanceType: undefined,
  // Each backend's own keys from its descriptor's `context.keys`, in the registry's order.
  ...BACKEND_DEFAULTS,
  /** This stack makes the cluster's client-mount association; beside existingStorage, false. */
  clientMount: true,
  /** Absent: StorageServer-<clusterName>-<serverName>, for names whose stack name no other pair shares. */
  stackName: undefined,
  /** Absent: the stack deploys a server; given, it registers that storage instead, and plans and builds nothing. */
  existingStorage: undefined,
  /** Absent: the existing file system's groups must admit the clients already; given, the stack adds the rules. */
  storageSecurityGroupId: undefined,
} as const;

/** Name of a context key the app reads with `-c <key>=value`: a key of {@link CONTEXT_DEFAULTS}. */
export type ContextKey = keyof typeof CONTEXT_DEFAULTS;

/** Reads a context value by key; the app passes `(key) => app.node.tryGetContext(key)`. */
export type ContextReader = (key: ContextKey) => unknown;
