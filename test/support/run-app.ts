import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** What the app's entry point did: its exit status (0 when it returned) and what it wrote with console.error. */
export interface AppRun {
  readonly code: number;
  readonly stderr: string;
}

class Exited extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

/**
 * Runs bin/storage-server.ts in this process with `context` as the CLI passes it (CDK_CONTEXT_JSON), offline
 * (no CDK_DEFAULT_ACCOUNT or region), in a module registry of its own: the entry point's own refusal path, the
 * one `cdk synth` runs, at a fraction of a CLI process's cost. process.exit and console.error are captured.
 */
export function runAppInProcess(context: Record<string, string>): AppRun {
  const saved = { ...process.env };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-in-process-'));
  const lines: string[] = [];
  const error = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  const exit = jest.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    throw new Exited(code ?? 0);
  }) as never);
  process.env.CDK_CONTEXT_JSON = JSON.stringify(context);
  process.env.CDK_OUTDIR = outdir;
  delete process.env.CDK_DEFAULT_ACCOUNT;
  delete process.env.CDK_DEFAULT_REGION;
  // The App adds process listeners (its synth at exit); the ones this run added are removed after it.
  const listeners = { exit: process.listeners('exit'), beforeExit: process.listeners('beforeExit') };
  try {
    // A registry of its own per run: the entry point does its work when it is loaded.
    jest.isolateModules(() => {
      jest.requireActual('../../bin/storage-server');
    });
    return { code: 0, stderr: lines.join('\n') };
  } catch (e) {
    if (e instanceof Exited) return { code: e.code, stderr: lines.join('\n') };
    throw e;
  } finally {
    for (const l of process.listeners('exit')) if (!listeners.exit.includes(l)) process.removeListener('exit', l);
    for (const l of process.listeners('beforeExit')) {
      if (!listeners.beforeExit.includes(l)) process.removeListener('beforeExit', l);
    }
    error.mockRestore();
    exit.mockRestore();
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
