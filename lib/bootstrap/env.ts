/**
 * The bootstrap's settings file, /etc/storage-server/bootstrap.env, rendered from a checked configuration. It is the
 * one way settings reach the server's script, through the apply document.
 */
import { BootstrapConfig } from './config';
import { BOOTSTRAP_PATHS } from './paths';
import { validateBootstrapConfig } from './validation';

/**
 * The settings file the script reads, /etc/storage-server/bootstrap.env: `KEY='value'` lines with every value
 * single-quoted, and lists space-separated, EBS volumes as `<volume id>:<device>:<GiB>`. The script parses it strictly,
 * with known keys and validated values; it never sources it.
 */
export function renderBootstrapEnv(config: BootstrapConfig): string {
  validateBootstrapConfig(config);
  return [
    `# StorageServer bootstrap settings, read by ${BOOTSTRAP_PATHS.script} at every boot and every apply.`,
    '# Written by the apply document (lib/bootstrap.ts). STORAGE_NFS_THREADS empty: min(256, max(8, 4 x vCPUs)).',
    ...settingsOf(config).map(([k, v]) => `${k}=${shellQuote(v)}`),
    '',
  ].join('\n');
}

/** Each setting the script reads, in the file's order, as its key and its value's text. */
function settingsOf(config: BootstrapConfig): Array<[string, string]> {
  return [
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
    ['STORAGE_ROOT_CLIENT_CIDRS', (config.rootClientCidrs ?? []).join(' ')],
    ['STORAGE_QUOTA_DEFAULT_USER_GIB', config.quotas?.defaultUserGiB === undefined ? '' : String(config.quotas.defaultUserGiB)],
    ['STORAGE_QUOTA_LIMITS', (config.quotas?.limits ?? [])
      .map((l) => [l.type, l.id, l.limitGiB, ...(l.path === undefined ? [] : [l.path])].join(':')).join(' ')],
  ];
}

/** Single-quotes a value for the shell; a token string, which holds no quote, passes through whole. */
function shellQuote(value: string): string {
  return `'${value.split("'").join(`'\\''`)}'`;
}
