/**
 * `npm run plan -- <args>` as npm starts it: package.json's `plan` script, with this node, and the arguments after
 * it. The tests run what the script says, so a change to it is what they test.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/** The program and arguments of the plan script followed by `args`, to run in the repository's root. */
export function planScript(args: readonly string[]): { file: string; args: string[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts.plan.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json's plan script must start with node to be run here: ${pkg.scripts.plan}`);
  return { file: process.execPath, args: [...words.slice(1), ...args] };
}
