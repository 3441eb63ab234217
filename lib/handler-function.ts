import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';

/** The function properties a custom-resource handler sets, whatever its code comes from. */
export type HandlerFunctionProps = Omit<lambda.FunctionProps, 'code' | 'handler'>;

/**
 * The environment variable that names a directory of prebuilt handler bundles, `<dir>/<name>/bundle/index.js`
 * (the layout `npm run build:lambda` writes under `dist/lambda`). When it is set, the handlers are taken from
 * there instead of being bundled at synth: `npm test` builds the bundles once per run and sets it, so that the
 * hundreds of stacks the tests synthesize do not each run esbuild (the bundles are the same bytes either way;
 * the consumer test and test/unit/handler-function.test.ts check it). Unset, nothing changes.
 */
export const HANDLER_BUNDLES_ENV = 'STORAGE_SERVER_HANDLER_BUNDLES';

/**
 * The onEvent function of one of the project's custom resources (`lambda/<name>/index.ts`): the same function
 * either way, only where its code comes from differs. In the published package, the bundle `npm run build` put
 * in `dist/lambda/<name>/bundle/` (next to the compiled `dist/lib/`), deployed as it is: a consumer needs no
 * esbuild, Docker or AWS SDK at synth. From the TypeScript sources (this repository's app and tests),
 * NodejsFunction bundles the handler with the same esbuild options as the `build:lambda` script; change both
 * together (the consumer test checks that the two bundles are byte-identical).
 */
export function handlerFunction(scope: Construct, id: string, name: string, props: HandlerFunctionProps): lambda.Function {
  const dir = path.join(__dirname, '..', 'lambda', name);
  const prebuilt = process.env[HANDLER_BUNDLES_ENV];
  if (prebuilt) {
    const bundle = path.join(path.resolve(prebuilt), name, 'bundle');
    if (!fs.existsSync(path.join(bundle, 'index.js'))) {
      throw new Error(
        `${HANDLER_BUNDLES_ENV}=${prebuilt} has no ${name} handler: ${path.join(bundle, 'index.js')} does not exist ` +
          '(point it at the dist/lambda directory that npm run build:lambda writes, or unset it to bundle at synth)',
      );
    }
    return new lambda.Function(scope, id, { ...props, code: lambda.Code.fromAsset(bundle), handler: 'index.handler' });
  }
  const bundle = path.join(dir, 'bundle');
  if (fs.existsSync(path.join(bundle, 'index.js'))) {
    return new lambda.Function(scope, id, { ...props, code: lambda.Code.fromAsset(bundle), handler: 'index.handler' });
  }
  const entry = path.join(dir, 'index.ts');
  if (!fs.existsSync(entry)) {
    throw new Error(
      `${name} handler not found: neither the prebuilt bundle ${path.join(bundle, 'index.js')} ` +
        `(made by npm run build) nor the source ${entry} exists`,
    );
  }
  return new nodejs.NodejsFunction(scope, id, {
    ...props,
    entry,
    handler: 'handler',
    bundling: {
      minify: true,
      sourceMap: true,
      // Bundle the AWS SDK so the function runs the lockfile's version, not whatever the runtime ships.
      externalModules: [],
      // The SDK's ES module builds tree-shake: the bundle shrinks by ~45% and loads ~40% faster
      // (npm run bench:register).
      mainFields: ['module', 'main'],
      // Source positions are enough for stack traces; the sources themselves would triple the size.
      sourcesContent: false,
    },
  });
}

/**
 * Lambda functions carry a DependsOn on their role (so its policies exist before the function runs); the Role
 * half of it duplicates the GetAtt of the role's ARN, which cfn-lint reports as W3005. Ignores it on every
 * function under `scope`.
 */
export function ignoreRoleDependsOnLint(scope: Construct): void {
  for (const child of scope.node.findAll()) {
    if (child instanceof lambda.CfnFunction) {
      child.addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });
    }
  }
}

/**
 * The id cdk-nag gives an IAM5 finding for `resource`: the resolved value with Ref and GetAtt written as
 * `<Name>` and `<Name.Attr>` (how cdk-nag flattens CloudFormation references), so an acknowledgement names
 * exactly one resource, whether the stack's region and account are concrete or not.
 */
export function iam5(scope: Construct, resource: string): string {
  const flatten = (node: unknown): string => {
    if (typeof node === 'string') return node;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['Fn::Join'])) {
      const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (Array.isArray(o['Fn::GetAtt'])) {
      const [name, attribute] = o['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(name)}.${flatten(attribute)}>`;
    }
    if (o.Ref !== undefined) return `<${flatten(o.Ref)}>`;
    return JSON.stringify(node);
  };
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(resource))}]`;
}
