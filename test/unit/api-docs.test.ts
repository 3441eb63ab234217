/**
 * The documentation check behind `npm run docs:check`, test/support/api-docs.ts, on small modules served from memory:
 * it must find each kind of gap, and only gaps.
 */
import * as path from 'path';
import { apiDocGaps } from '../support/api-docs';
import { REPO_ROOT } from '../support/virtual-program';

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
