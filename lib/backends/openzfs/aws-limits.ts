import { Annotations, Stack, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { cidrProblem, cidrWithin } from '../../../lambda/value-check/network';
import { type Setting, SettingNames } from '../../setting-names';
import { type FsxOpenZfsPlan } from './sizing/options';
import {
  FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB, FSX_OPENZFS_QUOTAS, FSX_OPENZFS_REGIONAL_TIERS, FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY,
  FSX_OPENZFS_TOP_TIER_REGIONS,
} from './sizing/catalog';

// What AWS's FSx for OpenZFS guide limits by Region and account, per docs/sources/fsx-rules.md: MULTI_AZ_1's top tiers,
// the account's default quotas, and who can reach a Multi-AZ endpoint.

/** What the limits are checked on: the plan, the prop that chose its tier, the clients and the VPC's CIDR as known. */
export interface OpenZfsLimitsInput {
  readonly plan: FsxOpenZfsPlan;
  /** The setting that chose the tier: `fsxOpenZfs.throughputCapacityMBps` when given, `throughputMBps` otherwise. */
  readonly tierSetting: Setting;
  readonly clientCidrs?: readonly string[];
  /** The VPC's CIDR, a token when synth does not know it. */
  readonly vpcCidr: string;
}

/** Checks the plan against the Region and the account's quotas; refuses what the Region does not offer. */
export function checkOpenZfsLimits(scope: Construct, input: OpenZfsLimitsInput): void {
  const region = Stack.of(scope).region;
  checkRegionalTier(scope, input, region);
  addToAccountTotals(scope, input.plan, region);
  warnClientsOutsideVpc(scope, input);
}

/** OPENZFS-REGION-TIERS: MULTI_AZ_1 at 7,680 or 10,240 MB/s exists in some Regions only. */
function checkRegionalTier(scope: Construct, { plan, tierSetting }: OpenZfsLimitsInput, region: string): void {
  const tierName = SettingNames.of(scope).name(tierSetting);
  const t = plan.throughputCapacityMBps;
  if (plan.deploymentType !== 'MULTI_AZ_1' || !FSX_OPENZFS_REGIONAL_TIERS.includes(t)) return;
  if (Token.isUnresolved(region)) {
    Annotations.of(scope).addWarningV2('storage-server:openZfsRegionalTier',
      `${tierName}: MULTI_AZ_1 at ${t} MB/s exists in some Regions only (${FSX_OPENZFS_TOP_TIER_REGIONS.join(', ')}, by AWS's ` +
      'quotas page), and the stack\'s Region is not known at synth: give the stack an env, or plan 5120 MB/s or less.');
    return;
  }
  if (FSX_OPENZFS_TOP_TIER_REGIONS.includes(region)) return;
  if (FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY.includes(region)) {
    Annotations.of(scope).addWarningV2('storage-server:openZfsRegionalTier',
      `${tierName}: MULTI_AZ_1 at ${t} MB/s in ${region}: AWS's performance page lists it there, its quotas page does not ` +
      '(only ' + FSX_OPENZFS_TOP_TIER_REGIONS.join(', ') + '); if the create fails, plan 5120 MB/s or less.');
    return;
  }
  throw new Error(`${tierName}: MULTI_AZ_1 in ${region} goes up to 5120 MB/s; ${t} MB/s exists only in ` +
    `${[...FSX_OPENZFS_TOP_TIER_REGIONS, ...FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY].join(', ')} (FSx for OpenZFS User Guide, ` +
    '"Performance"); ask for 5120 MB/s or less, or SINGLE_AZ_2, whose tables go to 10240 MB/s in every Region that offers it.');
}

interface Totals { storageGiB: number; throughputMBps: number; diskIops: number; readonly warned: Set<string> }
const TOTALS = new WeakMap<Stack, Totals>();

/**
 * OPENZFS-QUOTAS: the stack's FSx for OpenZFS file systems together, against the account's default quotas of the
 * Region. It warns once per quota, naming it and where to raise it, since the account may hold other file systems too.
 */
function addToAccountTotals(scope: Construct, plan: FsxOpenZfsPlan, region: string): void {
  const stack = Stack.of(scope);
  const totals = TOTALS.get(stack) ?? { storageGiB: 0, throughputMBps: 0, diskIops: 0, warned: new Set<string>() };
  TOTALS.set(stack, totals);
  totals.storageGiB += plan.storageCapacityGiB;
  totals.throughputMBps += plan.throughputCapacityMBps;
  totals.diskIops += plan.userProvisionedIops ?? plan.storageCapacityGiB * FSX_OPENZFS_AUTOMATIC_IOPS_PER_GIB;
  const large = !Token.isUnresolved(region) && FSX_OPENZFS_QUOTAS.ssdStorageLargeRegions.includes(region);
  const storageQuota = large ? FSX_OPENZFS_QUOTAS.ssdStorageGiBLarge : FSX_OPENZFS_QUOTAS.ssdStorageGiB;
  const over: [string, number, number, string][] = [
    ['OpenZFS SSD storage capacity', totals.storageGiB, storageQuota, 'GiB'],
    ['OpenZFS throughput capacity', totals.throughputMBps, FSX_OPENZFS_QUOTAS.throughputMBps, 'MB/s'],
    ['OpenZFS disk IOPS', totals.diskIops, FSX_OPENZFS_QUOTAS.diskIops, 'IOPS'],
  ];
  for (const [quota, total, limit, unit] of over.filter(([q, total, limit]) => total > limit && !totals.warned.has(q))) {
    totals.warned.add(quota);
    Annotations.of(scope).addWarningV2('storage-server:openZfsQuota',
      `the stack's FSx for OpenZFS file systems need ${total} ${unit} together, above the account's default quota ` +
      `'${quota}' of ${limit} ${unit}${Token.isUnresolved(region) ? '' : ` in ${region}`} (all file systems of the account ` +
      'and Region count): raise it first in the Service Quotas console (Amazon FSx), or the create fails.');
  }
}

/**
 * OPENZFS-MULTI-AZ-PEERING: a Multi-AZ endpoint's floating address is reachable from outside the VPC through a Transit
 * Gateway only, since "VPC Peering, AWS Direct Connect, and AWS VPN don't support transitive peering".
 */
function warnClientsOutsideVpc(scope: Construct, { plan, clientCidrs, vpcCidr }: OpenZfsLimitsInput): void {
  if (plan.deploymentType !== 'MULTI_AZ_1' || clientCidrs === undefined || Token.isUnresolved(vpcCidr) || cidrProblem(vpcCidr)) return;
  const outside = clientCidrs.filter((c) => !Token.isUnresolved(c) && cidrProblem(c) === undefined && !cidrWithin(c, vpcCidr));
  if (outside.length === 0) return;
  Annotations.of(scope).addWarningV2('storage-server:openZfsMultiAzOutsideVpc',
    `clientCidrs ${outside.join(', ')} ${outside.length > 1 ? 'are' : 'is'} outside the VPC (${vpcCidr}): a MULTI_AZ_1 file ` +
    'system\'s endpoint is reachable from other networks through AWS Transit Gateway only, not over VPC peering, Direct ' +
    'Connect or VPN (FSx for OpenZFS User Guide, "Accessing your data within the AWS Cloud"); use a Transit Gateway, or a Single-AZ type.');
}
