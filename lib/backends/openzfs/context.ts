/**
 * FSx for OpenZFS as the app's context parser knows it (lib/context/backend-context.ts): its keys
 * (`openZfsDeploymentType`, `openZfsThroughputCapacityMBps`, `openZfsProvisionedIops`, `openZfsRootSquash`,
 * `openZfsStandbySubnetId`), only with backend=fsx-openzfs, each value checked here so that the message names the key;
 * the standby subnet against the network keys; the planner's view of them; and the facade's `fsxOpenZfs` they set,
 * its standby subnet looked up by the stack. `throughputMBps` stays the simple way to size the file system: the
 * planner picks the smallest tier that sustains it; `openZfsThroughputCapacityMBps` pins a tier. Pure, no CDK
 * imports: `npm run plan` loads it with the planner's descriptor.
 */
import type { BackendContext, BackendProps, ContextDefaults, KeyReader, NetworkKeys, ParsedKeys, PropsLookups } from '../../context/backend-context';
import { contextError, parseBoolean } from '../../context/values';
import type { StorageRequest } from '../../sizing/plan-types';
import { ec2IdPattern } from '../../validation/names';
import { FSX_OPENZFS_TIERS } from './sizing/catalog';
import { FSX_OPENZFS_DEPLOYMENT_TYPES, FSX_OPENZFS_THROUGHPUT_CAPACITIES, type FsxOpenZfsDeploymentType } from './sizing/options';

/** The app's typed context: the FSx for OpenZFS members, absent when the key was not given. */
export interface FsxOpenZfsContext {
  /**
   * FSx for OpenZFS deployment type (`backend=fsx-openzfs` only): `SINGLE_AZ_1`, `SINGLE_AZ_2`, `SINGLE_AZ_HA_1`,
   * `SINGLE_AZ_HA_2` or `MULTI_AZ_1` (a standby file server in a second zone: not with `availabilityZone` or
   * `vpcFrom`, which give one zone).
   * @default SINGLE_AZ_1
   */
  readonly openZfsDeploymentType?: FsxOpenZfsDeploymentType;
  /**
   * FSx for OpenZFS throughput capacity, MB/s (`backend=fsx-openzfs` only): one of the deployment type's tiers
   * (SINGLE_AZ_1: 64, 128, 256, 512, 1024, 2048, 3072, 4096; SINGLE_AZ_HA_1: the same from 128; SINGLE_AZ_2,
   * SINGLE_AZ_HA_2, MULTI_AZ_1: 160, 320, 640, 1280, 2560, 3840, 5120, 7680, 10240). `throughputMBps` is the simpler
   * way: the smallest tier that sustains it.
   * @default - the type's smallest tier that sustains `throughputMBps` (the smallest without it)
   */
  readonly openZfsThroughputCapacityMBps?: number;
  /**
   * FSx for OpenZFS SSD IOPS (`backend=fsx-openzfs` only): a whole number from 3 to 50 per GiB of storage (at most
   * 160,000 on the first generation's types, 400,000 on the second's), or 0 for AUTOMATIC (3 per GiB). Pin the old
   * value to change the throughput capacity alone: FSx takes no throughput update while an IOPS update runs.
   * @default - the tier's disk IOPS within 50 per GiB when more than the automatic, else AUTOMATIC
   */
  readonly openZfsProvisionedIops?: number;
  /**
   * FSx for OpenZFS root squash (`backend=fsx-openzfs` only): `false` exports the root volume with `no_root_squash`,
   * leaving root on the clients as root.
   * @default true
   */
  readonly openZfsRootSquash?: boolean;
  /**
   * The standby subnet (`subnet-` id) of a MULTI_AZ_1 FSx for OpenZFS file system, in another zone than the
   * server's subnet; only with `vpcId` and `openZfsDeploymentType=MULTI_AZ_1`.
   * @default - the VPC's first private subnet with egress in another zone than the server's (a new VPC: the second zone's)
   */
  readonly openZfsStandbySubnetId?: string;
}

