/**
 * The public API as TypeScript sees it, in one file so that its three checks share one program of the sources: building
 * it takes about 9 s of CPU, each further program over the same files about 1 s.
 * - the API's documentation, by the check behind `npm run docs:check` (test/support/api-docs.ts);
 * - the API report, etc/storage-server.api.md, against what lib/index.ts exports;
 * - the README's TypeScript examples, compiled as a user would paste them;
 * - the props the app's context keys set, by name, against StorageServerProps.
 */
import * as fs from 'fs';
import * as path from 'path';
import { apiDocGaps } from '../support/api-docs';
import { API_REPORT, apiReportDrift, reportedNames, surfaceDrift } from '../support/api-report';
import {
  LIBRARY_SECTION,
  installedTarball,
  libraryExample,
  packageName,
  tarballName,
  typeCheckBlocks,
  typeScriptBlocks,
} from '../support/readme';
import { BACKEND_SIZING } from '../../lib/sizing/registry';
import { storageServerPropMembers } from '../support/prop-members';
import { REPO_ROOT } from '../support/virtual-program';

// The documentation check behind `npm run docs:check`, test/support/api-docs.ts, on small modules served from memory:
// it must find each kind of gap, and only gaps.
const DIR = path.join(REPO_ROOT, 'test', '.api-docs-fixture');
const ENTRY = path.join(DIR, 'index.ts');

function gaps(files: Record<string, string>): string[] {
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(DIR, name), text]));
  return apiDocGaps(ENTRY, virtual).map(
    (g) => `${path.basename(g.file)}:${g.line}: ${g.symbol}: ${g.problem}`,
  );
}

const DOCUMENTED = `
/** Props of a {@link Thing}. */
export interface ThingProps {
  /** Required: no default. */
  readonly size: number;
  /**
   * Optional, with its default.
   * @default 5
   */
  readonly count?: number;
}

/** A thing. */
export class Thing {
  /** Its size. */
  public readonly size: number;
  private readonly secret = 1;

  constructor(props: ThingProps) {
    this.size = props.size + this.secret;
  }

  /** Doubles the size. */
  double(): number {
    return this.size * 2;
  }
}

/** A constant. */
export const LIMIT = 3;

/** Colours. */
export enum Colour {
  /** Red. */
  RED = 'red',
}
`;

describe('apiDocGaps', () => {
  test('a fully documented module has no gaps', () => {
    expect(gaps({ 'index.ts': DOCUMENTED })).toEqual([]);
  });

  test('an undocumented export, member, enum member and an optional prop without @default are each reported', () => {
    // GIVEN
    const source = [
      'export interface Props {', // line 1: no TSDoc
      '  /** Documented, but no default. */',
      '  readonly count?: number;', // line 3: no @default
      '  readonly name: string;', // line 4: no TSDoc
      '}',
      '/** A class. */',
      'export class Box {',
      '  public readonly size = 1;', // line 8: no TSDoc
      '}',
      'export const LIMIT = 3;', // line 10: no TSDoc
      '/** Colours. */',
      'export enum Colour { RED = 1 }', // line 12: Colour.RED no TSDoc
      'export function helper(): void {}', // line 13: no TSDoc
    ].join('\n');

    // WHEN
    const found = gaps({ 'index.ts': source });

    // THEN
    expect(found.sort()).toEqual(
      [
        'index.ts:1: Props: no TSDoc',
        'index.ts:3: Props.count: no @default',
        'index.ts:4: Props.name: no TSDoc',
        'index.ts:8: Box.size: no TSDoc',
        'index.ts:10: LIMIT: no TSDoc',
        'index.ts:12: Colour.RED: no TSDoc',
        'index.ts:13: helper: no TSDoc',
      ].sort(),
    );
  });

  test('gaps behind `export *` are found; private members and unexported symbols are not API', () => {
    // GIVEN
    const mod = [
      '/** Exported. */',
      'export class Shown {',
      '  private hidden = 1;',
      '  /** Uses the hidden field. */',
      '  get value(): number { return this.hidden; }',
      '  public undocumented(): void {}', // line 6
      '}',
      'function internal(): number { return 1; }',
      '/** Exported too. */',
      'export const VALUE = internal();',
    ].join('\n');

    // WHEN
    const found = gaps({ 'index.ts': "export * from './mod';\n", 'mod.ts': mod });

    // THEN
    expect(found).toEqual(['mod.ts:6: Shown.undocumented: no TSDoc']);
  });
});

