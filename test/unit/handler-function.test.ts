import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { HANDLER_CACHE_DIR, cachedHandlerBundle } from '../../bin/handler-bundle';
import { HANDLER_BUNDLES_ENV, handlerFunction } from '../../lib/handler-function';
import { stagedApp } from '../support/staged-app';

/**
 * `npm test` synthesizes hundreds of stacks with the handlers that test/support/global-setup.ts bundled once with
 * `npm run build:lambda`: HANDLER_BUNDLES_ENV, the package's own bundles. Without it, the app takes them from its cache
 * in bin/handler-bundle.ts. These tests show that both are the same bytes, and that the cache is rebuilt exactly when
 * an input changes.
 */
const prebuilt = process.env[HANDLER_BUNDLES_ENV];
const root = path.join(__dirname, '..', '..');
/** Every custom-resource handler: each folder of lambda/ with an index.ts, so a new one cannot be left out. */
const HANDLERS = fs.readdirSync(path.join(root, 'lambda')).filter((d) => fs.existsSync(path.join(root, 'lambda', d, 'index.ts'))).sort();

afterEach(() => {
  if (prebuilt === undefined) delete process.env[HANDLER_BUNDLES_ENV];
  else process.env[HANDLER_BUNDLES_ENV] = prebuilt;
});

/** The SHA-256 of a file's bytes, hex. */
function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The Code and Handler of the function `handlerFunction` builds for `name`, synthesized with `bundles` as the env. */
function synthFunction(name: string, bundles: string | undefined): { handler: unknown; asset: string; s3Key: string } {
  if (bundles === undefined) delete process.env[HANDLER_BUNDLES_ENV];
  else process.env[HANDLER_BUNDLES_ENV] = bundles;
  const app = stagedApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'handler-fn-')) });
  const stack = new Stack(app, 'Handler');
  handlerFunction(stack, 'Fn', name, { runtime: lambda.Runtime.NODEJS_22_X });
  const assembly = app.synth();
  const fn = Object.values(assembly.getStackByName('Handler').template.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>)
    .find((r) => r.Type === 'AWS::Lambda::Function');
  const code = fn?.Properties.Code as { S3Key: string };
  const asset = path.join(assembly.directory, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.js');
  return { handler: fn?.Properties.Handler, asset, s3Key: code.S3Key };
}

test('the handlers are the four custom resources', () => {
  expect(HANDLERS).toEqual(['openzfs-export', 'register', 'update-guard', 'value-check', 'vpc-cidrs']);
});

test.each(HANDLERS)('the app deploys the %s bundle the package ships: the same bytes, map and asset hash', (name) => {
  expect(prebuilt).toBeDefined();
  const fromPackage = synthFunction(name, prebuilt);
  const fromCache = synthFunction(name, undefined);
  expect(fromCache.handler).toBe('index.handler');
  expect(fromPackage.handler).toBe('index.handler');
  // The cache sits as deep as dist/lambda/<name>/bundle, so even the source maps, whose sources are named by relative
  // paths, are equal, and with them the asset hash: the app and the package upload one and the same asset. They are
  // compared by digest, since jest's toEqual walks a Buffer byte by byte, about 20 s for a bundle and its map.
  expect(sha256(fromCache.asset)).toBe(sha256(fromPackage.asset));
  expect(sha256(`${fromCache.asset}.map`)).toBe(sha256(`${fromPackage.asset}.map`));
  expect(fromCache.s3Key).toBe(fromPackage.s3Key);
  expect(fs.readdirSync(path.dirname(fromCache.asset)).sort()).toEqual(['index.js', 'index.js.map']);
  const cached = path.relative(root, cachedHandlerBundle(root, name).dir).split(path.sep);
  expect([cached[0], cached[1], cached[3]]).toEqual([HANDLER_CACHE_DIR, name, 'bundle']);
});

