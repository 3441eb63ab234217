/**
 * The public API against its review table, docs/design.md "The public API": each name lib/index.ts exports is listed
 * with who uses it and why, and each listed name is exported. And every export is a class, interface, enum or type,
 * since jsii drops an exported function or constant from the other languages without an error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { exportedNames, exportKinds, reviewedNames, reviewDrift } from '../support/api-review';
import { REPO_ROOT } from '../support/virtual-program';

const INDEX = path.join(REPO_ROOT, 'lib', 'index.ts');
const DESIGN = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'design.md'), 'utf8');

describe('the API review table', () => {
  test('lists exactly what lib/index.ts exports', () => {
    expect(reviewDrift(exportedNames(INDEX), reviewedNames(DESIGN))).toEqual([]);
  });

  test('a name exported and not listed, and a name listed and not exported, are each named', () => {
    // GIVEN: the table of this page, one name more in the index, one name dropped from it
    const listed = reviewedNames(DESIGN);
    const exported = [...listed.filter((n) => n !== 'StoragePlanner'), 'planStorage'];

    // THEN
    expect(reviewDrift(exported, listed)).toEqual([
      'planStorage is exported by lib/index.ts but not in docs/design.md, "The public API": add its row (who uses it, why)',
      'StoragePlanner is in docs/design.md, "The public API" but lib/index.ts does not export it: drop its row',
    ]);
  });

  test('reads each backquoted name of a row\'s first cell, and nothing outside the section', () => {
    const page = [
      '### The public API', '', '| exported name | who | why |', '|---|---|---|',
      '| `A`, `BProps` | README; `C.member` | `D` is not read |', '| `E` | x | y |', '',
      '## 2. Next', '| `F` | x | y |',
    ].join('\n');
    expect(reviewedNames(page)).toEqual(['A', 'BProps', 'E']);
  });
});

describe('what jsii keeps', () => {
  test('every export of lib/index.ts is a class, interface, enum or type', () => {
    const kinds = exportKinds(INDEX);
    expect(kinds.size).toBe(exportedNames(INDEX).length);
    expect([...kinds].filter(([, kind]) => kind === 'function' || kind === 'variable' || kind === 'other')).toEqual([]);
  });

  test('an exported function and constant are found, through a re-export too', () => {
    // GIVEN: a module served from memory with one of each kind
    const dir = path.join(REPO_ROOT, 'test', '.api-review-fixture');
    const mod = [
      'export class A {}', 'export interface B { readonly x: number }', 'export enum C { X = 1 }', "export type D = 'x';",
      'export function e(): void {}', 'export const F = 1;',
    ].join('\n');
    const files = new Map([[path.join(dir, 'index.ts'), "export * from './mod';\n"], [path.join(dir, 'mod.ts'), mod]]);

    // WHEN
    const kinds = exportKinds(path.join(dir, 'index.ts'), files);

    // THEN
    expect([...kinds].sort()).toEqual([
      ['A', 'class'], ['B', 'interface'], ['C', 'enum'], ['D', 'type'], ['F', 'variable'], ['e', 'function'],
    ]);
  });
});
