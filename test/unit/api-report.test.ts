/**
 * The public API is what etc/storage-server.api.md records. A name added to or dropped from lib/index.ts without
 * `npm run api:update` fails here. It checks names only; `npm run api:check` in CI compares whole signatures.
 */
import * as fs from 'fs';
import { API_REPORT, apiReportDrift, reportedNames, surfaceDrift } from '../support/api-report';

describe('the API report', () => {
  test('names exactly what lib/index.ts exports', () => {
    expect(apiReportDrift()).toEqual([]);
  });

  test('records the constructs, the planner and the record contract, and no internal helper', () => {
    const names = reportedNames(fs.readFileSync(API_REPORT, 'utf8'));
    expect(names).toEqual(
      expect.arrayContaining([
        'StorageServer',
        'StorageServerProps',
        'ClientMount',
        'planStorage',
        'StoragePlan',
        'MountRecord',
        'RingRecord',
        'fstabLine',
        'mountParameterName',
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
