/**
 * The systemd unit that runs the storage server's bootstrap at every boot, and the time bounds that follow from it: the
 * unit's own, and that of one apply, which may first wait for a boot's run.
 */
import { BootstrapConfig } from './config';
import { BOOTSTRAP_PATHS } from './paths';

/** The systemd unit that runs the bootstrap at every boot. */
export function renderBootstrapUnit(config: BootstrapConfig): string {
  return [
    '[Unit]',
    'Description=StorageServer bootstrap: data disks, striped LVM volume, XFS, NFS export',
    'Wants=network-online.target',
    'After=network-online.target local-fs.target',
    // Deliberately not Before=nfs-server.service: the script starts or reloads nfs-server itself and checks that the
    // export is live, which would deadlock if nfs-server's start waited for this unit. What must precede nfs-server is
    // the mount, and its fstab line says so with x-systemd.before. The export also carries `mp`, so an nfs-server that
    // starts before the mount never exports the bare directory.
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

/** How long one apply may take: a boot's run still under way, then one full run of the unit. */
export function applyTimeoutSeconds(config: BootstrapConfig): number {
  return 2 * unitTimeoutSeconds(config) + 60;
}

/** The unit's bound: the wait for volumes, plus installing packages and building the file system. */
export function unitTimeoutSeconds(config: BootstrapConfig): number {
  // Taking the volumes and interface over, bounded by the volume wait; waiting for the disks to show; then installing
  // packages and building the file system.
  return 2 * config.volumeWaitSeconds + 1200;
}
