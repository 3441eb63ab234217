import { ArnFormat, Aws, Stack, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { DEFAULT_PARAMETER_PREFIX, storagePath } from '../../../lambda/register/contract';
import { iam5 } from '../../handler-function';
import { serverMetricNamespace } from '../../server-metrics';
import { SERVER_ID_TAG } from '../backend';
import type { Ec2NfsServerProps } from './props';

// The EC2 server's instance role: Session Manager and Run Command through the AWS managed policy, narrowed by
// explicit denies to its own parameters and settings document; its own metrics; and the take-over of its own
// volumes and interface.

/**
 * Builds the instance role `Role`: AmazonSSMManagedInstanceCore, parameter reads denied outside the server's own
 * path, metrics published in the server's namespace only.
 */
export function serverRole(scope: Construct, p: Ec2NfsServerProps): iam.Role {
  const { server: props, clusterName, serverName } = p;
  const role = new iam.Role(scope, 'Role', {
    assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
    description: `Instance role of NFS storage server ${serverName}`,
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AmazonSSMManagedInstanceCore')],
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AmazonSSMManagedInstanceCore]',
    reason: 'AmazonSSMManagedInstanceCore is the AWS-maintained minimum for Session Manager and Run Command, which replace SSH and run the snapshot freeze scripts.',
  });
  // The managed policy lets the instance read every SSM parameter of the account. The server reads none, since its
  // settings arrive in its apply document. So parameter reads are denied outside its own path, and an explicit deny
  // wins over the managed policy's allow.
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'ParameterReadsOnlyOwnPath',
    effect: iam.Effect.DENY,
    actions: ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:GetParametersByPath', 'ssm:GetParameterHistory'],
    notResources: [Stack.of(scope).formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: `${storagePath(props.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX, clusterName).slice(1)}${serverName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    })],
  }));
  // The CloudWatch agent publishes the server's own metrics of lib/server-metrics.ts, in its own namespace only.
  // PutMetricData has no resource to scope; the namespace condition is what scopes it.
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'PublishOwnMetricsOnly',
    actions: ['cloudwatch:PutMetricData'],
    resources: ['*'],
    conditions: { StringEquals: { 'cloudwatch:namespace': serverMetricNamespace({ clusterName, serverName }) } },
  }));
  return role;
}

/**
 * What the instance role needs for a server to take over its own volumes and interface in storage-attach. It may attach
 * them to itself only, by ec2:SourceInstanceARN equal to the target instance, the pattern of AWS's managed policy
 * AWSEC2VssSnapshotPolicy. It may stop a previous instance of the same server, tagged with this server's identity, and
 * detach them from it. Volumes and interface are named by ARN; describing them has no resource-level permissions in
 * EC2.
 */
export function grantTakeOver(
  role: iam.Role,
  identity: string,
  iface: ec2.CfnNetworkInterface,
  volumes: ec2.Volume[],
  kmsKey: kms.IKey | undefined,
): void {
  const stack = Stack.of(role);
  const arn = (resource: string, resourceName: string): string => stack.formatArn({ service: 'ec2', resource, resourceName });
  const anyInstance = arn('instance', '*');
  const interfaceArn = arn('network-interface', iface.ref);
  const ebs = volumes.length > 0;
  const attach = [...(ebs ? ['ec2:AttachVolume'] : []), 'ec2:AttachNetworkInterface'];
  const detach = [...(ebs ? ['ec2:DetachVolume'] : []), 'ec2:DetachNetworkInterface'];
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'AttachToSelfOnly',
    actions: attach,
    resources: [anyInstance],
    conditions: { ArnLike: { 'ec2:SourceInstanceARN': arn('instance', '${ec2:InstanceId}') } },
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'ReleaseFromPreviousInstanceOfThisServer',
    actions: ['ec2:StopInstances', ...detach],
    resources: [anyInstance],
    conditions: { StringEquals: { [`aws:ResourceTag/${SERVER_ID_TAG}`]: identity } },
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'OwnVolumesAndInterface',
    actions: [...attach, ...detach],
    resources: [interfaceArn, ...volumes.map((v) => arn('volume', v.volumeId))],
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'DescribeWhatItTakesOver',
    actions: [...(ebs ? ['ec2:DescribeVolumes'] : []), 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstances'],
    resources: ['*'],
  }));
  // Attaching a volume encrypted with a customer managed key lets EC2 create a grant on the key for it.
  kmsKey?.grant(role, 'kms:CreateGrant').principalStatement?.addCondition('Bool', { 'kms:GrantIsForAWSResource': true });
  Validations.of(role).acknowledge({
    id: iam5(role, anyInstance),
    reason: 'Instance ids are not known before the instance exists: attach is limited to the calling instance itself ' +
      '(ec2:SourceInstanceARN), stop and detach to instances tagged as this same server.',
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'ec2:DescribeVolumes, DescribeNetworkInterfaces and DescribeInstances support no resource-level permissions.',
  });
}

/**
 * AmazonSSMManagedInstanceCore lets the instance read every SSM document of the account. Its agent reads the document
 * of the association that targets it, the server's settings, and AWS's own documents for the agent's plugins and
 * Session Manager, whose ARNs carry no account. For the rest, an explicit deny wins over the managed policy's allow.
 */
export function denyOtherDocuments(role: iam.Role, settingsDocument: ssm.CfnDocument): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'DocumentReadsOnlyOwnSettings',
    effect: iam.Effect.DENY,
    actions: ['ssm:GetDocument', 'ssm:DescribeDocument'],
    notResources: [
      Stack.of(role).formatArn({ service: 'ssm', resource: 'document', resourceName: settingsDocument.ref }),
      `arn:${Aws.PARTITION}:ssm:*::document/*`,
    ],
  }));
}
