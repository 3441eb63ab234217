/**
 * The storage server's bootstrap script as the server gets it: lib/scripts/storage-bootstrap.sh with its parts in
 * place, and the compact form the apply document carries.
 *
 * The script is kept in parts by concern, lib/scripts/storage-bootstrap-*.sh: the settings, the packages, the data
 * disks, the array, its encryption, the file system, the NFS export, the metrics. The entry, storage-bootstrap.sh,
 * holds what every part uses and the order of the run, and reads each part from beside itself. lib/script-parts.ts puts
 * the parts in place, as for the client's script, so the server gets one file.
 */
import { readWholeScript } from '../script-parts';

const SCRIPT_FILE = 'storage-bootstrap.sh';

/**
 * The bootstrap script's text, its parts in place. The files are read from lib/scripts next to this module, in
 * `<dir>/scripts/`. When this module runs compiled from another directory such as dist/lib, they are read from the
 * source tree's lib/scripts, `<dir>/../../lib/scripts/`: see readScript.
 */
export function bootstrapScript(): string {
  return readWholeScript(SCRIPT_FILE);
}

/**
 * The script as the apply document carries it, without its comment-only lines to keep the document small; shellcheck
 * directives stay. lib/scripts/storage-bootstrap.sh and its parts are the documented source. The script has no
 * multi-line strings, so no line that starts with `#` is data.
 */
export function compactScript(script: string): string {
  const [shebang, ...rest] = script.split('\n');
  const code = rest.filter((l) => !/^\s*#(?! shellcheck )/.test(l));
  return [shebang, `# ${SCRIPT_FILE} of the StorageServer project, comments stripped`, ...code].join('\n');
}
