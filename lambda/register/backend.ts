/**
 * The storage backends: where a server's data lives. Named by the registration's records, the planner and the
 * update guard's layout, so it sits below all of them.
 *
 * Dependency-free on purpose: it is bundled into the Lambdas and imported by the construct at synth time.
 */

/** The storage backends a record may name. */
export const BACKENDS = ['ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'] as const;
/**
 * Where the data lives: durable EBS st1 volumes (`ebs`), the instance's local disks, lost on stop
 * (`instance-store`), or an Amazon FSx for Lustre file system, a managed parallel file system, beyond what one
 * server holds or sustains (`fsx-lustre`). The planner's, the records' and the update guard's backend.
 */
export type Backend = (typeof BACKENDS)[number];

/** A storage backend: one of {@link BACKENDS}. */
export function validateBackend(field: string, value: string): asserts value is Backend {
  if (!(BACKENDS as readonly string[]).includes(value)) {
    throw new Error(`${field} must be one of ${BACKENDS.join(', ')}, got ${JSON.stringify(value)}`);
  }
}
