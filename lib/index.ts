// Public API: everything another CDK app imports from this package. Named exports keep internals
// (script loaders, user-data renderers) out of the surface we promise to keep stable.
export * from './sizing';
export { CONTEXT_DEFAULTS, appStackName, checkContextKeys, hasOwnStackName, parseContext, contextError, stackName } from './context';
export {
  NAME_PATTERN,
  PRIVATE_IPV4_CIDRS,
  SYSTEM_DIRECTORIES,
  addressSpaceProblem,
  cidrProblem,
  directoryProblem,
  ipv4Problem,
} from './validation';
export type { AddressSpaceOptions, DirectoryOptions, ResourceEnvironment } from './validation';
export type { ContextKey, ContextReader, StorageServerContext } from './context';
export * from './storage-server';
export * from './storage-server-stack';
export * from './snapshot-policy';
export * from './recovery-alarm';
export { ServerRegistration } from './registration';
export { ServerSettings } from './server-settings';
export type { ServerSettingsProps } from './server-settings';
export type { BootstrapConfig, BootstrapEncryption, BootstrapMetrics, EbsVolumeRef } from './bootstrap';
export { StorageMonitoring, alarmTopicFor } from './monitoring';
export { BenchDocument, renderBenchDocument } from './bench-document';
export type { BenchDocumentProps } from './bench-document';
export type { MonitoredStorage, MonitoringOptions, StorageMonitoringProps } from './monitoring';
export { SERVER_METRICS, SERVER_METRIC_NAMESPACE, ServerMetricFactory, renderAgentConfig } from './server-metrics';
export type { AgentConfigProps, ServerMetricIdentity } from './server-metrics';
export { UpdateGuard } from './update-guard';
export type { DataVolumeLayout, GuardIdentity, StorageLayout, UpdateGuardProps, WatchedResourceSpec } from './update-guard';
export { VOLUME_ATTACHMENTS } from '../lambda/update-guard/contract';
export type { ServerRegistrationProps } from './registration';
export {
  ClientMount,
  DEFAULT_CLIENT_TAG_KEY,
  DEFAULT_MOUNT_SCHEDULE,
  MOUNT_READ_ACTIONS,
  mountStorageOn,
} from './client-mount';
export type { ClientMountProps, MountOnOptions, MountableStorageServer } from './client-mount';
export { CLUSTERWARE_CONFIG_PATH, CLUSTERWARE_GOSSIP_PORT, ClusterwareRing, deriveClusterUuid } from './clusterware';
export type { ClusterwareRingProps } from './clusterware';
export {
  DEFAULT_PARAMETER_PREFIX,
  fstabLine,
  mountParameterName,
  ringParameterName,
  ringPath,
  storagePath,
} from '../lambda/register/contract';
export type { Ec2RingRecord, FsType, FsxRingRecord, FsxTarget, MountRecord, RingRecord } from '../lambda/register/contract';
