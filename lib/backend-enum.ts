/**
 * Where a server's data lives, as an enum of the public API: jsii turns a union of string literals into a plain string
 * in the other languages. Its values are the backends' names the records, the context key `backend` and the templates
 * hold, the literal type Backend of lambda/register, to which an enum value assigns; the library inside keeps that
 * type, and a name becomes an enum value where a public struct is built. It names every backend, as a registry does.
 */
import type { Backend as BackendName } from '../lambda/register/contract';

/** Where a server's data lives. */
export enum Backend {
  /** Durable EBS volumes (st1, or gp3 when a throughput asks for it) striped on one EC2 NFS server. */
  EBS = 'ebs',
  /** The EC2 instance's own HDDs (d2, d3, d3en): the cheapest per TiB, but the data is lost when the instance stops. */
  INSTANCE_STORE = 'instance-store',
  /** An Amazon FSx for Lustre file system, a managed parallel file system beyond what one server holds or sustains. */
  FSX_LUSTRE = 'fsx-lustre',
  /** An Amazon FSx for OpenZFS file system: managed NFS. */
  FSX_OPENZFS = 'fsx-openzfs',
}

// Each backend the records know, to the enum member of that value: a backend added to BACKENDS fails to compile here
// until the enum has it too.
const BACKEND_OF: { readonly [B in BackendName]: Backend } = {
  'ebs': Backend.EBS,
  'instance-store': Backend.INSTANCE_STORE,
  'fsx-lustre': Backend.FSX_LUSTRE,
  'fsx-openzfs': Backend.FSX_OPENZFS,
};

/** The {@link Backend} of a backend's name, for a plan the planner builds. */
export function backendOf(name: BackendName): Backend {
  return BACKEND_OF[name];
}

/** The `backend` of a request or of the props for a name or `auto`: none for `auto`, the planner's choice. */
export function backendOrAuto(name: BackendName | 'auto'): Backend | undefined {
  return name === 'auto' ? undefined : BACKEND_OF[name];
}