test('a second synth of the app reuses the cached bundle: esbuild does not run again', () => {
  synthFunction('register', undefined);
  const { dir } = cachedHandlerBundle(root, 'register');
  const before = fs.statSync(path.join(dir, 'index.js')).mtimeMs;
  synthFunction('register', undefined);
  expect(cachedHandlerBundle(root, 'register')).toEqual({ dir, built: false });
  expect(fs.statSync(path.join(dir, 'index.js')).mtimeMs).toBe(before);
});

describe('the bundle cache', () => {
  /** A project of its own: a handler that imports a file under lambda/ and one under lib/, and a lockfile. */
  function project(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'handler-cache-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('lambda/demo/index.ts', "import { greeting } from '../shared/words';\nimport { name } from '../../lib/name';\n" +
      'export const handler = async () => `${greeting} ${name}`;\n');
    write('lambda/shared/words.ts', "export const greeting = 'hello';\n");
    write('lib/name.ts', "export const name = 'world';\n");
    write('package-lock.json', '{"lockfileVersion": 3}\n');
    return dir;
  }

  test('builds once, then reuses the bundle while no input changes', () => {
    const dir = project();
    const first = cachedHandlerBundle(dir, 'demo');
    expect(first.built).toBe(true);
    expect(fs.readFileSync(path.join(first.dir, 'index.js'), 'utf8')).toContain('"hello"');
    expect(cachedHandlerBundle(dir, 'demo')).toEqual({ dir: first.dir, built: false });
    expect(cachedHandlerBundle(dir, 'demo')).toEqual({ dir: first.dir, built: false });
  });

  test.each([
    ['the handler', 'lambda/demo/index.ts', (t: string) => t.replace('`${greeting} ${name}`', '`${greeting}, ${name}!`'), '!`'],
    ['a file it imports under lambda/', 'lambda/shared/words.ts', (t: string) => t.replace('hello', 'bonjour'), '"bonjour"'],
    ['a file it imports from outside lambda/', 'lib/name.ts', (t: string) => t.replace('world', 'monde'), '"monde"'],
    ['the lockfile', 'package-lock.json', (t: string) => t.replace('3', '3, "packages": {}'), '"hello"'],
  ])('an edit to %s builds the bundle again, into a new directory, and drops the old one', (_what, file, edit, expected) => {
    const dir = project();
    const first = cachedHandlerBundle(dir, 'demo');
    // Twice: the first build records what the handler imports, lib/name.ts, which the second key then covers.
    expect(cachedHandlerBundle(dir, 'demo').built).toBe(false);
    const full = path.join(dir, file);
    fs.writeFileSync(full, edit(fs.readFileSync(full, 'utf8')));
    const second = cachedHandlerBundle(dir, 'demo');
    expect(second.built).toBe(true);
    expect(second.dir).not.toBe(first.dir);
    expect(fs.readFileSync(path.join(second.dir, 'index.js'), 'utf8')).toContain(expected);
    expect(fs.existsSync(path.dirname(first.dir))).toBe(false);
    expect(cachedHandlerBundle(dir, 'demo')).toEqual({ dir: second.dir, built: false });
  });

  test('a handler that does not compile is refused with esbuild\'s message, naming the handler and the line', () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'lambda/demo/index.ts'), 'export const handler = async () => {\n  return (;\n};\n');
    expect(() => cachedHandlerBundle(dir, 'demo')).toThrow(/^The demo handler \(lambda\/demo\/index.ts\) does not bundle: lambda\/demo\/index.ts:2: /);
    expect(fs.readdirSync(path.join(dir, HANDLER_CACHE_DIR, 'demo')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

test('a prebuilt directory without the handler is refused, naming the variable and the file', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bundles-'));
  process.env[HANDLER_BUNDLES_ENV] = empty;
  expect(() => handlerFunction(new Stack(new App(), 'S'), 'Fn', 'register', { runtime: lambda.Runtime.NODEJS_22_X })).toThrow(
    `STORAGE_SERVER_HANDLER_BUNDLES=${empty} has no register handler: ${path.join(empty, 'register', 'bundle', 'index.js')} does not exist`,
  );
});
