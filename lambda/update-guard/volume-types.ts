/**
 * The EBS type of a data volume in the update-guard layout, st1 or gp3: how `DataVolumes` writes it, what it must hold,
 * and what the guard says about a type change. It is part of the contract in contract.ts, in its own file.
 *
 * Type changes, as EBS documents them in docs/sources/netopt.md, "Volume modification rules", and in EBS-TYPE-CHANGE
 * and EBS-MODIFICATIONS of docs/sources/fsx-rules.md:
 * - CloudFormation updates `VolumeType`, `Iops` and `Throughput` of an AWS::EC2::Volume in place. The resource
 *   specification lists all three under properties that update without replacement, and replacement-rules.ts, generated
 *   from it, has no property of `AWS::EC2::Volume` that replaces. The update is an EBS Elastic Volumes modification,
 *   ModifyVolume, of the attached volume; its data stays.
 * - st1 -> gp3 is allowed. AWS's SDK model for ModifyVolume documents the defaults "if you change the volume type to
 *   ... gp3" from another type. The one type-change prohibition EBS documents is for root volumes changed *to* st1 or
 *   sc1. st1's sizes, 125-16,384 GiB, are inside gp3's, 1-65,536 GiB.
 * - gp3 -> st1 is allowed for data volumes, which are never root volumes, when the size is within st1's limits: "If you
 *   modify the volume type of a volume, the size and performance must be within the limits of the target volume type",
 *   per the EC2 user guide, modify-volume-requirements. Outside them the guard refuses it before EBS would.
 * - IOPS and throughput changes are live. EBS allows up to four modifications of a volume within a rolling 24 hours,
 *   each after the previous one completed, per the SDK model's ModifyVolume of 2026. The guard does not count them. EBS
 *   refuses one more with an error saying when the next is possible; the stack update fails and rolls back, and the
 *   volume keeps its data and its last completed settings.
 */
import type { DataVolumeLayout, DataVolumeType } from './layout';
import type { VolumeRule } from './policy';

// The type sits with the layout in layout.ts, which every file of the guard shares; it is named here too, its concept's
// home.
export type { DataVolumeType } from './layout';

/** Every {@link DataVolumeType}. */
export const DATA_VOLUME_TYPES: readonly DataVolumeType[] = ['st1', 'gp3'];

/**
 * st1's sizes, GiB, per the AWS SDK model's CreateVolume and ModifyVolume Size: "`st1` and `sc1`: 125 - 16,384 GiB".
 */
export const ST1_SIZE_GIB = { min: 125, max: 16_384 } as const;

/**
 * `<index>:<sizeGiB>` for st1, `<index>:<sizeGiB>:gp3:<iops>:<throughputMiBps>` for gp3. An entry without a type is
 * st1, as every volume recorded before gp3 is, so a deployed st1 server's guard keeps its properties and its id.
 */
export const DATA_VOLUME_ENTRY = /^(\d+):(\d+)(?::(gp3):(\d+):(\d+))?$/;

/** The volume's type; absent is st1. */
export function volumeTypeOf(volume: DataVolumeLayout): DataVolumeType {
  return volume.volumeType ?? 'st1';
}

/** One entry of `DataVolumes`: see {@link DATA_VOLUME_ENTRY}. */
export function dataVolumeEntry(volume: DataVolumeLayout): string {
  const base = `${volume.index}:${volume.sizeGiB}`;
  return volumeTypeOf(volume) === 'gp3' ? `${base}:gp3:${volume.iops}:${volume.throughputMiBps}` : base;
}

/** Reads one entry of `DataVolumes`; `name` names it in the error. */
export function parseDataVolumeEntry(name: string, entry: string): DataVolumeLayout {
  const m = DATA_VOLUME_ENTRY.exec(entry);
  if (!m) {
    throw new Error(`${name} must match <index>:<sizeGiB> (st1) or <index>:<sizeGiB>:gp3:<iops>:<throughputMiBps> ` +
      `(${DATA_VOLUME_ENTRY.source}), got ${JSON.stringify(entry)}`);
  }
  const volume = { index: Number(m[1]), sizeGiB: Number(m[2]) };
  return m[3] === 'gp3' ? { ...volume, volumeType: 'gp3', iops: Number(m[4]), throughputMiBps: Number(m[5]) } : volume;
}

/** Why a volume's type fields are inconsistent, or undefined when they are not. */
export function volumeTypeProblem(volume: DataVolumeLayout): string | undefined {
  const type = volume.volumeType;
  if (type !== undefined && !(DATA_VOLUME_TYPES as readonly string[]).includes(type)) {
    return `must have a volumeType of ${DATA_VOLUME_TYPES.map((t) => `'${t}'`).join(' or ')}`;
  }
  const whole = (n: number | undefined): boolean => n !== undefined && Number.isSafeInteger(n) && n >= 1;
  if (volumeTypeOf(volume) === 'gp3') {
    return whole(volume.iops) && whole(volume.throughputMiBps)
      ? undefined
      : 'must give a gp3 volume whole iops and throughputMiBps';
  }
  return volume.iops === undefined && volume.throughputMiBps === undefined
    ? undefined
    : 'must not give an st1 volume iops or throughputMiBps (st1 has no provisioned performance)';
}

/** The type-change rule of the data volumes: one row of VOLUME_RULES in volume-rules.ts. */
export const TYPE_CHANGE_RULE: VolumeRule = {
  name: 'type change outside the target type\'s limits',
  applies: (o, n) => n.some((w) => {
    const v = o.find((x) => x.index === w.index);
    return v !== undefined && volumeTypeOf(v) !== 'st1' && volumeTypeOf(w) === 'st1' &&
      (w.sizeGiB < ST1_SIZE_GIB.min || w.sizeGiB > ST1_SIZE_GIB.max);
  }),
  why: `EBS changes a volume's type only within the target type's limits, and st1 volumes are ${ST1_SIZE_GIB.min} to ` +
    `${ST1_SIZE_GIB.max} GiB`,
  safePath: 'keep the volumes gp3 (a type change st1 <-> gp3 within the limits is done in place)',
};
