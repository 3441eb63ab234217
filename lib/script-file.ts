import * as fs from 'fs';
import * as path from 'path';

/**
 * Reads a shell script of lib/scripts by file name, for the constructs that embed one in user data or an SSM
 * document. It looks next to the calling module first (`<dir>/scripts/`: lib/*.ts under ts-node or jest, or
 * the published dist/lib/*.js, whose build copies lib/scripts there), then in the source tree's lib/scripts
 * from a compiled copy one or two levels down (`<dir>/../lib/scripts`, `<dir>/../../lib/scripts`).
 * Throws naming every place it looked.
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
 * A script's text as the body of a quoted here-document ending at `delimiter` (its last newline dropped), for the
 * constructs that embed lib/scripts in user data or an SSM document. Refuses a script with a line that would end
 * the here-document early, and, for an SSM document (`ssm`), one holding `{{`, which SSM would take for a
 * parameter. `name` names the script in the message.
 */
export function heredocBody(name: string, script: string, delimiter: string, options: { readonly ssm: boolean }): string {
  if (options.ssm && script.includes('{{')) throw new Error(`${name} must not contain '{{' (SSM parameter syntax)`);
  if (script.split('\n').some((line) => line.trim() === delimiter)) {
    throw new Error(`${name} must not contain a line '${delimiter}' (the heredoc delimiter)`);
  }
  return script.endsWith('\n') ? script.slice(0, -1) : script;
}
