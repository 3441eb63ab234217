/**
 * FSx for OpenZFS as the planner of lib/sizing/backend-sizing.ts knows it: its candidates when a throughput is asked,
 * its plan as asked, its IOPS, its excess, its lines in `npm run plan`'s tables and its option there, and its words in
 * the stack's outputs. It is pure, with no CDK imports, since `npm run plan` loads it.
 */
import type { BackendSizing } from '../../sizing/backend-sizing';
import type { StoragePlan } from '../../sizing/plan-types';
import { FSX_OPENZFS_CONTEXT, type FsxOpenZfsContext } from './context';
import { FSX_OPENZFS_PRICED, FSX_OPENZFS_TIERS, fsxOpenZfsPriceSource } from './sizing/catalog';
import { FSX_OPENZFS_DEPLOYMENT_TYPES, FSX_OPENZFS_MAX_STORAGE_GIB, FSX_OPENZFS_MIN_STORAGE_GIB, FsxOpenZfsDeploymentType } from './sizing/options';
import { fsxOpenZfsPlan, openZfsIops, openZfsPlanAt, smallestTierSustaining } from './sizing/plan';

/**
 * Each priced deployment type at its smallest tier that sustains `targetMBps`, else at its largest, so the message can
 * name the best; only SINGLE_AZ_1's rates are sourced. None beyond the largest storage. Without a throughput there are
 * none: the search is then the capacity rule's beyond its largest server, which FSx for OpenZFS does not change.
 */
function candidates(capacityTiB: number, targetMBps: number, ioSizeKiB: number): StoragePlan[] {
  const storageGiB = Math.max(FSX_OPENZFS_MIN_STORAGE_GIB, Math.ceil(capacityTiB * 1024));
  if (targetMBps <= 0 || storageGiB > FSX_OPENZFS_MAX_STORAGE_GIB) return [];
  return FSX_OPENZFS_PRICED.map((type) => {
    const tiers = FSX_OPENZFS_TIERS[type];
    return openZfsPlanAt(type, smallestTierSustaining(type, targetMBps, ioSizeKiB, storageGiB) ?? tiers[tiers.length - 1], storageGiB);
  });
}

/** A plan's file system; every FSx for OpenZFS plan has one. */
const fileSystemOf = (plan: StoragePlan) => plan.fsxOpenZfs as NonNullable<StoragePlan['fsxOpenZfs']>;

/** A plan's SSD IOPS in words. */
function iopsOf(userProvisionedIops: number | undefined): string {
  return userProvisionedIops === undefined ? 'automatic SSD IOPS (3 per GiB)' : `${userProvisionedIops} SSD IOPS provisioned`;
}

/** FSx for OpenZFS in the planner. */
export const FSX_OPENZFS_SIZING: BackendSizing<FsxOpenZfsContext> = {
  fileSystem: 'FSx for OpenZFS',
  candidates: ({ capacityTiB, targetMBps, ioSizeKiB }) => candidates(capacityTiB, targetMBps, ioSizeKiB),
  planAsked: ({ request, capacityTiB, throughputMBps, ioSizeKiB }) => fsxOpenZfsPlan(request.fsxOpenZfs, capacityTiB, throughputMBps, ioSizeKiB),
  options: { field: 'fsxOpenZfs' },
  iops: openZfsIops,
  clientProtocol: 'nfs',
  mountedAs: 'FSx for OpenZFS by its DNS name',
  // Loaded only when the facade builds: the planner loads no CDK.
  plugin: () => (require('../fsx-openzfs') as typeof import('../fsx-openzfs')).FSX_OPENZFS_PLUGIN,
  scalesOut: false,
  excessReason: ({ plan }) => {
    const gib = fileSystemOf(plan).storageCapacityGiB;
    // The planner rounds up to whole GiB and to OpenZFS's smallest file system, nothing else.
    return gib === FSX_OPENZFS_MIN_STORAGE_GIB
      ? `an FSx for OpenZFS file system is at least ${FSX_OPENZFS_MIN_STORAGE_GIB} GiB of SSD (CreateFileSystem, StorageCapacity)`
      : `FSx for OpenZFS storage is whole GiB, ${gib} GiB`;
  },
  table: {
    instanceLabel: 'deployment',
    storageLabel: 'storage',
    storage: (plan) => {
      const z = fileSystemOf(plan);
      return `FSx for OpenZFS ${z.deploymentType}, ${z.throughputCapacityMBps} MB/s throughput capacity, ${z.storageCapacityGiB} GiB SSD, ` +
        iopsOf(z.userProvisionedIops);
    },
    summary: (plan) => `${plan.instanceType}, ${fileSystemOf(plan).storageCapacityGiB} GiB SSD, ${iopsOf(fileSystemOf(plan).userProvisionedIops)}`,
    costNote: 'SSD storage, throughput capacity and SSD IOPS above the included, us-east-1; backups extra',
    priceSource: (plan) => `${fsxOpenZfsPriceSource(plan?.fsxOpenZfs?.deploymentType ?? FsxOpenZfsDeploymentType.SINGLE_AZ_1)}; backups extra`,
  },
  cliOptions: [{
    name: '--openzfs-deployment-type',
    value: FSX_OPENZFS_DEPLOYMENT_TYPES.join('|'),
    help: 'the FSx for OpenZFS deployment type: the fsx-openzfs backend, or auto (default SINGLE_AZ_1; context key openZfsDeploymentType)',
    values: FSX_OPENZFS_DEPLOYMENT_TYPES,
    field: 'fsxOpenZfs.deploymentType',
    request: (value) => ({ fsxOpenZfs: { deploymentType: value as FsxOpenZfsDeploymentType } }),
  }],
  outputs: {
    what: 'FSx for OpenZFS file system',
    layout: (plan) => {
      const z = fileSystemOf(plan);
      return `${z.deploymentType} ${z.throughputCapacityMBps} MB/s, ${z.storageCapacityGiB} GiB SSD`;
    },
    costNote: '(backups extra)',
    mountCommand: 'Mount the file system\'s root volume on a client by hand',
  },
  context: FSX_OPENZFS_CONTEXT,
};
