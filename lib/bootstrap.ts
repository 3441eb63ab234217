/**
 * The storage server's bootstrap, rendered for the server's SSM apply document: the script itself
 * (lib/scripts/storage-bootstrap.sh, a real shell file), the settings file it reads, the systemd unit that runs
 * it at every boot, and the shell step that installs all three and runs it. The user data is a constant
 * loader (renderLoaderUserData): settings never reach the server through user data, so changing one never
 * stops the instance (docs/design.md, section 10). Pure functions, no CDK imports: the construct wires their output,
 * the unit tests check it directly, and the e2e VM tests (test/e2e) run exactly this step in Linux VMs.
 *
 * Values may be unresolved CDK token strings (`${Token[...]}`): they are only ever concatenated into the
 * output, never parsed, so CloudFormation substitutes the real volume ids.
 */
import * as path from 'path';
import { heredocBody, linuxShellDocument, readScript } from './script-file';

/** An EBS data volume as the bootstrap finds it: by volume id (Nitro NVMe serial) or attachment name (Xen). */
export interface EbsVolumeRef {
  /** The volume id, e.g. `vol-0123456789abcdef0`; may be a CDK token string. */
  readonly volumeId: string;
  /** The attachment device name, e.g. `/dev/sdf` (shows up as `/dev/xvdf` on Xen instances). */
  readonly device: string;
  /**
   * The volume's size in GiB as the stack sets it. The bootstrap waits (bounded) until the disk shows at least
   * this size, so that a grown volume is grown on the server in the same apply.
   */
  readonly sizeGiB: number;
}

/** What the bootstrap builds and exports. */
export interface BootstrapConfig {
  /** Where the data lives: EBS volumes, or the instance's local disks. */
  readonly backend: 'ebs' | 'instance-store';
  /** EBS data volumes in stripe order; empty for instance store. */
  readonly ebsVolumes: EbsVolumeRef[];
  /** Block-device-mapping names of the instance-store disks (`/dev/sdb`, ...); empty for EBS. */
  readonly instanceStoreDevices: string[];
  /** Where the logical volume is mounted and exported, e.g. `/export/data`. */
  readonly exportPath: string;
  /** The only clients the export admits (never `*`). */
  readonly clientCidrs: string[];
  /**
   * nfsd threads.
   * @default - on the host at boot: min(256, max(8, 4 x vCPUs))
   */
  readonly nfsThreads?: number;
  /** `sync` never acknowledges a write before it is on disk; `async` is faster and loses acknowledged writes on a crash. */
  readonly exportMode: 'sync' | 'async';
  /** NFS versions the server enables, from `3`, `4.0`, `4.1`, `4.2`. */
  readonly nfsVersions: string[];
  /** LVM stripe size in KiB (a power of two from 4 to 4096). */
  readonly stripeSizeKiB: number;
  /** How long to wait for EBS volumes (and instance-store disks) to appear before failing. */
  readonly volumeWaitSeconds: number;
  /**
   * This server's identity, tagged on the volume group it makes (`storage-server-id:<identity>`): the bootstrap
   * adopts only an array of this identity, or, when `restored`, the one array the restored disks hold.
   * Characters `[A-Za-z0-9_.:/=-]`, at most 200; may be a CDK token string (e.g. the stack name).
   */
  readonly identity: string;
  /** The data volumes were created from snapshots of a server: adopt its array (one array, whole) as ours. */
  readonly restored: boolean;
  /**
   * The server's stable network interface (`eni-...`; may be a CDK token string). On EC2 the bootstrap attaches
   * it, and the EBS data volumes, to the instance it runs on (lib/scripts/storage-attach.sh), taking them over
   * from a previous instance of the same server.
   * @default - no stable interface
   */
  readonly networkInterfaceId?: string;
  /**
   * Encryption of the striped volume by the server itself: `luks2` puts LUKS2 (dm-crypt, aes-xts-plain64, a
   * 512-bit key kept on the server's root volume) between the LV and the XFS, for instance store that the
   * platform does not encrypt (d2's HDDs). Applies when an array is made; an existing array keeps its layout.
   * Only for `instance-store` (EBS volumes are encrypted by EBS).
   * @default 'none'
   */
  readonly encryption?: BootstrapEncryption;
  /**
   * The server's own metrics (lib/server-metrics.ts): the bootstrap runs storage-metrics every minute (heartbeat,
   * file system, nfsd counters to the agent's StatsD listener) and installs and configures the CloudWatch agent.
   * @default - no metrics
   */
  readonly metrics?: BootstrapMetrics;
}

