// The sizing planner (docs/design.md, section 3) and the catalogue entries its answers refer to.
export { planStorage } from './plan';
export { StoragePlanner } from './storage-planner';
export { bestPlanOf } from './best-plan';
export { withInstanceType } from './plan-ebs';
export { estimateThroughput } from './throughput';
export type { CachedReadEstimate } from './cached-read';
export { Arch, DataVolumeType, Generation, archOf, generationOf } from './enums';
export type { ArchName, DataVolumePlan, FsxLustrePlan, GenerationName, StoragePlan, StorageRequest, ThroughputEstimate } from './plan-types';
export { INSTANCE_STORE_TYPES, instanceStoreTiB } from './catalog';
export { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES, familyList, instanceTypeSpec, knownInstanceType } from './catalog-lookup';
export { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
export { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
export { CURRENT_EBS_INSTANCE_TYPES } from './catalog-nitro';
export { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
export type { InstanceStoreSpec, InstanceTypeSpec } from './catalog-types';
export { compareBackends, formatBackendComparison, formatPlanTable } from './plan-table';
export type { BackendComparison } from './plan-table';
export { cheapestShown, formatChoice } from './plan-choice';
export { EFS_MODE_LIMITS, EFS_STORAGE_USD_PER_GB_MONTH } from './efs';
export { instanceTypeProblem, instanceTypeTier, instanceTypesFor, stopStartWarning } from './instance-type';
export { clientCeiling } from './client-ceiling';
export type { ClientCeiling, ClientRequest, LustreFileCeiling, PerClientPlan } from './client-ceiling';
// The request options of the FSx backends, each its own in its folder (lib/index.ts exports them from there): the
// facade's plan step reads them from here.
