#!/usr/bin/env node
/**
 * Prints the storage plan for a capacity: `npm run plan -- <capacityTiB> [auto|ebs|instance-store|fsx-lustre]
 * [--throughput <MB/s>] [--generation previous|current]` (the sustained aggregate MB/s the cluster needs; the
 * instance generation), then the best plan of each backend for the same request, side by side.
 */
import { Backend, Generation, formatBackendComparison, formatPlanTable, planStorage } from '../lib/sizing';
import { takeOption } from './args';

const USAGE = 'usage: npm run plan -- <capacityTiB> [auto|ebs|instance-store|fsx-lustre] [--throughput <MB/s>] [--generation previous|current]';
const args = process.argv.slice(2);
const throughputArg = takeOption(args, '--throughput');
const generation = takeOption(args, '--generation');
const [capacity, backend = 'auto'] = args;
if (capacity === undefined || capacity === '--help' || capacity === '-h') {
  console.error(USAGE);
  process.exit(capacity === undefined ? 2 : 0);
}
// Number('') is 0 and Number('1e1') is 10: only plain decimals pass; the planner validates the range.
const decimal = (text: string): number => (/^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : NaN);
try {
  const capacityTiB = decimal(capacity);
  if (Number.isNaN(capacityTiB)) throw new Error(`capacityTiB must be a positive number of TiB; got '${capacity}'`);
  const throughputMBps = throughputArg === undefined ? undefined : decimal(throughputArg);
  if (Number.isNaN(throughputMBps)) throw new Error(`throughputMBps must be a positive number of MB/s; got '${throughputArg}'`);
  const request = { capacityTiB, backend: backend as Backend | 'auto', throughputMBps, generation: generation as Generation | undefined };
  console.log(formatPlanTable(planStorage(request)));
  console.log('\nThe best plan of each backend for the same request:');
  console.log(formatBackendComparison(request));
} catch (e) {
  console.error(`Error: ${(e as Error).message}`);
  process.exit(1);
}
