/**
 * Where the data is exported and mounted: the directory grammar the server and the client script share, the system
 * directories a mount would hide, the mount roots a client mount point must lie below, and the read-ahead bound the
 * client nodes are told to keep within.
 */

/**
 * Directories of the operating system that neither the export nor the mount point may be or lie under: mounting the
 * data there hides the system's own files. The export is `exportPath` on the server; the mount point is `mountPoint` on
 * the clients. These are the top-level directories that the FHS 3.0 and systemd's file-hierarchy(7) give to the system
 * throughout, as docs/sources/file-hierarchy.md lists them. `/home` belongs to the `allowHomeMountPoint` opt-in. Unit
 * tests hold this list to that document's rows and to lib/scripts/client-mount.sh.
 */
export const SYSTEM_DIRECTORIES = ['/bin', '/boot', '/dev', '/efi', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run', '/sbin', '/sys', '/tmp', '/usr', '/var'] as const;

/**
 * Top-level directories the FHS 3.0 names for other uses: add-on packages, removable media, temporary mounts and
 * services' data, as docs/sources/file-hierarchy.md lists them. None is itself an export or a mount root, though a
 * directory below one may be, such as `/opt/ohpc/pub`. On a node, client-mount.sh refuses a mount point at or above
 * files an installed package owns, such as `/opt/aws`. A unit test holds lib/scripts/client-mount.sh to the same list.
 */
export const NAMED_DIRECTORIES = ['/media', '/mnt', '/opt', '/srv'] as const;

/** What a directory path may be: see {@link directoryProblem}. */
export interface DirectoryOptions {
  /**
   * Allow `/home` and directories under it: the `allowHomeMountPoint` opt-in, for home directories on NFS, common in
   * HPC.
   * @default false
   */
  readonly allowHome?: boolean;
}

/**
 * Validates a directory for the export or the mount point. It must be an absolute path of at most 255 characters in
 * `[A-Za-z0-9_.-]` segments, as the client script's rule says: no empty, `.` or `..` segment, and no trailing `/`. It
 * must not be `/` or one of {@link NAMED_DIRECTORIES}. It must not be one of {@link SYSTEM_DIRECTORIES} or lie under
 * one, such as `/etc` or `/var/lib/nfs`. `/home` and below need `allowHome`. Returns the reason it is bad, or
 * undefined.
 */
export function directoryProblem(path: string, options: DirectoryOptions = {}): string | undefined {
  const segments = path.split('/').slice(1);
  if (path.length > 255) return `longer than 255 characters (${path.length})`;
  if (!path.startsWith('/') || path === '/' ||
    segments.some((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9_.-]+$/.test(s))) {
    return "not an absolute directory path of A-Z a-z 0-9 _ . - / (not '/', no '..', '.', '//' or trailing '/')";
  }
  const named = NAMED_DIRECTORIES.find((d) => path === d);
  if (named !== undefined) {
    return `a directory the FHS names for other files (${named}), whose files the mount would hide; a directory below it ` +
      `may be used (${named}/<site directory>) unless a node's packages own files there`;
  }
  const system = SYSTEM_DIRECTORIES.find((d) => path === d || path.startsWith(`${d}/`));
  if (system === '/home' && options.allowHome) return undefined;
  if (system !== undefined) {
    const hint = system === '/home' ? ' (for home directories on NFS set allowHomeMountPoint)' : '';
    return `${path === system ? 'a' : 'under a'} system directory (${system}), whose files the mount would hide; ` +
      `system directories are ${SYSTEM_DIRECTORIES.join(' ')}${hint}`;
  }
  return undefined;
}

/**
 * Where clients mount a storage server unless told otherwise: a record's `mountPoint` must be one of these or lie below
 * one. `allowHomeMountPoint` adds `/home`. It is an allowlist because a deny list of system directories cannot name
 * every directory whose files a node runs as root, such as `/opt/aws`, `/snap` or `/nix`. A unit test holds
 * `DEFAULT_MOUNT_ROOTS` in lib/scripts/client-mount.sh to the same default.
 */
export const DEFAULT_MOUNT_ROOTS = ['/data', '/scratch', '/shared', '/fsx'] as const;

/**
 * The largest NFS read-ahead the client nodes are told to set, KiB: 1 GiB. It is this project's bound, not a kernel
 * limit, since `read_ahead_kb` takes any page count. It is 68 times AWS's 15 MiB (docs/sources/nconnect.md, F13), and
 * it refuses a value given in bytes by mistake: 15 MiB in bytes is 15728640. A unit test holds `MAX_READ_AHEAD_KIB` in
 * lib/scripts/client-mount.sh to the same bound.
 */
export const MAX_READ_AHEAD_KIB = 1024 * 1024;

/** Where a mount point may be: see {@link mountPointProblem}. */
export interface MountPointOptions {
  /**
   * The mount roots: directories a mount point may be or lie below.
   * @default DEFAULT_MOUNT_ROOTS
   */
  readonly mountRoots?: readonly string[];
  /**
   * Add `/home` to the mount roots: the `allowHomeMountPoint` opt-in, for home directories on NFS.
   * @default false
   */
  readonly allowHome?: boolean;
}

/**
 * Validates one mount root: a directory path as {@link directoryProblem} wants it, outside the system directories and
 * `/home`, which is `allowHome`'s. The client script refuses the same roots. Returns the reason, or undefined.
 */
export function mountRootProblem(root: string): string | undefined {
  return directoryProblem(root);
}

/**
 * Validates a client mount point: an absolute directory path in `[A-Za-z0-9_.-]` segments, as {@link directoryProblem}
 * wants it, that is one of the mount roots or lies below one. The client script applies the same rule to every record
 * it reads. Returns the reason it is bad, or undefined.
 */
export function mountPointProblem(path: string, options: MountPointOptions = {}): string | undefined {
  const roots = [...(options.mountRoots ?? DEFAULT_MOUNT_ROOTS), ...(options.allowHome ? ['/home'] : [])];
  const rule = `a mount point must be a mount root or below one: ${roots.join(' ')}`;
  // The system directory's reason comes first where there is one: it tells more, and names allowHomeMountPoint.
  const form = directoryProblem(path, { allowHome: options.allowHome });
  if (form !== undefined) return form.includes('system director') ? `${form}; ${rule}` : form;
  if (roots.some((r) => path === r || path.startsWith(`${r}/`))) return undefined;
  return `not a mount root or below one; the mount roots are ${roots.join(' ')}`;
}
