import { Duration, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeCompliance, logEncryptionKey } from '../../compliance';
import { ignoreRoleDependsOnLint } from '../../handler-function';
import type { FsxLustreServerRequest } from '../fsx-lustre-props';

// Root squash of an FSx for Lustre file system: the setting and its NIDs, checked, and the custom resource that
// applies them through the FSx API (CloudFormation has no such property).

/**
 * `UID:GID` root on a client becomes with root squash on: 65534, nobody and nogroup (nfsnobody), as NFS's
 * root_squash maps it. FSx API reference, LustreRootSquashConfiguration: "A non-zero value for UID and GID enables
 * root squash"; "A value of 0 (zero) for UID and GID indicates root, and therefore disables root squash"
 * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_LustreRootSquashConfiguration.html).
 */
export const FSX_ROOT_SQUASH = '65534:65534';
/** `UID:GID` that turns root squash off (the same reference). */
export const FSX_NO_ROOT_SQUASH = '0:0';
/** At most 64 NIDs, each 11-43 characters matching this (API reference, LustreRootSquashConfiguration.NoSquashNids). */
const NO_SQUASH_NID = /^([0-9[\]-]*\.){3}([0-9[\]-]*)@tcp$/;
const MAX_NO_SQUASH_NIDS = 64;

/** Root squash is on unless `fsxLustre.rootSquash` is false. */
export function rootSquashOn(props: FsxLustreServerRequest): boolean {
  return props.fsxLustre?.rootSquash ?? true;
}

/** `noSquashNids`: only with root squash on, at most 64, each a Lustre NID as the FSx API accepts it. */
export function validateNoSquashNids(rootSquash: boolean, nids: string[] | undefined): void {
  if (nids === undefined || Token.isUnresolved(nids)) return;
  if (!rootSquash && nids.length > 0) {
    throw new Error('fsxLustre.noSquashNids applies only with root squash on: leave it out, or set fsxLustre.rootSquash ' +
      `to true (-c fsxRootSquash=true); got rootSquash false and ${JSON.stringify(nids)}.`);
  }
  if (nids.length > MAX_NO_SQUASH_NIDS) {
    throw new Error(`fsxLustre.noSquashNids takes at most ${MAX_NO_SQUASH_NIDS} NIDs, got ${nids.length}.`);
  }
  const bad = nids.find((n) => !Token.isUnresolved(n) && (n.length < 11 || n.length > 43 || !NO_SQUASH_NID.test(n)));
  if (bad !== undefined) {
    throw new Error('fsxLustre.noSquashNids entries must be Lustre NIDs of 11-43 characters, an IPv4 address or a range ' +
      `with @tcp such as 10.0.1.6@tcp or 10.0.[2-10].[1-255]@tcp; got ${JSON.stringify(bad)}.`);
  }
}

/**
 * Root squash on the file system, through the FSx API: CloudFormation's AWS::FSx::FileSystem has no
 * RootSquashConfiguration (its LustreConfiguration in the resource specification aws-cdk-lib is built from lists
 * none), and FSx creates a file system with root squash off ("When you create a new FSx for Lustre file system,
 * root squash is disabled by default", FSx for Lustre guide, "Lustre root squash",
 * https://docs.aws.amazon.com/fsx/latest/LustreGuide/root-squash.html). aws-cdk-lib's AwsCustomResource calls
 * UpdateFileSystem on create and on every change of the setting; on delete it calls nothing (the file system is
 * retained or deleted by its own resource). The call may update this one file system only.
 *
 * FSx applies the update after UpdateFileSystem returns; nothing here waits for it (the registration does not either).
 */
export function rootSquashResource(scope: Construct, fileSystemId: string, squash: boolean, nids: string[] | undefined): cr.AwsCustomResource {
  const { role, logGroup } = rootSquashFunctionParts(scope);
  const call: cr.AwsSdkCall = {
    service: 'FSx',
    action: 'UpdateFileSystem',
    parameters: {
      FileSystemId: fileSystemId,
      LustreConfiguration: {
        // With squash on, an empty list clears NIDs an earlier deployment set.
        RootSquashConfiguration: squash ? { RootSquash: FSX_ROOT_SQUASH, NoSquashNids: nids ?? [] } : { RootSquash: FSX_NO_ROOT_SQUASH },
      },
    },
    physicalResourceId: cr.PhysicalResourceId.of(fileSystemId),
    // The response describes the whole file system; only the setting is kept (a custom resource's response is small).
    outputPaths: ['FileSystem.LustreConfiguration.RootSquashConfiguration.RootSquash'],
  };
  const resource = new cr.AwsCustomResource(scope, 'RootSquash', {
    resourceType: 'Custom::FsxLustreRootSquash',
    onCreate: call,
    onUpdate: call,
    policy: cr.AwsCustomResourcePolicy.fromStatements([
      new iam.PolicyStatement({
        actions: ['fsx:UpdateFileSystem'],
        resources: [Stack.of(scope).formatArn({ service: 'fsx', resource: 'file-system', resourceName: fileSystemId })],
      }),
    ]),
    role,
    logGroup,
    // The runtime's own SDK has UpdateFileSystem's RootSquashConfiguration; no download at deploy time.
    installLatestAwsSdk: false,
    timeout: Duration.minutes(2),
  });
  const fn = Stack.of(scope).node.findChild(`AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
  acknowledgeCompliance(fn, 'LambdaInsideVPC',
    'The AwsCustomResource function calls only the FSx API (UpdateFileSystem); nothing it needs is in a VPC, and ' +
    'placing it in one would add network interfaces and an FSx endpoint or NAT path, and protect nothing.');
  acknowledgeCompliance(fn, 'LambdaDLQ',
    'Invoked by CloudFormation for one stack operation; a failed call fails the operation, which rolls back with the ' +
    'error in the stack events and the function\'s log group. A queued event could not be replayed: its response URL ' +
    'belongs to that operation.');
  acknowledgeCompliance(fn, 'LambdaConcurrency',
    'Invoked only by CloudFormation, once per file system when it is created or its root squash changes, so there is ' +
    'no load to cap; reserving concurrency would take it from the account\'s unreserved pool.');
  ignoreRoleDependsOnLint(fn);
  acknowledgeCompliance(resource.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy',
    "Written by aws-cdk-lib's AwsCustomResource: fsx:UpdateFileSystem on this one file system, for its root squash. " +
    'It belongs to the custom resource alone and lives and dies with it.');
  return resource;
}

const LUSTRE_ROLE_DESCRIPTION = 'AwsCustomResource function that sets root squash on the FSx for Lustre file systems of this stack';

/**
 * The stack's one role and encrypted log group for aws-cdk-lib's AwsCustomResource function, a singleton per stack:
 * that function is one per stack too, so every FSx API call of the stack (Lustre's root squash, OpenZFS's exports)
 * runs under this role; the first caller's `description` names it.
 */
export function rootSquashFunctionParts(scope: Construct, description = LUSTRE_ROLE_DESCRIPTION): { role: iam.IRole; logGroup: logs.ILogGroup } {
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
