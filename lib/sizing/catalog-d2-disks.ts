/**
 * d2's disk throughput, the one disk figure AWS has published for its dense HDD instance store. The d2 rows of
 * catalog.ts use it, and the d3/d3en estimate of catalog-d3.ts stands on it as a floor. Pure data, no imports.
 *
 * - [FAQ-D2] Amazon EC2 FAQs, Dense-storage instances, in its version before D3, at aws.amazon.com/ec2/faqs/, read in
 *   stored copies of the page: docs/sources/d3.md, section 2 (c). "The largest current generation of Dense-storage
 *   instances, d2.8xlarge, can deliver up to 3.5 GBps read and 3.1 GBps write disk throughput with a 2 MiB block size."
 *   The EC2 User Guide's "Storage optimized instances" never carried the sentence in AWS's documentation repository
 *   over 2018-2023. The current FAQ gives d3en.12xlarge's figure in its place.
 * - [STORAGE] Amazon EC2 User Guide, "Storage optimized instances": d2.8xlarge has 24 disks.
 */

/** Size of one d2 disk, bytes: 2 TB, decimal. [STORAGE] */
export const D2_DISK_BYTES = 2e12;
/** d2.8xlarge's disk count, over which its published throughput is shared. [STORAGE] */
const D2_8XLARGE_DISKS = 24;
/** Sequential read of one d2 disk, MB/s: 3.5 GB/s over d2.8xlarge's 24 disks. [FAQ-D2] */
export const D2_DISK_READ_MBPS = 3500 / D2_8XLARGE_DISKS;
/** Sequential write of one d2 disk, MB/s: 3.1 GB/s over d2.8xlarge's 24 disks. [FAQ-D2] */
export const D2_DISK_WRITE_MBPS = 3100 / D2_8XLARGE_DISKS;
