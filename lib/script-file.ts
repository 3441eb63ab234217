import * as fs from 'fs';
import * as path from 'path';

/**
 * Reads a shell script of lib/scripts by file name, for the constructs that embed one in user data or an SSM document.
 * It looks next to the calling module first, in `<dir>/scripts/`: that serves lib/*.ts under ts-node or jest, and the
 * published dist/lib/*.js, whose build copies lib/scripts there. Then it looks in the source tree's lib/scripts from a
 * compiled copy one or two levels down: `<dir>/../lib/scripts`, `<dir>/../../lib/scripts`. Throws naming every place it
 * looked.
 */
export function readScript(name: string, baseDir: string = __dirname): string {
  const candidates = [
    path.join(baseDir, 'scripts', name),
    path.join(baseDir, '..', 'lib', 'scripts', name),
    path.join(baseDir, '..', '..', 'lib', 'scripts', name),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`${name} not found; looked in: ${candidates.join(', ')}`);
  return fs.readFileSync(found, 'utf8');
}

/**
 * A script's text as the body of a quoted here-document ending at `delimiter`, its last newline dropped, for the
 * constructs that embed lib/scripts in user data or an SSM document. It refuses a script with a line that would end the
 * here-document early. For an SSM document, with `ssm`, it also refuses one holding `{{`, which SSM would take for a
 * parameter. `name` names the script in the message.
 */
export function heredocBody(name: string, script: string, delimiter: string, options: { readonly ssm: boolean }): string {
  if (options.ssm && script.includes('{{')) throw new Error(`${name} must not contain '{{' (SSM parameter syntax)`);
  if (script.split('\n').some((line) => line.trim() === delimiter)) {
    throw new Error(`${name} must not contain a line '${delimiter}' (the heredoc delimiter)`);
  }
  return script.endsWith('\n') ? script.slice(0, -1) : script;
}

/**
 * An SSM document's shell step that writes `script` to a temporary file with a quoted heredoc ending at `delimiter`,
 * runs it with bash and `args` (text the document's parameter patterns keep to what a shell takes as text), removes
 * the file and exits with the script's status.
 */
export function tempScriptCommand(name: string, script: string, delimiter: string, args: string): string {
  return [
    'set -eu',
    'script=$(mktemp)',
    `cat >"$script" <<'${delimiter}'`,
    heredocBody(name, script, delimiter, { ssm: true }),
    delimiter,
    'rc=0',
    `bash "$script" ${args} || rc=$?`,
    'rm -f "$script"',
    'exit "$rc"',
  ].join('\n');
}

/** The one step of a {@link linuxShellDocument}. */
export interface ShellStep {
  /** The step's name. */
  readonly name: string;
  /**
   * The step's description.
   * @default none
   */
  readonly description?: string;
  /** The shell commands the step runs. */
  readonly runCommand: readonly string[];
  /**
   * The step's time limit, seconds.
   * @default SSM's default, 3600 s
   */
  readonly timeoutSeconds?: number;
}

/**
 * An SSM Command document's content in the shape every document of the project has: schema 2.2, the parameters if any,
 * and one `aws:runShellScript` step that runs only on Linux. The documents are the server's apply document, the client
 * mount, the snapshot freeze and the cluster benchmark.
 */
export function linuxShellDocument(
  description: string,
  step: ShellStep,
  parameters?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    schemaVersion: '2.2',
    description,
    ...(parameters ? { parameters } : {}),
    mainSteps: [{
      action: 'aws:runShellScript',
      name: step.name,
      ...(step.description ? { description: step.description } : {}),
      precondition: { StringEquals: ['platformType', 'Linux'] },
      inputs: {
        runCommand: [...step.runCommand],
        ...(step.timeoutSeconds !== undefined ? { timeoutSeconds: String(step.timeoutSeconds) } : {}),
      },
    }],
  };
}

/**
 * Refuses a path a document writes into its shell command unless it is absolute and made of [A-Za-z0-9._-] segments,
 * characters a shell takes as text. `field` names it in the message.
 */
export function requireShellSafePath(field: string, path: string): void {
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(path)) {
    throw new Error(`${field} '${path}' must be an absolute path of [A-Za-z0-9._-] segments`);
  }
}
