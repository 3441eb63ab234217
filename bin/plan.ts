#!/usr/bin/env node
/**
 * Prints the storage plan for a capacity, then the best plan of each backend for the same request side by side:
 * `npm run plan -- <capacityTiB> [backend] [options]`, where `--help` lists the options.
 *
 * Exit status:
 * - 0 for a plan;
 * - 2 when the command line is malformed: an unknown option, or a value that is not of the option's kind;
 * - 1 when the planner refuses the request: a capacity or throughput beyond what the backend holds or sustains.
 */
import {
  ArchName,
  GenerationName,
  OVERRIDE_EBS_INSTANCE_TYPES,
  archOf,
  generationOf,
  familyList,
  StorageRequest,
  cheapestShown,
  compareBackends,
  formatBackendComparison,
  formatChoice,
  formatPlanTable,
  planStorage,
  withInstanceType,
} from '../lib/sizing';
import { backendOrAuto } from '../lib/backend-enum';
import type { BackendCliOption } from '../lib/sizing/backend-sizing';
import { DEFAULT_IO_SIZE_KIB, MIN_IO_SIZE_KIB } from '../lib/sizing/io-size';
import { BACKEND_SIZING } from '../lib/sizing/registry';
import { MAX_DATA_VOLUMES } from '../lib/sizing/plan-ebs';
import { BACKEND_CHOICES } from '../lib/sizing/validate-request';
import { wrapText } from '../lib/sizing/wrap';
import { OptionSpec, UsageError, didYouMean, formatHelp, npmTakenOptions, parseArgs, terminalWidth } from './args';
import { CLIENT_OPTIONS, readClient } from './client-options';

const BACKENDS = BACKEND_CHOICES;
const GENERATIONS: readonly GenerationName[] = ['previous', 'current'];
const ARCHS: readonly ArchName[] = ['x86_64', 'arm64'];
/** The instance types `--instance-type` takes: the EBS types the planner has figures for, as the app's instanceType key. */
const EBS_TYPES: readonly string[] = OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name);
/** The options the backends add in their `cliOptions`, each with the backend that takes it. */
const BACKEND_OPTIONS: readonly { backend: string; option: BackendCliOption }[] = BACKEND_CHOICES.flatMap((backend) =>
  backend === 'auto' ? [] : (BACKEND_SIZING[backend].cliOptions ?? []).map((option) => ({ backend, option })));

const USAGE = `usage: npm run plan -- <capacityTiB> [${BACKENDS.join('|')}] [options]`;
const INTRO = 'Plans a storage server for <capacityTiB> (usable TiB) and compares the best plan of each backend.\n' +
  'Exit status: 0, 2 for a malformed command line, 1 when the planner refuses the request.';

const OPTIONS: readonly OptionSpec[] = [
  { name: '--backend', value: BACKENDS.join('|'), help: "the backend, as the second argument may give it (default 'auto'; context key backend)" },
  { name: '--throughput', value: 'MB/s', help: 'sustained aggregate MB/s the cluster needs, read and write alike (context key throughputMBps)' },
  { name: '--io-size', value: 'KiB', help: 'size of random requests: 4-1024 KiB, e.g. 128, 128k or 1m (default 1m, which also describes sequential I/O of any size); each figure is then also bounded by IOPS x size' },
  { name: '--generation', value: GENERATIONS.join('|'), help: 'instance generation: previous (d2, m4; default) or current (Nitro: m6i, m7i, and c6in, m6in, r6in for a throughput; context key generation)' },
  { name: '--arch', value: ARCHS.join('|'), help: 'processor architecture: x86_64 (default) or arm64 (AWS Graviton: m7g, m6g, and c8gb, m8gb, r8gb for a throughput; current generation; the app takes an instanceType)' },
  { name: '--volumes', value: `1-${MAX_DATA_VOLUMES}`, help: 'exactly this many striped st1 volumes: the EBS backend (context key dataVolumeCount)' },
  ...BACKEND_OPTIONS.map(({ option: { name, value, help } }) => ({ name, value, help })),
  { name: '--instance-type', value: 'type', help: `an EBS plan on this instance type instead of the planner's choice: ${familyList(EBS_TYPES)}` },
  ...CLIENT_OPTIONS,
  { name: '--json', help: "print the plan and the comparison as JSON, nothing else on stdout (npm run --silent keeps npm's own header off it)" },
  { name: '--help', short: '-h', help: 'print this help' },
];