/** What the server's metrics are named by, and the CloudWatch agent's configuration. */
export interface BootstrapMetrics {
  /** The ClusterName dimension (a name of `[A-Za-z0-9_.-]`, at most 64). */
  readonly clusterName: string;
  /** The ServerName dimension. */
  readonly serverName: string;
  /** The CloudWatch agent's JSON configuration (renderAgentConfig), written to /etc/storage-server/cloudwatch-agent.json. */
  readonly agentConfig: string;
}

/** How the bootstrap encrypts the striped volume: see {@link BootstrapConfig.encryption}. */
export type BootstrapEncryption = 'none' | 'luks2';

/** Paths on the server, shared by the apply step, the unit and the script. */
export const BOOTSTRAP_PATHS = {
  script: '/usr/local/sbin/storage-bootstrap',
  /** lib/scripts/storage-attach.sh, beside the bootstrap, which runs it. */
  attach: '/usr/local/sbin/storage-attach',
  /** lib/scripts/storage-metrics.sh, run by the storage-metrics timer the bootstrap installs. */
  metrics: '/usr/local/sbin/storage-metrics',
  /** The CloudWatch agent's configuration (when metrics are on). */
  agentConfig: '/etc/storage-server/cloudwatch-agent.json',
  env: '/etc/storage-server/bootstrap.env',
  unit: '/etc/systemd/system/storage-bootstrap.service',
  /** Written by the script when it fails; its last line becomes the CloudFormation failure reason. */
  failureReason: '/run/storage-server/failure-reason',
} as const;

export const SUPPORTED_NFS_VERSIONS = ['3', '4.0', '4.1', '4.2'];
const SCRIPT_FILE = 'storage-bootstrap.sh';
const ATTACH_FILE = 'storage-attach.sh';
const METRICS_FILE = 'storage-metrics.sh';
const HEREDOC_END = 'STORAGE_BOOTSTRAP_EOF';

/**
 * The settings file the script reads (/etc/storage-server/bootstrap.env): `KEY='value'` lines with every value
 * single-quoted, lists space-separated (EBS volumes as `<volume id>:<device>:<GiB>`). The script parses it
 * strictly (known keys, validated values); it never sources it.
 */
