/**
 * The public names of the fsx-lustre backend, which lib/index.ts exports whole: the facade's option group, what its
 * monitoring watches, and the request options the planner takes for it.
 */
export type { FsxLustreServerOptions } from '../fsx-lustre-props';
export { MonitoredLustreFileSystem } from './monitoring';
export type { MonitoredLustreFileSystemProps } from './monitoring';
export type { FsxLustreOptions, ResolvedFsxLustreOptions } from './sizing/lustre';
