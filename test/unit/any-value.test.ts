/**
 * Any value, anywhere: every context key and every StorageServer prop gets values of every JSON type, NaN and the
 * infinities, huge and tiny numbers, unicode with invisible and right-to-left characters among it, and tokens. None may
 * crash: each is accepted, or refused with an Error that names the key or prop as typed. The keys come from
 * CONTEXT_DEFAULTS and the props from StorageServerProps' own declaration, read with the TypeScript compiler. So a key
 * or prop added later is covered without a row here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Lazy, Stack, Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import fc from 'fast-check';
import * as ts from 'typescript';
import { CONTEXT_DEFAULTS, ContextKey, parseAppContext } from '../../lib/context';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { TARGET } from '../support/grammars';

const started = Date.now();
/**
 * Values per key or prop. `ANY_VALUE_RUNS=400`, about 17 minutes, is the wide search to run after a change to
 * validation.
 */
const RUNS = Number(process.env.ANY_VALUE_RUNS ?? 20);
/** CI draws the same values each run, so a red CI is the change's; elsewhere each run draws new ones. Printed below. */
const SEED = Number(process.env.ANY_VALUE_SEED ?? (process.env.CI === 'true' ? 20261127 : Date.now() % 2 ** 31));
fc.configureGlobal({ seed: SEED });
let generated = 0;

const LIB = path.join(__dirname, '..', '..', 'lib');

/**
 * Every interface declared under lib/: its members, by name and declared type, as a JavaScript or Python caller sets
 * them.
 */
function interfaces(): Map<string, { name: string; type: string }[]> {
  const found = new Map<string, { name: string; type: string }[]>();
  const bases = new Map<string, string[]>();
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  for (const file of walk(LIB)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const s of source.statements.filter(ts.isInterfaceDeclaration)) {
      found.set(s.name.text, s.members.filter(ts.isPropertySignature).map((m) => ({ name: m.name.getText(source), type: m.type?.getText(source) ?? '' })));
      bases.set(s.name.text, (s.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText(source))));
    }
  }
  // An interface's own members and those of the interfaces it extends, as
  // `FsxLustreServerOptions extends FsxLustreOptions`.
  const all = (name: string): { name: string; type: string }[] => [...(found.get(name) ?? []), ...(bases.get(name) ?? []).flatMap(all)];
  return new Map([...found.keys()].map((name) => [name, all(name)]));
}

const DECLARED = interfaces();
const TOP = DECLARED.get('StorageServerProps') ?? [];
const PROPS = TOP.map((m) => m.name);
/**
 * The members of the props that are option objects of this library, such as `nfs.version` and `snapshots.retain`, one
 * level down.
 */
const NESTED = TOP.flatMap((m) => (DECLARED.get(m.type) ?? []).map((n) => [m.name, n.name] as const));
const KEYS = Object.keys(CONTEXT_DEFAULTS) as ContextKey[];

/** Unicode that has tripped messages: invisible, bidirectional and look-alike characters, astral and lone surrogates. */
const NASTY = ['\u200b', '\u202e', '\u2066', '\ufeff', 'а', 'е', '\ud83d\ude00', '\ud800', '\u0000', '\n', '\t', '\u00a0'];
const nastyText = fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...NASTY), fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c);
const numbers = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.1 + 0.2),
  fc.double(),
  fc.integer(),
);
/** Text a shell or a JSON file could give: numbers as written, a 400-digit one among them, unicode, any string. */
const texts = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  nastyText,
  fc.constantFrom('9'.repeat(400), '1e400', '-0', '0x10', ' 5 ', '5,5', 'true', 'null', 'undefined', '[]', '{}', '${Token[X.1]}'),
);
/** Every JSON type, and what JavaScript adds: NaN, the infinities, undefined and null inside structures. */
const jsonish = fc.oneof(fc.jsonValue(), numbers, texts, fc.constantFrom(null, true, false, [], {}));

/** CDK tokens of each kind a prop can meet: a string, a number and a list, resolved at deploy. */
function tokens(): fc.Arbitrary<unknown> {
  return fc.constantFrom(
    () => Token.asString({ Ref: 'SomeParameter' }),
    () => Token.asNumber({ Ref: 'SomeNumber' }),
    () => Token.asList({ Ref: 'SomeList' }),
    () => Lazy.string({ produce: () => 'lazy' }),
    () => Lazy.number({ produce: () => 3 }),
  ).map((make) => make());
}

