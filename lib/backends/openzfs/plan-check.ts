import type { StoragePlan } from '../../sizing';
import type { FsxOpenZfsOptions } from './sizing/options';
import type { StorageServerProps } from '../../storage-server/props';
import { validateObject, validateOneOf } from '../../prop-checks';
import type { PlanCheck } from '../plugin';

// What the facade asks of FSx for OpenZFS before it builds it: the types of `fsxOpenZfs`'s members, the planner's view
// of them, and the plan they apply to.

/** `fsxOpenZfs.standbySubnet` and `fsxOpenZfs.rootSquash`, each of its type. */
export function validateOpenZfsOptionTypes(props: StorageServerProps): void {
  validateObject('fsxOpenZfs.standbySubnet', props.fsxOpenZfs?.standbySubnet, 'an ec2.ISubnet', 'subnetId');
  validateOneOf('fsxOpenZfs.rootSquash', props.fsxOpenZfs?.rootSquash, [true, false]);
}

/** The planner's view of the FSx for OpenZFS options: the deployment type and throughput capacity. */
export function openZfsRequestOptions(props: StorageServerProps): { fsxOpenZfs: FsxOpenZfsOptions | undefined } {
  const options = props.fsxOpenZfs;
  if (options === undefined) return { fsxOpenZfs: undefined };
  const { deploymentType, throughputCapacityMBps, provisionedIops } = options;
  if (deploymentType === undefined && throughputCapacityMBps === undefined && provisionedIops === undefined) return { fsxOpenZfs: undefined };
  return { fsxOpenZfs: { deploymentType, throughputCapacityMBps, provisionedIops } };
}

/** `fsxOpenZfs` on another backend's plan is refused. */
export function checkOpenZfsPlan(plan: StoragePlan, { server: props }: PlanCheck): StoragePlan {
  if (props.fsxOpenZfs !== undefined && plan.backend !== 'fsx-openzfs') {
    throw new Error(`fsxOpenZfs applies to backend 'fsx-openzfs' only (backend: 'fsx-openzfs'); the plan is backend '${plan.backend}'.`);
  }
  return plan;
}
