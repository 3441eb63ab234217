/**
 * The FSx for OpenZFS keys (`openZfsDeploymentType`, `openZfsThroughputCapacityMBps`, `openZfsProvisionedIops`,
 * `openZfsRootSquash`, `openZfsStandbySubnetId`): only with backend=fsx-openzfs, each value checked here so that the message names the
 * key, their combination by the planner's own rules, the standby subnet against the network keys; and the planner's
 * view of them. `throughputMBps` stays the simple way to size the file system: the planner picks the smallest tier
 * that sustains it; `openZfsThroughputCapacityMBps` pins a tier.
 */
import {
  Backend, FSX_OPENZFS_DEPLOYMENT_TYPES, FSX_OPENZFS_THROUGHPUT_CAPACITIES, FSX_OPENZFS_TIERS, FsxOpenZfsDeploymentType, StorageRequest,
} from '../sizing';
import { ec2IdPattern } from '../validation/names';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError, parseBoolean } from './values';

/** The most SSD IOPS any deployment type provisions: its largest tier's disk IOPS. [PERF] */
const FSX_OPENZFS_MAX_IOPS = Math.max(...Object.values(FSX_OPENZFS_TIERS).map((tiers) => tiers[tiers.length - 1].diskIops));

const OPENZFS_KEYS = [
  'openZfsDeploymentType', 'openZfsThroughputCapacityMBps', 'openZfsProvisionedIops', 'openZfsRootSquash', 'openZfsStandbySubnetId',
] as const;

/** The context's FSx for OpenZFS members: all absent when no OpenZFS key was given. */
export type OpenZfsContext = Pick<StorageServerContext, (typeof OPENZFS_KEYS)[number]>;

/** The network keys the standby subnet is checked against. */
type NetworkContext = Pick<StorageServerContext, 'vpcId' | 'vpcFrom' | 'availabilityZone'>;

/**
 * The FSx for OpenZFS keys: only together with backend=fsx-openzfs. The deployment type, then the throughput tier
 * (one of the type's), root squash, and the standby subnet (MULTI_AZ_1 only).
 */
export function parseOpenZfsKeys(values: ContextValues, backend: Backend | 'auto'): OpenZfsContext {
  const { raw } = values;
  const given = OPENZFS_KEYS.filter((k) => raw(k) !== undefined);
  if (given.length === 0) return {};
  if (backend !== 'fsx-openzfs') {
    throw contextError(given[0], raw(given[0])!, `only together with backend=fsx-openzfs (backend is '${backend}')`);
  }
  const type = raw('openZfsDeploymentType');
  if (type !== undefined && !(FSX_OPENZFS_DEPLOYMENT_TYPES as readonly string[]).includes(type)) {
    throw contextError('openZfsDeploymentType', type, `one of ${FSX_OPENZFS_DEPLOYMENT_TYPES.map((t) => `'${t}'`).join(', ')}`);
  }
  const deploymentType = type as FsxOpenZfsDeploymentType | undefined;
  const tiers = FSX_OPENZFS_THROUGHPUT_CAPACITIES[deploymentType ?? 'SINGLE_AZ_1'];
  const throughputText = raw('openZfsThroughputCapacityMBps');
  if (throughputText !== undefined && !tiers.map(String).includes(throughputText)) {
    throw contextError('openZfsThroughputCapacityMBps', throughputText, `a throughput capacity of ${deploymentType ?? 'SINGLE_AZ_1'} ` +
      `in MB/s, one of ${tiers.join(', ')}${deploymentType === undefined ? ' (the default type; openZfsDeploymentType chooses another)' : ''}`);
  }
  const iopsText = raw('openZfsProvisionedIops');
  // The range depends on the storage the planner settles: checked there, naming this key too.
  if (iopsText !== undefined && !(/^(0|[1-9]\d{0,5})$/.test(iopsText) && Number(iopsText) <= FSX_OPENZFS_MAX_IOPS)) {
    throw contextError('openZfsProvisionedIops', iopsText, `a whole number of SSD IOPS up to ${FSX_OPENZFS_MAX_IOPS} (3 to 50 per GiB ` +
      'of storage, at most the deployment type\'s largest tier\'s), or 0 for AUTOMATIC (3 per GiB)');
  }
  const standby = raw('openZfsStandbySubnetId');
  if (standby !== undefined) {
    if (!ec2IdPattern('subnet').test(standby)) throw contextError('openZfsStandbySubnetId', standby, "a subnet id such as 'subnet-0123456789abcdef0'");
    if (deploymentType !== 'MULTI_AZ_1') {
      throw contextError('openZfsStandbySubnetId', standby, 'only together with openZfsDeploymentType=MULTI_AZ_1 (the Single-AZ types have one subnet)');
    }
  }
  const squash = raw('openZfsRootSquash');
  return {
    openZfsDeploymentType: deploymentType,
    openZfsThroughputCapacityMBps: throughputText === undefined ? undefined : Number(throughputText),
    openZfsProvisionedIops: iopsText === undefined ? undefined : Number(iopsText),
    openZfsRootSquash: squash === undefined ? undefined : parseBoolean('openZfsRootSquash', squash),
    openZfsStandbySubnetId: standby,
  };
}

/**
 * A MULTI_AZ_1 file system needs subnets in two zones: not in a new VPC of one zone (`availabilityZone`), nor in
 * another stack's VPC (`vpcFrom` shares one subnet); `openZfsStandbySubnetId` names a subnet of a looked-up VPC.
 */
export function checkOpenZfsNetwork(zfs: OpenZfsContext, network: NetworkContext): void {
  const standby = zfs.openZfsStandbySubnetId;
  if (standby !== undefined && network.vpcId === undefined) {
    throw contextError('openZfsStandbySubnetId', standby, 'only together with vpcId (a new VPC has no subnet id before deploy: ' +
      'the standby is then its private subnet in the second zone)');
  }
  if (zfs.openZfsDeploymentType !== 'MULTI_AZ_1') return;
  const oneZone = network.availabilityZone !== undefined ? 'availabilityZone (a new VPC in one zone)'
    : network.vpcFrom !== undefined ? "vpcFrom (another stack's VPC shares one subnet)" : undefined;
  if (oneZone !== undefined) {
    throw contextError('openZfsDeploymentType', 'MULTI_AZ_1', `not with ${oneZone}: MULTI_AZ_1 needs subnets in two zones; ` +
      "a Single-AZ type such as 'SINGLE_AZ_2' there");
  }
}

/** The planner's view of the OpenZFS keys (none given: the planner's defaults for throughputMBps). */
export function openZfsRequest(zfs: OpenZfsContext): StorageRequest['fsxOpenZfs'] {
  const { openZfsDeploymentType: deploymentType, openZfsThroughputCapacityMBps: throughputCapacityMBps, openZfsProvisionedIops: provisionedIops } = zfs;
  if (deploymentType === undefined && throughputCapacityMBps === undefined && provisionedIops === undefined) return undefined;
  return { deploymentType, throughputCapacityMBps, provisionedIops };
}