export function renderBootstrapEnv(config: BootstrapConfig): string {
  validate(config);
  const vars: Array<[string, string]> = [
    ['STORAGE_BACKEND', config.backend],
    ['STORAGE_EBS_VOLUMES', config.ebsVolumes.map((v) => `${v.volumeId}:${v.device}:${v.sizeGiB}`).join(' ')],
    ['STORAGE_INSTANCE_STORE_DEVICES', config.instanceStoreDevices.join(' ')],
    ['STORAGE_EXPORT_PATH', config.exportPath],
    ['STORAGE_CLIENT_CIDRS', config.clientCidrs.join(' ')],
    ['STORAGE_NFS_THREADS', config.nfsThreads === undefined ? '' : String(config.nfsThreads)],
    ['STORAGE_EXPORT_MODE', config.exportMode],
    ['STORAGE_NFS_VERSIONS', config.nfsVersions.join(' ')],
    ['STORAGE_STRIPE_KIB', String(config.stripeSizeKiB)],
    ['STORAGE_VOLUME_WAIT_SECONDS', String(config.volumeWaitSeconds)],
    ['STORAGE_IDENTITY', config.identity],
    ['STORAGE_RESTORED', String(config.restored)],
    ['STORAGE_NETWORK_INTERFACE', config.networkInterfaceId ?? ''],
    ['STORAGE_ENCRYPTION', config.encryption ?? 'none'],
    ['STORAGE_METRICS_CLUSTER', config.metrics?.clusterName ?? ''],
    ['STORAGE_METRICS_SERVER', config.metrics?.serverName ?? ''],
  ];
  return [
    `# StorageServer bootstrap settings, read by ${BOOTSTRAP_PATHS.script} at every boot and every apply.`,
    '# Written by the apply document (lib/bootstrap.ts). STORAGE_NFS_THREADS empty: min(256, max(8, 4 x vCPUs)).',
    ...vars.map(([k, v]) => `${k}=${shellQuote(v)}`),
    '',
  ].join('\n');
}

/**
 * The bootstrap script's text. It is read from lib/scripts next to this module (`<dir>/scripts/`), or, when
 * this module runs compiled from another directory such as dist/lib, from the source tree's lib/scripts
 * (`<dir>/../../lib/scripts/`). A build that ships the compiled files elsewhere must copy lib/scripts to
 * `scripts/` beside the compiled bootstrap.js.
 */
export function bootstrapScript(): string {
  return readScript(SCRIPT_FILE);
}

