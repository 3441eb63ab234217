import { Aws, Stack, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as cr from 'aws-cdk-lib/custom-resources';
import { Construct, IConstruct } from 'constructs';

/**
 * The cdk-nag compliance packs the app is held to besides AwsSolutions, in test/unit/gates.test.ts. Their rule ids are
 * `<pack>-<rule>`, and both packs share the rules this project meets, so an acknowledgement names both.
 */
export const COMPLIANCE_PACKS = ['NIST.800.53.R5', 'HIPAA.Security'] as const;

/** Acknowledges one rule of both compliance packs on one construct and the resources under it. */
export function acknowledgeCompliance(scope: IConstruct, rule: string, reason: string): void {
  for (const pack of COMPLIANCE_PACKS) Validations.of(scope).acknowledge({ id: `${pack}-${rule}`, reason });
}

const LOG_KEY_ID = 'StorageServerLogKey';

/**
 * The stack's one customer managed KMS key for CloudWatch Logs, found or created by a fixed id on the Stack. It
 * encrypts the log groups of the registration and update-guard functions and the app's VPC flow logs: NIST 800-53
 * AU-9(3) and SC-28(1), HIPAA 164.312(a)(2)(iv).
 *
 * A design choice: one key costs $1 a month plus requests, so the stack shares one rather than one per log group. Like
 * the log groups under CloudWatch Logs' default removal policy, the key is retained when the stack is deleted, so that
 * retained logs stay readable; schedule its deletion by hand with theirs. It rotates yearly.
 */
export function logEncryptionKey(scope: Construct): kms.IKey {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild(LOG_KEY_ID);
  if (existing instanceof kms.Key) return existing;
  const key = new kms.Key(stack, LOG_KEY_ID, {
    description: `Encrypts the CloudWatch Logs of stack ${stack.stackName} (StorageServer functions, VPC flow logs) and its alarm topics`,
    enableKeyRotation: true,
  });
  // CloudWatch alarms publish to the stack's encrypted alarm topics, made in lib/alarm-topic.ts. CloudWatch cannot use
  // the AWS managed SNS key, and one key per stack keeps the cost at one key.
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'CloudWatchAlarmsOfThisAccount',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
    }),
  );
  // The key policy statement the CloudWatch Logs guide prescribes: the regional Logs service may use the key only for
  // log groups of this account and region, as the encryption context names the log group.
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'CloudWatchLogsOfThisAccountAndRegion',
      principals: [new iam.ServicePrincipal(`logs.${Aws.REGION}.${Aws.URL_SUFFIX}`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
      resources: ['*'],
      conditions: {
        ArnLike: {
          'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*`,
        },
      },
    }),
  );
  return key;
}

/**
 * Acknowledges, on a custom resource's onEvent function and on its Provider framework function, the
 * compliance-pack Lambda rules that do not fit a function only CloudFormation invokes during a deployment.
 * `calls` says what the onEvent function calls, e.g. 'SSM Parameter Store and EC2 DescribeInstances'.
 */
export function acknowledgeCustomResourceFunctions(onEvent: lambda.IFunction, provider: cr.Provider, calls: string): void {
  const framework = provider.node.findChild('framework-onEvent');
  acknowledgeCompliance(onEvent, 'LambdaInsideVPC',
    `A custom resource function that calls ${calls}. Nothing it needs is in a VPC; placing it in one would add ` +
    'network interfaces and, for the AWS endpoints, a NAT gateway or interface endpoints, and protect nothing.');
  acknowledgeCompliance(framework, 'LambdaInsideVPC',
    'The CDK Provider framework function of a custom resource: it invokes the onEvent function (Lambda API) and ' +
    "answers CloudFormation's pre-signed S3 response URL; it reaches nothing in a VPC.");
  acknowledgeCompliance(onEvent, 'LambdaDLQ',
    'Invoked synchronously (RequestResponse) by the Provider framework, and a dead-letter queue only receives failed ' +
    'asynchronous invocations; an error goes back to the framework, which fails the CloudFormation operation with it.');
  acknowledgeCompliance(framework, 'LambdaDLQ',
    'Invoked by CloudFormation for one stack operation; Lambda retries a failed event twice, then the operation fails ' +
    'and rolls back, with the error in the stack events and this function\'s log group. A queued event could not be ' +
    'replayed: its response URL belongs to that operation.');
  for (const fn of [onEvent, framework]) {
    acknowledgeCompliance(fn, 'LambdaConcurrency',
      'Invoked only by CloudFormation, a few times per deployment of this stack, so there is no load to cap; reserving ' +
      'concurrency would take it from the account\'s unreserved pool, and fails to deploy in accounts at the minimum ' +
      'concurrency quota (10).');
  }
}

/**
 * What {@link applyServerCompliance} reads of a server, which a `StorageServer` is: its instance's role, its security
 * groups, its data volumes and their snapshot policy.
 */
export interface CompliantServer {
  /** The EC2 instance, whose role holds the server's inline policy; none for FSx for Lustre. */
  readonly instance?: { readonly role: IConstruct };
  /** The server's security groups. */
  readonly connections: ec2.Connections;
  /** The DLM policy that snapshots the data volumes, and its freeze document when there is one. */
  readonly snapshotPolicy?: IConstruct & { readonly document?: unknown };
  /** The EBS data volumes. */
  readonly dataVolumes: IConstruct[];
}

