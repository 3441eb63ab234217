import { ArnFormat, type CfnResource, Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
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
  /**
   * Send the target's CloudFormation creation signal when its user data ends: failure when the mount did not succeed
   * within its attempts, so that the instance or group fails to create instead of running without its storage. It uses
   * aws-cdk-lib's `UserData.addSignalOnExitCommand` (cfn-signal, AWS's aws-cfn-bootstrap, which Amazon Linux ships). An
   * instance without a CreationPolicy gets one waiting 15 minutes for one signal; a group must have one from its
   * `signals` prop. Signal once per target: give it on one `mountOn` call.
   * @default false
   */
  readonly signalCreation?: boolean;
  /**
   * For an Auto Scaling group: the name of its launch lifecycle hook (`autoscaling:EC2_INSTANCE_LAUNCHING`), which the
   * user data completes when it ends, CONTINUE when every mount succeeded and ABANDON otherwise, so that the group
   * replaces an instance without its storage. The group's role is allowed `autoscaling:CompleteLifecycleAction` on the
   * group alone (by a tag this puts on it) and `autoscaling:DescribeAutoScalingInstances` to find its name; the node
   * needs the AWS CLI.
   * @default - no lifecycle hook is completed
   */
  readonly lifecycleHookName?: string;
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
  if (options.signalCreation) signalCreation(target);
  if (options.lifecycleHookName !== undefined) completeLifecycleAction(target, options.lifecycleHookName);
}

/**
 * Signals the target's creation with the user data's exit status. An instance is given a CreationPolicy waiting for it
 * unless it has one; a group must have one already, from its `signals` prop, which knows how many instances to wait for.
 */
function signalCreation(target: ec2.Instance | autoscaling.AutoScalingGroup): void {
  const resource = target.node.defaultChild as CfnResource;
  const policy = resource.cfnOptions.creationPolicy;
  if (policy?.resourceSignal === undefined) {
    if (!(target instanceof ec2.Instance)) {
      throw new Error(
        `signalCreation: the Auto Scaling group ${target.node.path} waits for no signal; give it ` +
          '`signals: autoscaling.Signals.waitForAll()` (or waitForMinCapacity) so that CloudFormation counts one per instance',
      );
    }
    resource.cfnOptions.creationPolicy = { ...policy, resourceSignal: { count: 1, timeout: 'PT15M' } };
  }
  target.userData.addSignalOnExitCommand(target);
}

/**
 * Completes the group's launch lifecycle action when the user data ends: CONTINUE on exit status 0, else ABANDON. The
 * instance's id comes from the instance metadata service (IMDSv2) and its group's name from Auto Scaling, since the
 * group's own name in its launch template's user data would make the group depend on itself. The permission names
 * the group by a tag this construct puts on it alone.
 */
function completeLifecycleAction(target: ec2.Instance | autoscaling.AutoScalingGroup, hookName: string): void {
  if (target instanceof ec2.Instance) throw new Error('lifecycleHookName is for an Auto Scaling group; an instance has no lifecycle hook');
  if (!Token.isUnresolved(hookName) && !LIFECYCLE_HOOK_NAME.test(hookName)) {
    throw new Error(`lifecycleHookName must be 1-255 characters of A-Z a-z 0-9 - _ /, got ${JSON.stringify(hookName)}`);
  }
  const imds = 'http://169.254.169.254/latest';
  const region = Stack.of(target).region;
  target.userData.addOnExitCommands(
    `token=$(curl -sf -X PUT ${imds}/api/token -H 'X-aws-ec2-metadata-token-ttl-seconds: 60')`,
    `instance=$(curl -sf -H "X-aws-ec2-metadata-token: $token" ${imds}/meta-data/instance-id)`,
    `group=$(aws autoscaling describe-auto-scaling-instances --region ${region} --instance-ids "$instance" ` +
      "--query 'AutoScalingInstances[0].AutoScalingGroupName' --output text)",
    'if [ "$exitCode" -eq 0 ]; then result=CONTINUE; else result=ABANDON; fi',
    `aws autoscaling complete-lifecycle-action --region ${region} --auto-scaling-group-name "$group" ` +
      `--lifecycle-hook-name '${hookName}' --instance-id "$instance" --lifecycle-action-result "$result" || ` +
      'echo "storage-server: ATTENTION the lifecycle action could not be completed" >&2',
  );
  Tags.of(target).add(GROUP_TAG, target.node.addr, { applyToLaunchedInstances: false });
  target.addToRolePolicy(new iam.PolicyStatement({
    actions: ['autoscaling:CompleteLifecycleAction'],
    resources: [Stack.of(target).formatArn({ service: 'autoscaling', resource: 'autoScalingGroup', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
    conditions: { StringEquals: { [`aws:ResourceTag/${GROUP_TAG}`]: target.node.addr } },
  }));
  // DescribeAutoScalingInstances takes no resource: the Service Authorization Reference lists it wildcard-only.
  const describe = new iam.PolicyStatement({ actions: ['autoscaling:DescribeAutoScalingInstances'], resources: ['*'] });
  target.addToRolePolicy(describe);
  Validations.of(target).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'autoscaling:DescribeAutoScalingInstances supports no resource-level permissions; CompleteLifecycleAction is held to this group by its tag.',
  });
}

/** A lifecycle hook's name, as the Auto Scaling API reference's pattern gives it. */
const LIFECYCLE_HOOK_NAME = /^[A-Za-z0-9\-_/]{1,255}$/;
/** The tag that names the group a lifecycle action may be completed on. */
const GROUP_TAG = 'storage-server:lifecycle-group';

/** The rule an imported server's mountPoint meets, so that no mount point, the server's or the one asked for, hides a system directory. */
function validateMountPoint(prop: string, value: string): void {
  const problem = valueProblem(ValueRule.MOUNT_POINT, value, { allowPublic: false });
  if (problem !== undefined) {
    throw new Error(`${prop} must be ${ruleText(ValueRule.MOUNT_POINT, { allowPublic: false })}, got ${describe(value)}: ${problem}.`);
  }
}
