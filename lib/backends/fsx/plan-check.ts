import { Token } from 'aws-cdk-lib';
import type { StoragePlan } from '../../sizing';
import type { FsxLustreOptions } from './sizing/lustre';
import type { StorageServerProps } from '../../storage-server/props';
import { MAX_FSX_STORAGE_CAPACITY_GIB, s3PathProblem } from '../../validation';
import { oversizedFsxField } from '../../validation/fsx-lustre';
import type { PlanCheck } from '../plugin';

// What the facade asks of FSx for Lustre before it builds it: the types of `fsxLustre`'s members, the planner's view
// of them, and the plan they apply to.

/** `fsxLustre.dataRepositoryPath`: an S3 path by S3's naming rules; a token is checked by FSx at deploy. */
export function validateLustreOptionTypes(props: StorageServerProps): void {
  const path = props.fsxLustre?.dataRepositoryPath;
  const pathProblem = path === undefined || Token.isUnresolved(path) ? undefined : s3PathProblem(path);
  if (pathProblem) {
    throw new Error(`fsxLustre.dataRepositoryPath must be an S3 path s3://<bucket>[/<prefix>] of at most 900 characters, got ` +
      `${JSON.stringify(path)}: ${pathProblem} (bucket names by S3's naming rules).`);
  }
}

/** The planner's view of the FSx options: the request fields without the data repository. */
export function lustreRequestOptions(props: StorageServerProps): { fsxLustre: FsxLustreOptions | undefined } {
  const options = props.fsxLustre;
  if (options === undefined) return { fsxLustre: undefined };
  const { deploymentType, perUnitStorageThroughput, storageType } = options;
  // None given, as with only a data repository or the app's unset keys: the planner chooses among the persistent
  // options.
  if (deploymentType === undefined && perUnitStorageThroughput === undefined && storageType === undefined) return { fsxLustre: undefined };
  return { fsxLustre: { deploymentType, perUnitStorageThroughput, storageType } };
}

/**
 * `fsxLustre` on another backend's plan is refused. An FSx for Lustre plan must be one the update guard can record,
 * since the planner has no upper bound there: the message names throughputMBps when the file system was sized up for
 * it.
 */
export function checkLustrePlan(plan: StoragePlan, { server: props, capacityTiB }: PlanCheck): StoragePlan {
  const gib = plan.fsxLustre?.storageCapacityGiB;
  const prop = oversizedFsxField(gib, capacityTiB, props.throughputMBps);
  if (prop !== undefined) {
    const maxTiB = Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024);
    throw new Error(`${prop} asks for an FSx for Lustre file system of ${gib} GiB; at most ${MAX_FSX_STORAGE_CAPACITY_GIB} GiB ` +
      `(${maxTiB} TiB) is allowed, got ${prop}=${prop === 'capacityTiB' ? capacityTiB : props.throughputMBps}.`);
  }
  if (props.fsxLustre !== undefined && plan.backend !== 'fsx-lustre') {
    throw new Error(`fsxLustre applies to backend 'fsx-lustre' only; the plan is backend '${plan.backend}'.`);
  }
  return plan;
}
