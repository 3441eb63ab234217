// Public API: what another CDK app imports from this package, and no more; docs/design.md, "The public API", says who
// uses each name and why, and test/unit/api-review.test.ts holds this file to that table. Every value exported is a
// class or an enum, since jsii drops free functions and constants from the other languages. etc/storage-server.api.md records the
// surface: `npm run api:check` fails when it changes, and `npm run api:update` rewrites it. The app and the tests
// import internals such as validators, renderers, catalogues and record helpers from their modules, never from here.

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
export { QuotaType } from './quotas';
export type { QuotaLimit, QuotaOptions } from './quotas';
export type { ClusterwareOptions } from './clusterware';

// Client mounts: the cluster-wide association, and `StorageServer.mountOn`'s options.
export { ClientMount } from './client-mount';
export type { ClientMountProps, MountOnOptions } from './client-mount';

// Storage that exists already (FSx, EFS, an NFS server), registered into a cluster's records.
export { ExistingStorage, ExistingStorageKind, ExistingStorageSource } from './existing-storage';
export type { EfsSourceOptions, ExistingStorageProps, FsxOpenZfsSourceOptions } from './existing-storage';

// A construct a consumer may compose on a server of its own.
export { SnapshotPolicy } from './snapshot-policy';
export type { CrossRegionCopy, SnapshotPolicyProps, SnapshotTargetTag } from './snapshot-policy';

// What a StorageServer exposes as properties, `monitoring` and `clusterware`, and the types their constructors and
// members name, so that a consumer can name every type it is handed.
export { StorageMonitoring } from './monitoring';
export type {
  AlarmThresholds, IMonitoredStorage, IStorageAlarms, MonitoringOptions, StorageMonitoringProps,
} from './monitoring';
export type { ServerMetricIdentity } from './server-metrics';
export { ClusterwareRing } from './clusterware';
export type { ClusterwareRingProps } from './clusterware';
// The planner: sizing without synthesizing, its request and its plan, and the closed sets they name.
export { StoragePlanner } from './sizing';
export { Backend } from './backend-enum';
export { Arch, DataVolumeType, Generation } from './sizing';
export type {
  CachedReadEstimate,
  ClientCeiling,
  ClientRequest,
  DataVolumePlan,
  FsxLustrePlan,
  LustreFileCeiling,
  PerClientPlan,
  StoragePlan,
  StorageRequest,
  ThroughputEstimate,
} from './sizing';
