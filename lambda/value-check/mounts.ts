/**
 * Where the data is exported and mounted: the directory grammar the server and the client script share, the system
 * directories a mount would hide, the mount roots a client mount point must lie below, and the read-ahead bound the
 * client nodes are told to keep within.
 */

/**
 * Directories of the operating system that neither the export (`exportPath`, on the server) nor the mount point
 * (`mountPoint`, on the clients) may be or lie under: mounting the data there hides the system's own files. The
 * top-level directories the FHS 3.0 and systemd's file-hierarchy(7) give to the system throughout
 * (docs/sources/file-hierarchy.md, whose rows a unit test compares with this list); `/home` is the
 * `allowHomeMountPoint` opt-in's. lib/scripts/client-mount.sh holds the same list (a unit test compares them).
 */
export const SYSTEM_DIRECTORIES = ['/bin', '/boot', '/dev', '/efi', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run', '/sbin', '/sys', '/tmp', '/usr', '/var'] as const;

/**
 * Top-level directories the FHS 3.0 names for other uses (add-on packages, removable media, temporary mounts,
 * services' data: docs/sources/file-hierarchy.md): never themselves an export or a mount root, though a directory
 * below one may be (`/opt/ohpc/pub`); on a node, client-mount.sh refuses a mount point an installed package owns
 * files at or below (`/opt/aws`). lib/scripts/client-mount.sh holds the same list (a unit test compares them).
 */
export const NAMED_DIRECTORIES = ['/media', '/mnt', '/opt', '/srv'] as const;

/** What a directory path may be: see {@link directoryProblem}. */
export interface DirectoryOptions {
  /**
   * Allow `/home` and directories under it (home directories on NFS, common in HPC: the `allowHomeMountPoint` opt-in).
   * @default false
   */
  readonly allowHome?: boolean;
}

/**
 * Validates a directory for the export or the mount point: an absolute path of at most 255 characters in
 * `[A-Za-z0-9_.-]` segments (no empty, `.` or `..` segment, no trailing `/`; the client script's rule), not `/`, not one
 * of {@link NAMED_DIRECTORIES}, and neither one of {@link SYSTEM_DIRECTORIES} nor under one (`/etc`, `/var/lib/nfs`);
 * `/home` and below only with `allowHome`. Returns the reason it is bad, or undefined.
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
 * Where clients mount a storage server unless told otherwise: a record's `mountPoint` must be one of these or lie
 * below one (`/home` is added by `allowHomeMountPoint`). An allowlist: a deny list of system directories cannot
 * name every directory whose files a node runs as root (`/opt/aws`, `/snap`, `/nix`, ...).
 * lib/scripts/client-mount.sh holds the same default (`DEFAULT_MOUNT_ROOTS`; a unit test compares them).
 */
export const DEFAULT_MOUNT_ROOTS = ['/data', '/scratch', '/shared', '/fsx'] as const;

/**
 * The largest NFS read-ahead the client nodes are told to set, KiB: 1 GiB. Not a kernel limit (`read_ahead_kb` takes
 * any page count), this project's bound: 68 times AWS's 15 MiB (docs/sources/nconnect.md, F13), and it refuses a value
 * given in bytes by mistake (15 MiB in bytes is 15728640). lib/scripts/client-mount.sh holds the same bound
 * (`MAX_READ_AHEAD_KIB`; a unit test compares them).
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
   * Add `/home` to the mount roots (home directories on NFS: the `allowHomeMountPoint` opt-in).
   * @default false
   */
  readonly allowHome?: boolean;
}

/**
 * Validates one mount root: a directory path as {@link directoryProblem} wants it, outside the system directories
 * (`/home` too: that is `allowHome`'s). The client script refuses the same roots. Returns the reason, or undefined.
 */
export function mountRootProblem(root: string): string | undefined {
  return directoryProblem(root);
}

/**
 * Validates a client mount point: an absolute directory path in `[A-Za-z0-9_.-]` segments (as
 * {@link directoryProblem}) that is one of the mount roots or lies below one; the client script applies the same
 * rule to every record it reads. Returns the reason it is bad, or undefined.
 */
export function mountPointProblem(path: string, options: MountPointOptions = {}): string | undefined {
  const roots = [...(options.mountRoots ?? DEFAULT_MOUNT_ROOTS), ...(options.allowHome ? ['/home'] : [])];
  const rule = `a mount point must be a mount root or below one: ${roots.join(' ')}`;
  // The system directory's reason first where there is one: it is the more telling (and names allowHomeMountPoint).
  const form = directoryProblem(path, { allowHome: options.allowHome });
  if (form !== undefined) return form.includes('system director') ? `${form}; ${rule}` : form;
  if (roots.some((r) => path === r || path.startsWith(`${r}/`))) return undefined;
  return `not a mount root or below one; the mount roots are ${roots.join(' ')}`;
}
