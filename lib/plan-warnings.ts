import { Annotations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { StoragePlan, StorageRequest } from './sizing';
import { BACKENDS } from '../lambda/register/contract';
import { Backend } from './backend-enum';
import { type Setting, SettingNames } from './setting-names';
import { MAX_EBS_CAPACITY_TIB } from './sizing/catalog';
import { capacityExcess } from './sizing/excess';
import { stopStartWarning } from './sizing/instance-type';
import { BACKEND_SIZING } from './sizing/registry';

/** The ids of the plan's synth warnings, which a construct user acknowledges with `Annotations.acknowledgeWarning`. */
export const PLAN_WARNINGS = {
  capacityAboveRequest: 'storage-server:capacityAboveRequest',
  instanceStoreDataLoss: 'storage-server:instanceStoreDataLoss',
} as const;

const CAPACITY: Setting = { prop: 'capacityTiB', key: 'capacityTiB' };
const BACKEND: Setting = { prop: 'backend', key: 'backend' };
const INSTANCE_TYPE: Setting = { prop: 'instanceType', key: 'instanceType' };

/** A backend's name as a library user writes it: its enum member. */
function backendMember(name: string): string {
  const [member] = Object.entries(Backend).find(([, value]) => value === name) ?? [name];
  return `Backend.${member}`;
}

/**
 * Synth warnings about what the plan deploys that the request did not say: more than 10 % more capacity than asked, and
 * why, and data on instance store when `auto` chose it. Each names the setting that accepts or avoids it, as the app's
 * context key or the library's prop (lib/setting-names.ts), never an annotation id, since the CDK CLI cannot
 * acknowledge one. `instanceType` is the type deployed when it overrides the plan's.
 */
export function warnAboutPlan(scope: Construct, request: StorageRequest, plan: StoragePlan, instanceType?: string): void {
  const names = SettingNames.of(scope);
  const excess = capacityExcess(request, plan, instanceType);
  if (excess) {
    const accept = excess.sameStorageCapacityTiB;
    Annotations.of(scope).addWarningV2(PLAN_WARNINGS.capacityAboveRequest,
      `capacityTiB ${excess.requestedTiB}: the plan deploys ${excess.deployedTiB.toFixed(2)} TiB, ${excess.percentMore}% ` +
      `more than asked, all of it billed: ${excess.reason}.` +
      (accept === undefined ? '' : ` Ask for ${accept} TiB (${names.set(CAPACITY, String(accept))}) to accept it: the ` +
        'same storage, without this warning.'));
  }
  if (plan.backend === 'instance-store' && request.backend !== 'instance-store') {
    Annotations.of(scope).addWarningV2(PLAN_WARNINGS.instanceStoreDataLoss,
      `Backend instance-store (${instanceType ?? plan.instanceType}), chosen by backend 'auto': the data is lost when the ` +
      'instance stops, terminates or its host fails, and EC2 auto-recovery is not available for it. Use it for scratch ' +
      'data or data archived elsewhere (e.g. S3). Choose it yourself ' +
      `(${names.set(BACKEND, 'instance-store', backendMember('instance-store'))}) to go without this warning; or keep ` +
      `the data ${keptElsewhere(names)}.`);
  }
}

/** Where else the data can live, in words: EBS volumes, and each managed file system the planner knows. */
function keptElsewhere(names: SettingNames): string {
  const fileSystems = BACKENDS.flatMap((b) => {
    const name = BACKEND_SIZING[b].fileSystem;
    return name === undefined ? [] : [`on ${name} (${names.set(BACKEND, b, backendMember(b))})`];
  });
  const places = [`on EBS volumes (${names.set(BACKEND, 'ebs', backendMember('ebs'))}, up to ${MAX_EBS_CAPACITY_TIB} TiB)`, ...fileSystems];
  return `${places.slice(0, -1).join(', ')}, or ${places[places.length - 1]}`;
}

/**
 * Notes, once, when the planner chose the instance type and growth across its capacity tier would choose another. A
 * type change stops and starts the instance: see `stopStartWarning`. An info, not a warning: nothing in this template
 * needs a change, and a default synth stays quiet. The advice is the setting that pins the type. Not for a pinned
 * type: the caller passes only requests without one.
 */
export function noteTypeTier(scope: Construct, request: StorageRequest): void {
  const names = SettingNames.of(scope);
  const note = stopStartWarning(request, (t) => names.set(INSTANCE_TYPE, t, `new ec2.InstanceType('${t}')`));
  if (note !== undefined) Annotations.of(scope).addInfo(note);
}
