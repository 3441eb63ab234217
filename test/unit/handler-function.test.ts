import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { HANDLER_BUNDLES_ENV, handlerFunction } from '../../lib/handler-function';

/**
 * `npm test` synthesizes hundreds of stacks with the handlers test/support/global-setup.ts bundled once
 * (HANDLER_BUNDLES_ENV). These tests show that this changes nothing in what is deployed: the function a
 * stack gets from the prebuilt bundles is the one NodejsFunction bundles at synth.
 */
const prebuilt = process.env[HANDLER_BUNDLES_ENV];

afterEach(() => {
  if (prebuilt === undefined) delete process.env[HANDLER_BUNDLES_ENV];
  else process.env[HANDLER_BUNDLES_ENV] = prebuilt;
});

/** The Code and Handler of the function `handlerFunction` builds for `name`, synthesized with `bundles` as the env. */
function synthFunction(name: string, bundles: string | undefined): { handler: unknown; asset: string } {
  if (bundles === undefined) delete process.env[HANDLER_BUNDLES_ENV];
  else process.env[HANDLER_BUNDLES_ENV] = bundles;
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'handler-fn-')) });
  const stack = new Stack(app, 'Handler');
  handlerFunction(stack, 'Fn', name, { runtime: lambda.Runtime.NODEJS_22_X });
  const assembly = app.synth();
  const fn = Object.values(assembly.getStackByName('Handler').template.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>)
    .find((r) => r.Type === 'AWS::Lambda::Function');
  const code = fn?.Properties.Code as { S3Key: string };
  const asset = path.join(assembly.directory, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.js');
  return { handler: fn?.Properties.Handler, asset };
}

/** A source map with each source written from the project root on: where the bundle was built no longer shows. */
function normalizedMap(file: string): unknown {
  const map = JSON.parse(fs.readFileSync(file, 'utf8')) as { sources: string[] };
  return { ...map, sources: map.sources.map((s) => s.replace(/^.*?(?=(lambda|node_modules)\/)/, '')) };
}

test.each(['register', 'update-guard'])('the %s function from the prebuilt bundle is the one NodejsFunction bundles', (name) => {
  expect(prebuilt).toBeDefined();
  const fromBundle = synthFunction(name, prebuilt);
  const bundled = synthFunction(name, undefined);
  // The same code byte for byte and the same handler. The asset keys differ: the source maps name the sources
  // relative to where each was built (NodejsFunction builds in a temporary directory), and only that differs.
  expect(fromBundle.handler).toBe(bundled.handler);
  expect(fs.readFileSync(fromBundle.asset)).toEqual(fs.readFileSync(bundled.asset));
  expect(normalizedMap(`${fromBundle.asset}.map`)).toEqual(normalizedMap(`${bundled.asset}.map`));
  expect(fs.readdirSync(path.dirname(fromBundle.asset)).sort()).toEqual(['index.js', 'index.js.map']);
  expect(fs.readdirSync(path.dirname(bundled.asset)).sort()).toEqual(['index.js', 'index.js.map']);
});

test('a prebuilt directory without the handler is refused, naming the variable and the file', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bundles-'));
  process.env[HANDLER_BUNDLES_ENV] = empty;
  expect(() => handlerFunction(new Stack(new App(), 'S'), 'Fn', 'register', { runtime: lambda.Runtime.NODEJS_22_X })).toThrow(
    `STORAGE_SERVER_HANDLER_BUNDLES=${empty} has no register handler: ${path.join(empty, 'register', 'bundle', 'index.js')} does not exist`,
  );
});