/** Where the command writes, and how wide its lines may be (80 unless given). */
export interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly width?: number;
}

/** What the command line asks for. */
interface PlanCommand {
  readonly request: StorageRequest;
  readonly instanceType?: string;
  readonly json: boolean;
  readonly width: number;
}

/**
 * Runs the command on `argv`, the arguments after the script's name, with `env` the environment npm ran it in;
 * returns the exit status.
 */
export function main(argv: readonly string[], output: Output, env: NodeJS.ProcessEnv = {}): number {
  const width = output.width ?? 80;
  const err = (text: string) => output.err(wrapText(text, width, 2));
  try {
    const rerun = npmTakenOptions('plan', argv, OPTIONS, env);
    if (rerun !== undefined) throw new UsageError(rerun);
    const parsed = parseArgs(argv, OPTIONS);
    if (parsed.flags.has('--help')) {
      output.out(formatHelp(USAGE, INTRO, OPTIONS, width));
      return 0;
    }
    const command = readCommand(parsed.values, parsed.positionals, parsed.flags.has('--json'), width);
    const client = readClient(parsed, command.request.backend);
    output.out(render(client === undefined ? command : { ...command, request: { ...command.request, client } }));
    return 0;
  } catch (caught) {
    const message = (caught as Error).message;
    if (caught instanceof UsageError) {
      err(`Error: ${message}\n${USAGE} (--help lists the options)`);
      return 2;
    }
    err(`Error: ${message}${optionsNamed(message)}`);
    return 1;
  }
}

/** The request the command line makes; a UsageError for anything malformed. */
function readCommand(values: ReadonlyMap<string, string>, positionals: readonly string[], json: boolean, width: number): PlanCommand {
  if (positionals.length === 0) throw new UsageError('<capacityTiB> is missing');
  if (positionals.length > 2) {
    throw new UsageError(`too many arguments: ${positionals.slice(2).map((p) => `'${p}'`).join(' ')} (at most <capacityTiB> and a backend)`);
  }
  const capacityTiB = decimal('<capacityTiB>', positionals[0], 'a positive number of TiB, e.g. 10 or 21.5');
  const positionalBackend = positionals[1] === undefined ? undefined : oneOf('backend', positionals[1], BACKENDS);
  const optionBackend = optional(values, '--backend', (name, v) => oneOf(name, v, BACKENDS));
  if (positionalBackend !== undefined && optionBackend !== undefined && positionalBackend !== optionBackend) {
    throw new UsageError(`the backend is given twice, as '${positionalBackend}' and --backend ${optionBackend}: give one`);
  }
  const backend = optionBackend ?? positionalBackend ?? 'auto';
  const throughputMBps = optional(values, '--throughput', (name, v) => decimal(name, v, 'a positive number of MB/s, e.g. 400'));
  const ioSizeKiB = optional(values, '--io-size', ioSize);
  const generation = optional(values, '--generation', (name, v) => oneOf(name, v, GENERATIONS));
  const arch = optional(values, '--arch', (name, v) => oneOf(name, v, ARCHS));
  const dataVolumeCount = optional(values, '--volumes', volumeCount);
  const instanceType = optional(values, '--instance-type', (name, v) => oneOf(name, v, EBS_TYPES, familyList));
  for (const [name, given] of [['--volumes', dataVolumeCount], ['--instance-type', instanceType]] as const) {
    if (given !== undefined && backend !== 'ebs' && backend !== 'auto') {
      throw new UsageError(`${name} applies to the EBS backend only; got backend '${backend}'`);
    }
  }
  const backendParts = BACKEND_OPTIONS.map(({ backend: owner, option }) => {
    const value = optional(values, option.name, (name, v) => oneOf(name, v, option.values));
    if (value !== undefined && backend !== owner && backend !== 'auto') {
      throw new UsageError(`${option.name} applies to the ${owner} backend only; got backend '${backend}'`);
    }
    return value === undefined ? {} : option.request(value);
  });
  return {
    request: {
      capacityTiB, backend: backendOrAuto(backend), throughputMBps, generation: generation && generationOf(generation),
      arch: arch && archOf(arch), dataVolumeCount, ...Object.assign({}, ...backendParts), ioSizeKiB,
    },
    instanceType,
    json,
    width,
  };
}

