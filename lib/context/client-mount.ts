/**
 * The keys of the clients' mount:
 * - where they mount: `mountPoint`, `allowHomeMountPoint`, `mountRoots`;
 * - how they mount: `nconnect`, `clientReadAheadKiB`;
 * - whether this stack makes the cluster's client-mount association: `clientMount`.
 */
import { StoragePlan } from '../sizing';
import { NFS_MAX_NCONNECT } from '../sizing/nfs-client';
import { MAX_READ_AHEAD_KIB, directoryProblem, mountRootProblem } from '../../lambda/value-check/mounts';
import { nconnectRefusal } from './backends';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError, parseBoolean, parseWholeNumber } from './values';

/**
 * The mount keys, in the order they are checked. `allowHomeMountPoint`, read before the plan, admits `/home` as the
 * mount point. The plan says whether the clients mount NFS, which `nconnect` needs.
 */
export function parseClientMountKeys(
  values: ContextValues<ContextKey>,
  allowHomeMountPoint: boolean,
  plan: StoragePlan | undefined,
): Pick<StorageServerContext, 'mountPoint' | 'mountRoots' | 'nconnect' | 'clientReadAheadKiB' | 'clientMount'> {
  const { optional } = values;
  return {
    mountPoint: optional('mountPoint', (key, value) => parseMountPoint(key, value, allowHomeMountPoint)),
    mountRoots: optional('mountRoots', parseMountRoots),
    nconnect: optional('nconnect', (key, value) => parseNconnect(key, value, plan)) ?? CONTEXT_DEFAULTS.nconnect,
    clientReadAheadKiB: optional('clientReadAheadKiB', (key, value) => parseWholeNumber(key, value, 0, MAX_READ_AHEAD_KIB,
      `a whole number of KiB from 0 (the kernel's own read-ahead) to ${MAX_READ_AHEAD_KIB}`)) ?? CONTEXT_DEFAULTS.clientReadAheadKiB,
    clientMount: optional('clientMount', parseBoolean) ?? CONTEXT_DEFAULTS.clientMount,
  };
}

function parseMountPoint(key: ContextKey, value: string, allowHome: boolean): string {
  const problem = directoryProblem(value, { allowHome });
  if (problem) throw contextError(key, value, `an absolute directory outside the system directories: ${problem}`);
  return value;
}

function parseMountRoots(key: ContextKey, value: string): string[] {
  const roots = value.split(',');
  for (const root of roots) {
    const problem = mountRootProblem(root);
    if (problem) throw contextError(key, value, `a comma list of absolute directories outside the system directories (bad: '${root}': ${problem})`);
  }
  return roots;
}

/** nconnect: 1..16, and only where the plan's clients mount NFS; elsewhere its backend's descriptor refuses it. */
function parseNconnect(key: ContextKey, value: string, plan: StoragePlan | undefined): number {
  const n = parseWholeNumber(key, value, 1, NFS_MAX_NCONNECT, 'a whole number of TCP connections per client mount from 1 ' +
    `(one connection: no nconnect option) to ${NFS_MAX_NCONNECT} (the Linux limit)`);
  const refusal = nconnectRefusal(plan);
  if (refusal !== undefined) throw contextError(key, value, refusal);
  return n;
}
