/**
 * Rows of the update guard's change matrix for the EC2 server's keys added after test/unit/guard-matrix.cases.ts
 * reached its length: one entry per key, merged into its CONTEXT_ROWS. Verdicts are derived as for every row.
 */
import type { Backend } from '../../lambda/register/contract';
import type { Row } from './guard-matrix.cases';

const EC2: readonly Backend[] = ['ebs', 'instance-store'];

export const EC2_KEY_ROWS: { readonly rootClientCidrs: readonly Row[] } = {
  // The server's settings alone change: exportfs -ra applies the export's new line live.
  rootClientCidrs: [
    { name: 'a root client for a copy', change: { rootClientCidrs: '10.0.1.5/32' }, backends: EC2 },
    { name: 'the root client removed after the copy', base: { rootClientCidrs: '10.0.1.5/32' }, change: { rootClientCidrs: undefined }, backends: EC2 },
  ],
};
