import type { IConstruct } from 'constructs';

// The id of the file system a server was built as, for the stack's outputs. The facade exposes each backend's file
// system as its own public attribute and type; this reads the id of any of them without adding to the public API.

const FILE_SYSTEM_IDS = new WeakMap<IConstruct, string>();

/** Keeps `id`, that of the file system `server` was built as; none for an NFS server. */
export function keepFileSystemId(server: IConstruct, id: string | undefined): void {
  if (id !== undefined) FILE_SYSTEM_IDS.set(server, id);
}

/** The id of the file system `server` was built as, `fs-...`; undefined for an NFS server. */
export function fileSystemIdOf(server: IConstruct): string | undefined {
  return FILE_SYSTEM_IDS.get(server);
}
