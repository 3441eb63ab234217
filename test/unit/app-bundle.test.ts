import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANDLER_BUNDLES_ENV } from '../../lib/handler-function';

/**
 * cdk.json's app, bin/app.mjs: the app from its bundle when the sources are unchanged, rebuilt first when they
 * are not, and the same templates as the TypeScript run directly.
 */
const ROOT = path.join(__dirname, '..', '..');
const APP_COMMAND = (JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { app: string }).app;
const BUNDLE = /[/\\]\.app-bundle[/\\]storage-server-[0-9a-f]{32}\.js$/;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The CommonJS modules the process loaded (absolute paths). */
  readonly loaded: string[];
  readonly outdir: string;
}

/** Runs `command` in `cwd` through a shell, as the CDK CLI runs cdk.json's app, offline, with `context`. */
function run(command: string, cwd: string, context: Record<string, string> = {}): Run {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'app-bundle-run-'));
  // Loaded first through NODE_OPTIONS, it records at exit which modules the app's process loaded.
  const probe = path.join(work, 'probe.js');
  const loadedFile = path.join(work, 'loaded.json');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loadedFile)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const outdir = path.join(work, 'cdk.out');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: `--require ${probe}`,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify(context),
  };
  delete env.CDK_DEFAULT_ACCOUNT;
  delete env.CDK_DEFAULT_REGION;
  // The handlers as the app finds them on a user's machine: from lambda/, beside the sources.
  delete env[HANDLER_BUNDLES_ENV];
  const result = spawnSync(command, { cwd, env, shell: true, encoding: 'utf8' });
  const loaded = fs.existsSync(loadedFile)
    ? (JSON.parse(fs.readFileSync(loadedFile, 'utf8')) as string[])
    : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, loaded, outdir };
}

/** The files of a cloud assembly that hold what is deployed: each stack's template and the assets. */
function deployed(outdir: string): Map<string, string> {
  const names = fs
    .readdirSync(outdir)
    .filter((f) => f.endsWith('.template.json') || f.endsWith('.assets.json') || f.startsWith('asset.'));
  return new Map(
    names
      .sort()
      .map((f) => [
        f,
        fs.statSync(path.join(outdir, f)).isFile()
          ? fs.readFileSync(path.join(outdir, f), 'utf8')
          : '(directory)',
      ]),
  );
}

/** Whether the run loaded esbuild's JS API, which only a build does. */
const builtNow = (r: Run) =>
  r.loaded.some((f) => f.split(path.sep).join('/').endsWith('/node_modules/esbuild/lib/main.js'));
const typeScriptLoaded = (r: Run) => r.loaded.filter((f) => f.endsWith('.ts'));

jest.setTimeout(120_000);

test("cdk.json's app runs the bundle without building or loading TypeScript when the sources are unchanged", () => {
  // The first run builds the bundle if these sources have none yet.
  expect(run(APP_COMMAND, ROOT).status).toBe(0);
  const fast = run(APP_COMMAND, ROOT);
  expect(fast.stderr).not.toMatch(/Error/);
  expect(fast.status).toBe(0);
  expect(fast.loaded.filter((f) => BUNDLE.test(f))).toHaveLength(1);
  expect(builtNow(fast)).toBe(false);
  expect(typeScriptLoaded(fast)).toEqual([]);

  // What the bundle deploys is what the TypeScript deploys: the modules that read files beside their own source
  // (lib/scripts through readScript, the handlers through handlerFunction) find them from the bundle's folder.
  const direct = run('node --require esbuild-register bin/storage-server.ts', ROOT);
  expect(direct.status).toBe(0);
  expect(typeScriptLoaded(direct)).toContain(path.join(ROOT, 'lib', 'script-file.ts'));
  const [fromBundle, fromSources] = [deployed(fast.outdir), deployed(direct.outdir)];
  expect([...fromBundle.keys()].some((f) => f.endsWith('.template.json'))).toBe(true);
  expect(fromBundle).toEqual(fromSources);
});

describe('in a copy of the launcher with an app of its own', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const app = () => run('node bin/app.mjs', dir);
  const bundles = () => fs.readdirSync(path.join(dir, '.app-bundle')).filter((f) => f.endsWith('.js'));

  beforeEach(() => {
    // The real path: the launcher finds its root from its own resolved location.
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'app-bundle-copy-')));
    write('bin/app.mjs', fs.readFileSync(path.join(ROOT, 'bin', 'app.mjs'), 'utf8'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    write('bin/storage-server.ts', "import { word } from '../lib/word';\nconsole.log(word, __dirname);\n");
    write('lib/word.ts', "export const word: string = 'one';\n");
  });

  test('an edit under lib/ is built before the app runs; an unchanged source is not built again', () => {
    const first = app();
    expect(first.stdout).toBe(`one ${path.join(dir, '.app-bundle')}\n`);
    expect(builtNow(first)).toBe(true);
    const second = app();
    expect(second.stdout).toBe(first.stdout);
    expect(builtNow(second)).toBe(false);

    write('lib/word.ts', "export const word: string = 'two';\n");
    const edited = app();
    expect(edited.stdout).toMatch(/^two /);
    expect(builtNow(edited)).toBe(true);
    // One bundle kept: the one of the sources as they are.
    expect(bundles()).toEqual([path.basename(edited.loaded.find((f) => BUNDLE.test(f))!)]);

    // The key is the content: a file written again with the same text (a checkout, a copy) builds nothing.
    write('lib/word.ts', "export const word: string = 'two';\n");
    expect(builtNow(app())).toBe(false);
  });

  test('a new file that an unchanged import now resolves to is built', () => {
    expect(app().stdout).toMatch(/^one /);
    // esbuild tries .tsx before .ts: no file the last build read has changed, yet the app has.
    write('lib/word.tsx', "export const word: string = 'three';\n");
    const shadowed = app();
    expect(shadowed.stdout).toMatch(/^three /);
    expect(builtNow(shadowed)).toBe(true);
  });

  test("a source that does not build stops the app with esbuild's message, naming the file and line", () => {
    write('lib/word.ts', "export const word: string = 'one'\nexport const = 2;\n");
    const broken = app();
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(
      /^Error: The app \(bin\/storage-server\.ts\) does not build: lib\/word\.ts:2: Expected identifier/,
    );
    expect(broken.stderr).not.toMatch(/^\s+at /m);
  });

  test('an import from outside the hashed folders is refused, since an edit there would not rebuild', () => {
    write('other/thing.ts', 'export const thing = 1;\n');
    write('bin/storage-server.ts', "import { thing } from '../other/thing';\nconsole.log(thing);\n");
    const outside = app();
    expect(outside.status).toBe(1);
    expect(outside.stderr).toMatch(
      /The app imports other\/thing\.ts, outside bin\/, lib\/, lambda\/: add its folder to SOURCE_DIRS/,
    );
  });

  test('--build builds and runs nothing', () => {
    const built = run('node bin/app.mjs --build', dir);
    expect(built.status).toBe(0);
    expect(built.stdout).toBe('');
    expect(bundles()).toHaveLength(1);
    expect(execFileSync('node', ['bin/app.mjs'], { cwd: dir, encoding: 'utf8' })).toMatch(/^one /);
  });
});
