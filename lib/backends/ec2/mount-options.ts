import { DEFAULT_NCONNECT } from '../../sizing/nfs-client';

// The EC2 NFS server's export path default and the client mount options it publishes.

/** The directory the server exports when `exportPath` is not given. */
export const DEFAULT_EXPORT_PATH = '/export/data';

/**
 * Client mount options, by the convention AWS uses for EFS in the Amazon EFS User Guide's "Mount settings used by EFS
 * mount helper", less `noresvport`, plus `nosuid,nodev`, and `nconnect=<n>` unless `nconnect` is 1. One TCP connection
 * is one EC2 flow of 5 Gbps, per docs/sources/nconnect.md [EC2-BW]. EFS itself takes no nconnect; our knfsd does.
 *
 * The export is `secure`: clients must use a reserved port, so a user without root on a node cannot forge another uid
 * with AUTH_SYS. A Linux NFS server refuses `noresvport` clients on a secure export, as the VM tests show. With
 * `nosuid,nodev`, a setuid binary or a device node planted on the server never gives root on a client. The client mount
 * script adds them to whatever a record says, too.
 */
export function clientMountOptions(version: '4.1' | '4.2', nconnect: number = DEFAULT_NCONNECT): string {
  const connections = nconnect > 1 ? `,nconnect=${nconnect}` : '';
  return `nfsvers=${version},rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2${connections},_netdev,nosuid,nodev`;
}
