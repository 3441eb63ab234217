import { Backend, StoragePlan, StorageRequest, bestPlanOf } from './plan';

/**
 * Renders a plan as the small table `npm run plan` prints: one row per fact, aligned, so it reads well in
 * a terminal and pastes into an issue or a design note.
 */
export function formatPlanTable(plan: StoragePlan): string {
  const rows: [string, string][] = [
    ['backend', plan.backend],
    [plan.backend === 'fsx-lustre' ? 'deployment' : 'instance', plan.instanceType],
    [plan.backend === 'ebs' ? 'volumes' : plan.backend === 'fsx-lustre' ? 'storage' : 'disks', disksOf(plan)],
    ['raw capacity', `${plan.rawCapacityTiB.toFixed(2)} TiB`],
    ['read', `${plan.throughput.readMBps.toFixed(0)} MB/s`],
    ['write', `${plan.throughput.writeMBps.toFixed(0)} MB/s`],
    ['limited by', plan.throughput.limitedBy],
    ['sustained', `${readWrite(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps)} (every burst credit spent)`],
    ['burst', `${readWrite(plan.throughput.burstReadMBps, plan.throughput.burstWriteMBps)} (full burst credits)`],
    ['cost', `$${plan.monthlyCostUsd.toFixed(2)}/month (${plan.backend === 'fsx-lustre' ? 'storage, us-east-1; backups extra' : 'on demand, us-east-1, 730 h'})`],
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

/** The data disks of a plan in words. */
function disksOf(plan: StoragePlan): string {
  if (plan.backend === 'ebs') {
    return `${plan.dataVolumes.length} x st1 (${plan.dataVolumes.map((v) => `${v.sizeGiB} GiB`).join(', ')})` +
      (plan.dataVolumes.length > 1 ? ', striped' : '');
  }
  if (plan.fsxLustre) {
    const f = plan.fsxLustre;
    return `FSx for Lustre ${f.deploymentType} ${f.storageType}, ${f.perUnitStorageThroughput} MB/s per TiB, ${f.storageCapacityGiB} GiB` +
      (f.deploymentType === 'SCRATCH_2' ? ' (not replicated)' : '');
  }
  return `${plan.instanceStoreDisks} x 2 TB instance-store HDD, striped (lost on stop/terminate)`;
}

const COMPARED: readonly Backend[] = ['ebs', 'instance-store', 'fsx-lustre'];

/**
 * The best plan of each backend for one request, side by side (`npm run plan` prints it under the chosen plan):
 * what each would cost and sustain, or why it cannot serve the request.
 */
export function formatBackendComparison(request: StorageRequest): string {
  const header = ['backend', 'plan', 'raw TiB', 'sustained MB/s', 'burst MB/s', '$/month'];
  const rows = COMPARED.map((backend) => {
    const plan = bestPlanOf(backend, request);
    if (typeof plan === 'string') return [backend, `cannot: ${plan}`, '', '', '', ''];
    const t = plan.throughput;
    return [
      backend,
      plan.backend === 'ebs' ? `${plan.instanceType}, ${disksOf(plan)}` : plan.backend === 'fsx-lustre' ? `${plan.instanceType}, ${plan.fsxLustre?.storageCapacityGiB} GiB` : plan.instanceType,
      plan.rawCapacityTiB.toFixed(2),
      readWrite(t.baselineReadMBps, t.baselineWriteMBps),
      readWrite(t.burstReadMBps, t.burstWriteMBps),
      plan.monthlyCostUsd.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => !r[1].startsWith('cannot')).map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells[1].startsWith('cannot') ? `${cells[0].padEnd(widths[0])}  ${cells[1]}` : cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
