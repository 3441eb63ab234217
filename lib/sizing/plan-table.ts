import { StoragePlan } from './plan';

/**
 * Renders a plan as the small table `npm run plan` prints: one row per fact, aligned, so it reads well in
 * a terminal and pastes into an issue or a design note.
 */
export function formatPlanTable(plan: StoragePlan): string {
  const disks = plan.backend === 'ebs'
    ? `${plan.dataVolumes.length} x st1 (${plan.dataVolumes.map((v) => `${v.sizeGiB} GiB`).join(', ')})` +
      (plan.dataVolumes.length > 1 ? ', striped' : '')
    : `${plan.instanceStoreDisks} x 2 TB instance-store HDD, striped (lost on stop/terminate)`;
  const rows: [string, string][] = [
    ['backend', plan.backend],
    ['instance', plan.instanceType],
    [plan.backend === 'ebs' ? 'volumes' : 'disks', disks],
    ['raw capacity', `${plan.rawCapacityTiB.toFixed(2)} TiB`],
    ['read', `${plan.throughput.readMBps.toFixed(0)} MB/s`],
    ['write', `${plan.throughput.writeMBps.toFixed(0)} MB/s`],
    ['limited by', plan.throughput.limitedBy],
    ['cost', `$${plan.monthlyCostUsd.toFixed(2)}/month (on demand, us-east-1, 730 h)`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
