import { Annotations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import type { FsxLustreServerOptions } from '../backends/fsx-lustre-props';
import type { FsxOpenZfsServerOptions } from '../backends/fsx-openzfs-props';
import { warnAboutPlan, warnAboutTypeTier } from '../plan-warnings';
import { FsxLustreOptions, FsxOpenZfsOptions, StoragePlan, StorageRequest, knownInstanceType, planStorage, withInstanceType } from '../sizing';
import { handedDownPlan } from './planned';
import type { StorageServerProps } from './props';
import { MAX_FSX_STORAGE_CAPACITY_GIB, snapshotSetProblem } from '../validation';
import { oversizedFsxField } from '../validation/fsx-lustre';

// The facade's plan: the planner's answer to the props' request, checked against what the server can record and
// restore, and adjusted to an instance-type override; with the plan's synth warnings.

/** The plan the server is built from, for `capacityTiB`, its default applied, and the props. */
export function planServer(scope: Construct, props: StorageServerProps, capacityTiB: number): StoragePlan {
  const request: StorageRequest = {
    capacityTiB,
    backend: props.backend ?? 'auto',
    dataVolumeCount: props.dataVolumeCount,
    throughputMBps: props.throughputMBps,
    generation: props.generation,
    fsxLustre: fsxRequestOptions(props.fsxLustre),
    fsxOpenZfs: openZfsRequestOptions(props.fsxOpenZfs),
  };
  // The app planned this request already, to check its context keys against the plan: that plan, not a second.
  const planned = handedDownPlan(scope, request) ?? planStorage(request);
  validatePlanSize(planned, capacityTiB, props.throughputMBps);
  const plan = planOnOverride(planned, props.instanceType, props.throughputMBps);
  if (props.instanceType !== undefined && plan.backend === 'ebs' && plan.instanceType !== props.instanceType.toString()) {
    Annotations.of(scope).addWarningV2('storage-server:uncataloguedInstanceType',
      `instanceType ${props.instanceType.toString()} is not in the planner's catalogue: plan (throughput, cost) is that of ` +
      `${plan.instanceType}, which the planner chose; the server runs on ${props.instanceType.toString()}.`);
  }
  if (props.fsxLustre !== undefined && plan.backend !== 'fsx-lustre') {
    throw new Error(`fsxLustre applies to backend 'fsx-lustre' only; the plan is backend '${plan.backend}'.`);
  }
  if (props.fsxOpenZfs !== undefined && plan.backend !== 'fsx-openzfs') {
    throw new Error(`fsxOpenZfs applies to backend 'fsx-openzfs' only (backend: 'fsx-openzfs'); the plan is backend '${plan.backend}'.`);
  }
  validateSnapshotIds(plan, props.dataVolumeSnapshotIds);
  warnAboutPlan(scope, request, planned, props.instanceType?.toString());
  // The planner's own type may change with growth, which stops and starts the instance; a pinned type does not.
  if (props.instanceType === undefined && planned.backend === 'ebs') {
    const { capacityTiB: tib, backend, dataVolumeCount, throughputMBps, generation } = request;
    warnAboutTypeTier(scope, { capacityTiB: tib, backend, dataVolumeCount, throughputMBps, generation });
  }
  return plan;
}

/**
 * An FSx for Lustre plan the update guard can record, since the planner has no upper bound there. It names
 * throughputMBps when the file system was sized up for it.
 */
function validatePlanSize(plan: StoragePlan, capacityTiB: number, throughputMBps: number | undefined): void {
  const gib = plan.fsxLustre?.storageCapacityGiB;
  const prop = oversizedFsxField(gib, capacityTiB, throughputMBps);
  if (prop === undefined) return;
  const maxTiB = Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024);
  throw new Error(`${prop} asks for an FSx for Lustre file system of ${gib} GiB; at most ${MAX_FSX_STORAGE_CAPACITY_GIB} GiB ` +
    `(${maxTiB} TiB) is allowed, got ${prop}=${prop === 'capacityTiB' ? capacityTiB : throughputMBps}.`);
}

/**
 * The plan as built. An EBS server on a catalogued `instanceType` override gets that type's estimate and cost. An
 * override the catalogue does not know keeps the planner's figures, and synth says so.
 */
function planOnOverride(plan: StoragePlan, instanceType: ec2.InstanceType | undefined, throughputMBps: number | undefined): StoragePlan {
  if (instanceType === undefined || plan.backend !== 'ebs') return plan;
  const name = instanceType.toString();
  if (!knownInstanceType(name)) return plan;
  return withInstanceType(plan, name, throughputMBps);
}

/** The planner's view of the FSx options: the request fields without the data repository. */
function fsxRequestOptions(options: FsxLustreServerOptions | undefined): FsxLustreOptions | undefined {
  if (options === undefined) return undefined;
  const { deploymentType, perUnitStorageThroughput, storageType } = options;
  // None given, as with only a data repository or the app's unset keys: the planner chooses among the persistent
  // options.
  if (deploymentType === undefined && perUnitStorageThroughput === undefined && storageType === undefined) return undefined;
  return { deploymentType, perUnitStorageThroughput, storageType };
}

/** The planner's view of the FSx for OpenZFS options: the deployment type and throughput capacity. */
function openZfsRequestOptions(options: FsxOpenZfsServerOptions | undefined): FsxOpenZfsOptions | undefined {
  if (options === undefined) return undefined;
  const { deploymentType, throughputCapacityMBps, provisionedIops } = options;
  if (deploymentType === undefined && throughputCapacityMBps === undefined && provisionedIops === undefined) return undefined;
  return { deploymentType, throughputCapacityMBps, provisionedIops };
}

/** A restore's snapshot set: one snapshot per planned volume. */
function validateSnapshotIds(plan: StoragePlan, ids: string[] | undefined): void {
  if (ids === undefined) return;
  const problem = snapshotSetProblem(plan, ids);
  if (problem) throw new Error(`dataVolumeSnapshotIds: ${problem}.`);
}
