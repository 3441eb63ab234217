/**
 * Storage quotas: the public `quotas` prop and its checks. What a backend takes is its plugin's `quotas`
 * (lib/backends/plugin.ts), so this file names no backend; a backend that declares none refuses the prop by name,
 * never ignores it.
 */
import { Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { SettingNames } from './setting-names';

/** The largest id or GiB a limit takes: a signed 32-bit integer, the range of the FSx API's quota fields. */
export const MAX_QUOTA_VALUE = 2147483647;

/** Whose use a quota limits. */
export enum QuotaType {
  /** One user, by uid. */
  USER = 'user',
  /** One group, by gid. */
  GROUP = 'group',
  /** One project: a directory tree with a project id. */
  PROJECT = 'project',
}

/** One hard limit on what a user, group or project may store. */
export interface QuotaLimit {
  /** Whose use it limits. */
  readonly type: QuotaType;
  /** The uid, gid or project id: an integer of 0-2147483647, as the cluster's nodes number them. */
  readonly id: number;
  /** The most it may store, in GiB: an integer of 1-2147483647. */
  readonly limitGiB: number;
  /**
   * The project's directory, for type PROJECT only.
   * @default - none; required for PROJECT
   */
  readonly path?: string;
}

/** Storage quotas of a server or file system. */
export interface QuotaOptions {
  /**
   * A limit for every user without a limit of their own, in GiB.
   * @default - none
   */
  readonly defaultUserGiB?: number;
  /**
   * Limits of single users, groups or projects; each (type, id) once.
   * @default - none
   */
  readonly limits?: QuotaLimit[];
}

/** What a backend takes: its quota types, whether it has a default user quota, how many limits, and why. */
export interface QuotaSupport {
  readonly types: readonly QuotaType[];
  readonly defaultUser: boolean;
  /** The most limits it takes. */
  readonly maxLimits?: number;
  /** Why, for a refusal: the rule or the state of this project. */
  readonly why: string;
}

/** A backend that takes no quotas yet. */
export const NO_QUOTAS: QuotaSupport = { types: [], defaultUser: false, why: 'this version sets no quotas on it' };

/**
 * Checks `quotas` for `backend`, which takes what `support` says, and returns its limits; none when unset. Throws naming
 * the prop as typed, or in the app the context key, and what is allowed. A token id or limit passes here and is checked
 * where it is resolved, by the backend's handler at deploy.
 */
export function checkQuotas(scope: IConstruct, quotas: QuotaOptions | undefined, backend: string, support: QuotaSupport): QuotaLimit[] {
  if (quotas === undefined) return [];
  const names = SettingNames.of(scope);
  const limitsName = names.name({ prop: 'quotas.limits', key: 'quotaLimits' });
  const defaultName = names.name({ prop: 'quotas.defaultUserGiB', key: 'quotaDefaultUserGiB' });
  const entry = (i: number) => (names.byContext ? `quotaLimits entry ${i + 1}` : `quotas.limits[${i}]`);
  if (quotas === null || typeof quotas !== 'object' || Array.isArray(quotas)) {
    throw new Error(`quotas must be an object with defaultUserGiB and limits, got ${JSON.stringify(quotas)}.`);
  }
  const takes = support.types.length > 0 ? `backend '${backend}' takes ${support.types.join(' and ')} limits` : `backend '${backend}' takes no quotas`;
  if (quotas.defaultUserGiB !== undefined && !support.defaultUser) {
    throw new Error(`${defaultName}: ${takes} and no default (${support.why}); give each user a limit in ${limitsName}, or leave it out.`);
  }
  // A backend that takes a default gets it in the limits' own range.
  if (quotas.defaultUserGiB !== undefined) checkInteger(quotas.defaultUserGiB, 1, defaultName);
  const limits = quotas.limits ?? [];
  if (Token.isUnresolved(limits) || !Array.isArray(limits)) {
    throw new Error(`${limitsName} must be a list written out in the app, one entry per limit; a token list cannot be checked per entry.`);
  }
  if (limits.length > 0 && support.types.length === 0) throw new Error(`${limitsName}: ${takes} (${support.why}); leave it out.`);
  if (support.maxLimits !== undefined && limits.length > support.maxLimits) {
    throw new Error(`${limitsName}: backend '${backend}' takes at most ${support.maxLimits} limits, got ${limits.length}.`);
  }
  const seen = new Set<string>();
  return limits.map((l, i) => {
    const at = entry(i);
    if (!Object.values(QuotaType).includes(l?.type)) {
      throw new Error(`${at}.type must be one of ${Object.values(QuotaType).join(', ')}, got ${JSON.stringify(l?.type)}.`);
    }
    if (!support.types.includes(l.type)) throw new Error(`${at}.type: ${takes} (${support.why}), got ${l.type}.`);
    if (l.path !== undefined && l.type !== QuotaType.PROJECT) throw new Error(`${at}.path is for a project quota only; leave it out of a ${l.type} limit.`);
    checkInteger(l.id, 0, `${at}.id`);
    checkInteger(l.limitGiB, 1, `${at}.limitGiB`);
    if (!Token.isUnresolved(l.id)) {
      const key = `${l.type}:${l.id}`;
      if (seen.has(key)) throw new Error(`${at} repeats the ${l.type} limit of id ${l.id}: give each ${l.type} one limit.`);
      seen.add(key);
    }
    return l;
  });
}

/**
 * Refuses two project limits on one directory tree, `entry` naming a limit by its index. A file has one project id, and
 * setting a directory's project (lfs project -r, xfs_quota project -s) gives its whole tree the id: two projects on one
 * tree would end as the order of the runs left them. Paths are compared as written, checked to one form already.
 */
export function checkProjectTrees(limits: readonly QuotaLimit[], entry: (i: number) => string): void {
  const dirs: { dir: string; at: string }[] = [];
  limits.forEach((l, i) => {
    if (l.type !== QuotaType.PROJECT || l.path === undefined) return;
    const dir = l.path;
    const other = dirs.find((d) => d.dir === dir || dir.startsWith(`${d.dir}/`) || d.dir.startsWith(`${dir}/`));
    if (other) {
      const how = other.dir === dir ? 'is also the directory of' : dir.startsWith(`${other.dir}/`) ? `is inside ${other.dir}, the directory of` : `holds ${other.dir}, the directory of`;
      throw new Error(`${entry(i)}.path: ${dir} ${how} ${other.at}; a file counts toward one project only, so give each project a ` +
        'directory of its own, neither inside the other.');
    }
    dirs.push({ dir, at: entry(i) });
  });
}

function checkInteger(value: number, min: number, at: string): void {
  if (Token.isUnresolved(value)) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_QUOTA_VALUE) {
    throw new Error(`${at} must be an integer of ${min}-${MAX_QUOTA_VALUE}, got ${JSON.stringify(value)}.`);
  }
}
