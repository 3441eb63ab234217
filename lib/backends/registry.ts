import type { Backend } from '../../lambda/register/contract';
import { BACKEND_SIZING } from '../sizing/registry';
import type { BackendPlugin } from './plugin';

// The facade's view of the one registry, lib/sizing/registry.ts: each backend's descriptor loads its plugin.

/** The plugin of each backend. */
export const BACKEND_PLUGINS = Object.fromEntries(
  Object.entries(BACKEND_SIZING).map(([backend, sizing]) => [backend, sizing.plugin()]),
) as { readonly [B in Backend]: BackendPlugin };

/** Each plugin once, in the registry's order: the facade asks each in turn about the props and the plan. */
export const DISTINCT_PLUGINS: readonly BackendPlugin[] = [...new Set(Object.values(BACKEND_PLUGINS))];
