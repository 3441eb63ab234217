/**
 * The public API's review table, docs/design.md "The public API", set against what lib/index.ts exports, and the kind
 * of each export as jsii sees it.
 */
import * as ts from 'typescript';
import { exportedNames } from './api-report';
import { repoCompilerOptions, virtualProgram } from './virtual-program';

export { exportedNames };

const SECTION = '### The public API';

/** The names of the table's first column: every backquoted name of a row's first cell, in the section alone. */
export function reviewedNames(page: string): string[] {
  const start = page.indexOf(SECTION);
  if (start < 0) return [];
  const rest = page.slice(start + SECTION.length);
  const end = rest.search(/^#{1,3} /m);
  const rows = (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| exported name'));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`(\w+)`/g)].map((m) => m[1])).sort();
}

/** One message per name exported and not listed, and per name listed and not exported. */
export function reviewDrift(exported: readonly string[], listed: readonly string[]): string[] {
  const table = 'docs/design.md, "The public API"';
  return [
    ...exported.filter((n) => !listed.includes(n)).map((n) => `${n} is exported by lib/index.ts but not in ${table}: add its row (who uses it, why)`),
    ...listed.filter((n) => !exported.includes(n)).map((n) => `${n} is in ${table} but lib/index.ts does not export it: drop its row`),
  ];
}

/** What an export is: jsii keeps classes, interfaces and enums, de-sugars types, and drops functions and variables. */
export type ExportKind = 'class' | 'interface' | 'enum' | 'type' | 'function' | 'variable' | 'other';

/** Each name `entry` exports, followed through re-exports, with its kind. `files` serves modules from memory. */
export function exportKinds(entry: string, files: Map<string, string> = new Map()): Map<string, ExportKind> {
  const program = virtualProgram(files, repoCompilerOptions(), [entry]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry} is not a module of the program`);
  return new Map(checker.getExportsOfModule(module).map((s) => {
    const flags = (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags;
    const kind: ExportKind = flags & ts.SymbolFlags.Class ? 'class'
      : flags & ts.SymbolFlags.Enum ? 'enum'
        : flags & ts.SymbolFlags.Function ? 'function'
          : flags & ts.SymbolFlags.Variable ? 'variable'
            : flags & ts.SymbolFlags.Interface ? 'interface'
              : flags & ts.SymbolFlags.TypeAlias ? 'type'
                : 'other';
    return [s.getName(), kind];
  }));
}
