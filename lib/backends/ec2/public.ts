/**
 * The public names of the EC2 server's backends, ebs and instance-store, which lib/index.ts exports whole: the facade's
 * option group and what its monitoring watches.
 */
export { NfsExportMode, NfsVersion } from '../ec2-nfs-server-props';
export type { NfsOptions } from '../ec2-nfs-server-props';
export { MonitoredEc2Server } from './monitoring';
export type { MonitoredEc2ServerProps } from './monitoring';
