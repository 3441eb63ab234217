/**
 * The command-line helpers the project's commands share: bin/plan.ts and bin/bench-cluster.ts.
 */
import { wrapLine, wrapText } from '../lib/sizing/wrap';

/** The width a command writes for: the terminal's columns when `stream` is one, else 80; never under 40. */
export function terminalWidth(stream: { readonly isTTY?: boolean; readonly columns?: number }): number {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0 ? Math.max(stream.columns, 40) : 80;
}

/**
 * Takes `--name <value>` out of `args`, which it changes. It returns the value, '' when the option is last and has
 * none, or undefined when the option is absent.
 */
export function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : (args.splice(at, 2)[1] ?? '');
}

/** A command line the command cannot read: exit status 2, the usual one for a usage error. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** One option of a command: `--name <value>` when `value` names what it takes, else a flag. */
export interface OptionSpec {
  /** `--name`. */
  readonly name: string;
  /** What the option takes, for the help, such as `MB/s`; absent for a flag. */
  readonly value?: string;
  /** A one-character alias, such as `-h`. */
  readonly short?: string;
  /** One line for `--help`. */
  readonly help: string;
}

/** What a command line says: option values by name, flags given, and the positional arguments in order. */
export interface ParsedArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/**
 * Reads `argv` against `options`: `--name value`, `--name=value`, flags, and positional arguments. A positional
 * argument is anything not starting with `-`, or a negative number, so that `-5` reaches the value check.
 *
 * Throws a UsageError naming:
 * - an unknown option, with the option it was probably meant to be and every allowed one;
 * - a value missing or given to a flag;
 * - an option given twice.
 */
export function parseArgs(argv: readonly string[], options: readonly OptionSpec[]): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || /^-[0-9.]/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const spec = options.find((o) => o.name === written || (o.short !== undefined && o.short === written));
    if (spec === undefined) throw new UsageError(unknownOption(written, options));
    if (values.has(spec.name) || flags.has(spec.name)) throw new UsageError(`option ${spec.name} is given twice`);
    if (spec.value === undefined) {
      if (eq >= 0) throw new UsageError(`option ${spec.name} takes no value; got '${arg}'`);
      flags.add(spec.name);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[i + 1];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new UsageError(`option ${spec.name} needs a value (${spec.name} <${spec.value}>)`);
    }
    if (eq < 0) i++;
    values.set(spec.name, value);
  }
  return { values, flags, positionals };
}

function unknownOption(written: string, options: readonly OptionSpec[]): string {
  const names = options.map((o) => o.name);
  const guess = didYouMean(written, names);
  return `unknown option ${written}${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the options are ${names.join(', ')}`;
}

/**
 * The candidate `word` was probably meant to be, or undefined when none is that close:
 * - the same in another case;
 * - the only one that starts with it, an abbreviation of 3 letters or more;
 * - the nearest that differs in at most 40% of its letters, an edit being a letter added, dropped, changed, or two
 *   swapped.
 *
 * Leading dashes are not compared.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const bare = (s: string) => s.toLowerCase().replace(/^-+/, '');
  const w = bare(word);
  const same = candidates.find((c) => bare(c) === w);
  if (same !== undefined) return same;
  const prefixed = candidates.filter((c) => w.length >= 3 && bare(c).startsWith(w));
  if (prefixed.length === 1) return prefixed[0];
  const [best] = candidates
    .map((c) => ({ c, d: editDistance(w, bare(c)), most: 0.4 * Math.max(w.length, bare(c).length) }))
    .filter(({ d, most }) => d <= most)
    .sort((x, y) => x.d - y.d);
  return best?.c;
}

/** Edits from `a` to `b` by optimal string alignment: letters inserted, deleted, substituted, and adjacent letters swapped. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Where option help starts: 80 columns leave it 54; a longer option name takes a line of its own. */
const HELP_COLUMN = 26;

/**
 * `--help` at most `width` columns wide: the usage line, the intro, then each option with its help beside it, or
 * under it when the option's name would push the help column past HELP_COLUMN.
 */
export function formatHelp(usage: string, intro: string, options: readonly OptionSpec[], width: number): string {
  const names = options.map((o) => `${o.short ? `${o.short}, ` : ''}${o.name}${o.value ? ` <${o.value}>` : ''}`);
  const column = 2 + Math.min(Math.max(...names.map((n) => n.length)), HELP_COLUMN - 4) + 2;
  const lines = options.flatMap((o, i) => {
    const name = `  ${names[i]}`;
    const help = wrapLine(`${' '.repeat(column)}${o.help}`, width, column);
    if (name.length + 2 > column) return [...wrapLine(name, width, 6), ...help];
    return [`${name.padEnd(column)}${help[0].trimStart()}`, ...help.slice(1)];
  });
  return [...wrapLine(usage, width, 'usage: '.length), '', wrapText(intro, width), '', ...lines].join('\n');
}

/**
 * The command line to give instead when npm took options for itself, or undefined when it took none. Run as
 * `npm run <script> 10 --throughput 500`, without `--` before the options, npm keeps each option as its setting
 * `npm_config_<name>` (`true` when it leaves the value among the arguments, the value itself for `--name=value`) and
 * passes the command the rest.
 */
export function npmTakenOptions(script: string, argv: readonly string[], options: readonly OptionSpec[], env: NodeJS.ProcessEnv): string | undefined {
  // npm names the script it runs; under another (jest under `npm test`) the settings are not this command's.
  if (env.npm_lifecycle_event !== script) return undefined;
  const taken = options
    .map((o) => ({ o, setting: env[`npm_config_${o.name.replace(/^--/, '').replace(/-/g, '_')}`] }))
    .filter(({ o, setting }) => setting !== undefined && !argv.some((a) => a === o.name || a.startsWith(`${o.name}=`)));
  if (taken.length === 0) return undefined;
  const valuesLeft = taken.filter(({ o, setting }) => o.value !== undefined && setting === 'true');
  const args = [...argv];
  const left = args.splice(Math.max(args.length - valuesLeft.length, 0));
  const given = taken.map(({ o, setting }) => {
    if (o.value === undefined) return o.name;
    if (setting !== 'true') return `${o.name} ${setting}`;
    return `${o.name} ${valuesLeft.length === 1 ? left[0] ?? `<${o.value}>` : `<${o.value}>`}`;
  });
  const passed = valuesLeft.length > 1 ? ` with your values (npm passed ${left.join(', ')} without their options)` : '';
  return `npm took the options; run \`npm run ${script} -- ${[...args, ...given].join(' ')}\`${passed}`;
}
