/**
 * The check of the EBS data volumes an estimate is asked for: st1 or gp3 within their published limits, and all
 * alike, since they are striped together.
 */
import { ST1 } from './catalog';
import { gp3VolumeError } from './catalog-gp3';
import type { InstanceTypeSpec } from './catalog-types';
import { describe } from './describe';
import type { DataVolumePlan } from './plan-types';

/** Checks the volumes given for an EBS-backed type and returns the first; they are striped, so all are alike. */
export function validateVolumes(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): DataVolumePlan {
  if (dataVolumes.length === 0) {
    throw new Error(
      `dataVolumes must hold at least one st1 or gp3 volume for ${spec.name}, which has no local disks; got none`,
    );
  }
  dataVolumes.forEach(validateVolume);
  checkStriped(dataVolumes);
  return dataVolumes[0];
}

/** One volume, `dataVolumes[i]`: st1 or gp3, within its type's published limits. */
function validateVolume(v: DataVolumePlan, i: number): void {
  if (v.volumeType !== 'st1' && v.volumeType !== 'gp3') {
    throw new Error(`dataVolumes[${i}].volumeType must be 'st1' or 'gp3'; got ${describe(v.volumeType)}`);
  }
  if (v.volumeType === 'gp3') {
    const error = gp3VolumeError(v, `dataVolumes[${i}]`);
    if (error) throw new Error(error);
    return;
  }
  if (v.throughputMiBps !== undefined || v.iops !== undefined) {
    throw new Error(`dataVolumes[${i}]: throughputMiBps and iops apply to gp3 only; got an st1 volume with them`);
  }
  // EBS-ST1-SIZE
  if (!Number.isInteger(v.sizeGiB) || v.sizeGiB < ST1.minSizeGiB || v.sizeGiB > ST1.maxSizeGiB) {
    throw new Error(
      `dataVolumes[${i}].sizeGiB must be a whole number from ${ST1.minSizeGiB} to ${ST1.maxSizeGiB}; got ${describe(v.sizeGiB)}`,
    );
  }
}

/** The volumes are striped together: all of one size, one type and one provisioning. */
function checkStriped(dataVolumes: DataVolumePlan[]): void {
  const sizes = new Set(dataVolumes.map((v) => v.sizeGiB));
  if (sizes.size > 1) {
    throw new Error(
      `dataVolumes must all have the same sizeGiB, since they are striped together; got ${[...sizes].join(', ')}`,
    );
  }
  const kinds = new Set(dataVolumes.map((v) => `${v.volumeType} ${v.throughputMiBps ?? '-'} MiB/s ${v.iops ?? '-'} IOPS`));
  if (kinds.size > 1) {
    throw new Error(
      `dataVolumes must all have the same volumeType, throughputMiBps and iops, since they are striped together; got ${[...kinds].join(', ')}`,
    );
  }
}
