import type { Backend } from '../../lambda/register/contract';
import { FSX_LUSTRE_SIZING } from '../backends/fsx/sizing';
import { FSX_OPENZFS_SIZING } from '../backends/openzfs/sizing';
import type { BackendSizing } from './backend-sizing';
import { EBS_SIZING, INSTANCE_STORE_SIZING } from './ec2-sizing';

// What the planner and the app's context parser know of each backend. The shared planner and lib/context/ read this
// table alone, and a backend of the records' BACKENDS without a line here fails to compile. `satisfies` keeps each
// descriptor's own type, so that the typed context can add each backend's keys through ContextSlices. It is pure, like
// every descriptor it holds, since `npm run plan` loads it and never the CDK. lib/backends/registry.ts holds the
// constructs' plugins.

/**
 * Each backend's descriptor, in the order the cheapest-plan search weighs their candidates and the key table lists
 * their own keys. Of two equally cheap plans, the first weighed wins.
 */
export const BACKEND_SIZING = {
  'instance-store': INSTANCE_STORE_SIZING,
  'fsx-lustre': FSX_LUSTRE_SIZING,
  'ebs': EBS_SIZING,
  'fsx-openzfs': FSX_OPENZFS_SIZING,
} as const satisfies { readonly [B in Backend]: BackendSizing };

/** The backends in the search's order, which is `BACKEND_SIZING`'s. */
export const SEARCH_ORDER = Object.keys(BACKEND_SIZING) as Backend[];
