/**
 * The public names of the fsx-openzfs backend, which lib/index.ts exports whole: the facade's option group, what its
 * monitoring watches, and the request options and plan the planner carries for it.
 */
export type { FsxOpenZfsServerOptions } from '../fsx-openzfs-props';
export { MonitoredOpenZfsFileSystem } from './monitoring';
export type { MonitoredOpenZfsFileSystemProps } from './monitoring';
export { FsxOpenZfsDeploymentType } from './sizing/options';
export type { FsxOpenZfsOptions, FsxOpenZfsPlan } from './sizing/options';
