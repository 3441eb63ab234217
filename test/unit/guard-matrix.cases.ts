/**
 * The update guard's change matrix, as data; the engine is test/support/guard-matrix.ts, and the tests
 * test/unit/guard-matrix-*.test.ts. Each row is one change, or a pair, to a baseline of one backend. The expected
 * verdict is derived, not written. The guard must refuse exactly when CloudFormation's rules replace or delete a
 * resource that holds data or the clients' address; an EBS server's instance may be replaced. Those rules are the diff
 * engine of `cdk diff` and the specification's nested replacing properties, both corrected where AWS's reference says
 * otherwise in lambda/update-guard/spec-overrides.ts. `stricter` marks a row where the guard refuses a change the rules
 * let through, with the reason; nothing else may differ.
 *
 * The rows per context key are in guard-matrix-<topic>.cases.ts, assembled here; the construct rows in
 * guard-matrix-construct.cases.ts.
 */
import type { ContextKey } from '../../lib/context';
import type { Backend } from '../../lambda/register/contract';
import type { Context } from '../support/guard-matrix';
import { openZfsRows } from './guard-matrix-openzfs.cases';
import { CLIENT_ROWS } from './guard-matrix-clients.cases';
import { FSX_ROWS } from './guard-matrix-fsx.cases';
import { SERVER_ROWS } from './guard-matrix-server.cases';
import { EC2, IDENTITY, SUBNET_A1, SUBNET_A2, VPC, type Row } from './guard-matrix-shared.cases';

export const BASELINES: { readonly [B in Backend]: Context } = {
  ebs: { backend: 'ebs', capacityTiB: '5' },
  'instance-store': { backend: 'instance-store', capacityTiB: '3' },
  'fsx-lustre': { backend: 'fsx-lustre', capacityTiB: '12' },
  'fsx-openzfs': { backend: 'fsx-openzfs', capacityTiB: '4' },
};

/**
 * Rows per context key, by topic: a key without rows, or a topic's key the app does not read, fails the typecheck (npm
 * test runs it; jest only transpiles); a key in two topics, whose rows one would hide, throws here.
 */
export const CONTEXT_ROWS: { readonly [K in ContextKey]: readonly Row[] } = { ...SERVER_ROWS, ...CLIENT_ROWS, ...FSX_ROWS };
const twice = [SERVER_ROWS, CLIENT_ROWS, FSX_ROWS].flatMap((t) => Object.keys(t)).filter((k, i, all) => all.indexOf(k) !== i);
if (twice.length > 0) throw new Error(`the guard matrix gives these context keys rows in two topic files: ${twice.join(', ')}`);

/** Pairs of changes. */
export const PAIRS: readonly Row[] = [
  { name: 'pair: capacity up + alarm e-mail', change: { capacityTiB: '8', alarmEmail: 'ops@example.com' }, backends: ['ebs'] },
  { name: 'pair: pinned image + key pair', change: { machineImageId: 'ami-0123456789abcdef0', keyPair: 'ops' }, backends: EC2 },
  { name: 'pair: client CIDRs + mount point', change: { clientCidrs: '10.0.0.0/16', mountPoint: '/scratch' } },
  { name: 'pair: subnet + acceptDataLoss', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_A2, acceptDataLoss: 'true' }, backends: ['instance-store'] },
  { name: 'pair: cluster rename + capacity up', change: { clusterName: 'other', capacityTiB: '24' }, backends: ['fsx-lustre'], stricter: IDENTITY },
  { name: 'pair: snapshots off + throughput', change: { snapshotRetain: '0', fsxPerUnitStorageThroughput: '250' }, backends: ['fsx-lustre'] },
  { name: 'pair: alarm e-mail + client tag key', change: { alarmEmail: 'ops@example.com', clientTagKey: 'nodes' } },
  { name: 'pair: server rename + acceptDataLoss', change: { serverName: 'storage2', acceptDataLoss: 'true' } },
  { name: 'pair: capacity up + keep more snapshots', change: { capacityTiB: '24', snapshotRetain: '14' }, backends: ['fsx-lustre'] },
  { name: 'pair: capacity down + acceptDataLoss', change: { capacityTiB: '2', acceptDataLoss: 'true' }, backends: ['instance-store'] },
  {
    name: 'pair: instance type pinned one size up on a server with legacy volume attachments', base: { legacyVolumeAttachments: 'true' },
    change: { instanceType: 'm4.4xlarge' }, backends: ['ebs'],
    stricter: 'with legacy attachments the guard holds every watched instance property: CloudFormation owns the attachments',
  },
  { name: 'pair: two volumes + capacity up', change: { dataVolumeCount: '2', capacityTiB: '8' }, backends: ['ebs'], stricter: 'LVM cannot restripe an existing striped volume over more disks' },
  {
    name: 'pair: capacity up + a higher throughput capacity', change: { capacityTiB: '8', throughputMBps: '500' }, backends: ['fsx-openzfs'],
    stricter: 'OPENZFS-ONE-UPDATE: FSx takes no throughput update while a storage update runs (docs/sources/fsx-rules.md)',
  },
  { name: 'pair: capacity down + acceptDataLoss', change: { capacityTiB: '2', acceptDataLoss: 'true' }, backends: ['fsx-openzfs'] },
  { name: 'pair: cluster rename + capacity up', change: { clusterName: 'other', capacityTiB: '8' }, backends: ['fsx-openzfs'], stricter: IDENTITY },
];

/** The rows of one backend. */
export function rowsOf(backend: Backend): Row[] {
  const openZfs = backend === 'fsx-openzfs' ? openZfsRows() : [];
  return [...Object.values(CONTEXT_ROWS).flat(), ...PAIRS, ...openZfs].filter((r) => !r.backends || r.backends.includes(backend));
}
