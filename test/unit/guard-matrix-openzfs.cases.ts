/**
 * The FSx for OpenZFS rows of the update guard's change matrix, beyond those of test/unit/guard-matrix.cases.ts, which
 * has one row per context key at least for every backend. They cover the deployment type, the subnets of MULTI_AZ_1 and
 * the throughput capacity tiers. Expected verdicts are derived as for every row, by test/support/guard-matrix-suite.ts.
 */
import { CONTEXT_DEFAULTS } from '../../lib/context';
import type { Backend } from '../../lambda/register/contract';
import { LOOKED_UP_VPC, type Context } from '../support/guard-matrix';

const [SUBNET_A1, SUBNET_A2, SUBNET_B1] = LOOKED_UP_VPC.subnets.map((s) => s.subnetId);
const VPC = { vpcId: LOOKED_UP_VPC.vpcId };
const IOPS_WITH_THROUGHPUT = 'OPENZFS-IOPS-WITH-THROUGHPUT: no throughput update during an IOPS update';

/**
 * The rows, built when the fsx-openzfs rows are asked for. The `openZfs*` keys are the backend's, in
 * lib/backends/openzfs/context.ts. They are written through {@link openZfsContext}, which checks at run time that each
 * key is one the app reads, since a misspelt key would change nothing and pass.
 */
export function openZfsRows(): { name: string; base?: Context; change: Context; backends: readonly Backend[]; stricter?: string }[] {
  // With subnetId given, the standby subnet is given too, since the selected subnets are that one only.
  const toMultiAz = openZfsContext({ openZfsDeploymentType: 'MULTI_AZ_1', openZfsStandbySubnetId: SUBNET_B1 });
  const multiAz = { ...VPC, subnetId: SUBNET_A1, ...toMultiAz };
  return [
    { name: 'SINGLE_AZ_HA_1 instead of SINGLE_AZ_1', change: openZfsContext({ openZfsDeploymentType: 'SINGLE_AZ_HA_1' }) },
    { name: 'Single-AZ to MULTI_AZ_1 (a standby subnet)', base: { ...VPC, subnetId: SUBNET_A1 }, change: toMultiAz },
    {
      name: 'MULTI_AZ_1 to Single-AZ', base: multiAz,
      change: openZfsContext({ openZfsDeploymentType: 'SINGLE_AZ_2', openZfsStandbySubnetId: undefined }),
    },
    {
      name: 'MULTI_AZ_1: another standby subnet', base: { ...multiAz, subnetId: SUBNET_B1, ...openZfsContext({ openZfsStandbySubnetId: SUBNET_A1 }) },
      change: openZfsContext({ openZfsStandbySubnetId: SUBNET_A2 }),
    },
    { name: 'MULTI_AZ_1: another preferred subnet in the same zone', base: multiAz, change: { subnetId: SUBNET_A2 } },
    { name: 'MULTI_AZ_1: capacity up', base: multiAz, change: { capacityTiB: '8' } },
    // A new tier provisions the plan's IOPS too: refused with the two-step path; with the IOPS pinned, in place.
    {
      name: 'MULTI_AZ_1: throughput capacity up', base: multiAz, change: openZfsContext({ openZfsThroughputCapacityMBps: '1280' }),
      stricter: IOPS_WITH_THROUGHPUT,
    },
    {
      name: 'MULTI_AZ_1: throughput capacity up, the IOPS pinned', base: { ...multiAz, ...openZfsContext({ openZfsProvisionedIops: '12288' }) },
      change: openZfsContext({ openZfsThroughputCapacityMBps: '1280' }),
    },
    {
      name: 'throughput capacity down (512 -> 128 MB/s)', base: openZfsContext({ openZfsThroughputCapacityMBps: '512' }),
      change: openZfsContext({ openZfsThroughputCapacityMBps: '128' }), stricter: IOPS_WITH_THROUGHPUT,
    },
    { name: 'throughput capacity up on AUTOMATIC IOPS (64 -> 128 MB/s, 4 TiB)', change: openZfsContext({ openZfsThroughputCapacityMBps: '128' }) },
    { name: 'SSD IOPS back to AUTOMATIC', base: openZfsContext({ openZfsProvisionedIops: '40000' }), change: openZfsContext({ openZfsProvisionedIops: '0' }) },
    // Rules of AWS's guides, in docs/sources/fsx-rules.md: FSx would refuse the update after the guard, with nothing
    // lost.
    { name: 'capacity up by 5 % (4 -> 4.2 TiB)', change: { capacityTiB: '4.2' }, stricter: 'OPENZFS-GROWTH-MIN: at least 10 percent' },
    { name: 'capacity up by 10 % (4 -> 4.4 TiB, 4506 GiB)', change: { capacityTiB: '4.4' } },
    {
      name: 'capacity and throughput capacity up in one deploy', base: openZfsContext({ openZfsThroughputCapacityMBps: '512' }),
      change: { capacityTiB: '8', ...openZfsContext({ openZfsThroughputCapacityMBps: '1024' }) },
      stricter: 'OPENZFS-ONE-UPDATE: no throughput update during a storage update',
    },
    {
      name: 'SINGLE_AZ_2: throughput capacity up (160 -> 2560 MB/s)', base: openZfsContext({ openZfsDeploymentType: 'SINGLE_AZ_2' }),
      change: openZfsContext({ openZfsThroughputCapacityMBps: '2560' }), stricter: IOPS_WITH_THROUGHPUT,
    },
  ].map((r) => ({ ...r, backends: ['fsx-openzfs'] as const }));
}

/**
 * Context values of keys the type may not name yet, as {@link openZfsRows} needs; throws on a key the app does not
 * read.
 */
function openZfsContext(values: Readonly<Record<string, string | undefined>>): Context {
  const unknown = Object.keys(values).filter((k) => !(k in CONTEXT_DEFAULTS));
  if (unknown.length > 0) throw new Error(`the guard matrix names context keys the app does not read: ${unknown.join(', ')}`);
  return values as Context;
}
