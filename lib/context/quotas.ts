/**
 * The quota keys: `quotaLimits` and `quotaDefaultUserGiB`, the `quotas` prop's limits and default (lib/quotas.ts). The
 * grammar is checked here; what a backend takes is checked by the construct, by the same table as the prop.
 */
import { MAX_QUOTA_VALUE, QuotaType, type QuotaLimit, type QuotaOptions } from '../quotas';
import type { ContextKey } from './keys';
import { type ContextValues, contextError } from './values';

const LIMIT_FORMS = "comma-separated limits 'user:<uid>:<GiB>', 'group:<gid>:<GiB>' or 'project:<id>:<GiB>:<directory>' (segments of " +
  "A-Z a-z 0-9 . _ -, none starting with '.'), " +
  `ids 0-${MAX_QUOTA_VALUE} and GiB 1-${MAX_QUOTA_VALUE}, e.g. user:1001:100,group:2000:500`;

/** The quota keys, each absent when not given. */
export function parseQuotaKeys(values: ContextValues<ContextKey>): { quotaLimits?: QuotaLimit[]; quotaDefaultUserGiB?: number } {
  return {
    quotaLimits: values.optional('quotaLimits', parseQuotaLimits),
    quotaDefaultUserGiB: values.optional('quotaDefaultUserGiB', (key, value) => {
      if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_QUOTA_VALUE) throw contextError(key, value, `a whole number of GiB, 1-${MAX_QUOTA_VALUE}`);
      return Number(value);
    }),
  };
}

/** The `quotas` prop of the two keys; none when neither is given. */
export function quotasOf(ctx: { quotaLimits?: QuotaLimit[]; quotaDefaultUserGiB?: number }): QuotaOptions | undefined {
  const { quotaLimits: limits, quotaDefaultUserGiB: defaultUserGiB } = ctx;
  return limits === undefined && defaultUserGiB === undefined ? undefined : { limits, defaultUserGiB };
}

function parseQuotaLimits(key: ContextKey, value: string): QuotaLimit[] {
  return value.split(',').map((entry) => {
    // A project's directory as the bootstrap takes an export path: segments of [A-Za-z0-9._-], none starting with '.'.
    const m = /^(user|group|project):(0|[1-9][0-9]{0,9}):([1-9][0-9]{0,9})(?::((?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+))?$/.exec(entry);
    const [id, limitGiB] = [Number(m?.[2]), Number(m?.[3])];
    if (!m || id > MAX_QUOTA_VALUE || limitGiB > MAX_QUOTA_VALUE || (m[1] === 'project') !== (m[4] !== undefined)) {
      throw contextError(key, value, `${LIMIT_FORMS} (bad: '${entry}')`);
    }
    const type = Object.values(QuotaType).find((t) => t === m[1])!;
    return { type, id, limitGiB, ...(m[4] !== undefined ? { path: m[4] } : {}) };
  });
}
