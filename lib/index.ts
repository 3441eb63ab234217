// Public API: what another CDK app imports from this package, and no more. etc/storage-server.api.md records the
// surface: `npm run api:check` fails when it changes, and `npm run api:update` rewrites it. The app and the tests
// import internals such as validators, renderers, catalogues and script loaders from their modules, never from here.

// The construct, what it composes and exposes, and its props.
export { StorageServer } from './storage-server';
export type { StorageServerProps } from './storage-server';
// Each backend's option group, from the backend's own module.
export type { NfsOptions } from './backends/ec2-nfs-server-props';
export type { FsxLustreServerOptions } from './backends/fsx-lustre-props';
export type { FsxOpenZfsServerOptions } from './backends/fsx-openzfs-props';
export type { SnapshotOptions } from './backends/snapshot-options';
export type { ClusterwareOptions } from './clusterware';

// Client mounts: the cluster-wide association, and `StorageServer.mountOn`'s options.
export { ClientMount } from './client-mount';
export type { ClientMountProps, MountOnOptions } from './client-mount';

// Constructs a consumer may compose on a server of its own.
export { SNAPSHOT_TARGET_TAG_KEY, SnapshotPolicy } from './snapshot-policy';
export type { CrossRegionCopy, SnapshotPolicyProps } from './snapshot-policy';
export { RecoveryAlarm } from './recovery-alarm';
export type { RecoveryAlarmProps } from './recovery-alarm';

// What a StorageServer exposes as properties, `monitoring`, `clusterware`, `updateGuard` and `benchDocument`, and the
// types their constructors and members name, so that a consumer can name every type it is handed.
export { StorageMonitoring } from './monitoring';
export type {
  AlarmThresholds, IMonitoredStorage, IStorageAlarms, MonitoringOptions, StorageMonitoringProps,
} from './monitoring';
// What each backend's monitoring watches: StorageMonitoring's `storage`, from the backend's own folder.
export { MonitoredEc2Server } from './backends/ec2/monitoring';
export type { MonitoredEc2ServerProps } from './backends/ec2/monitoring';
export { MonitoredLustreFileSystem } from './backends/fsx/monitoring';
export type { MonitoredLustreFileSystemProps } from './backends/fsx/monitoring';
export { MonitoredOpenZfsFileSystem } from './backends/openzfs/monitoring';
export type { MonitoredOpenZfsFileSystemProps } from './backends/openzfs/monitoring';
export type { ServerMetricIdentity } from './server-metrics';
export { ClusterwareRing } from './clusterware';
export type { ClusterwareRingProps } from './clusterware';
export { UpdateGuard } from './update-guard';
export type {
  DataVolumeLayout,
  GuardIdentity,
  StorageLayout,
  UpdateGuardProps,
  WatchedResourceSpec,
} from './update-guard';
export { VOLUME_ATTACHMENTS } from '../lambda/update-guard/contract';
export type { VolumeAttachment } from '../lambda/update-guard/contract';
export type { DataVolumeType } from '../lambda/update-guard/volume-types';
export { BenchDocument } from './bench-document';
export type { BenchDocumentProps } from './bench-document';

// The planner: sizing without synthesizing.
export {
  FSX_OPENZFS_DEPLOYMENT_TYPES, bestPlanOf, clientCeiling, compareBackends, formatBackendComparison, formatPlanTable, planStorage,
} from './sizing';
export type {
  Backend,
  BackendComparison,
  ClientCeiling,
  ClientProtocol,
  ClientRequest,
  ComparisonOptions,
  DataVolumePlan,
  EfsEstimate,
  EfsRow,
  EfsThroughputMode,
  FsxLustreDeploymentType,
  FsxLustreOptions,
  FsxLustrePlan,
  FsxLustreStorageType,
  FsxOpenZfsDeploymentType,
  FsxOpenZfsOptions,
  FsxOpenZfsPlan,
  Generation,
  Arch,
  CachedReadEstimate,
  LustreFileCeiling,
  PerClientPlan,
  ResolvedFsxLustreOptions,
  StoragePlan,
  StorageRequest,
  ThroughputEstimate,
} from './sizing';

// The records the server registers in SSM Parameter Store, which clients of other stacks read.
export {
  BACKENDS,
  DEFAULT_PARAMETER_PREFIX,
  RecordKind,
  fstabLine,
  mountParameterName,
  ringParameterName,
  ringPath,
  storagePath,
} from '../lambda/register/contract';
export type {
  Ec2RingRecord,
  FsType,
  FsxRingRecord,
  FsxTarget,
  MountRecord,
  RecordOwner,
  RingRecord,
  RingRecordBase,
} from '../lambda/register/contract';
