import type { IConstruct } from 'constructs';
import { MAX_QUOTAS, type UserOrGroupQuota } from '../../../lambda/openzfs-export/contract';
import { checkQuotas, QuotaType, type QuotaOptions, type QuotaSupport } from '../../quotas';

/**
 * OPENZFS-USER-QUOTAS: OpenZFSUserOrGroupQuota's Type is USER | GROUP, UpdateOpenZFSVolumeConfiguration has no default
 * quota, and a volume takes at most 500.
 */
export const OPENZFS_QUOTAS: QuotaSupport = {
  types: [QuotaType.USER, QuotaType.GROUP], defaultUser: false, maxLimits: MAX_QUOTAS,
  why: "FSx for OpenZFS takes user and group quotas only (OpenZFSUserOrGroupQuota's Type is USER or GROUP), and FSx's API sets no default quota",
};

/** The `quotas` prop, checked, as the root volume's UserAndGroupQuotas: what the export resource sends. */
export function openZfsQuotas(scope: IConstruct, quotas: QuotaOptions | undefined): UserOrGroupQuota[] {
  return checkQuotas(scope, quotas, 'fsx-openzfs', OPENZFS_QUOTAS).map((l) => ({
    Type: l.type === QuotaType.USER ? 'USER' : 'GROUP', Id: l.id, StorageCapacityQuotaGiB: l.limitGiB,
  }));
}
