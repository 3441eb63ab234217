import { heredocBody, readScript } from './script-file';

/**
 * A script of lib/scripts made whole from the parts it keeps in files beside it, so that it runs alone in an SSM
 * document or user data. Run from lib/scripts, the script reads its parts itself, each with one line:
 *
 *   . "$(dirname -- "${BASH_SOURCE[0]}")/<part>.sh"        bash functions: the part's text takes the line's place
 *   <VAR>=$(<"$(dirname -- "${BASH_SOURCE[0]}")/<part>.py")  a Python program: the line becomes a quoted
 *                                                           here-document, read -r -d '' <VAR> <<'PYTHON' || true
 *
 * A part opens with a comment for the reader of its file, ended by a blank line: what it is, and the linter's
 * directives. The text after that blank line is what the whole script carries. So the parts are real files that the
 * linters and tests read, and the script a node runs is one file. ShellCheck follows the `.` lines, as .shellcheckrc
 * says; ruff and mypy read the Python.
 */

/** The directory of the running script, as its part lines name it. */
const HERE = '"$(dirname -- "${BASH_SOURCE[0]}")/';
const SOURCE_LINE = /^\. "\$\(dirname -- "\$\{BASH_SOURCE\[0\]\}"\)\/([A-Za-z0-9_.-]+\.sh)"$/;
const PROGRAM_LINE = /^([A-Za-z_][A-Za-z0-9_]*)=\$\(<"\$\(dirname -- "\$\{BASH_SOURCE\[0\]\}"\)\/([A-Za-z0-9_.-]+\.py)"\)$/;
/** The here-document delimiter of a Python part. */
const PYTHON_END = 'PYTHON';

/**
 * The script `name` of lib/scripts with its parts in place, as the module comment says; `baseDir` as for readScript.
 */
export function readWholeScript(name: string, baseDir?: string): string {
  return wholeScript(name, readScript(name, baseDir), (part) => readScript(part, baseDir));
}

/**
 * `script` with every part line replaced by its part's text, `read` giving a part's file by name. Throws when a part
 * has no opening comment, or when the result still names a file beside the script, from a part line not matched.
 */
export function wholeScript(name: string, script: string, read: (part: string) => string): string {
  const lines = script.split('\n').map((line) => {
    const source = SOURCE_LINE.exec(line);
    if (source) return partText(source[1], read(source[1]));
    const program = PROGRAM_LINE.exec(line);
    if (!program) return line;
    const body = heredocBody(program[2], partText(program[2], read(program[2])), PYTHON_END, { ssm: false });
    return [`read -r -d '' ${program[1]} <<'${PYTHON_END}' || true`, body, PYTHON_END].join('\n');
  });
  const whole = lines.join('\n');
  if (whole.includes(HERE)) throw new Error(`${name}: a line reads a file beside the script in a form no part takes`);
  return whole;
}

/** The files a script reads from beside itself by its part lines, in the order it reads them. */
export function partsOf(script: string): string[] {
  return script.split('\n').flatMap((line) => {
    const part = SOURCE_LINE.exec(line)?.[1] ?? PROGRAM_LINE.exec(line)?.[2];
    return part === undefined ? [] : [part];
  });
}

/** A part's text: what follows its opening comment and the blank line that ends it, less its last newline. */
function partText(part: string, text: string): string {
  const lines = text.split('\n');
  const blank = lines.findIndex((line) => line === '');
  if (blank < 1 || !lines.slice(0, blank).every((line) => line.startsWith('#'))) {
    throw new Error(`${part} must open with a comment ended by a blank line (what the part is; left out of the script)`);
  }
  const body = lines.slice(blank + 1).join('\n');
  return body.endsWith('\n') ? body.slice(0, -1) : body;
}
