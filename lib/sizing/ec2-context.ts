/**
 * The EC2 NFS server backends as the app's context parser knows them, in the shape of lib/context/backend-context.ts.
 * Each of their keys sets a prop only the EC2 server takes, one of EC2_ONLY_PROPS in lib/backends/ec2-only-props.ts.
 * Any other backend's plan refuses these keys by the name typed. Otherwise the construct would refuse them later under
 * the prop's name, such as `clusterware` or `nfs`.
 */
import type { BackendContext } from '../context/backend-context';

/**
 * Each key whose value the app passes to an EC2-only prop, with that prop. `instanceType`, `dataVolumeCount` and
 * `restoreSnapshotIds` are not here: their own parsers refuse them against the plan, saying why.
 */
export const EC2_ONLY_KEYS: Readonly<Record<string, string>> = {
  loginIp: 'clusterware',
  nconnect: 'nfs',
  keyPair: 'keyPair',
  placementGroup: 'placementGroup',
  terminationProtection: 'terminationProtection',
  encryptInstanceStore: 'encryptInstanceStore',
  machineImageId: 'machineImageId',
  legacyVolumeAttachments: 'legacyVolumeAttachments',
  rootClientCidrs: 'rootClientCidrs',
};

/** Both EC2 backends in the app's context: one object, so that neither refuses the other's keys. */
export const EC2_CONTEXT: BackendContext = {
  exclusiveKeys: {
    keys: Object.keys(EC2_ONLY_KEYS),
    holders: 'the EC2 NFS server backends (ebs, instance-store)',
    switches: ['terminationProtection', 'encryptInstanceStore', 'legacyVolumeAttachments'],
  },
};
