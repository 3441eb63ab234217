/**
 * The defaults a server gets when its props or the app's context keys leave them out. It is one table, which the facade
 * in lib/storage-server.ts and the context key table in lib/context/keys.ts both read, so that the construct and the
 * app cannot drift apart. Each is documented on its prop's `@default`.
 */
export const SERVER_DEFAULTS = {
  /** Usable capacity, TiB. */
  capacityTiB: 5,
  /** The cluster the server serves. */
  clusterName: 'cluster',
  /** The server's name in the cluster ring. */
  serverName: 'storage1',
  /** Where clients mount the export. */
  mountPoint: '/data',
} as const;