describe('the package API', () => {
  test('every symbol lib/index.ts exports has TSDoc, every optional prop has @default', () => {
    const found = apiDocGaps(path.join(REPO_ROOT, 'lib', 'index.ts'));
    expect(found.map((g) => `${g.file}:${g.line}: ${g.symbol}: ${g.problem}`)).toEqual([]);
  });
});

// The public API is what etc/storage-server.api.md records. A name added to or dropped from lib/index.ts without
// `npm run api:update` fails here. It checks names only; `npm run api:check` in CI compares whole signatures.
describe('the API report', () => {
  test('names exactly what lib/index.ts exports', () => {
    expect(apiReportDrift()).toEqual([]);
  });

  test('records the constructs and the planner, and no internal helper', () => {
    const names = reportedNames(fs.readFileSync(API_REPORT, 'utf8'));
    expect(names).toEqual(
      expect.arrayContaining([
        'StorageServer',
        'StorageServerProps',
        'ClientMount',
        'IStorageServer',
        'StoragePlanner',
        'StoragePlan',
      ]),
    );
    for (const internal of [
      'ipv4Problem',
      'cidrProblem',
      'contextError',
      'SYSTEM_DIRECTORIES',
      'NAME_PATTERN',
      'renderAgentConfig',
      'renderBenchDocument',
      'parseContext',
      'planStorage',
      'fstabLine',
      'mountParameterName',
      'UpdateGuard',
    ]) {
      expect(names).not.toContain(internal);
    }
  });

  test('an export missing from the report and a stale entry are each named', () => {
    // GIVEN: one name added to the index, one dropped from it
    const reported = ['StorageServer', 'planStorage'];
    const exported = ['StorageServer', 'withInstanceType'];

    // WHEN
    const drift = surfaceDrift(exported, reported);

    // THEN
    expect(drift).toEqual([
      expect.stringMatching(
        /^withInstanceType is exported but not in the API report: run `npm run api:update`/,
      ),
      expect.stringMatching(/^planStorage is in the API report but no longer exported/),
    ]);
  });

  test('reads the declarations API Extractor writes', () => {
    const report = [
      'export class A extends B {',
      'export interface C {',
      'export type D = 1;',
      'export function e(): void;',
      'export const F: 1;',
      '    readonly g: string;',
    ].join('\n');
    expect(reportedNames(report)).toEqual(['A', 'C', 'D', 'F', 'e']);
  });
});

