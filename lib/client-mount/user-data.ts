import { Token } from 'aws-cdk-lib';
import { type FsType, fstabLine } from '../../lambda/register/contract';

/**
 * The user-data lines that mount a storage server on one instance without SSM, for `StorageServer.mountOn`: the Lustre
 * client where missing, the tagged fstab line, the same line the client mount script writes, and the mount.
 */

/**
 * Mount options added to every client mount, whatever the record says: no setuid programs and no device files from a
 * storage server. The client script adds the same two; see {@link hardenMountOptions}.
 */
export const FORCED_MOUNT_OPTIONS = ['nosuid', 'nodev'] as const;

/** Inputs of {@link renderMountUserData}. */
export interface MountUserDataOptions {
  /** The server's address, which may be a token: its private IP, or the FSx file system's DNS name. */
  readonly server: string;
  /**
   * `nfs4`, or `lustre`: the fstab line is then `<dns>@tcp:/<mountName> ... lustre ...`, and the Lustre client is
   * installed first where it is missing.
   * @default 'nfs4'
   */
  readonly fsType?: FsType;
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The directory to mount the export on; created if missing. */
  readonly mountPoint: string;
  /** Client mount options; `nosuid,nodev` are added, as {@link hardenMountOptions} says. */
  readonly options: string;
  /** `<cluster>/<server>`: the fstab line ends with ` # storage-server:<tag>`, as the client mount script's do. */
  readonly tag: string;
  /**
   * The fstab file to edit; tests point it elsewhere.
   * @default '/etc/fstab'
   */
  readonly fstab?: string;
  /**
   * Mount attempts, 30 s apart, since the server may still be booting.
   * @default 10
   */
  readonly attempts?: number;
}

/**
 * User-data lines that install the Lustre client where `mount.lustre` is missing: on Amazon Linux 2023 the
 * distribution's package `lustre-client` with dnf; on Ubuntu the kernel-matching client modules with apt, from AWS's
 * FSx for Lustre client repository when it is configured; else an ATTENTION line naming the kernel.
 */
export const LUSTRE_CLIENT_INSTALL: readonly string[] = [
  'if ! PATH="$PATH:/sbin:/usr/sbin" command -v mount.lustre >/dev/null; then',
  '  if command -v dnf >/dev/null; then dnf install -y -q lustre-client',
  '  elif command -v apt-get >/dev/null; then',
  '    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "lustre-client-modules-$(uname -r)" ||',
  '      echo "storage-server: ATTENTION no Lustre client package for kernel $(uname -r): configure the AWS FSx for Lustre client repository for this distribution and kernel, or run a kernel it has packages for" >&2',
  '  else echo "storage-server: ATTENTION no Lustre client (mount.lustre) and no dnf or apt-get to install one" >&2; fi',
  'fi',
];

/** The fstab edit alone: it replaces the tagged line in place, dropping repeats, or appends it. */
export function renderFstabUpdate(o: MountUserDataOptions): string[] {
  const fstab = o.fstab ?? '/etc/fstab';
  const tag = ` # storage-server:${o.tag}`;
  const line = `${fstabLine(o.server, o.exportPath, o.mountPoint, hardenMountOptions(o.options), o.fsType)}${tag}`;
  const next = shellQuote(`${fstab}.storage-server.new`);
  // awk reads the values from the environment: `-v` would interpret backslashes in them.
  const program =
    'BEGIN { line = ENVIRON["STORAGE_SERVER_LINE"]; tag = ENVIRON["STORAGE_SERVER_TAG"] } ' +
    '{ n = length($0); t = length(tag) } ' +
    'n >= t && substr($0, n - t + 1) == tag { if (!done) print line; done = 1; next } ' +
    '{ print } END { if (!done) print line }';
  return [
    `# storage-server: mount ${o.server}:${o.exportPath} on ${o.mountPoint} (${o.tag})`,
    `mkdir -p ${shellQuote(o.mountPoint)}`,
    `STORAGE_SERVER_LINE=${shellQuote(line)} STORAGE_SERVER_TAG=${shellQuote(tag)} awk '${program}' ${shellQuote(fstab)} >${next} && ` +
      `cat ${next} >${shellQuote(fstab)} && rm -f ${next}`,
  ];
}

