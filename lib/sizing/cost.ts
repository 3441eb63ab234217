/** What a plan on an EC2 server costs a month: the instance on demand and its data volumes, us-east-1 list prices. */
import { HOURS_PER_MONTH, ST1 } from './catalog';
import { gp3MonthlyUsd } from './catalog-gp3';
import type { InstanceTypeSpec } from './catalog-types';
import type { DataVolumePlan } from './plan-types';
import { round2 } from './round';

/**
 * On demand for 730 h plus each volume: st1 sizeGiB x $0.045; gp3 sizeGiB x $0.08 + (IOPS - 3,000) x $0.005 + (MiB/s -
 * 125) x $0.04, per catalog-gp3.ts. Rounded to the cent once, at the end.
 */
export function monthlyCost(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): number {
  const volumesUsd = dataVolumes.reduce((sum, v) => sum + (v.volumeType === 'gp3' ? gp3MonthlyUsd(v) : v.sizeGiB * ST1.usdPerGiBMonth), 0);
  return round2(spec.onDemandUsdPerHour * HOURS_PER_MONTH + volumesUsd);
}
