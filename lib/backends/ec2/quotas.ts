import { Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { BootstrapQuotas } from '../../bootstrap/config';
import { checkProjectTrees, checkQuotas, QuotaType, type QuotaOptions, type QuotaSupport } from '../../quotas';
import { SettingNames } from '../../setting-names';

/**
 * XFS on the EC2 server: user, group and project limits and a default user limit (xfs_quota(8), `limit -d`). The data
 * file system is mounted with all three from creation on, since XFS turns accounting on only at mount (quotaon(8):
 * "XFS filesystems require that quota accounting be turned on at mount time").
 */
export const XFS_QUOTAS: QuotaSupport = {
  types: [QuotaType.USER, QuotaType.GROUP, QuotaType.PROJECT], defaultUser: true,
  why: 'XFS takes user, group and project limits and a default user limit',
};

/** A project's directory under the export: `/` segments of `[A-Za-z0-9._-]`, none starting with a dot. */
const PROJECT_PATH = /^(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+$/;

/**
 * The `quotas` prop, checked for XFS, as the server's settings take them: no id 0, since XFS keeps its default limits as
 * id 0's (`defaultUserGiB` sets them); a project's path written out, under the export, each once and none inside
 * another's. Undefined without quotas. A token id or GiB passes here and is checked by the server's settings
 * validation when the apply reads it.
 */
export function xfsQuotas(scope: IConstruct, quotas: QuotaOptions | undefined, backend: string): BootstrapQuotas | undefined {
  const limits = checkQuotas(scope, quotas, backend, XFS_QUOTAS);
  if (quotas === undefined) return undefined;
  const names = SettingNames.of(scope);
  const dirs = new Set<string>();
  const entry = (i: number) => (names.byContext ? `quotaLimits entry ${i + 1}` : `quotas.limits[${i}]`);
  const settings = {
    defaultUserGiB: quotas.defaultUserGiB,
    limits: limits.map((l, i) => {
      const at = entry(i);
      if (!Token.isUnresolved(l.id) && l.id === 0) {
        throw new Error(`${at}.id: XFS keeps its default limits as id 0's, so no ${l.type} limit may name id 0; ` +
          `${l.type === QuotaType.USER ? `set ${names.name({ prop: 'quotas.defaultUserGiB', key: 'quotaDefaultUserGiB' })} for every user, or ` : ''}give another id.`);
      }
      if (l.type !== QuotaType.PROJECT) return { type: l.type, id: l.id, limitGiB: l.limitGiB };
      if (l.path === undefined || Token.isUnresolved(l.path) || !PROJECT_PATH.test(l.path)) {
        throw new Error(`${at}.path must be the project's directory under the export, /<dir>[/<dir>...] of [A-Za-z0-9._-] ` +
          `segments, none starting with a dot, written out in the app; got ${JSON.stringify(l.path)}.`);
      }
      if (dirs.has(l.path)) throw new Error(`${at}.path ${l.path} is another project's directory: give each project its own.`);
      dirs.add(l.path);
      return { type: l.type, id: l.id, limitGiB: l.limitGiB, path: l.path.slice(1) };
    }),
  };
  checkProjectTrees(limits, entry);
  return settings;
}
