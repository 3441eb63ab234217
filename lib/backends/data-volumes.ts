import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { DataVolumeLayout } from '../../lambda/update-guard/contract';
import { GP3_DEFAULTS } from '../gp3-defaults';
import type { DataVolumePlan } from '../sizing';

// The EBS data volumes' type props and the update guard's record of them; gp3's defaults are in lib/gp3-defaults.ts.

/**
 * The type props of one planned data volume: st1 its type only, since it takes no IOPS or throughput; gp3 with both.
 */
export function dataVolumeType(
  volume: DataVolumePlan, index: number,
): Pick<ec2.VolumeProps, 'volumeType' | 'iops' | 'throughput'> {
  if (volume.volumeType === 'gp3') {
    const { iops, throughputMiBps } = gp3Performance(volume);
    return { volumeType: ec2.EbsDeviceVolumeType.GP3, iops, throughput: throughputMiBps };
  }
  if (volume.volumeType !== 'st1') {
    throw new Error(`plan.dataVolumes[${index}].volumeType must be 'st1' or 'gp3', got ${JSON.stringify(volume.volumeType)}`);
  }
  if (volume.iops !== undefined || volume.throughputMiBps !== undefined) {
    throw new Error(`plan.dataVolumes[${index}]: iops and throughputMiBps apply to gp3 volumes only; this volume is st1 ` +
      '(st1 has no provisioned performance): leave them unset');
  }
  return { volumeType: ec2.EbsDeviceVolumeType.ST1 };
}

/** The update guard's record of one planned data volume: its size, type, and a gp3 volume's IOPS and throughput. */
export function dataVolumeLayout(index: number, volume: DataVolumePlan): DataVolumeLayout {
  return volume.volumeType === 'gp3'
    ? { index, sizeGiB: volume.sizeGiB, volumeType: 'gp3', ...gp3Performance(volume) }
    : { index, sizeGiB: volume.sizeGiB };
}

function gp3Performance(volume: DataVolumePlan): { iops: number; throughputMiBps: number } {
  return {
    iops: volume.iops ?? GP3_DEFAULTS.iops,
    throughputMiBps: volume.throughputMiBps ?? GP3_DEFAULTS.throughputMiBps,
  };
}
