/**
 * The command-line helpers the project's commands share (bin/plan.ts, bin/bench-cluster.ts).
 */

/**
 * Takes `--name <value>` out of `args` (it is changed): the value ('' when the option is last and has none), or
 * undefined when the option is absent.
 */
export function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : (args.splice(at, 2)[1] ?? '');
}
