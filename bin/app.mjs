#!/usr/bin/env node
/**
 * cdk.json's app: bin/storage-server.ts run from one JavaScript bundle. esbuild bundles the project's own modules
 * (the packages stay in node_modules) into `.app-bundle/storage-server-<key>.js`, where the key hashes every input
 * of the build; a synth whose inputs hash to an existing bundle loads it without building, and any other builds it
 * first (about half a second), so a synth never runs code older than the sources.
 *
 * The bundle sits one level below the root, as bin/ and lib/ do: the modules that read files relative to their own
 * directory (lib/scripts, the handlers under lambda/) find them from there as from the sources.
 *
 * Plain JavaScript, since it runs before any TypeScript can. `node bin/app.mjs --build` builds and stops there.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The repository: the folder above bin/. */
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The app's entry point, relative to the root. */
const ENTRY = 'bin/storage-server.ts';

/** Where the bundles go, relative to the root (ignored by git): one level down, see above. */
const BUNDLE_DIR = '.app-bundle';

/** The folders whose modules the app imports; a build that reads a file elsewhere fails (see `build`). */
const SOURCE_DIRS = ['bin', 'lib', 'lambda'];

/** The files esbuild can resolve an import to; the rest (lib/scripts) is read at synth from the sources. */
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json)$/;

/** Files outside the source folders that change what esbuild builds: its TypeScript settings, the module type. */
const CONFIG_FILES = ['tsconfig.json', 'package.json'];

const BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // aws-cdk-lib and the rest are loaded from node_modules as the plain JavaScript they are; only the project's
  // TypeScript is transformed.
  packages: 'external',
  // Stack traces (errors, and those aws-cdk-lib records in the metadata) name the TypeScript; the map needs only
  // the positions for that, not the sources.
  sourcemap: true,
  sourcesContent: false,
};

/**
 * The hash of everything a build reads: esbuild's version and options, this file, the config files, and every
 * source file under the source folders (path and content).
 */
function inputKey(root = ROOT) {
  const hash = createHash('sha256');
  const esbuildVersion = require('esbuild/package.json').version;
  hash.update(JSON.stringify({ esbuildVersion, BUILD_OPTIONS, ENTRY }));
  hash.update(fs.readFileSync(fileURLToPath(import.meta.url)));
  for (const file of [...CONFIG_FILES, ...sourceFiles(root)]) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`);
    hash.update(fs.existsSync(full) ? fs.readFileSync(full) : '(missing)');
  }
  return hash.digest('hex').slice(0, 32);
}

/** The source files under the source folders, relative to `root` with `/` separators, sorted. */
function sourceFiles(root) {
  const walk = (dir) =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) return walk(rel);
      return e.isFile() && SOURCE_FILE.test(e.name) ? [rel] : [];
    });
  return SOURCE_DIRS.filter((d) => fs.existsSync(path.join(root, d)))
    .flatMap(walk)
    .sort();
}

/**
 * The bundle of the app for the sources as they are: `file`, and whether this call built it (`built`). Two synths
 * building at once each write files of their own and rename them into place (the same bytes); bundles of other
 * keys are removed.
 */
function appBundle(root = ROOT) {
  const key = inputKey(root);
  const dir = path.join(root, BUNDLE_DIR);
  const file = path.join(dir, `storage-server-${key}.js`);
  if (fs.existsSync(file)) return { file, built: false };
  fs.mkdirSync(dir, { recursive: true });
  // The map before the bundle, so that a bundle in place always has its map.
  for (const output of build(root, file).sort((a, b) => b.path.length - a.path.length)) {
    const temp = `${output.path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, output.contents);
    fs.renameSync(temp, output.path);
  }
  for (const name of fs.readdirSync(dir)) {
    if (/^storage-server-[0-9a-f]{32}\.js(\.map)?$/.test(name) && !name.startsWith(path.basename(file))) {
      fs.rmSync(path.join(dir, name), { force: true });
    }
  }
  return { file, built: true };
}

/**
 * Runs esbuild and returns the bundle and its map, not yet written (their final paths, which the bundle's map
 * comment and the map's source paths are relative to). A source it cannot build fails with esbuild's messages
 * (file, line, what is wrong).
 */
function build(root, outfile) {
  const esbuild = require('esbuild');
  const options = {
    ...BUILD_OPTIONS,
    entryPoints: [ENTRY],
    outfile,
    absWorkingDir: root,
    logLevel: 'silent',
    metafile: true,
    write: false,
  };
  let result;
  try {
    result = esbuild.buildSync(options);
  } catch (err) {
    const details = (err.errors ?? []).map((e) =>
      e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text,
    );
    throw new Error(`The app (${ENTRY}) does not build: ${details.join('; ') || err.message}`);
  }
  // A file outside the hashed ones would leave the bundle stale after an edit to it.
  const hashed = new Set([...CONFIG_FILES, ...sourceFiles(root)]);
  const outside = Object.keys(result.metafile.inputs).filter((f) => !hashed.has(f));
  if (outside.length > 0) {
    throw new Error(
      `The app imports ${outside.join(', ')}, outside ${SOURCE_DIRS.join('/, ')}/: add its folder to SOURCE_DIRS in bin/app.mjs`,
    );
  }
  return result.outputFiles;
}

let bundle;
try {
  bundle = appBundle();
} catch (err) {
  // The message names the source and line; the launcher's own stack trace would only hide it.
  console.error(`Error: ${err.message}`);
  process.exit(1);
}
if (!process.argv.includes('--build')) {
  process.setSourceMapsEnabled(true);
  require(bundle.file);
}
