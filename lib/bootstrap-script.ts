/**
 * The storage server's bootstrap script as the server gets it: lib/scripts/storage-bootstrap.sh with its parts
 * joined in, and the compact form the apply document carries.
 *
 * The script is kept in parts by concern (lib/scripts/storage-bootstrap-*.sh: the settings, the packages, the data
 * disks, the array, its encryption, the file system, the NFS export, the metrics). The entry,
 * storage-bootstrap.sh, holds what every part uses and the order of the run, and names each part on an
 * `#include <file>` line where its code goes. A part opens with a header (comment lines, its shellcheck
 * directive first, up to the first empty line) that stays out of the joined script: the server gets one file.
 */
import { readScript } from './script-file';

const SCRIPT_FILE = 'storage-bootstrap.sh';
/** An entry's line that names a part: `#include storage-bootstrap-<concern>.sh`. */
const INCLUDE = /^#include (\S+)$/;

/**
 * The bootstrap script's text, its parts joined. The files are read from lib/scripts next to this module
 * (`<dir>/scripts/`), or, when this module runs compiled from another directory such as dist/lib, from the source
 * tree's lib/scripts (`<dir>/../../lib/scripts/`). A build that ships the compiled files elsewhere must copy
 * lib/scripts to `scripts/` beside the compiled bootstrap-script.js.
 */
export function bootstrapScript(): string {
  return joinParts(readScript(SCRIPT_FILE), readScript);
}

/** The parts an entry's text names, in the order its `#include` lines name them. */
export function includedParts(entry: string): string[] {
  return entry.split('\n').flatMap((line) => INCLUDE.exec(line)?.[1] ?? []);
}

/**
 * `entry` with each `#include <file>` line replaced by that part's code, read by `read`; every other line as it
 * is. Throws when a part has no header or includes a part itself (which would leave its line unjoined).
 */
export function joinParts(entry: string, read: (file: string) => string): string {
  return entry
    .split('\n')
    .map((line) => {
      const file = INCLUDE.exec(line)?.[1];
      return file === undefined ? line : partCode(file, read(file));
    })
    .join('\n');
}

/** A part's code: its text after its header (comment lines up to the first empty line), its last newline dropped. */
function partCode(file: string, text: string): string {
  const lines = text.split('\n');
  const end = lines.indexOf('');
  if (end < 1 || !lines.slice(0, end).every((l) => l.startsWith('#'))) {
    throw new Error(`${file} must open with a header of comment lines ended by an empty line`);
  }
  const code = lines.slice(end + 1);
  if (code.some((l) => INCLUDE.test(l))) throw new Error(`${file} is a part of ${SCRIPT_FILE}: it cannot include a part`);
  return code.join('\n').replace(/\n$/, '');
}

/**
 * The script as the apply document carries it: without its comment-only lines (shellcheck directives stay),
 * which keeps the document small; lib/scripts/storage-bootstrap.sh and its parts are the documented source. The
 * script has no multi-line strings, so no line that starts with `#` is data.
 */
export function compactScript(script: string): string {
  const [shebang, ...rest] = script.split('\n');
  const code = rest.filter((l) => !/^\s*#(?! shellcheck )/.test(l));
  return [shebang, `# ${SCRIPT_FILE} of the StorageServer project, comments stripped`, ...code].join('\n');
}
