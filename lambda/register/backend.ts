/**
 * The storage backends: where a server's data lives. Named by the registration's records, the planner and the
 * update guard's layout, so it sits below all of them.
 *
 * Dependency-free on purpose: it is bundled into the Lambdas and imported by the construct at synth time.
 */

/** The storage backends a record may name. */
export const BACKENDS = ['ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'] as const;
/**
 * Where the data lives; the planner, the records and the update guard share this list, and the public API names it as
 * the enum `Backend` (lib/backend-enum.ts).
 * - `ebs`: durable EBS st1 volumes.
 * - `instance-store`: the instance's local disks, lost on stop.
 * - `fsx-lustre`: an Amazon FSx for Lustre file system, a managed parallel file system for more than one server holds
 *   or sustains.
 * - `fsx-openzfs`: an Amazon FSx for OpenZFS file system, managed NFS.
 */
export type Backend = (typeof BACKENDS)[number];

/**
 * Storage a cluster mounts that this project did not deploy (docs/plans/issue-45-existing-storage.md): an Amazon EFS
 * file system, mounted over NFS by its DNS name, and an NFS server by its address. A record may name them; the
 * planner, the update guard and the backend registry do not, since nothing of them is built.
 */
export const EXISTING_BACKENDS = ['efs', 'nfs'] as const;
/** What a record's `backend` may say: a backend this project deploys, or storage that exists already. */
export const RECORD_BACKENDS = [...BACKENDS, ...EXISTING_BACKENDS] as const;
/** A backend of {@link RECORD_BACKENDS}. */
export type RecordBackend = (typeof RECORD_BACKENDS)[number];

/**
 * The backends that register an Amazon FSx file system, by its id and DNS name, instead of an EC2 instance. Clients
 * mount FSx for Lustre with the Lustre client and FSx for OpenZFS over NFS by its DNS name.
 */
export const FSX_BACKENDS = ['fsx-lustre', 'fsx-openzfs'] as const;
/** A backend of {@link FSX_BACKENDS}. */
export type FsxBackend = (typeof FSX_BACKENDS)[number];

/** Whether `backend` registers an FSx file system: one of {@link FSX_BACKENDS}. */
export function isFsxBackend(backend: unknown): backend is FsxBackend {
  return (FSX_BACKENDS as readonly unknown[]).includes(backend);
}

/** A storage backend: one of {@link BACKENDS}. */
export function validateBackend(field: string, value: string): asserts value is Backend {
  if (!(BACKENDS as readonly string[]).includes(value)) {
    throw new Error(`${field} must be one of ${BACKENDS.join(', ')}, got ${JSON.stringify(value)}`);
  }
}
