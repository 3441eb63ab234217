/**
 * Storage quotas: the public `quotas` prop, and the one table of what each backend takes. A backend that takes none
 * yet refuses the prop by name, never ignores it. FSx for OpenZFS sets its user and group quotas live, through the root
 * volume's export resource (lib/backends/openzfs/export-resource.ts, OPENZFS-USER-QUOTAS in docs/sources/fsx-rules.md).
 */
import { Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { SettingNames } from './setting-names';
import type { Backend } from '../lambda/register/contract';
import { MAX_QUOTA_VALUE, MAX_QUOTAS, type UserOrGroupQuota } from '../lambda/openzfs-export/contract';

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

/** What a backend takes: its quota types and whether it has a default user quota, each with its source. */
interface QuotaSupport {
  readonly types: readonly QuotaType[];
  readonly defaultUser: boolean;
  /** Why, for a refusal: the rule or the state of this project. */
  readonly why: string;
}

// OPENZFS-USER-QUOTAS: OpenZFSUserOrGroupQuota's Type is USER | GROUP, and UpdateOpenZFSVolumeConfiguration has no default
// quota. The EC2 server's XFS quotas and Lustre's `lfs setquota` are not built yet: refused, never ignored.
const SUPPORT: { readonly [B in Backend]: QuotaSupport } = {
  'fsx-openzfs': {
    types: [QuotaType.USER, QuotaType.GROUP], defaultUser: false,
    why: "FSx for OpenZFS takes user and group quotas only (OpenZFSUserOrGroupQuota's Type is USER or GROUP), and FSx's API sets no default quota",
  },
  'ebs': { types: [], defaultUser: false, why: 'quotas on the EC2 NFS server are not built yet' },
  'instance-store': { types: [], defaultUser: false, why: 'quotas on the EC2 NFS server are not built yet' },
  'fsx-lustre': { types: [], defaultUser: false, why: "quotas on FSx for Lustre are set from a client with lfs setquota, which this version does not run" },
};

/**
 * Checks `quotas` for `backend` and returns them as FSx for OpenZFS's API takes them; none when unset. Throws naming
 * the prop as typed, or in the app the context key, and what is allowed. A token id or limit passes here and is checked
 * by the handler at deploy.
 */
export function checkQuotas(scope: IConstruct, quotas: QuotaOptions | undefined, backend: Backend): UserOrGroupQuota[] {
  if (quotas === undefined) return [];
  const names = SettingNames.of(scope);
  const limitsName = names.name({ prop: 'quotas.limits', key: 'quotaLimits' });
  const defaultName = names.name({ prop: 'quotas.defaultUserGiB', key: 'quotaDefaultUserGiB' });
  const entry = (i: number) => (names.byContext ? `quotaLimits entry ${i + 1}` : `quotas.limits[${i}]`);
  if (quotas === null || typeof quotas !== 'object' || Array.isArray(quotas)) {
    throw new Error(`quotas must be an object with defaultUserGiB and limits, got ${JSON.stringify(quotas)}.`);
  }
  const support = SUPPORT[backend];
  const takes = support.types.length > 0 ? `backend '${backend}' takes ${support.types.join(' and ')} limits` : `backend '${backend}' takes no quotas`;
  if (quotas.defaultUserGiB !== undefined && !support.defaultUser) {
    throw new Error(`${defaultName}: ${takes} and no default (${support.why}); give each user a limit in ${limitsName}, or leave it out.`);
  }
  const limits = quotas.limits ?? [];
  if (Token.isUnresolved(limits) || !Array.isArray(limits)) {
    throw new Error(`${limitsName} must be a list written out in the app, one entry per limit; a token list cannot be checked per entry.`);
  }
  if (limits.length > 0 && support.types.length === 0) throw new Error(`${limitsName}: ${takes} (${support.why}); leave it out.`);
  if (limits.length > MAX_QUOTAS) throw new Error(`${limitsName}: at most ${MAX_QUOTAS} limits, got ${limits.length}.`);
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
    return { Type: l.type === QuotaType.USER ? 'USER' : 'GROUP', Id: l.id, StorageCapacityQuotaGiB: l.limitGiB } as const;
  });
}

function checkInteger(value: number, min: number, at: string): void {
  if (Token.isUnresolved(value)) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_QUOTA_VALUE) {
    throw new Error(`${at} must be an integer of ${min}-${MAX_QUOTA_VALUE}, got ${JSON.stringify(value)}.`);
  }
}
