import { Annotations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { noteTypeTier } from '../../plan-warnings';
import { type StoragePlan, knownInstanceType, withInstanceType } from '../../sizing';
import type { PlanCheck } from '../plugin';

// The EC2 NFS server's part in the facade's plan: an `instanceType` override, and the note that the planner's own
// type may change with growth.

/**
 * The plan as built. An EBS server on a catalogued `instanceType` override gets that type's estimate and cost. An
 * override the catalogue does not know keeps the planner's figures, and synth says so.
 */
export function planOnOverride(scope: Construct, plan: StoragePlan, { server: props }: PlanCheck): StoragePlan {
  const name = props.instanceType?.toString();
  if (name === undefined || plan.backend !== 'ebs') return plan;
  const built = knownInstanceType(name) ? withInstanceType(plan, name, props.throughputMBps) : plan;
  if (built.instanceType !== name) {
    Annotations.of(scope).addWarningV2('storage-server:uncataloguedInstanceType',
      `instanceType ${name} is not in the planner's catalogue: plan (throughput, cost) is that of ` +
      `${built.instanceType}, which the planner chose; the server runs on ${name}.`);
  }
  return built;
}

/**
 * The planner's own type may change with growth, which stops and starts the instance; a pinned type does not, so only
 * an EBS plan without `instanceType` gets the note.
 */
export function noteTier(scope: Construct, planned: StoragePlan, { server: props, request }: PlanCheck): void {
  // Only for a stated capacity, so that a default synth stays quiet.
  if (props.instanceType !== undefined || props.capacityTiB === undefined || planned.backend !== 'ebs') return;
  const { capacityTiB, backend, dataVolumeCount, throughputMBps, generation } = request;
  noteTypeTier(scope, { capacityTiB, backend, dataVolumeCount, throughputMBps, generation });
}
