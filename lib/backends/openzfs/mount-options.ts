import { DEFAULT_NCONNECT } from '../../sizing/nfs-client';

// The client mount options of an FSx for OpenZFS file system.

/**
 * The largest `rsize` and `wsize` a file system of `throughputCapacityMBps` accepts, bytes: "rsize=1048576 ... Due to
 * lower memory capacity on file systems with 64 MB/s and 128 MB/s of provisioned throughput, these file systems will
 * only accept a maximum rsize of 262144 and 524288 bytes, respectively", and wsize likewise. The source is the Amazon
 * FSx for OpenZFS User Guide, "Performance", "Other recommended mount options", in AWS's archive of its source:
 * https://github.com/awsdocs/amazon-fsx-openzfs-user-guide/blob/56a97b87/doc_source/performance.md
 */
export function openZfsTransferSize(throughputCapacityMBps: number): number {
  if (throughputCapacityMBps <= 64) return 262_144;
  if (throughputCapacityMBps <= 128) return 524_288;
  return 1_048_576;
}

/**
 * Client mount options of FSx for OpenZFS: AWS's recommendations for Linux clients in the same guide, "Performance",
 * "Tips for maximizing performance".
 * - `nconnect=16`: "NFS clients can use the nconnect mount option to have multiple TCP connections (up to 16)", with
 *   the example `-o nconnect=16`.
 * - `rsize` and `wsize` at {@link openZfsTransferSize}, `timeo=600` and `_netdev`, from "Other recommended mount
 *   options".
 * - `nfsvers=4.1`: FSx for OpenZFS serves NFS v3, v4.0, v4.1 and v4.2, and the guide says to "ensure your clients are
 *   mounting with NFS v4.0 or higher". NFSv4.1 is what the project's NFS servers use, with its sessions and read
 *   delegations.
 * - `hard,retrans=2`, as the project's NFS mounts have them by AWS's EFS convention.
 * - `nosuid,nodev`, as on every mount of this project.
 *
 * The client mount script drops `nconnect` on a kernel that refuses it, as for the EC2 server's records; see
 * docs/sources/nconnect.md.
 */
export function openZfsMountOptions(throughputCapacityMBps: number): string {
  const size = openZfsTransferSize(throughputCapacityMBps);
  return `nfsvers=4.1,rsize=${size},wsize=${size},hard,timeo=600,retrans=2,nconnect=${DEFAULT_NCONNECT},_netdev,nosuid,nodev`;
}
