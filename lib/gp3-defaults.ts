// What a gp3 volume provides when nothing is provisioned: a pure fact, read by the EC2 backend's volumes, the
// monitoring's throughput lines and the stack outputs.

/**
 * gp3's performance when a plan gives none: AWS's SDK model for CreateVolume, "gp3: 3,000 (default) - 80,000 IOPS", and
 * 125 MiB/s, gp3's baseline, per docs/sources/netopt.md, "gp3: facts and exact source text". It is written into the
 * template so that the guard's record and the volume agree.
 */
export const GP3_DEFAULTS = { iops: 3000, throughputMiBps: 125 } as const;