// The README's TypeScript examples compile against the package's sources exactly as a user would paste them, importing
// the package by its name. So an API change that breaks them fails here.
const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe('README examples', () => {
  test('every ```ts block type-checks against the sources', () => {
    // GIVEN
    const blocks = typeScriptBlocks(README);
    expect(blocks.length).toBeGreaterThan(0);

    // WHEN
    const problems = typeCheckBlocks(blocks);

    // THEN
    expect(problems).toEqual([]);
  });

  test(`"## ${LIBRARY_SECTION}" holds a complete app that imports the package by its name`, () => {
    // GIVEN
    const example = libraryExample(README).code;

    // THEN: the use: an App, a StorageServer in the app's VPC, network access, outputs
    expect(example).toMatch(new RegExp(`from '${packageName()}'`));
    expect(example).toMatch(/new App\(/);
    expect(example).toMatch(
      /new StorageServer\(stack, 'Storage', \{ vpc, capacityTiB: 5, clusterName: 'hpc1' \}\)/,
    );
    expect(example).toMatch(/\.connections\.allowDefaultPortFrom\(/);
    expect(example).toMatch(/\.mountOn\(/);
    expect(example).toMatch(/new CfnOutput\(/);
    // The install commands that go with it: the package is not on a registry, so from the release's tag.
    expect(path.basename(installedTarball(README))).toBe(tarballName());
  });

  test('the install commands are checked: the tag, npm ci, npm pack and the tarball of this version', () => {
    // GIVEN: the section's commands, then each with one piece missing or stale
    const section = README.slice(README.indexOf(`## ${LIBRARY_SECTION}`));
    const stale = [
      section.replace(/git checkout v\S+/, 'git checkout main'),
      section.replace(/\bnpm ci\b/, 'npm install'),
      section.replace(/npm pack\b/, 'npm run build'),
      section.split(tarballName()).join('storage-server-0.0.1.tgz'),
    ];

    // WHEN / THEN: each is named
    expect(() => installedTarball(section)).not.toThrow();
    expect(() => installedTarball(stale[0])).toThrow(/lack: the release's tag, git checkout v/);
    expect(() => installedTarball(stale[1])).toThrow(/lack: npm ci$/);
    expect(() => installedTarball(stale[2])).toThrow(/lack: npm pack$/);
    expect(() => installedTarball(stale[3])).toThrow(
      new RegExp(`lack: npm install <path>/${tarballName().replace(/\./g, '\\.')}$`),
    );
  });

  test('the check is not vacuous: a wrong prop type, an unknown prop and a missing import are reported', () => {
    // GIVEN: the library example with three mistakes a stale README would have
    const example = libraryExample(README);
    const broken = [
      { ...example, code: example.code.replace('capacityTiB: 5', "capacityTiB: '5'") },
      {
        ...example,
        line: example.line + 10000,
        code: example.code.replace('capacityTiB: 5', 'capacityGiB: 5'),
      },
      {
        ...example,
        line: example.line + 20000,
        code: example.code.replace(`from '${packageName()}'`, "from 'no-such-package'"),
      },
    ];

    // WHEN
    const problems = typeCheckBlocks(broken);

    // THEN: each mistake is named, at the README line of the statement
    expect(problems.join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(problems.join('\n')).toMatch(/'capacityGiB' does not exist in type 'StorageServerProps'/);
    expect(problems.join('\n')).toMatch(/Cannot find module 'no-such-package'/);
    const propLine =
      example.line + 1 + example.code.split('\n').findIndex((l) => l.includes('capacityTiB: 5'));
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^README\\.md:${propLine}: `)));
  });
});

// A descriptor builds the props without the CDK, as Record<string, unknown>, and the stack spreads them into
// StorageServerProps: a misspelt member would compile and be dropped.
describe("the props the app's context keys set", () => {
  let members: Map<string, string[]> | undefined;
  const withProps = Object.entries(BACKEND_SIZING).flatMap(([backend, d]) => (d.context?.props ? [[backend, d.context] as const] : []));

  test('some backends set props', () => {
    expect(withProps.length).toBeGreaterThan(0);
  });

  test.each(withProps)('%s: each prop and member it sets is one of StorageServerProps\'s', (_backend, context) => {
    members ??= storageServerPropMembers();
    // Every key given, so that each member is set, looked-up subnets among them.
    const every = Object.fromEntries(Object.keys(context.keys?.defaults ?? {}).map((key) => [key, 'x']));
    const props = context.props!(every as never, { subnet: () => ({}) });
    const stray = Object.entries(props).flatMap(([prop, value]) => {
      if (!members!.has(prop)) return [prop];
      if (value === null || typeof value !== 'object') return [];
      return Object.keys(value).filter((member) => !members!.get(prop)!.includes(member)).map((member) => `${prop}.${member}`);
    });
    expect(Object.keys(props).length).toBeGreaterThan(0);
    expect(stray).toEqual([]);
  });
});
