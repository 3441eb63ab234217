import { Token } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as fsx from 'aws-cdk-lib/aws-fsx';
import { exportCidrs } from '../client-access';
import type { StorageServerProps } from '../../storage-server/props';

// The root volume's NFS export: who may mount it, the client CIDRs only, and with what options, such as root squash.
// Here are the template's constant first export and the real one that lib/backends/openzfs/export-resource.ts applies.

/**
 * At most 25 client configurations in one export, per OpenZFSNfsExport.ClientConfigurations in the FSx API reference:
 * OPENZFS-EXPORT-CLIENTS.
 */
export const MAX_OPENZFS_EXPORT_CLIENTS = 25;

/**
 * The options of each client of the export, in exports(5) words:
 * - `rw` and `crossmnt`, as FSx's own default client configuration has them. OpenZFSClientConfiguration.Options in the
 *   FSx API reference says: "crossmnt is used by default. If you don't specify crossmnt when changing the client
 *   configuration, you won't be able to see or access snapshots in your file system's snapshot directory". `sync` is
 *   FSx's default too, and stays so.
 * - `root_squash`, or `no_root_squash` with `fsxOpenZfs.rootSquash` false.
 */
export function exportOptions(rootSquash: boolean): string[] {
  return ['rw', 'crossmnt', rootSquash ? 'root_squash' : 'no_root_squash'];
}

/** One client configuration of an export, as the FSx API names it: OpenZFSClientConfiguration. */
export interface OpenZfsClientConfiguration {
  readonly Clients: string;
  readonly Options: string[];
}

/**
 * The export the template gives the root volume when FSx creates it: the VPC's CIDR with `rw`, `crossmnt` and
 * `root_squash`, whatever the client settings. CloudFormation replaces the file system on any change of
 * RootVolumeConfiguration, since the resource specification marks every property of it as replacing. So nothing a
 * cluster changes on day 2 may reach it, and UpdateVolume applies the real export right after. It is secure from the
 * first second: never FSx's default `*`, root squashed, and the security group admits only the clients.
 */
export function templateExport(vpc: ec2.IVpc): fsx.CfnFileSystem.NfsExportsProperty {
  return { clientConfigurations: [{ clients: vpc.vpcCidrBlock, options: exportOptions(true) }] };
}

/**
 * The root volume's real NFS export, as UpdateVolume takes it: each client CIDR, `clientCidrs` or the VPC's CIDR, with
 * {@link exportOptions}; never FSx's default `*`. An export names addresses only. With `clientPeers` and no
 * `clientCidrs` it lists the VPC's CIDR, and the security group admits only those peers, as the EC2 server's export
 * does in lib/backends/client-access.ts.
 */
export function rootVolumeExport(props: StorageServerProps): { ClientConfigurations: OpenZfsClientConfiguration[] } {
  const cidrs = exportCidrs(props);
  if (!Token.isUnresolved(cidrs) && cidrs.length > MAX_OPENZFS_EXPORT_CLIENTS) {
    throw new Error(`clientCidrs: an FSx for OpenZFS export takes at most ${MAX_OPENZFS_EXPORT_CLIENTS} clients, got ${cidrs.length}; ` +
      'give fewer, wider CIDRs.');
  }
  const options = exportOptions(props.fsxOpenZfs?.rootSquash ?? true);
  return { ClientConfigurations: cidrs.map((clients) => ({ Clients: clients, Options: options })) };
}
