import * as fs from 'fs';
import * as path from 'path';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { CONTEXT_DEFAULTS } from '../../lib/context';
import { LUSTRE_DATA_COMPRESSION_TYPES, LUSTRE_FILE_SYSTEM_TYPE_VERSIONS } from '../../lib/backends/fsx/context';
import { BACKEND_SIZING } from '../../lib/sizing/registry';
import { EC2_ONLY_KEYS } from '../../lib/sizing/ec2-context';
import { EC2_ONLY_PROPS } from '../../lib/backends/ec2-only-props';
import { repoImport, scanBackendNames } from '../support/backend-names';

/**
 * The context parser's backends as plugins, as CONTRIBUTING.md's "Adding a backend" describes them. A backend's own
 * keys, with their defaults, docs and parser, and its cross-checks and refusals live in its descriptor's
 * `BackendSizing.context`. The shared parser, lib/context.ts and lib/context/, reaches them through
 * lib/sizing/registry.ts alone. So no shared file imports a backend folder or names a backend in code: no string
 * literal holds a backend's name as a word, and no identifier or string is one FSx backend's own, such as Lustre or
 * OpenZFS. Comments may name them. The app stack and its outputs are held to the same, since they take a backend's
 * props and words from the same descriptor.
 */
const ROOT = path.join(__dirname, '..', '..');

/** The shared context parser: the entry file and its folder. */
const SHARED = ['lib/context.ts', ...fs.readdirSync(path.join(ROOT, 'lib', 'context')).filter((f) => f.endsWith('.ts')).map((f) => `lib/context/${f}`)].sort();

/** What is one FSx backend's own, in any case and spelling, such as `openZfsRequest` or `LUSTRE_METADATA_IOPS_TEXT`. */
const OWN_WORD = /lustre|open_?zfs/i;

/** A shared file's imports, resolved to repository paths, and what of its code names a backend, with the line. */
function read(file: string): { imports: string[]; named: string[] } {
  const { mentions, imports } = scanBackendNames(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), { ownWord: OWN_WORD });
  return { imports: imports.map((spec) => repoImport(file, spec)), named: mentions.map((m) => `${m.file}:${m.line}: ${m.text}`) };
}

/**
 * The app stack and its outputs, which take a backend's props and words from its descriptor too: through
 * `backendProps` of lib/context/backends.ts, and `BackendSizing.outputs`.
 */
const STACK = ['lib/storage-server-stack.ts', 'lib/stack-outputs.ts'];

/** Each backend's own keys, as its descriptor lists them. */
const OWN_KEYS = Object.entries(BACKEND_SIZING).map(([backend, descriptor]) => [backend, Object.keys(descriptor.context?.keys?.defaults ?? {})] as const);

describe("the context parser's backends", () => {
  test('the shared files are found', () => {
    expect(SHARED).toEqual(expect.arrayContaining(['lib/context.ts', 'lib/context/keys.ts', 'lib/context/sizing.ts', 'lib/context/backends.ts']));
  });

  test.each(SHARED)('%s imports no backend folder and names no backend in code', (file) => {
    const { imports, named } = read(file);
    expect(imports.filter((i) => i.startsWith('lib/backends/'))).toEqual([]);
    expect(named).toEqual([]);
  });

  test('the key table is the shared keys and each backend\'s own, in the registry\'s order, none of them twice', () => {
    const own = OWN_KEYS.flatMap(([, keys]) => keys);
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own).size).toBe(own.length);
    const table = Object.keys(CONTEXT_DEFAULTS);
    // The backends' keys stand together, in the registry's order.
    const first = table.indexOf(own[0]);
    expect(table.slice(first, first + own.length)).toEqual(own);
    for (const [, keys] of OWN_KEYS) for (const key of keys) expect([key, (CONTEXT_DEFAULTS as Record<string, unknown>)[key]]).toEqual([key, undefined]);
  });

  test('a backend\'s exclusive keys are keys of the table, and the EC2 ones each set a prop only the EC2 server takes', () => {
    const exclusive = Object.values(BACKEND_SIZING).flatMap((descriptor) => descriptor.context?.exclusiveKeys?.keys ?? []);
    expect(exclusive.length).toBeGreaterThan(0);
    expect(exclusive.filter((key) => !(key in CONTEXT_DEFAULTS))).toEqual([]);
    expect(Object.values(EC2_ONLY_KEYS).filter((prop) => !(EC2_ONLY_PROPS as readonly string[]).includes(prop))).toEqual([]);
  });

  test("FSx for Lustre's enum keys take aws-cdk-lib's values, in its order: the parser lists them without loading the CDK", () => {
    expect(LUSTRE_DATA_COMPRESSION_TYPES).toEqual(Object.values(fsx.LustreDataCompressionType));
    expect(LUSTRE_FILE_SYSTEM_TYPE_VERSIONS).toEqual(Object.values(fsx.FileSystemTypeVersion));
  });
});

describe("the app stack's backends", () => {
  test.each(STACK)('%s imports no backend folder and names no backend in code', (file) => {
    const { imports, named } = read(file);
    expect(imports.filter((i) => i.startsWith('lib/backends/'))).toEqual([]);
    expect(named).toEqual([]);
  });
});
