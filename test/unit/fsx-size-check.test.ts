/**
 * One rule for an FSx for Lustre plan too large to record: the context parser and the facade both ask
 * `oversizedFsxField` which field made it so, and each names that field for its reader.
 */
import { parseContext } from '../../lib/context';
import { MAX_FSX_STORAGE_CAPACITY_GIB, oversizedFsxField } from '../../lib/validation/fsx-lustre';
import { serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';

const read = (context: Record<string, string>) => (key: string) => context[key];

test('the field: throughputMBps when the capacity alone fits, capacityTiB otherwise; none when it fits', () => {
  const maxTiB = Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024);
  expect(oversizedFsxField(MAX_FSX_STORAGE_CAPACITY_GIB, 1, 100)).toBeUndefined();
  expect(oversizedFsxField(undefined, 1, 100)).toBeUndefined();
  expect(oversizedFsxField(MAX_FSX_STORAGE_CAPACITY_GIB + 1, maxTiB, 100)).toBe('throughputMBps');
  expect(oversizedFsxField(MAX_FSX_STORAGE_CAPACITY_GIB + 1, maxTiB + 1, 100)).toBe('capacityTiB');
  expect(oversizedFsxField(MAX_FSX_STORAGE_CAPACITY_GIB + 1, 1, undefined)).toBe('capacityTiB');
});

test('the context parser and the facade name the same field, each in its own words', () => {
  // 100 TiB fits; 10,000,000 MB/s at 1,000 MB/s per TiB needs 10,000 TiB, more than 9,999,999 GiB.
  const asked = { capacityTiB: 100, backend: Backend.FSX_LUSTRE, throughputMBps: 10_000_000 };
  expect(() => parseContext(read({ capacityTiB: '100', backend: 'fsx-lustre', throughputMBps: '10000000' })))
    .toThrow(/^Invalid context value throughputMBps="10000000": allowed is a throughput an FSx for Lustre file system of at most 9999999 GiB sustains/);
  expect(() => serverStack(asked)).toThrow(/^throughputMBps asks for an FSx for Lustre file system of \d+ GiB; at most 9999999 GiB/);
  expect(() => parseContext(read({ capacityTiB: '10000', backend: 'fsx-lustre' })))
    .toThrow(/^Invalid context value capacityTiB="10000": allowed is a positive number of TiB whose FSx for Lustre plan fits in 9999999 GiB/);
  expect(() => serverStack({ capacityTiB: 10_000, backend: Backend.FSX_LUSTRE })).toThrow(/^capacityTiB asks for an FSx for Lustre file system of \d+ GiB/);
});