/**
 * The compliance fixes and acknowledgements of a `StorageServer`'s own resources. It is called at the end of the
 * server's constructor, when every resource it makes exists. `givenSecurityGroup`, the `securityGroup` prop, is the
 * user's, and gets none.
 */
export function applyServerCompliance(server: CompliantServer, givenSecurityGroup?: ec2.ISecurityGroup): void {
  // The server role's inline policy holds the statements this server's constructs add through grants.
  const rolePolicy = server.instance?.role.node.tryFindChild('DefaultPolicy');
  if (rolePolicy) {
    acknowledgeCompliance(rolePolicy, 'IAMNoInlinePolicy',
      "Statements this server's constructs add to its instance role (such as the read of the clusterware token " +
      'secret, or the scoping of SSM parameter reads to its own path). They belong to this role alone and live and ' +
      "die with it, the IAM guide's case for an inline policy; the AWS-maintained part is the " +
      'AmazonSSMManagedInstanceCore managed policy.');
  }

  // cdk-nag cannot evaluate a CIDR that is a token, such as the new VPC's own CIDR by Fn::GetAtt, and reports its SSH
  // and common-ports rules as failed; literal CIDRs are evaluated as usual.
  for (const sg of server.connections.securityGroups) {
    // A group the user gave may hold the user's own rules, which this reason does not cover.
    if (sg === givenSecurityGroup) continue;
    const cfnSg = sg.node.defaultChild;
    if (!(cfnSg instanceof ec2.CfnSecurityGroup)) continue;
    const ingress = Stack.of(cfnSg).resolve(cfnSg.securityGroupIngress) as Array<{ cidrIp?: unknown }> | undefined;
    if (!(ingress ?? []).some((rule) => rule.cidrIp !== undefined && typeof rule.cidrIp !== 'string')) continue;
    const reason =
      'cdk-nag cannot evaluate the token CIDR (the VPC\'s own CIDR block, Fn::GetAtt of the VPC) and reports an error. ' +
      'The group admits only NFS (TCP 2049) and clusterware gossip (7946), never SSH or the common ports; literal ' +
      'client CIDRs are validated at synth, /0 is refused.';
    acknowledgeCompliance(sg, 'EC2RestrictedSSH', reason);
    acknowledgeCompliance(sg, 'EC2RestrictedCommonPorts', reason);
  }

  // The server's DLM policy backs up the data volumes; without one, at snapshots.retain 0, the finding stands.
  const snapshots = server.snapshotPolicy;
  if (snapshots) {
    const consistency = snapshots.document
      ? 'frozen with fsfreeze by its pre/post scripts, so a set restores without log replay'
      : 'crash-consistent (applicationConsistent is off)';
    for (const volume of server.dataVolumes) {
      acknowledgeCompliance(volume, 'EC2EBSInBackupPlan',
        `Backed up by this server's Data Lifecycle Manager policy (${snapshots.node.path}): every data volume of ` +
        `the stripe is snapshotted in one multi-volume set, ${consistency}. AWS Backup runs no pre/post scripts on ` +
        'Linux, and a plan as well would double the snapshot cost.');
    }
  }
}

/**
 * The compliance fixes and acknowledgements of the app stack's own resources, StorageServerStack's new VPC and flow
 * logs. It is called at the end of the stack's constructor. A looked-up VPC is the owner's, and left alone.
 */
export function applyStackCompliance(stack: Construct): void {
  const flowLogs = stack.node.tryFindChild('VpcFlowLogs');
  if (flowLogs instanceof logs.LogGroup) {
    (flowLogs.node.defaultChild as logs.CfnLogGroup).kmsKeyId = logEncryptionKey(stack).keyArn;
  }

  const vpc = stack.node.tryFindChild('Vpc');
  if (!(vpc instanceof ec2.Vpc)) return;
  for (const subnet of vpc.publicSubnets) {
    // The public subnets hold only the NAT gateway, whose address is an Elastic IP: nothing launched in them
    // should get a public address by default.
    (subnet.node.defaultChild as ec2.CfnSubnet).mapPublicIpOnLaunch = false;
    const route = subnet.node.tryFindChild('DefaultRoute');
    if (route) {
      acknowledgeCompliance(route, 'VPCNoUnrestrictedRouteToIGW',
        'A NAT-only public subnet: its route to the internet gateway is how the NAT gateway gives the private ' +
        'subnets (the storage server) egress. Nothing else is placed in it, and no instance in it gets a public address.');
    }
  }
  const flowLogRolePolicy = vpc.node.tryFindChild('FlowLog')?.node.tryFindChild('IAMRole')?.node.tryFindChild('DefaultPolicy');
  if (flowLogRolePolicy) {
    acknowledgeCompliance(flowLogRolePolicy, 'IAMNoInlinePolicy',
      "Written by CDK's FlowLog construct into its delivery role: write to the flow-log group and iam:PassRole of " +
      'that role only. It belongs to this role alone and lives and dies with it, the IAM guide\'s case for an ' +
      'inline policy.');
  }
}
