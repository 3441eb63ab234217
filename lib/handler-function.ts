import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** The function properties a custom-resource handler sets, whatever its code comes from. */
export type HandlerFunctionProps = Omit<lambda.FunctionProps, 'code' | 'handler'>;

/**
 * The environment variable that names a directory of prebuilt handler bundles, `<dir>/<name>/bundle/index.js`, the
 * layout `npm run build:lambda` writes under `dist/lambda`. When it is set, the handlers are taken from there instead
 * of the app's own cache. `npm test` builds the bundles once per run and sets it. The bundles are the same bytes either
 * way, as the consumer test and test/unit/handler-function.test.ts check. Unset, nothing changes.
 */
export const HANDLER_BUNDLES_ENV = 'STORAGE_SERVER_HANDLER_BUNDLES';

/**
 * The onEvent function of one of the project's custom resources, `lambda/<name>/index.ts`: the same function wherever
 * its code comes from. In the published package it is the bundle `npm run build` put in `dist/lambda/<name>/bundle/`,
 * next to the compiled `dist/lib/`, deployed as it is, so a consumer needs no esbuild, Docker or AWS SDK at synth. From
 * the TypeScript sources of this repository's app and tests, it is the bundle esbuild builds into `.handler-bundles/`
 * with the `build:lambda` script's options, once per state of its inputs. That is `cachedHandlerBundle` in
 * bin/handler-bundle.ts, set by {@link useSourceBundler}: a synth reuses it silently, and an edit to the handler's
 * sources or the lockfile builds it again.
 */
export function handlerFunction(scope: Construct, id: string, name: string, props: HandlerFunctionProps): lambda.Function {
  const code = (dir: string) => new lambda.Function(scope, id, { ...props, code: lambda.Code.fromAsset(dir), handler: 'index.handler' });
  const prebuilt = process.env[HANDLER_BUNDLES_ENV];
  if (prebuilt) {
    const bundle = path.join(path.resolve(prebuilt), name, 'bundle');
    if (!fs.existsSync(path.join(bundle, 'index.js'))) {
      throw new Error(
        `${HANDLER_BUNDLES_ENV}=${prebuilt} has no ${name} handler: ${path.join(bundle, 'index.js')} does not exist ` +
          '(point it at the dist/lambda directory that npm run build:lambda writes, or unset it to use the bundles the app builds itself)',
      );
    }
    return code(bundle);
  }
  const root = path.join(__dirname, '..');
  const bundle = path.join(root, 'lambda', name, 'bundle');
  if (fs.existsSync(path.join(bundle, 'index.js'))) return code(bundle);
  const entry = path.join(root, 'lambda', name, 'index.ts');
  if (!fs.existsSync(entry)) {
    throw new Error(
      `${name} handler not found: neither the prebuilt bundle ${path.join(bundle, 'index.js')} ` +
        `(made by npm run build) nor the source ${entry} exists`,
    );
  }
  if (sourceBundler === undefined) {
    throw new Error(
      `${name} handler: no prebuilt bundle (${path.join(bundle, 'index.js')}, made by npm run build) and no bundler for ` +
        `the sources: set ${HANDLER_BUNDLES_ENV} to the dist/lambda directory npm run build:lambda writes, or call ` +
        'useSourceBundler (bin/handler-bundle.ts) first, as the app does',
    );
  }
  return code(sourceBundler(root, name));
}

/** Builds `lambda/<name>/index.ts` under `root` and returns the directory of its bundle, holding `index.js`. */
export type SourceBundler = (root: string, name: string) => string;

let sourceBundler: SourceBundler | undefined;

/**
 * Sets how handlers are bundled from the TypeScript sources, where no prebuilt bundle exists: the repository's app
 * and tests pass bin/handler-bundle.ts's esbuild cache. The library never bundles by itself: the package deploys its
 * prebuilt bundles and ships neither that module nor esbuild.
 */
export function useSourceBundler(bundler: SourceBundler): void {
  sourceBundler = bundler;
}

/**
 * Lambda functions carry a DependsOn on their role, so that its policies exist before the function runs. The Role half
 * of it duplicates the GetAtt of the role's ARN, which cfn-lint reports as W3005. Ignores it on every function under
 * `scope`.
 */
export function ignoreRoleDependsOnLint(scope: Construct): void {
  for (const child of scope.node.findAll()) {
    if (child instanceof lambda.CfnFunction) {
      child.addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });
    }
  }
}

/**
 * The id cdk-nag gives an IAM5 finding for `resource`: the resolved value with Ref and GetAtt written as `<Name>` and
 * `<Name.Attr>`, as cdk-nag flattens CloudFormation references. So an acknowledgement names exactly one resource,
 * whether the stack's region and account are concrete or not.
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
