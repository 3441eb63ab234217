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