/** The FSx for OpenZFS keys with their defaults, in the key table's order. */
const DEFAULTS = {
  /** Absent: SINGLE_AZ_1 (backend fsx-openzfs). */
  openZfsDeploymentType: undefined,
  /** Absent: the type's smallest tier that sustains throughputMBps (backend fsx-openzfs). */
  openZfsThroughputCapacityMBps: undefined,
  /** Absent: the tier's disk IOPS within 50 per GiB, or AUTOMATIC (backend fsx-openzfs). */
  openZfsProvisionedIops: undefined,
  /** Absent: root squash on (backend fsx-openzfs). */
  openZfsRootSquash: undefined,
  /** Absent: the VPC's private subnet in another zone (backend fsx-openzfs, MULTI_AZ_1). */
  openZfsStandbySubnetId: undefined,
} as const satisfies ContextDefaults<FsxOpenZfsContext>;

/** The most SSD IOPS any deployment type provisions: its largest tier's disk IOPS. [PERF] */
const FSX_OPENZFS_MAX_IOPS = Math.max(...Object.values(FSX_OPENZFS_TIERS).map((tiers) => tiers[tiers.length - 1].diskIops));

/**
 * The keys in order: the deployment type, then the throughput tier (one of the type's), the IOPS, the standby subnet
 * (MULTI_AZ_1 only) and root squash; then the standby subnet and the deployment type against the network.
 */
function parseOpenZfsKeys({ raw }: KeyReader<keyof FsxOpenZfsContext>, network: NetworkKeys): ParsedKeys<FsxOpenZfsContext> {
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
  const context: FsxOpenZfsContext = {
    openZfsDeploymentType: deploymentType,
    openZfsThroughputCapacityMBps: throughputText === undefined ? undefined : Number(throughputText),
    openZfsProvisionedIops: iopsText === undefined ? undefined : Number(iopsText),
    openZfsRootSquash: squash === undefined ? undefined : parseBoolean('openZfsRootSquash', squash),
    openZfsStandbySubnetId: standby,
  };
  checkNetwork(context, network);
  return { context, request: { fsxOpenZfs: openZfsRequest(context) } };
}

/**
 * A MULTI_AZ_1 file system needs subnets in two zones: not in a new VPC of one zone (`availabilityZone`), nor in
 * another stack's VPC (`vpcFrom` shares one subnet); `openZfsStandbySubnetId` names a subnet of a looked-up VPC.
 */
function checkNetwork(zfs: FsxOpenZfsContext, network: NetworkKeys): void {
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

/** The planner's view of the keys (none of the three given: the planner's defaults for throughputMBps). */
function openZfsRequest(zfs: FsxOpenZfsContext): StorageRequest['fsxOpenZfs'] {
  const { openZfsDeploymentType: deploymentType, openZfsThroughputCapacityMBps: throughputCapacityMBps, openZfsProvisionedIops: provisionedIops } = zfs;
  if (deploymentType === undefined && throughputCapacityMBps === undefined && provisionedIops === undefined) return undefined;
  return { deploymentType, throughputCapacityMBps, provisionedIops };
}

/** The facade's `fsxOpenZfs`, an object even when no key is given. */
function openZfsProps(zfs: FsxOpenZfsContext, lookups: PropsLookups): BackendProps {
  const standby = zfs.openZfsStandbySubnetId;
  return {
    fsxOpenZfs: {
      deploymentType: zfs.openZfsDeploymentType,
      throughputCapacityMBps: zfs.openZfsThroughputCapacityMBps,
      provisionedIops: zfs.openZfsProvisionedIops,
      rootSquash: zfs.openZfsRootSquash,
      standbySubnet: standby ? lookups.subnet(standby, 'openZfsStandbySubnetId') : undefined,
    },
  };
}

/** FSx for OpenZFS in the app's context. */
export const FSX_OPENZFS_CONTEXT: BackendContext<FsxOpenZfsContext> = {
  keys: { defaults: DEFAULTS, parse: parseOpenZfsKeys },
  props: openZfsProps,
};
