// Public API: what another CDK app imports from this package, and no more. etc/storage-server.api.md records the
// surface: `npm run api:check` fails when it changes, and `npm run api:update` rewrites it. The app and the tests
// import internals such as validators, renderers, catalogues and script loaders from their modules, never from here.

// The construct, what it composes and exposes, and its props.
export { StorageServer } from './storage-server';
export type { StorageServerProps } from './storage-server';
export type { IStorageServer, StorageServerAttributes } from './client-mount/imported-server';
export { FsType } from './client-mount/fs-type';
// Each backend's public names, from one entry in its folder: its option group, what its monitoring watches (the
// `storage` of StorageMonitoring), and the request options and plan the planner carries for it.
export * from './backends/ec2/public';
export * from './backends/fsx/public';
export * from './backends/openzfs/public';
export type { SnapshotOptions } from './backends/snapshot-options';
export type { ClusterwareOptions } from './clusterware';

// Client mounts: the cluster-wide association, and `StorageServer.mountOn`'s options.
export { ClientMount } from './client-mount';
export type { ClientMountProps, MountOnOptions } from './client-mount';

// Constructs a consumer may compose on a server of its own.
export { SNAPSHOT_TARGET_TAG_KEY, SnapshotPolicy } from './snapshot-policy';
export type { CrossRegionCopy, SnapshotPolicyProps, SnapshotTargetTag } from './snapshot-policy';
export { RecoveryAlarm } from './recovery-alarm';
export type { RecoveryAlarmProps } from './recovery-alarm';

// What a StorageServer exposes as properties, `monitoring`, `clusterware`, `updateGuard` and `benchDocument`, and the
// types their constructors and members name, so that a consumer can name every type it is handed.
export { StorageMonitoring } from './monitoring';
export type {
  AlarmThresholds, IMonitoredStorage, IStorageAlarms, MonitoringOptions, StorageMonitoringProps,
} from './monitoring';
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
export { BenchDocument } from './bench-document';
export type { BenchDocumentProps } from './bench-document';

// The planner: sizing without synthesizing.
export { bestPlanOf, clientCeiling, compareBackends, formatBackendComparison, formatPlanTable, planStorage } from './sizing';
export { Backend } from './backend-enum';
export { Arch, DataVolumeType, Generation } from './sizing';
export type {
  BackendComparison,
  ClientCeiling,
  ClientProtocol,
  ClientRequest,
  ComparisonOptions,
  DataVolumePlan,
  EfsEstimate,
  EfsRow,
  EfsThroughputMode,
  FsxLustrePlan,
  CachedReadEstimate,
  LustreFileCeiling,
  PerClientPlan,
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
// The records' and the guard layout's own string types, which the record and layout types here name; the API names the
// same sets as the enums Backend, FsType and DataVolumeType.
export type { Backend as BackendName, FsType as FsTypeName } from '../lambda/register/contract';
export type { DataVolumeType as DataVolumeTypeName } from '../lambda/update-guard/volume-types';
export type {
  Ec2RingRecord,
  FsxRingRecord,
  FsxTarget,
  MountRecord,
  RecordOwner,
  RingRecord,
  RingRecordBase,
} from '../lambda/register/contract';
