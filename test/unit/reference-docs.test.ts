/**
 * The reference beside the README: docs/context-keys.md holds every context key the app reads, one short row each, and
 * docs/props.md every prop of `StorageServer`, one row each with the key that sets it in the app. A key or prop added
 * without its row, or a row left after its key or prop went, fails here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CONTEXT_DEFAULTS } from '../../lib/context';
import * as ts from 'typescript';
import { REPO_ROOT } from '../support/readme';

const CONTEXT_KEYS = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'context-keys.md'), 'utf8');
const PROPS = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'props.md'), 'utf8');

/**
 * The members of `StorageServerProps`, read from its declaration without a type-checker (a full program takes seconds);
 * an `extends` would bring members this does not see, so it fails then.
 */
function propNames(): string[] {
  const file = path.join(REPO_ROOT, 'lib', 'storage-server', 'props.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const props = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'StorageServerProps',
  );
  if (!props) throw new Error(`${file}: no interface StorageServerProps`);
  if (props.heritageClauses) throw new Error('StorageServerProps extends another interface: read its members too');
  return props.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

/** The table rows of `markdown` up to its first `## ` section whose first cell is one backquoted name. */
function namedRows(markdown: string): { name: string; row: string }[] {
  const top = markdown.split(/\n## /)[0];
  return top.split('\n').flatMap((row) => {
    const m = /^\| `([A-Za-z]+)` \|/.exec(row);
    return m ? [{ name: m[1], row }] : [];
  });
}

describe('docs/context-keys.md', () => {
  const rows = namedRows(CONTEXT_KEYS);

  test('every key the app reads has exactly one row, and every row is a key', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(CONTEXT_DEFAULTS).sort());
  });

  test('each row is one short line, readable at 100 columns', () => {
    expect(rows.filter((r) => r.row.length > 100).map((r) => r.row)).toEqual([]);
  });
});

describe('docs/props.md', () => {
  const rows = namedRows(PROPS);

  test('every prop of StorageServerProps has exactly one row, and every row is a prop', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(propNames().sort());
  });

  test('each key its last column names is a context key the app reads', () => {
    const named = rows.flatMap((r) => {
      const cells = r.row.split('|').map((c) => c.trim());
      return [...cells[cells.length - 2].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]);
    });
    expect(named.length).toBeGreaterThan(25);
    expect(named.filter((k) => !(k in CONTEXT_DEFAULTS))).toEqual([]);
  });
});
