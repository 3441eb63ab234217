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
    ['sustained', `${readWrite(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)} (every burst credit spent)`],
    ['burst', `${readWrite(plan.throughput.burstReadMBps, plan.throughput.burstWriteMBps)} (full burst credits)`],
    ['cost', `$${plan.monthlyCostUsd.toFixed(2)}/month (on demand, us-east-1, 730 h)`],
    ['why', plan.reason],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** "N MB/s" when read and write agree, else "N MB/s read, M MB/s write". */
function readWrite(read: number, write: number): string {
  return read.toFixed(0) === write.toFixed(0)
    ? `${read.toFixed(0)} MB/s`
    : `${read.toFixed(0)} MB/s read, ${write.toFixed(0)} MB/s write`;
}
