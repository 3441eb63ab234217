import { Token } from 'aws-cdk-lib';
import { describe } from '../sizing/describe';
import type * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { IDependable } from 'constructs';
import { LUSTRE_PORTS } from '../backends/fsx/network';
import type { FsType } from '../../lambda/register/contract';
import { renderMountUserData } from './user-data';
import { ValueRule, ruleText, valueProblem } from '../../lambda/value-check/contract';

/**
 * `StorageServer.mountOn`: one server's export mounted on one instance or Auto Scaling group through its user data,
 * and the target admitted to the server's port.
 */

/** A storage server as {@link mountStorageOn} needs it: the public attributes of `StorageServer`. */
export interface MountableStorageServer extends ec2.IConnectable {
  /** The cluster the server serves; with `serverName` it tags the fstab line as `<cluster>/<server>`. */
  readonly clusterName: string;
  /** The server's name in the cluster ring; with `clusterName` it tags the fstab line. */
  readonly serverName: string;
  /**
   * What clients mount: the NFS server's private IP, or the FSx for Lustre file system's DNS name; tokens until deploy.
   */
  readonly mountAddress: string;
  /**
   * How to mount it: `nfs4`, or `lustre`, where the user data then installs the Lustre client if it is missing.
   * @default 'nfs4'
   */
  readonly fsType?: FsType;
  /** The directory the server exports, e.g. `/export/data`. */
  readonly exportPath: string;
  /** The directory clients mount the export on unless {@link MountOnOptions.mountPoint} says otherwise. */
  readonly mountPoint: string;
  /** NFS mount options for the fstab line, e.g. `nfsvers=4.1,rsize=1048576,...`. */
  readonly mountOptions: string;
  /**
   * Completes when the export is live; the target is created after it so that its first boot can mount.
   * @default - no dependency: the target may boot before the export is live, and its user data retries the mount 10
   * times, 30 s apart
   */
  readonly ready?: IDependable;
}

/** Options of {@link StorageServer.mountOn}. */
export interface MountOnOptions {
  /**
   * Directory to mount the export on: outside the system directories, such as `/etc` or `/usr`; not a token.
   * @default - the server's mountPoint
   */
  readonly mountPoint?: string;
}

/**
 * Mounts `server`'s export on an EC2 instance or on every instance of an Auto Scaling group. It adds to the target's
 * user data the mount point, an idempotent fstab line and a mount with retries, and admits the target to the server's
 * NFS port. The fstab line is tagged like the client mount script's, so the two never duplicate it. It uses the
 * server's private IP directly, with no SSM lookup, so no IAM is needed.
 */
export function mountStorageOn(
  server: MountableStorageServer,
  target: ec2.Instance | autoscaling.AutoScalingGroup,
  options: MountOnOptions = {},
): void {
  const mountPoint = options.mountPoint ?? server.mountPoint;
  // Nothing checks a token here at deploy, and the user data that names it is rendered now.
  if (Token.isUnresolved(mountPoint)) {
    throw new Error(
      `mountPoint must be a concrete string, not a token: the mount point is checked and written into the user data at synth, got ${mountPoint}`,
    );
  }
  validateMountPoint('mountPoint', mountPoint);
  if (target.osType !== ec2.OperatingSystemType.LINUX) {
    throw new Error(
      `target ${target.node.path} must run Linux (its osType is ${ec2.OperatingSystemType[target.osType]}); ` +
        'the mount is added to its user data as shell commands.',
    );
  }
  target.addUserData(
    ...renderMountUserData({
      server: server.mountAddress,
      fsType: server.fsType,
      exportPath: server.exportPath,
      mountPoint,
      options: server.mountOptions,
      tag: `${server.clusterName}/${server.serverName}`,
    }),
  );
  server.connections.allowDefaultPortFrom(target, `${server.fsType === 'lustre' ? 'Lustre' : 'NFSv4'} from ${target.node.path}`);
  // Lustre's file servers call their clients back, and their group allows no other outbound traffic: LUSTRE-EGRESS.
  if (server.fsType === 'lustre') {
    for (const port of LUSTRE_PORTS) server.connections.allowTo(target, port, `Lustre to ${target.node.path}`);
  }
  if (server.ready) target.node.addDependency(server.ready);
}

/** The rule an imported server's mountPoint meets, so that no mount point, the server's or the one asked for, hides a system directory. */
function validateMountPoint(prop: string, value: string): void {
  const problem = valueProblem(ValueRule.MOUNT_POINT, value, { allowPublic: false });
  if (problem !== undefined) {
    throw new Error(`${prop} must be ${ruleText(ValueRule.MOUNT_POINT, { allowPublic: false })}, got ${describe(value)}: ${problem}.`);
  }
}
