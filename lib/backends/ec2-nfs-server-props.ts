// The backend's public option group, the facade's `nfs`; BackendInputs in ./plugin.ts is what it is built from. Its
// closed sets are enums, which jsii keeps as types in the other languages, with the strings the server's config takes.

/** When the NFS server acknowledges a write. */
export enum NfsExportMode {
  /** After the write is on disk: no acknowledged write is lost when the server crashes. */
  SYNC = 'sync',
  /** Before the write is on disk: faster writes, but a crash loses those acknowledged. For scratch data only. */
  ASYNC = 'async',
}

/** The NFS version clients mount with: NFSv4 only, which needs TCP 2049 alone, without rpcbind or mountd. */
export enum NfsVersion {
  /** NFSv4.1. */
  V4_1 = '4.1',
  /** NFSv4.2, which adds server-side copy, sparse files and space reservation. */
  V4_2 = '4.2',
}

/** NFS server settings. */
export interface NfsOptions {
  /**
   * nfsd threads.
   * @default - min(256, max(8, 4 x vCPU)), computed on the server by the ParallelCluster rule
   */
  readonly threads?: number;
  /**
   * `sync` never acknowledges a write before it is on disk; `async` is faster for writes but loses
   * acknowledged writes if the server crashes. Choose `async` only for scratch data.
   * @default NfsExportMode.SYNC
   */
  readonly exportMode?: NfsExportMode;
  /**
   * NFS version clients mount with. Only NFSv4 is offered, since it needs TCP 2049 alone, without rpcbind or mountd.
   * @default NfsVersion.V4_1
   */
  readonly version?: NfsVersion;
  /**
   * TCP connections each client opens to this server per mount, the mount option `nconnect` of Linux 5.3 and later,
   * also backported, e.g. to RHEL 8.3. It is a whole number from 1 to 16, `NFS_MAX_NCONNECT`, the Linux limit [NFSMAN].
   * EC2 limits one TCP flow to 5 Gbps, or 10 Gbps in a cluster placement group [EC2-BW], which holds one connection
   * near 600 MB/s; each connection is a flow of its own. `1` writes no `nconnect` option: one connection, the kernel's
   * default. On a node whose kernel refuses the option, the client script drops it, says so, and mounts without it
   * (docs/design.md, section 9). Sources: docs/sources/nconnect.md.
   * @default DEFAULT_NCONNECT: 16, AWS's example for FSx for OpenZFS [FSXZFS-PERF]
   */
  readonly nconnect?: number;
}