/**
 * User-data lines: the fstab edit, then the mount, retried while the server may still be starting, a bounded time;
 * then, unmounted, an `ATTENTION NOT-READY` line and exit 1, which ends the user data. A kernel may refuse
 * `nconnect`: mount.nfs exits 32, "an incorrect mount option was specified", per docs/sources/nconnect.md. The tagged
 * line is then rewritten without it, with a note, and mounted at once without it, so that no later boot fails on it.
 */
export function renderMountUserData(o: MountUserDataOptions): string[] {
  const attempts = o.attempts ?? 10;
  const mountPoint = shellQuote(o.mountPoint);
  const fstab = shellQuote(o.fstab ?? '/etc/fstab');
  const next = shellQuote(`${o.fstab ?? '/etc/fstab'}.storage-server.new`);
  // The tagged line less nconnect=N, where awk reads the tag from the environment; exit 1 when that line has none.
  const dropNconnect =
    'BEGIN { tag = ENVIRON["STORAGE_SERVER_TAG"] } { n = length($0); t = length(tag) } ' +
    'n >= t && substr($0, n - t + 1) == tag && /nconnect=/ { sub(/,nconnect=[0-9]+/, ""); sub(/ nconnect=[0-9]+,/, " "); done = 1 } ' +
    '{ print } END { exit !done }';
  return [
    ...(o.fsType === 'lustre' ? LUSTRE_CLIENT_INSTALL : []),
    ...renderFstabUpdate(o),
    'systemctl daemon-reload 2>/dev/null || true',
    'mounted=0',
    `for attempt in $(seq ${attempts}); do`,
    `  rc=0; findmnt -rn --mountpoint ${mountPoint} >/dev/null || out=$(mount -T ${fstab} ${mountPoint} 2>&1) || rc=$?`,
    '  if [ "$rc" -eq 0 ]; then',
    `    echo "storage-server: ${o.server}:${o.exportPath} mounted on ${o.mountPoint}"; mounted=1; break`,
    '  fi',
    `  printf '%s\\n' "$out" >&2`,
    '  if [ "$rc" -eq 32 ] && case "$out" in *"incorrect mount option"*) true ;; *) false ;; esac &&',
    `    STORAGE_SERVER_TAG=${shellQuote(` # storage-server:${o.tag}`)} awk '${dropNconnect}' ${fstab} >${next}; then`,
    `    cat ${next} >${fstab} && rm -f ${next}`,
    `    echo "storage-server: nconnect dropped for ${o.mountPoint}: this kernel ($(uname -r)) refuses it (mount.nfs exit 32: $out); its fstab line has no nconnect"`,
    '    continue',
    '  fi',
    `  rm -f ${next}`,
    `  echo "storage-server: mounting ${o.mountPoint} failed (attempt $attempt of ${attempts})" >&2`,
    `  if [ "$attempt" -lt ${attempts} ]; then sleep 30; fi`,
    'done',
    // A node without its storage must not go on to take work: the rest of the user data is skipped, and the exit
    // status is what a creation signal or a lifecycle hook reports (MountOnOptions).
    'if [ "$mounted" -ne 1 ]; then',
    `  echo "storage-server: ATTENTION NOT-READY ${o.tag}: ${o.mountPoint} is not mounted after ${attempts} attempts, 30 s apart" >&2`,
    '  exit 1',
    'fi',
  ];
}

/**
 * `options` with {@link FORCED_MOUNT_OPTIONS}, `nosuid,nodev`, at the end, each once. These are the options the client
 * script writes for a mount config with these options, so that both write the same fstab line. A token is passed on
 * with the two appended, since a repeated flag is harmless to mount.
 */
export function hardenMountOptions(options: string): string {
  const forced: readonly string[] = FORCED_MOUNT_OPTIONS;
  if (Token.isUnresolved(options)) return `${options},${forced.join(',')}`;
  return [...options.split(',').filter((o) => o !== '' && !forced.includes(o)), ...forced].join(',');
}

/** Single-quotes a value for the shell; tokens, such as the server's IP, resolve inside the quotes. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
