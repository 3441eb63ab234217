#!/usr/bin/env node
/**
 * Prints the storage plan for a capacity: `npm run plan -- <capacityTiB> [auto|ebs|instance-store]`.
 */
import { Backend, formatPlanTable, planStorage } from '../lib/sizing';

const [capacity, backend = 'auto'] = process.argv.slice(2);
if (capacity === undefined || capacity === '--help' || capacity === '-h') {
  console.error('usage: npm run plan -- <capacityTiB> [auto|ebs|instance-store]');
  process.exit(capacity === undefined ? 2 : 0);
}
try {
  // Number('') is 0 and Number('1e1') is 10: pass the number through, the planner validates the range.
  const capacityTiB = /^[0-9]+(\.[0-9]+)?$/.test(capacity) ? Number(capacity) : NaN;
  if (Number.isNaN(capacityTiB)) throw new Error(`capacityTiB must be a positive number of TiB; got '${capacity}'`);
  console.log(formatPlanTable(planStorage({ capacityTiB, backend: backend as Backend | 'auto' })));
} catch (e) {
  console.error(`Error: ${(e as Error).message}`);
  process.exit(1);
}
