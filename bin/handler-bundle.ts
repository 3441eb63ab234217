import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { Metafile } from 'esbuild';
import { useSourceBundler } from '../lib/handler-function';

/**
 * The esbuild options of every handler bundle: the same as the flags with which the `build:lambda` script makes the
 * package's bundles in dist/lambda. So the app deploys the bytes the package ships, which
 * test/unit/handler-function.test.ts and the consumer test compare. Change both together.
 */
export const HANDLER_BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  minify: true,
  // Source positions are enough for stack traces; the sources themselves would triple the size.
  sourcemap: true,
  sourcesContent: false,
  // The SDK's ES module builds tree-shake: the bundle shrinks by ~45% and loads ~40% faster, by npm run
  // bench:register. Nothing is external: the function runs the lockfile's SDK, not whatever the runtime ships.
  mainFields: ['module', 'main'],
} as const;

/** Where, under the project root, the app keeps the bundles it built; git ignores it. */
export const HANDLER_CACHE_DIR = '.handler-bundles';

/** A handler bundle in the cache: its directory, holding index.js and index.js.map, and whether this call built it. */
export interface CachedBundle {
  /** The directory to deploy: `<root>/.handler-bundles/<name>/<key>/bundle`. */
  readonly dir: string;
  /** True when this call ran esbuild; false when an earlier build with the same inputs was reused. */
  readonly built: boolean;
}

/**
 * The bundle of `lambda/<name>/index.ts` under `root`, the repository, built with esbuild's JS API. Its directory is
 * named after a hash of everything that makes the bundle:
 * - esbuild's version and options;
 * - the project's package-lock.json, for the dependencies bundled, and tsconfig.json;
 * - every file under lambda/;
 * - every other source file the last build of this handler read, by esbuild's metafile, so that an import from
 *   outside lambda/ counts too.
 *
 * The same inputs reuse that directory without running esbuild, so a synth does not bundle. An edit to any of them
 * gives a new key and one silent build. Two synths building at once each write a private directory and rename it
 * into place. The first wins; the other's holds the same bytes and is discarded.
 *
 * Four levels below the root, like dist/lambda/<name>/bundle, so the source map names the sources by the same
 * relative paths as the package's bundle: the two assets are the same bytes and get the same asset hash.
 */
export function cachedHandlerBundle(root: string, name: string): CachedBundle {
  const entry = path.join(root, 'lambda', name, 'index.ts');
  const base = path.join(root, HANDLER_CACHE_DIR, name);
  const inputsFile = path.join(base, 'inputs.json');
  const key = inputKey(root, recordedInputs(inputsFile));
  const dir = path.join(base, key, 'bundle');
  if (complete(dir)) return { dir, built: false };
  fs.mkdirSync(base, { recursive: true });
  const staging = fs.mkdtempSync(path.join(base, `${key}.tmp-`));
  try {
    const metafile = build(root, entry, path.join(staging, 'bundle', 'index.js'), name);
    const inputs = Object.keys(metafile.inputs).filter((f) => !f.split('/').includes('node_modules')).sort();
    // The inputs are recorded before the key is checked again: the next synth hashes them, to the same key if unchanged.
    writeAtomically(inputsFile, `${JSON.stringify(inputs, null, 1)}\n`);
    const finalKey = inputKey(root, inputs);
    const finalDir = path.join(base, finalKey);
    try {
      fs.renameSync(staging, finalDir);
    } catch {
      // Another synth put the same bundle there first; anything else there, such as a partial copy, is replaced.
      if (!complete(path.join(finalDir, 'bundle'))) {
        fs.rmSync(finalDir, { recursive: true, force: true });
        fs.renameSync(staging, finalDir);
      }
    }
    pruneOtherKeys(base, finalKey);
    return { dir: path.join(finalDir, 'bundle'), built: true };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Runs esbuild, silently; a failed build throws with esbuild's own messages: file, line, what is wrong. */
function build(root: string, entry: string, outfile: string, name: string): Metafile {
  // Required here, not at the top: the published package deploys its prebuilt bundles and has no esbuild.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  try {
    const result = esbuild.buildSync({
      ...HANDLER_BUILD_OPTIONS,
      mainFields: [...HANDLER_BUILD_OPTIONS.mainFields],
      entryPoints: [entry],
      outfile,
      absWorkingDir: root,
      logLevel: 'silent',
      metafile: true,
    });
    return result.metafile;
  } catch (err) {
    const failure = err as { errors?: { text: string; location?: { file: string; line: number } | null }[] };
    const details = (failure.errors ?? [])
      .map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text))
      .join('; ');
    throw new Error(`The ${name} handler (lambda/${name}/index.ts) does not bundle: ${details || (err as Error).message}`);
  }
}

/** The hash of a bundle's inputs, as {@link cachedHandlerBundle} lists them; `extra` are source paths relative to `root`. */
function inputKey(root: string, extra: readonly string[]): string {
  const hash = createHash('sha256');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuildVersion = (require('esbuild/package.json') as { version: string }).version;
  hash.update(JSON.stringify({ esbuildVersion, options: HANDLER_BUILD_OPTIONS }));
  const files = new Set([...filesUnder(root, 'lambda'), ...extra, 'package-lock.json', 'tsconfig.json']);
  for (const file of [...files].sort()) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`);
    hash.update(fs.existsSync(full) ? fs.readFileSync(full) : '(missing)');
  }
  return hash.digest('hex').slice(0, 32);
}

/** The files under `root/dir`, as paths relative to `root` with `/` separators. */
function filesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return filesUnder(root, rel);
    return e.isFile() ? [rel] : [];
  });
}

/** The source files the last build of a handler read, as it recorded them; none before the first build. */
function recordedInputs(file: string): string[] {
  try {
    const inputs = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(inputs) ? inputs.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}

/** Removes the bundles of earlier inputs, which a developer's edits would otherwise pile up, ~3 MB each. */
function pruneOtherKeys(base: string, keep: string): void {
  for (const entry of fs.readdirSync(base)) {
    if (entry !== keep && /^[0-9a-f]{32}$/.test(entry)) fs.rmSync(path.join(base, entry), { recursive: true, force: true });
  }
}

/** A bundle directory with both its files. */
function complete(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.js')) && fs.existsSync(path.join(dir, 'index.js.map'));
}

/** Makes the library bundle handlers from the sources with {@link cachedHandlerBundle}, for the app and the tests. */
export function useCachedHandlerBundles(): void {
  useSourceBundler((root, name) => cachedHandlerBundle(root, name).dir);
}
