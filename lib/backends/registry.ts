import type { Backend } from '../../lambda/register/contract';
import { EC2_NFS_PLUGIN } from './ec2-nfs-server';
import { FSX_LUSTRE_PLUGIN } from './fsx-lustre';
import { FSX_OPENZFS_PLUGIN } from './fsx-openzfs';
import type { BackendPlugin } from './plugin';

// Every backend the planner may choose, and what builds it. The facade builds through this table alone, and a
// backend of the records' BACKENDS without a line here fails to compile.

/** The plugin of each backend. */
export const BACKEND_PLUGINS: { readonly [B in Backend]: BackendPlugin } = {
  'ebs': EC2_NFS_PLUGIN,
  'instance-store': EC2_NFS_PLUGIN,
  'fsx-lustre': FSX_LUSTRE_PLUGIN,
  'fsx-openzfs': FSX_OPENZFS_PLUGIN,
};

/** Each plugin once, in the table's order: the facade asks each in turn about the props and the plan. */
export const DISTINCT_PLUGINS: readonly BackendPlugin[] = [...new Set(Object.values(BACKEND_PLUGINS))];
