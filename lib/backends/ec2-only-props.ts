import type { Backend } from '../../lambda/register/contract';
import type { StorageServerProps } from '../storage-server/props';

// The EC2 NFS server's own props, which every other backend refuses by name rather than ignore.

/** The props of the EC2 NFS server that an FSx file system, Lustre or OpenZFS, cannot honour. */
export const EC2_ONLY_PROPS = [
  'instanceType', 'keyPair', 'placementGroup', 'dataVolumeSnapshotIds', 'machineImageId', 'machineImage',
  'dataVolumeCount', 'legacyVolumeAttachments', 'clusterware', 'nfs', 'exportPath', 'terminationProtection',
  'encryptInstanceStore', 'rootClientCidrs',
] as const satisfies readonly (keyof StorageServerProps)[];

/** Refuses, naming them, the props of the EC2 NFS server that `backend` cannot honour. */
export function refuseEc2OnlyProps(props: StorageServerProps, backend: Backend): void {
  // `false` is what the app passes for an unset boolean key: the same as leaving it out.
  const given = EC2_ONLY_PROPS.filter((k) => props[k] !== undefined && props[k] !== false);
  if (given.length > 0) {
    throw new Error(`${given.join(', ')}: ${given.length > 1 ? 'these apply' : 'this applies'} to the EC2 NFS server backends ` +
      `(ebs, instance-store) only, not to backend '${backend}'; leave them out.`);
  }
}
