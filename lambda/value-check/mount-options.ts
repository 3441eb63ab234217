/**
 * The mount options a client node takes from a mount record: the allowlist of lib/scripts/client_mount.py (VALUED,
 * FLAGS, REFUSED, EXCLUSIVE), which test/unit/imported-server-review.test.ts holds this file to. An imported server's
 * options reach the nodes' fstab through `mountOn` without that script, so they meet its allowlist here.
 */
import type { RecordFsType } from '../register/contract';

type OptionRule = (value: string) => boolean;

/** A decimal of at most 8 digits without a leading zero, from `lo` to `hi`. */
const number = (lo: number, hi: number): OptionRule => (v) => /^(?:0|[1-9][0-9]{0,7})$/.test(v) && Number(v) >= lo && Number(v) <= hi;
const oneOf = (...values: string[]): OptionRule => (v) => values.includes(v);
const VERSIONS = oneOf('4', '4.1', '4.2');

const NFS_VALUED: Readonly<Record<string, OptionRule>> = {
  nfsvers: VERSIONS, vers: VERSIONS, rsize: number(4096, 1048576), wsize: number(4096, 1048576),
  timeo: number(1, 6000), retrans: number(0, 30), actimeo: number(0, 3600),
  proto: oneOf('tcp'), sec: oneOf('sys'), lookupcache: oneOf('all', 'none', 'pos', 'positive'),
};
/**
 * `name=value` options and the values each takes, by fsType; nfs(5) gives the ranges the kernel accepts. `efs` (the EFS
 * mount helper, which hands them to mount.nfs4) lacks nconnect: the client's nconnect probe mounts with mount.nfs.
 */
export const VALUED_OPTIONS: Readonly<Record<RecordFsType, Readonly<Record<string, OptionRule>>>> = {
  nfs4: { ...NFS_VALUED, nconnect: number(1, 16) },
  lustre: {},
  efs: NFS_VALUED,
};

const COMMON_FLAGS = ['_netdev', 'noatime', 'nodiratime', 'relatime', 'nofail', 'nosuid', 'nodev', 'noexec', 'rw', 'ro'];
/**
 * Options without a value, by fsType: none that lets a server's files run setuid or as devices. `efs` takes the mount
 * helper's `tls` (EFS-TLS-OPTION), which it requires.
 */
export const FLAG_OPTIONS: Readonly<Record<RecordFsType, readonly string[]>> = {
  nfs4: [...COMMON_FLAGS, 'hard'],
  lustre: [...COMMON_FLAGS, 'flock', 'localflock', 'noflock'],
  efs: [...COMMON_FLAGS, 'hard', 'tls'],
};

/**
 * Flags one backend's records may carry besides {@link FLAG_OPTIONS}: EFS's `noresvport` (EFS-NORESVPORT), which this
 * project's own NFS servers refuse, since they export `secure`.
 */
export const BACKEND_FLAG_OPTIONS: Readonly<Record<string, readonly string[]>> = { efs: ['noresvport'] };

/**
 * Values one backend's records narrow from {@link VALUED_OPTIONS}: EFS serves NFS 4.0 and 4.1 alone (EFS-NFS-VERSIONS),
 * so 4.2 is refused where the kernel would ask for it.
 */
export const BACKEND_VALUED_OPTIONS: Readonly<Record<string, Readonly<Record<string, OptionRule>>>> = {
  efs: { nfsvers: oneOf('4', '4.1'), vers: oneOf('4', '4.1') },
};

/** NFS options refused with their own reason: nfs(5), "A so-called soft timeout can cause silent data corruption". */
export const REFUSED_NFS_OPTIONS: Readonly<Record<string, string>> = {
  soft: 'returns an I/O error after a timeout, which a program may not check: silent data loss (nfs(5)); use hard',
  softerr: 'returns an error after a timeout, which a program may not check (nfs(5)); use hard',
};

/** Why an `efs` record without `tls` is refused: the client's words too. */
export const EFS_NEEDS_TLS = '"tls" is missing: fsType "efs" is EFS over TLS (without TLS, mount it as "nfs4")';

/** Options that contradict each other: at most one of each group. */
export const EXCLUSIVE_OPTIONS: readonly (readonly string[])[] = [['rw', 'ro'], ['nfsvers', 'vers'], ['noatime', 'relatime'], ['flock', 'localflock', 'noflock']];

/** Why one `name` or `name=value` entry is not an option the clients take for `fsType`, or undefined. */
function optionProblem(option: string, fsType: RecordFsType, backend: string): string | undefined {
  const eq = option.indexOf('=');
  const name = eq < 0 ? option : option.slice(0, eq);
  if (eq >= 0) {
    const own = (table: Readonly<Record<string, OptionRule>> | undefined) => (table !== undefined && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined);
    const narrowed = Object.prototype.hasOwnProperty.call(BACKEND_VALUED_OPTIONS, backend) ? own(BACKEND_VALUED_OPTIONS[backend]) : undefined;
    const rule = own(VALUED_OPTIONS[fsType]) === undefined ? undefined : narrowed ?? own(VALUED_OPTIONS[fsType]);
    if (rule === undefined) return `${JSON.stringify(option)} is not an option the clients allow`;
    return rule(option.slice(eq + 1)) ? undefined : `${JSON.stringify(option)} has a value out of range`;
  }
  if (fsType !== 'lustre' && Object.prototype.hasOwnProperty.call(REFUSED_NFS_OPTIONS, name)) return `${JSON.stringify(option)} ${REFUSED_NFS_OPTIONS[name]}`;
  if (FLAG_OPTIONS[fsType].includes(name)) return undefined;
  if (eq < 0 && Object.prototype.hasOwnProperty.call(BACKEND_FLAG_OPTIONS, backend) && BACKEND_FLAG_OPTIONS[backend].includes(name)) return undefined;
  if (Object.prototype.hasOwnProperty.call(VALUED_OPTIONS[fsType], name)) return `${JSON.stringify(option)} needs a value`;
  return option === '' ? 'an empty option (two commas, or one at either end)' : `${JSON.stringify(option)} is not an option the clients allow`;
}

/**
 * Why `options` is not a list the client nodes mount with for `fsType`, or undefined: each entry on the allowlist
 * (with `backend`'s own flags, where the record names a backend), none twice, no two that contradict each other, and
 * `tls` for `efs`, whose mount helper mounts without TLS otherwise.
 */
export function allowedOptionsProblem(options: string, fsType: RecordFsType, backend = ''): string | undefined {
  const seen = new Set<string>();
  for (const option of options.split(',')) {
    const problem = optionProblem(option, fsType, backend);
    if (problem !== undefined) return problem;
    const name = option.split('=')[0];
    if (seen.has(name)) return `${JSON.stringify(name)} is given twice`;
    seen.add(name);
  }
  for (const group of EXCLUSIVE_OPTIONS) {
    const both = group.filter((o) => seen.has(o));
    if (both.length > 1) return `${both.map((o) => JSON.stringify(o)).join(' and ')} contradict each other`;
  }
  return fsType === 'efs' && !seen.has('tls') ? EFS_NEEDS_TLS : undefined;
}
