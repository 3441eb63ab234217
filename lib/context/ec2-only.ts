/**
 * The context keys that set a prop only the EC2 NFS server takes (EC2_ONLY_PROPS): on an FSx plan they are refused
 * here, naming the key as typed, rather than by the construct under the prop's name (`clusterware`, `nfs`).
 */
import type { StoragePlan } from '../sizing';
import { EC2_ONLY_PROPS } from '../storage-server/validation';
import type { ContextKey } from './keys';
import type { ContextValues } from './values';
import { contextError } from './values';

type Ec2OnlyProp = (typeof EC2_ONLY_PROPS)[number];

/**
 * Each key whose value the app passes to an EC2-only prop, with that prop. `instanceType`, `dataVolumeCount` and
 * `restoreSnapshotIds` are not here: their own parsers refuse them against the plan, saying why.
 */
export const EC2_ONLY_KEYS: Readonly<Partial<Record<ContextKey, Ec2OnlyProp>>> = {
  loginIp: 'clusterware',
  nconnect: 'nfs',
  keyPair: 'keyPair',
  placementGroup: 'placementGroup',
  terminationProtection: 'terminationProtection',
  encryptInstanceStore: 'encryptInstanceStore',
  machineImageId: 'machineImageId',
  legacyVolumeAttachments: 'legacyVolumeAttachments',
};

/** Refuses a given EC2-only key on an FSx plan (`false` for a boolean key is the same as leaving it out). */
export function refuseEc2OnlyKeys(values: ContextValues, plan: StoragePlan | undefined): void {
  if (plan?.backend !== 'fsx-lustre' && plan?.backend !== 'fsx-openzfs') return;
  for (const key of Object.keys(EC2_ONLY_KEYS) as ContextKey[]) {
    const value = values.raw(key);
    if (value === undefined || value === 'false') continue;
    throw contextError(key, value, `nothing with backend ${plan.backend}: ${key} applies to the EC2 NFS server backends ` +
      `(ebs, instance-store) only; leave ${key} out`);
  }
}
