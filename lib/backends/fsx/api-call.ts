import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { acknowledgeCompliance, logEncryptionKey } from '../../compliance';
import { ignoreRoleDependsOnLint } from '../../handler-function';

// An FSx setting CloudFormation cannot change in place, applied through the FSx API by aws-cdk-lib's AwsCustomResource:
// FSx for Lustre's root squash, in fsx/root-squash.ts. One call on create and on update, none on delete, allowed on one
// resource only. FSx for OpenZFS's export must be awaited, so it has a handler of its own in
// openzfs/export-resource.ts.

/** What one FSx API custom resource does: its type, its call, the one resource it may change, and why, in words. */
export interface FsxApiCall {
  /** The CloudFormation type, `Custom::...`. */
  readonly resourceType: string;
  /** The FSx action, e.g. `UpdateFileSystem`. */
  readonly action: string;
  /** The action's parameters. */
  readonly parameters: Record<string, unknown>;
  /** The physical id: the resource changed. */
  readonly physicalResourceId: string;
  /** The one response field kept, since a custom resource's response is small. */
  readonly outputPath: string;
  /** The ARN of the one resource the call may change. */
  readonly resourceArn: string;
  /** What that resource is, in words: `file system`, `root volume`. */
  readonly target: string;
  /** What the call sets on it, in words: `its root squash`. */
  readonly setting: string;
  /** What changing makes the call again, in words: `its root squash`, `its export`. */
  readonly changing: string;
  /** The description of the stack's role, when this call is the first to make it. */
  readonly roleDescription: string;
}

/** The custom resource `id` that makes `call` on create and on update. */
export function fsxApiResource(scope: Construct, id: string, call: FsxApiCall): cr.AwsCustomResource {
  const { role, logGroup } = fsxApiFunctionParts(scope, call.roleDescription);
  const sdkCall: cr.AwsSdkCall = {
    service: 'FSx',
    action: call.action,
    parameters: call.parameters,
    physicalResourceId: cr.PhysicalResourceId.of(call.physicalResourceId),
    outputPaths: [call.outputPath],
  };
  const resource = new cr.AwsCustomResource(scope, id, {
    resourceType: call.resourceType,
    onCreate: sdkCall,
    onUpdate: sdkCall,
    policy: cr.AwsCustomResourcePolicy.fromStatements([
      new iam.PolicyStatement({ actions: [`fsx:${call.action}`], resources: [call.resourceArn] }),
    ]),
    role,
    logGroup,
    // The runtime's own SDK has the FSx calls made here; no download at deploy time.
    installLatestAwsSdk: false,
    timeout: Duration.minutes(2),
  });
  acknowledgeProviderFunction(scope, resource, call);
  return resource;
}

/** Why the AwsCustomResource function and policy stand as aws-cdk-lib writes them. */
function acknowledgeProviderFunction(scope: Construct, resource: cr.AwsCustomResource, call: FsxApiCall): void {
  const fn = Stack.of(scope).node.findChild(`AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
  acknowledgeCompliance(fn, 'LambdaInsideVPC',
    `The AwsCustomResource function calls only the FSx API (${call.action}); nothing it needs is in a VPC, and placing ` +
    'it in one would add network interfaces and an FSx endpoint or NAT path, and protect nothing.');
  acknowledgeCompliance(fn, 'LambdaDLQ',
    'Invoked by CloudFormation for one stack operation; a failed call fails the operation, which rolls back with the ' +
    'error in the stack events and the function\'s log group. A queued event could not be replayed: its response URL ' +
    'belongs to that operation.');
  acknowledgeCompliance(fn, 'LambdaConcurrency',
    `Invoked only by CloudFormation, once per file system when it is created or ${call.changing} ` +
    'changes, so there is no load to cap; reserving concurrency would take it from the account\'s unreserved pool.');
  ignoreRoleDependsOnLint(fn);
  acknowledgeCompliance(resource.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy',
    `Written by aws-cdk-lib's AwsCustomResource: fsx:${call.action} on this one ${call.target}, for ${call.setting}. It ` +
    'belongs to the custom resource alone and lives and dies with it.');
}

/**
 * The stack's one role and encrypted log group for aws-cdk-lib's AwsCustomResource function, a singleton per stack.
 * That function is one per stack too, so every FSx API call the stack makes through it runs under this role. The first
 * caller's `description` names it.
 */
function fsxApiFunctionParts(scope: Construct, description: string): { role: iam.IRole; logGroup: logs.ILogGroup } {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('FsxRootSquashRole');
  if (existing instanceof iam.Role) return { role: existing, logGroup: stack.node.findChild('FsxRootSquashLogs') as logs.LogGroup };
  const role = new iam.Role(stack, 'FsxRootSquashRole', {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description,
  });
  const logGroup = new logs.LogGroup(stack, 'FsxRootSquashLogs', {
    retention: logs.RetentionDays.ONE_YEAR,
    encryptionKey: logEncryptionKey(stack),
  });
  logGroup.grantWrite(role);
  acknowledgeCompliance(role.node.findChild('DefaultPolicy'), 'IAMNoInlinePolicy',
    "Written by grantWrite of the function's own log group into its role's own policy; it belongs to this role " +
    'alone and lives and dies with it.');
  return { role, logGroup };
}
