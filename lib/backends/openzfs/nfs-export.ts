import { Token } from 'aws-cdk-lib';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import { exportCidrs } from '../client-access';
import type { FsxOpenZfsServerRequest } from '../fsx-openzfs-props';

// The root volume's NFS export: who may mount it (the client CIDRs only) and with what options (root squash).

/** At most 25 client configurations in one export (FSx API reference, OpenZFSNfsExport.ClientConfigurations). */
export const MAX_OPENZFS_EXPORT_CLIENTS = 25;

/**
 * The options of each client of the export, exports(5) words: `rw` and `crossmnt` as FSx's own default
 * client configuration has them ("crossmnt is used by default. If you don't specify crossmnt when changing the
 * client configuration, you won't be able to see or access snapshots in your file system's snapshot directory";
 * `sync` is FSx's default too and stays so: FSx API reference, OpenZFSClientConfiguration.Options), and
 * `root_squash`, or `no_root_squash` with `fsxOpenZfs.rootSquash` false.
 */
export function exportOptions(rootSquash: boolean): string[] {
  return ['rw', 'crossmnt', rootSquash ? 'root_squash' : 'no_root_squash'];
}

/**
 * The root volume's one NFS export: each client CIDR (`clientCidrs`, or the VPC's CIDR) with {@link exportOptions};
 * never FSx's default `*`. An export names addresses only: with `clientPeers` and no `clientCidrs` it lists the
 * VPC's CIDR and the security group admits only those peers, as the EC2 server's export does
 * (lib/backends/client-access.ts).
 */
export function rootVolumeExport(props: FsxOpenZfsServerRequest): fsx.CfnFileSystem.NfsExportsProperty {
  const cidrs = exportCidrs(props);
  if (!Token.isUnresolved(cidrs) && cidrs.length > MAX_OPENZFS_EXPORT_CLIENTS) {
    throw new Error(`clientCidrs: an FSx for OpenZFS export takes at most ${MAX_OPENZFS_EXPORT_CLIENTS} clients, got ${cidrs.length}; ` +
      'give fewer, wider CIDRs.');
  }
  const options = exportOptions(props.fsxOpenZfs?.rootSquash ?? true);
  return { clientConfigurations: cidrs.map((clients) => ({ clients, options })) };
}