/** The chosen plan's table and the comparison, or both as JSON. */
function render({ request, instanceType, json, width }: PlanCommand): string {
  const planned = planStorage(request);
  if (instanceType !== undefined && planned.backend !== 'ebs') {
    throw new Error(`--instance-type applies to EBS plans only, and the plan for ${request.capacityTiB} TiB is backend ` +
      `'${planned.backend}' (${planned.instanceType}): add --backend ebs to plan EBS on ${instanceType}`);
  }
  const plan = instanceType === undefined ? planned : withInstanceType(planned, instanceType, request.throughputMBps);
  const comparison = compareBackends(request, { instanceType });
  if (json) {
    const choice = cheapestShown(request, comparison)?.backend;
    return JSON.stringify({ request: { ...request, backend: request.backend ?? 'auto', instanceType }, plan, comparison, choice }, null, 2);
  }
  const layout = [request.dataVolumeCount !== undefined ? '--volumes' : '', instanceType !== undefined ? '--instance-type' : ''].filter(Boolean);
  const heading = `The best plan of each backend for the same request` +
    `${layout.length > 0 ? ` (${layout.join(' and ')} shape${layout.length > 1 ? '' : 's'} the ebs row only)` : ''}:`;
  return `${formatPlanTable(plan, width)}\n\n${wrapText(heading, width)}\n` +
    `${formatBackendComparison(request, { instanceType }, width)}\n\n${formatChoice(request, comparison, plan, width)}`;
}

/** The planner's messages name its request's fields: the options that set those a message names. */
const FIELD_OPTIONS: readonly [string, string][] = [
  ['capacityTiB', 'the first argument'], ['throughputMBps', '--throughput'], ['dataVolumeCount', '--volumes'], ['instanceType', '--instance-type'],
  ['arch', '--arch'], ...BACKEND_OPTIONS.map(({ option }): [string, string] => [option.field, option.name]), ['ioSizeKiB', '--io-size'],
];

function optionsNamed(message: string): string {
  const named = FIELD_OPTIONS.filter(([field]) => new RegExp(`\\b${field}\\b`).test(message));
  return named.length === 0 ? '' : `\n(on this command line ${named.map(([field, option]) => `${field} is ${option}`).join(', ')})`;
}

function optional<T>(values: ReadonlyMap<string, string>, name: string, parse: (name: string, value: string) => T): T | undefined {
  const value = values.get(name);
  return value === undefined ? undefined : parse(name, value);
}

/**
 * A request size: whole KiB, with an optional unit k/KiB or m/MiB, such as `128`, `128k` or `1m`. It must be in
 * validateIoSize's range, and is refused as typed: a usage error like any other bad option.
 */
function ioSize(name: string, value: string): number {
  const m = /^([0-9]+)(k|kib|m|mib)?$/i.exec(value);
  const kib = m === null ? NaN : Number(m[1]) * (/^m/i.test(m[2] ?? '') ? 1024 : 1);
  if (!(kib >= MIN_IO_SIZE_KIB && kib <= DEFAULT_IO_SIZE_KIB)) {
    throw new UsageError(`${name} must be a whole number of KiB from ${MIN_IO_SIZE_KIB} to ${DEFAULT_IO_SIZE_KIB}, optionally with k ` +
      `or m (e.g. 128, 128k, 1m); got '${value}'`);
  }
  return kib;
}

/** Plain decimals only: Number('') is 0 and Number('1e1') is 10. The planner checks the range. */
function decimal(name: string, value: string, allowed: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(Number(value) > 0)) throw new UsageError(`${name} must be ${allowed}; got '${value}'`);
  return Number(value);
}

function oneOf<T extends string>(
  name: string, value: string, allowed: readonly T[], list: (names: readonly T[]) => string = (names) => names.join(', '),
): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const guess = didYouMean(value, allowed);
  throw new UsageError(`${name} must be one of ${list(allowed)}; got '${value}'${guess === undefined ? '' : ` (did you mean ${guess}?)`}`);
}

/** The app's dataVolumeCount rule, as in lib/context/sizing.ts: 1 to 21, at most 16 TiB each. */
function volumeCount(name: string, value: string): number {
  if (!/^[1-9][0-9]?$/.test(value) || Number(value) > MAX_DATA_VOLUMES) {
    throw new UsageError(`${name} must be a whole number of EBS data volumes from 1 to ${MAX_DATA_VOLUMES} (at most 16 TiB each, 48 TiB in all); got '${value}'`);
  }
  return Number(value);
}

if (require.main === module) {
  const output = { out: (t: string) => console.log(t), err: (t: string) => console.error(t), width: terminalWidth(process.stdout) };
  process.exitCode = main(process.argv.slice(2), output, process.env);
}
