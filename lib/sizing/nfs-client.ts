/**
 * What one NFS client can take: the Linux client's `nconnect` and read-ahead, and EC2's per-flow limit. Pure data, no
 * CDK imports. Every figure carries its source, and docs/sources/nconnect.md holds the exact text of each:
 *
 * - [NFSMAN] nfs(5), linux-nfs/nfs-utils utils/mount/nfs.man at 7acc8b94: nconnect "allows the user to specify the
 *   number of connections that should be established between the client and server up to a limit of 16". The kernel's
 *   fs/nfs/fs_context.c has `#define NFS_MAX_CONNECTIONS 16`.
 * - [FSXZFS] Amazon FSx for OpenZFS User Guide, "Performance", in AWS's archive of its source,
 *   https://github.com/awsdocs/amazon-fsx-openzfs-user-guide/blob/347d21da/doc_source/performance.md: "NFS nconnect is
 *   included by default in Linux kernel versions 5.3 and above". Its example mounts with `nconnect=16`.
 * - [EC2-BW] Amazon EC2 User Guide, "Amazon EC2 instance network bandwidth": "Bandwidth for single-flow traffic is
 *   limited to 5 Gbps when instances are not in the same cluster placement group"; "Use a cluster placement group to
 *   achieve up to 10 Gbps bandwidth for instances within the same placement group"; "A single-flow is considered a
 *   unique 5-tuple TCP or UDP flow."
 * - [EFS-RA] Amazon EFS User Guide, "Performance tips", in AWS's archive of its source,
 *   https://github.com/awsdocs/amazon-efs-user-guide/blob/3046dd78/doc_source/performance-tips.md: "Starting with Linux
 *   kernel versions 5.4.*, the Linux NFS client uses a default read_ahead_kb value of 128 KB. We recommend increasing
 *   this value to 15 MB." AWS's efs-utils sets 15 x rsize, 15360 KiB for rsize=1 MiB, as does the udev rule
 *   53-ec2-read-ahead-kb.rules of amazonlinux/amazon-ec2-utils.
 */

/** Largest `nconnect` the Linux client accepts. [NFSMAN] */
export const NFS_MAX_NCONNECT = 16;

/**
 * The `nconnect` clients mount with unless told otherwise: the Linux maximum, and AWS's example for FSx for OpenZFS
 * [FSXZFS]. Each connection is its own TCP 5-tuple, so its own EC2 flow [EC2-BW]. 16 flows lift one mount's bound from
 * 5 Gbps to 80 Gbps: a bound derived from [EC2-BW], not a figure AWS publishes for NFS.
 */
export const DEFAULT_NCONNECT = 16;

/** One TCP flow between instances outside a cluster placement group, Gbps. [EC2-BW] */
export const SINGLE_FLOW_GBPS = 5;

/** One TCP flow between instances in the same cluster placement group, Gbps; AWS says "up to". [EC2-BW] */
export const SINGLE_FLOW_PLACEMENT_GROUP_GBPS = 10;

/** First upstream Linux kernel with `nconnect`; distributions backport it, as RHEL 8.3 and SLES 12 SP4 do. [FSXZFS] */
export const NCONNECT_KERNEL = '5.3';

/** NFS read-ahead the clients set, KiB: 15 x rsize at rsize = 1 MiB, as AWS's efs-utils does. [EFS-RA] */
export const DEFAULT_READ_AHEAD_KIB = 15 * 1024;

/** The Linux NFS client's own read-ahead since kernel 5.4, KiB. [EFS-RA] */
export const KERNEL_NFS_READ_AHEAD_KIB = 128;
