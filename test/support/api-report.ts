/**
 * The names the public API report records, set against the names lib/index.ts exports. API Extractor writes the report,
 * etc/storage-server.api.md. `npm test` checks the names in seconds; `npm run api:check`, in CI, compares every
 * signature.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT, repoCompilerOptions, virtualProgram } from './virtual-program';

/** The committed report. */
export const API_REPORT = path.join(REPO_ROOT, 'etc', 'storage-server.api.md');

/** The names a report declares with `export class|interface|type|function|const|enum|namespace`. */
export function reportedNames(report: string): string[] {
  return [
    ...report.matchAll(
      /^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/gm,
    ),
  ]
    .map((m) => m[1])
    .sort();
}

/** The names `entry` exports, followed through re-exports. */
export function exportedNames(entry: string): string[] {
  const program = virtualProgram(new Map(), repoCompilerOptions(), [entry]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${entry} is not a module of the program`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.getName())
    .sort();
}

/** One message per name exported but not in the report, and per name in the report but not exported. */
export function surfaceDrift(exported: readonly string[], reported: readonly string[]): string[] {
  const update = 'run `npm run api:update` and commit etc/storage-server.api.md if the change is intended';
  return [
    ...exported
      .filter((n) => !reported.includes(n))
      .map((n) => `${n} is exported but not in the API report: ${update}`),
    ...reported
      .filter((n) => !exported.includes(n))
      .map((n) => `${n} is in the API report but no longer exported: ${update}`),
  ];
}

/** The drift between lib/index.ts and the committed report. */
export function apiReportDrift(): string[] {
  return surfaceDrift(
    exportedNames(path.join(REPO_ROOT, 'lib', 'index.ts')),
    reportedNames(fs.readFileSync(API_REPORT, 'utf8')),
  );
}