/** A refusal is an Error naming what was typed: `key` or `prop`, and for a nested prop its own name or the path. */
function expectNamed(e: unknown, name: string, value: unknown): void {
  if (!(e instanceof Error)) throw new Error(`${name}=${String(value)} threw a non-Error: ${String(e)}`);
  if (e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError) {
    throw new Error(`${name}=${safe(value)} crashed: ${e.constructor.name}: ${e.message}`);
  }
  if (!e.message.includes(name)) throw new Error(`${name}=${safe(value)} was refused without naming ${name}: ${e.message}`);
}
const safe = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

describe('every context key, any value', () => {
  const read = (values: Partial<Record<ContextKey, unknown>>) => (key: ContextKey) => values[key];

  test.each(KEYS)('%s: accepted or refused naming the key, never a crash', (key) => {
    fc.assert(fc.property(jsonish, (value) => {
      generated++;
      try {
        parseAppContext(read({ [key]: value }), TARGET);
      } catch (e) {
        expectNamed(e, key, value);
      }
    }), { numRuns: RUNS });
  });
});

/**
 * One server built from generated props in a shared stack, each try in a cluster of its own and with a server name of
 * its own. So one accepted value, such as a mount point, a name or a dashboard, does not refuse the next. Each is
 * accepted, or refused by an Error naming `name`.
 */
const serverStack = new Stack(new App(), 'Any', { env: TARGET });
const serverVpc = new ec2.Vpc(serverStack, 'Vpc');
let tries = 0;
function acceptedOrNamed(props: Record<string, unknown>, name: string, value: unknown): void {
  generated++;
  const i = tries++;
  // A mount point of its own too: a value that falls back to the default cluster, as clusterName null does, meets
  // earlier ones.
  const own = { vpc: serverVpc, clusterName: `c${i}`, serverName: `s${i}`, mountPoint: `/data/t${i}`, monitoring: { dashboard: false } };
  try {
    new StorageServer(serverStack, `S${i}`, { ...own, ...props } as StorageServerProps);
  } catch (e) {
    expectNamed(e, name, value);
  }
}

/** Props with one option member set to `value`, and what it needs beside it so that the member itself is judged. */
function withMember(prop: string, member: string, value: unknown): Record<string, unknown> {
  const backend = prop === 'fsxLustre' ? { backend: 'fsx-lustre' } : prop === 'fsxOpenZfs' ? { backend: 'fsx-openzfs' } : {};
  // Clusterware needs its master's address beside any other member.
  const siblings = prop === 'clusterware' && member !== 'loginIp' ? { loginIp: '10.0.1.10' } : {};
  return { ...backend, [prop]: { ...siblings, [member]: value } };
}

describe('every StorageServer prop, any value', () => {
  test('the props are read from their declaration', () => {
    expect(PROPS).toEqual(expect.arrayContaining(['vpc', 'capacityTiB', 'clientCidrs', 'mountPoint', 'nfs', 'snapshots']));
    expect(PROPS.length).toBeGreaterThan(30);
  });

  test.each(PROPS.filter((p) => p !== 'vpc'))('%s: accepted or refused naming the prop, never a crash', (prop) => {
    fc.assert(fc.property(fc.oneof(jsonish, tokens()), (value) => acceptedOrNamed({ [prop]: value }, prop, value)), { numRuns: RUNS });
  });
});

describe('every member of an options prop, any value', () => {
  test('the option objects\' members are read from their declarations', () => {
    expect(NESTED).toEqual(expect.arrayContaining([['nfs', 'version'], ['snapshots', 'retain'], ['fsxLustre', 'deploymentType'], ['monitoring', 'dashboard']]));
  });

  test.each(NESTED)('%s.%s: accepted or refused naming the member, never a crash', (prop, member) => {
    fc.assert(fc.property(fc.oneof(jsonish, tokens()), (value) =>
      acceptedOrNamed(withMember(prop, member, value), member, value)), { numRuns: Math.ceil(RUNS / 2) });
  });
});

// Text that only looks like a token, typed by hand or a token of another app, reaches every prop and member.
describe('a forged token text', () => {
  const FORGED = '${Token[X.1]}';
  test.each(PROPS.filter((p) => p !== 'vpc'))('%s', (prop) => acceptedOrNamed({ [prop]: FORGED }, prop, FORGED));
  test.each(NESTED)('%s.%s', (prop, member) => acceptedOrNamed(withMember(prop, member, FORGED), member, FORGED));
});

test('the count and the time', () => {
  const seconds = (Date.now() - started) / 1000;
  console.log(`any-value (ANY_VALUE_SEED=${SEED}): ${generated} values over ${KEYS.length} context keys, ${PROPS.length - 1} props and ${NESTED.length} option members in ${seconds.toFixed(1)} s`);
  expect(generated).toBeGreaterThanOrEqual(20 * (KEYS.length + PROPS.length - 1) + 10 * NESTED.length);
});
