import type { BackendInputs } from '../plugin';

/** What the EC2 NFS server is built from: the inputs every backend gets, and the defaults its plugin settled. */
export interface Ec2NfsServerProps extends BackendInputs {
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The client mount options the server publishes. */
  readonly mountOptions: string;
}
