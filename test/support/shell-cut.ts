/**
 * Cuts parts of a shell script out for a test to eval: the named functions with every function of the script they
 * call, however deep, and the named top-level assignments (with their `+=` lines), in the script's order. A name the script does not define
 * throws, so that a test never runs with a part missing; a callee is found by its name, so that a function that starts
 * calling another needs no change in the tests that cut it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface Part {
  readonly name: string;
  readonly kind: 'function' | 'assignment';
  readonly text: string;
}

/** The script's functions (`name() {` at the start of a line, to the first `}` line, or on one line) and assignments. */
function parts(script: string): Part[] {
  const lines = script.split('\n');
  const out: Part[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fn = /^([A-Za-z_][A-Za-z0-9_]*)\(\) *\{(.*)$/.exec(lines[i]);
    if (fn) {
      // One line: the body closes on it.
      if (/;\s*\}\s*(#.*)?$/.test(fn[2])) {
        out.push({ name: fn[1], kind: 'function', text: lines[i] });
        continue;
      }
      const end = lines.indexOf('}', i + 1);
      if (end < 0) throw new Error(`shell-cut: ${fn[1]}() has no closing '}' line`);
      out.push({ name: fn[1], kind: 'function', text: lines.slice(i, end + 1).join('\n') });
      i = end;
      continue;
    }
    const assign = /^([A-Z_][A-Z0-9_]*)\+?=(.*)$/.exec(lines[i]);
    if (assign) {
      // An array over several lines ends at the line that closes it.
      let end = i;
      if (assign[2].startsWith('(') && !assign[2].includes(')')) end = lines.findIndex((l, k) => k > i && /^\s*[^#]*\)\s*$/.test(l));
      const text = lines.slice(i, end + 1).join('\n');
      // NAME+= appends: it belongs to NAME's part.
      const prior = out.find((p) => p.name === assign[1] && p.kind === 'assignment');
      if (prior) out[out.indexOf(prior)] = { ...prior, text: `${prior.text}\n${text}` };
      else out.push({ name: assign[1], kind: 'assignment', text });
      i = end;
    }
  }
  return out;
}

/** The words of a text that may be commands: after whitespace, `;`, `|`, `&`, `(`, `{`, `!` or `$(`, never after `$`. */
function calledWords(text: string): Set<string> {
  return new Set([...text.matchAll(/(?:^|[\s;|&({!`]|\$\()([A-Za-z_][A-Za-z0-9_]*)(?=$|[\s;|&)}])/gm)].map((m) => m[1]));
}

/**
 * The named functions and assignments of the script in `file`, with the functions they call, for `eval`.
 * @param names functions (with their callees) and top-level assignments, each of which the script must define
 */
export function cutShell(file: string, names: string[]): string {
  const all = parts(fs.readFileSync(file, 'utf8'));
  const byName = new Map(all.map((p) => [p.name, p]));
  const missing = names.filter((n) => !byName.has(n));
  if (missing.length) throw new Error(`shell-cut: ${file} defines no ${missing.join(', ')}`);
  const chosen = new Set<string>();
  const queue = [...names];
  while (queue.length) {
    const name = queue.pop()!;
    if (chosen.has(name)) continue;
    chosen.add(name);
    const part = byName.get(name)!;
    if (part.kind !== 'function') continue;
    for (const word of calledWords(part.text)) {
      if (byName.get(word)?.kind === 'function' && !chosen.has(word)) queue.push(word);
    }
  }
  return all.filter((p) => chosen.has(p.name)).map((p) => p.text).join('\n') + '\n';
}

const written = new Map<string, string>();
/** {@link cutShell}'s text in a file of its own, for a test's bash to source: `. '<path>'`. */
export function cutShellFile(file: string, names: string[]): string {
  const key = `${file}\n${names.join(' ')}`;
  let out = written.get(key);
  if (out === undefined) {
    out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shell-cut-')), 'cut.sh');
    fs.writeFileSync(out, cutShell(file, names));
    written.set(key, out);
  }
  return out;
}
