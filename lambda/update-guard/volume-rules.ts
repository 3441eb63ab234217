/**
 * What the EBS data volumes may do on update, each rule a row, in the manner of aws-parallelcluster's
 * `update_policy.py`. It is the ebs backend's `dataVolumes` row of the policy table, in its descriptor backends/ebs.ts.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { DataVolumeLayout } from './layout';
import { SECOND_SERVER } from './objections';
import type { UpdatePolicy, VolumeRule } from './policy';
import { TYPE_CHANGE_RULE } from './volume-types';

const indexes = (volumes: readonly DataVolumeLayout[]): number[] => volumes.map((v) => v.index);
const sorted = (a: number[]): string => [...a].sort((x, y) => x - y).join();
const sameSet = (a: number[], b: number[]): boolean => a.length === b.length && sorted(a) === sorted(b);

/**
 * What the data volumes may not do, each rule a row. What is left is growth and changes of type, IOPS and throughput.
 * Growth keeps the same volumes in the same order, each the same size or larger, and may add volumes after them in a
 * multiple of the count; EBS does it in place, and the server follows online through PV, LV and XFS. EBS also changes type, st1 <-> gp3, IOPS and throughput in place, as
 * volume-types.ts explains. These have limits of their own that the guard leaves to EBS: up to four modifications per
 * volume within a rolling 24 hours, each after the previous one completed, and each type's maximum size.
 */
export const VOLUME_RULES: readonly VolumeRule[] = [
  {
    name: 'fewer volumes',
    applies: (o, n) => n.length < o.length,
    why: 'fewer volumes lose data: a removed volume takes its share of every striped file with it',
    safePath: `keep capacityTiB at its old volume count; to shrink, ${SECOND_SERVER}`,
  },
  {
    // The bootstrap adds them as a new segment of the LV, striped like the first (storage-bootstrap-array.sh). The
    // deployed stripe width is not in the layout, but every count a server ever had is a multiple of it, so a multiple
    // of the current count is one too: stricter than the bootstrap, never looser.
    name: 'more volumes, not a multiple',
    applies: (o, n) => o.length > 0 && n.length > o.length && n.length % o.length !== 0,
    why: 'the added volumes become a new striped segment of the LV, as wide as the existing stripe; a count that is not ' +
      'a multiple of the current one cannot be checked to be a multiple of that width',
    safePath: 'set dataVolumeCount (context or prop) to a multiple of the current volume count ' +
      `(n x that count, each volume up to 16 TiB), or grow within the current count, or ${SECOND_SERVER}`,
  },
  {
    name: 'more volumes, the old ones moved',
    applies: (o, n) => n.length > o.length && indexes(n).slice(0, o.length).join() !== indexes(o).join(),
    why: 'the old volumes are the first segment of the LV in their stripe order; added volumes go after them',
    safePath: 'keep the old volumes first, in their old stripe order, and add the new ones after them',
  },
  {
    name: 'replaced volumes',
    applies: (o, n) => n.length === o.length && !sameSet(indexes(o), indexes(n)),
    why: 'a volume with a new index is a new, empty volume, and the one it replaces takes its share of the stripe with it',
    safePath: 'keep the volumes (their indexes) as they were',
  },
  {
    name: 'reordered volumes',
    applies: (o, n) => sameSet(indexes(o), indexes(n)) && indexes(o).join() !== indexes(n).join(),
    why: 'the stripe order is the data layout: volumes in another order scramble the file system',
    safePath: 'keep the volumes in their old stripe order',
  },
  {
    name: 'smaller volumes',
    applies: (o, n) => o.some((v) => n.some((w) => w.index === v.index && w.sizeGiB < v.sizeGiB)),
    why: 'EBS cannot shrink a volume',
    safePath: `keep each volume at least its old size; to shrink, ${SECOND_SERVER}`,
  },
  TYPE_CHANGE_RULE,
];

/** EBS data volumes may only grow: see {@link VOLUME_RULES}. */
export const GROW_ONLY: UpdatePolicy = {
  name: 'grow only',
  objections: (o, n) => VOLUME_RULES.filter((r) => r.applies(o.dataVolumes, n.dataVolumes)),
};
