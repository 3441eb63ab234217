// The sizing planner (docs/design.md, section 3) and the catalogue entries its answers refer to.
export * from './plan';
export { EBS_INSTANCE_TYPES, INSTANCE_STORE_TYPES, instanceStoreTiB } from './catalog';
export { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES, familyList, instanceTypeSpec, knownInstanceType } from './catalog-lookup';
export { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
export { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
export { CURRENT_EBS_INSTANCE_TYPES, EBS_BURST_SECONDS } from './catalog-nitro';
export { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
export type { InstanceStoreSpec, InstanceTypeSpec } from './catalog-types';
export { compareBackends, formatBackendComparison, formatPlanTable } from './plan-table';
export type { BackendComparison, ComparisonOptions } from './plan-table';
export { instanceTypeProblem, instanceTypeTier, instanceTypesFor, stopStartWarning } from './instance-type';
export type { InstanceTypeTier } from './instance-type';
export { clientCeiling } from './client-ceiling';
export type { ClientCeiling, ClientProtocol, ClientRequest, PerClientPlan } from './client-ceiling';
export { FSX_LUSTRE_PERFORMANCE, FSX_LUSTRE_USD_PER_GB_MONTH } from './fsx-lustre';
export type { FsxLustreDeploymentType, FsxLustreOptions, FsxLustrePerformance, FsxLustreStorageType, ResolvedFsxLustreOptions } from './fsx-lustre';