/** The systemd unit that runs the bootstrap at every boot. */
export function renderBootstrapUnit(config: BootstrapConfig): string {
  return [
    '[Unit]',
    'Description=StorageServer bootstrap: data disks, striped LVM volume, XFS, NFS export',
    'Wants=network-online.target',
    'After=network-online.target local-fs.target',
    // Deliberately not Before=nfs-server.service: the script starts or reloads nfs-server itself and checks
    // that the export is live, which would deadlock if nfs-server's start waited for this unit. What must
    // precede nfs-server is the mount, and its fstab line says so (x-systemd.before); the export also
    // carries `mp`, so an nfs-server that starts before the mount never exports the bare directory.
    '',
    '[Service]',
    'Type=oneshot',
    'RemainAfterExit=yes',
    `ExecStart=${BOOTSTRAP_PATHS.script}`,
    // Bounded: the wait for volumes, plus installing packages and building the file system.
    `TimeoutStartSec=${unitTimeoutSeconds(config)}`,
    'StandardOutput=journal+console',
    'StandardError=journal+console',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

/**
 * The constant user data of every server: it carries no setting and no script, so that no change of a
 * setting, and no new version of this library, changes it (CloudFormation applies a user-data change by
 * stopping and starting the instance, which empties an instance store). The bootstrap, its settings and its
 * unit arrive through the server's State Manager association ({@link renderApplyDocument}); this only makes
 * sure the SSM agent that runs it is enabled.
 */
export function renderLoaderUserData(): string[] {
  return [
    '# StorageServer (lib/bootstrap.ts): the bootstrap and its settings arrive through this server\'s SSM State',
    '# Manager association, never through user data, so that changing a setting never stops the instance.',
    'if systemctl list-unit-files amazon-ssm-agent.service >/dev/null 2>&1; then',
    '  systemctl enable --now amazon-ssm-agent.service || echo "StorageServer: cannot start amazon-ssm-agent" >&2',
    'elif command -v snap >/dev/null 2>&1; then',
    '  snap start --enable amazon-ssm-agent || echo "StorageServer: cannot start the amazon-ssm-agent snap" >&2',
    'else',
    '  echo "StorageServer: no SSM agent on this image: the storage bootstrap cannot arrive" >&2',
    'fi',
  ];
}

/**
 * The shell step of the apply document: installs the bootstrap script, its settings and its unit (each
 * written to a temporary file and renamed into place), enables the unit for every boot, waits for a run
 * already under way (the boot's), runs the bootstrap again through systemd (the same path as every boot)
 * and prints what it logged. Exits with the bootstrap's status, which the association reports and
 * CloudFormation waits for. POSIX sh, because the SSM agent runs the step with /bin/sh.
 *
 * `extra` are shell lines (bash) run after a successful bootstrap, e.g. the clusterware ring join.
 */
export function renderApplyCommand(config: BootstrapConfig, extra: string[] = []): string {
  const script = compactScript(bootstrapScript());
  const heredoc = (file: string, text: string, mode: string): string[] => {
    return [
      `tmp=$(mktemp ${path.posix.dirname(file)}/.storage-server.XXXXXX)`,
      `cat >"$tmp" <<'${HEREDOC_END}'`,
      heredocBody(file, text, HEREDOC_END, { ssm: true }),
      HEREDOC_END,
      `chmod ${mode} "$tmp" && mv -f "$tmp" ${file}`,
    ];
  };
  const unit = 'storage-bootstrap.service';
  const lines = [
    '#!/bin/sh',
    '# StorageServer apply (lib/bootstrap.ts): the bootstrap, its settings and its unit; then one run.',
    'rc=0',
    '(',
    'set -eu',
    `mkdir -p ${[BOOTSTRAP_PATHS.env, BOOTSTRAP_PATHS.script, BOOTSTRAP_PATHS.unit].map((p) => path.posix.dirname(p)).join(' ')}`,
    ...heredoc(BOOTSTRAP_PATHS.attach, compactScript(readScript(ATTACH_FILE)), '0755'),
    ...heredoc(BOOTSTRAP_PATHS.metrics, compactScript(readScript(METRICS_FILE)), '0755'),
    ...heredoc(BOOTSTRAP_PATHS.script, script, '0755'),
    ...heredoc(BOOTSTRAP_PATHS.env, renderBootstrapEnv(config), '0644'),
    ...(config.metrics ? heredoc(BOOTSTRAP_PATHS.agentConfig, config.metrics.agentConfig, '0644') : []),
    ...heredoc(BOOTSTRAP_PATHS.unit, renderBootstrapUnit(config), '0644'),
    'systemctl daemon-reload',
    `systemctl enable ${unit}`,
    ') || rc=$?',
    'if [ "$rc" -eq 0 ]; then',
    // A run of the boot may still be going (a first boot waits for its volumes): never interrupt it.
    '  n=0',
    `  while [ "$(systemctl show -p ActiveState --value ${unit})" = activating ] && [ "$n" -lt ${Math.ceil(unitTimeoutSeconds(config) / 5)} ]; do sleep 5; n=$((n + 1)); done`,
    '  since=$(date +%s)',
    `  systemctl restart ${unit} || rc=$?`,
    `  journalctl -u ${unit} --since "@$since" -o cat --no-pager 2>/dev/null || true`,
    'fi',
  ];
  if (extra.length > 0) {
    lines.push(
      'if [ "$rc" -eq 0 ]; then',
      '  extra=$(mktemp)',
      `  cat >"$extra" <<'${HEREDOC_END}'`,
      heredocBody('the extra commands', extra.join('\n'), HEREDOC_END, { ssm: true }),
      HEREDOC_END,
      '  bash "$extra" || rc=$?',
      '  rm -f "$extra"',
      'fi',
    );
  }
  lines.push(
    'if [ "$rc" -ne 0 ]; then',
    `  echo "storage bootstrap failed (exit $rc): $(tail -n 1 ${BOOTSTRAP_PATHS.failureReason} 2>/dev/null || echo 'see journalctl -u storage-bootstrap')" >&2`,
    'fi',
    'exit "$rc"',
    '',
  );
  return lines.join('\n');
}

/**
 * The SSM Command document (schema 2.2) the server's State Manager association runs: at creation, and again
 * whenever the stack changes it (a new setting, a grown volume, a new version of the script). Everything
 * the server is configured with is in this document, none of it in user data.
 */
export function renderApplyDocument(config: BootstrapConfig, extra: string[] = []): Record<string, unknown> {
  return linuxShellDocument(
    'StorageServer: installs the storage bootstrap with its settings and runs it (data disks, striped LVM ' +
      'volume, XFS, NFS export); safe to run any number of times.',
    {
      name: 'applyStorageSettings',
      runCommand: [renderApplyCommand(config, extra)],
      // The unit's own bound (volume wait + 1200 s), and the wait for a boot's run before it.
      timeoutSeconds: applyTimeoutSeconds(config),
    },
  );
}

/** How long one apply may take: a boot's run still under way, then one full run of the unit. */
export function applyTimeoutSeconds(config: BootstrapConfig): number {
  return 2 * unitTimeoutSeconds(config) + 60;
}

/** The unit's bound: the wait for volumes, plus installing packages and building the file system. */
function unitTimeoutSeconds(config: BootstrapConfig): number {
  // Taking the volumes and interface over (bounded by the volume wait), waiting for the disks to show, then
  // installing packages and building the file system.
  return 2 * config.volumeWaitSeconds + 1200;
}

/**
 * The script as the apply document carries it: without its comment-only lines (shellcheck directives stay),
 * which keeps the document small; lib/scripts/storage-bootstrap.sh is the documented source. The
 * script has no multi-line strings, so no line that starts with `#` is data.
 */
export function compactScript(script: string): string {
  const [shebang, ...rest] = script.split('\n');
  const code = rest.filter((l) => !/^\s*#(?! shellcheck )/.test(l));
  return [shebang, `# ${SCRIPT_FILE} of the StorageServer project, comments stripped`, ...code].join('\n');
}

/** Single-quotes a value for the shell; a token string (which holds no quote) passes through whole. */
function shellQuote(value: string): string {
  return `'${value.split("'").join(`'\\''`)}'`;
}

function isToken(value: string): boolean {
  return value.includes('${Token[');
}

function validate(c: BootstrapConfig): void {
  const check = (ok: boolean, field: string, value: unknown, rule: string): void => {
    if (!ok) throw new Error(`bootstrap ${field} ${JSON.stringify(value)} is invalid: ${rule}`);
  };
  const concrete = (v: string, re: RegExp): boolean => isToken(v) || re.test(v);
  check(
    c.backend === 'ebs' || c.backend === 'instance-store',
    'backend',
    c.backend,
    "must be 'ebs' or 'instance-store'",
  );
  const ebs = c.backend === 'ebs';
  check(
    c.encryption === undefined || c.encryption === 'none' || (c.encryption === 'luks2' && !ebs),
    'encryption',
    c.encryption,
    ebs ? "must be 'none' for EBS (EBS encrypts the volumes)" : "must be 'none' or 'luks2'",
  );
  check(
    ebs ? c.ebsVolumes.length > 0 : c.ebsVolumes.length === 0,
    'ebsVolumes',
    c.ebsVolumes,
    ebs ? 'the EBS backend needs at least one volume' : 'must be empty for instance store',
  );
  check(
    ebs ? c.instanceStoreDevices.length === 0 : c.instanceStoreDevices.length > 0,
    'instanceStoreDevices',
    c.instanceStoreDevices,
    ebs ? 'must be empty for EBS' : 'the instance-store backend needs at least one device',
  );
  for (const v of c.ebsVolumes) {
    check(
      concrete(v.volumeId, /^vol-[0-9a-f]{8,17}$/),
      'ebsVolumes.volumeId',
      v.volumeId,
      'must look like vol-0123456789abcdef0',
    );
    check(
      concrete(v.device, /^\/dev\/(sd|xvd)[a-z]{1,2}$/),
      'ebsVolumes.device',
      v.device,
      'must be a device name like /dev/sdf',
    );
    check(
      Number.isInteger(v.sizeGiB) && v.sizeGiB >= 1 && v.sizeGiB <= 65536,
      'ebsVolumes.sizeGiB',
      v.sizeGiB,
      'must be a whole number of GiB from 1 to 65536',
    );
  }
  for (const d of c.instanceStoreDevices) {
    check(
      concrete(d, /^\/dev\/(sd|xvd)[a-z]{1,2}$/),
      'instanceStoreDevices',
      d,
      'must be a device name like /dev/sdb',
    );
  }
  const names = [...c.ebsVolumes.map((v) => v.device), ...c.instanceStoreDevices];
  check(new Set(names).size === names.length, 'devices', names, 'each device name may appear only once');
  check(
    concrete(c.exportPath, /^(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/) && !/\/\.\.?(\/|$)/.test(c.exportPath),
    'exportPath',
    c.exportPath,
    "must be an absolute path of letters, digits, '.', '_', '-' (not '/', no '..')",
  );
  check(c.clientCidrs.length > 0, 'clientCidrs', c.clientCidrs, 'at least one client CIDR is required');
  for (const cidr of c.clientCidrs) {
    check(
      concrete(cidr, /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/),
      'clientCidrs',
      cidr,
      "must be a CIDR such as 10.0.0.0/16 (never '*' or a host name)",
    );
  }
  if (c.nfsThreads !== undefined) {
    check(
      Number.isInteger(c.nfsThreads) && c.nfsThreads >= 1 && c.nfsThreads <= 4096,
      'nfsThreads',
      c.nfsThreads,
      'must be a whole number from 1 to 4096',
    );
  }
  check(
    c.exportMode === 'sync' || c.exportMode === 'async',
    'exportMode',
    c.exportMode,
    "must be 'sync' or 'async'",
  );
  check(
    c.nfsVersions.length > 0 &&
      new Set(c.nfsVersions).size === c.nfsVersions.length &&
      c.nfsVersions.every((v) => SUPPORTED_NFS_VERSIONS.includes(v)),
    'nfsVersions',
    c.nfsVersions,
    `must be distinct values from ${SUPPORTED_NFS_VERSIONS.join(', ')}`,
  );
  check(
    Number.isInteger(c.stripeSizeKiB) &&
      c.stripeSizeKiB >= 4 &&
      c.stripeSizeKiB <= 4096 &&
      (c.stripeSizeKiB & (c.stripeSizeKiB - 1)) === 0,
    'stripeSizeKiB',
    c.stripeSizeKiB,
    'must be a power of two from 4 to 4096',
  );
  check(
    concrete(c.identity, /^[A-Za-z0-9_.:/=-]{1,200}$/),
    'identity',
    c.identity,
    'must be 1-200 characters of A-Z a-z 0-9 _ . : / = -',
  );
  check(typeof c.restored === 'boolean', 'restored', c.restored, 'must be true or false');
  if (c.metrics !== undefined) {
    for (const [field, value] of [['clusterName', c.metrics.clusterName], ['serverName', c.metrics.serverName]] as const) {
      check(concrete(value, /^[A-Za-z0-9_.-]{1,64}$/), `metrics.${field}`, value, 'must be 1-64 characters of A-Z a-z 0-9 _ . -');
    }
  }
  if (c.networkInterfaceId !== undefined) {
    check(
      concrete(c.networkInterfaceId, /^eni-[0-9a-f]{8,17}$/),
      'networkInterfaceId',
      c.networkInterfaceId,
      'must look like eni-0123456789abcdef0',
    );
  }
  check(
    Number.isInteger(c.volumeWaitSeconds) && c.volumeWaitSeconds >= 0 && c.volumeWaitSeconds <= 86400,
    'volumeWaitSeconds',
    c.volumeWaitSeconds,
    'must be a whole number from 0 to 86400',
  );
}
