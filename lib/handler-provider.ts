import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct, IConstruct } from 'constructs';
import { acknowledgeCompliance, acknowledgeCustomResourceFunctions, logEncryptionKey } from './compliance';
import { handlerFunction, iam5, ignoreRoleDependsOnLint } from './handler-function';

/**
 * The stack's one construct of a kind, found by its fixed id on the Stack or made there by `create`. Each of the
 * stack's custom-resource providers, the registration's and the update guard's, is shared by all its servers.
 */
export function stackSingleton<T extends Construct>(
  scope: Construct, id: string, isOne: (found: IConstruct) => found is T, create: (stack: Stack, id: string) => T,
): T {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild(id);
  return existing !== undefined && isOne(existing) ? existing : create(stack, id);
}

/** What one of the stack's custom-resource providers is made of, the registration's or the update guard's. */
export interface HandlerProviderProps {
  /** The handler's folder under lambda/. */
  readonly handler: string;
  /** The description of the function's role. */
  readonly roleDescription: string;
  /** The function's description. */
  readonly functionDescription: string;
  /** The description of the Provider framework's role. */
  readonly frameworkDescription: string;
  /** The function's timeout. */
  readonly timeout: Duration;
  /** The function's memory, MiB. */
  readonly memorySize: number;
  /** Why the runtime is pinned, for cdk-nag AwsSolutions-L1. */
  readonly runtimeReason: string;
  /** Why the function's policy is inline, for NIST/HIPAA IAMNoInlinePolicy. */
  readonly policyReason: string;
  /** The AWS APIs the function calls, as the custom-resource acknowledgements name them. */
  readonly apis: string;
  /**
   * Statements of the function's policy before the one that writes its logs.
   * @default none: the function may only write its logs
   */
  readonly statements?: iam.PolicyStatement[];
}

/** What {@link addHandlerProvider} made: the service token, the function and its extensible policy. */
export interface HandlerProvider {
  /** The Provider's service token, for CustomResource. */
  readonly serviceToken: string;
  /** The onEvent function. */
  readonly fn: lambda.Function;
  /** The function's inline policy: more statements may be added. */
  readonly policy: iam.Policy;
}

/**
 * Builds, under `scope`, a Lambda onEvent handler and a custom-resources Provider, with the compliance acknowledgements
 * both need. The handler has its own role, encrypted log group and inline policy, holding its logs and `statements`.
 * The Provider has its own role and encrypted log group. The function waits for its policy, so its first Create has it.
 */
export function addHandlerProvider(scope: Construct, props: HandlerProviderProps): HandlerProvider {
  // Each of the two functions, the handler and the framework's, has a role and a log group of its own.
  const lambdaRole = (id: string, description: string): iam.Role =>
    new iam.Role(scope, id, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description });
  const logGroupOf = (id: string): logs.LogGroup =>
    new logs.LogGroup(scope, id, { retention: logs.RetentionDays.ONE_YEAR, encryptionKey: logEncryptionKey(scope) });

  const role = lambdaRole('Role', props.roleDescription);
  const logGroup = logGroupOf('Logs');
  const policy = new iam.Policy(scope, 'Policy', {
    statements: [
      ...(props.statements ?? []),
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    ],
  });
  role.attachInlinePolicy(policy);

  const fn = handlerFunction(scope, 'Handler', props.handler, {
    runtime: lambda.Runtime.NODEJS_22_X,
    description: props.functionDescription,
    role,
    logGroup,
    timeout: props.timeout,
    memorySize: props.memorySize,
    environment: { NODE_OPTIONS: '--enable-source-maps' },
  });
  // The role's policy must exist before the function runs, including on the first Create.
  fn.node.addDependency(policy);
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: props.runtimeReason });

  const frameworkRole = lambdaRole('FrameworkRole', props.frameworkDescription);
  const frameworkLogs = logGroupOf('FrameworkLogs');
  frameworkLogs.grantWrite(frameworkRole);
  const provider = new cr.Provider(scope, 'Provider', {
    onEventHandler: fn,
    frameworkOnEventRole: frameworkRole,
    logGroup: frameworkLogs,
  });
  Validations.of(frameworkRole.node.findChild('DefaultPolicy')).acknowledge({
    id: iam5(scope, `${fn.functionArn}:*`),
    reason: 'Granted by the CDK Provider framework so it can invoke any version of the onEvent function.',
  });
  acknowledgeCompliance(policy, 'IAMNoInlinePolicy', props.policyReason);
  acknowledgeCompliance(frameworkRole.node.findChild('DefaultPolicy'), 'IAMNoInlinePolicy',
    'Written by the CDK Provider framework (invoke and GetFunction of the onEvent function) and by grantWrite of ' +
      "its own log group, into its role's own policy; a hand-copied managed policy would silently miss permissions " +
      'a later aws-cdk-lib adds.');
  acknowledgeCustomResourceFunctions(fn, provider, props.apis);
  ignoreRoleDependsOnLint(scope);
  return { serviceToken: provider.serviceToken, fn, policy };
}
