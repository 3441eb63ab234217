/**
 * The package's file allowlist of test/support/pack-files.ts, behind `npm run pack:check` and the consumer test: a
 * stray file and a missing required one are each named, and the repository's own layout passes.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  ALLOWED_FILES,
  PackageManifest,
  globPattern,
  packProblems,
  requiredFiles,
} from '../support/pack-files';
import { REPO_ROOT } from '../support/virtual-program';

const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageManifest & {
  files: string[];
};
const REQUIRED = requiredFiles(REPO_ROOT, PKG);

describe('globPattern', () => {
  test('`*` stays within a path segment, `**/` spans any number of directories, dots are literal', () => {
    expect(globPattern('dist/lib/**/*.js').test('dist/lib/index.js')).toBe(true);
    expect(globPattern('dist/lib/**/*.js').test('dist/lib/sizing/plan.js')).toBe(true);
    expect(globPattern('dist/lib/**/*.js').test('dist/lib/index.js.map')).toBe(false);
    expect(globPattern('dist/lambda/*/*.js').test('dist/lambda/register/contract.js')).toBe(true);
    expect(globPattern('dist/lambda/*/*.js').test('dist/lambda/register/bundle/other.js')).toBe(false);
    expect(globPattern('README.md').test('READMEXmd')).toBe(false);
  });
});

describe('packProblems', () => {
  test('the files the build makes from this repository are allowed and complete', () => {
    // GIVEN: exactly the required files, each one something the build emits WHEN / THEN
    expect(packProblems(REQUIRED, REQUIRED)).toEqual([]);
  });

  test('a test, a TypeScript source, a source map of the library, the API report build and CI files are named', () => {
    // GIVEN
    const stray = [
      'test/unit/plan.test.ts',
      'lib/index.ts',
      'dist/lib/index.js.map',
      'dist/api/lib/index.d.ts',
      '.ci/run',
      'hpc-storage-storage-server-0.1.0.tgz',
    ];

    // WHEN
    const problems = packProblems([...REQUIRED, ...stray], REQUIRED);

    // THEN
    expect(problems).toEqual(stray.map((f) => `not allowed in the package: ${f}`));
  });

  test('a missing bundle, index.d.ts, shell script or CHANGELOG.md is named', () => {
    // GIVEN
    const missing = [
      'dist/lambda/update-guard/bundle/index.js',
      'dist/lib/index.d.ts',
      'dist/lib/scripts/storage-bootstrap.sh',
      'CHANGELOG.md',
    ];

    // WHEN
    const problems = packProblems(
      REQUIRED.filter((f) => !missing.includes(f)),
      REQUIRED,
    );

    // THEN
    expect(problems.sort()).toEqual(missing.map((f) => `missing from the package: ${f}`).sort());
  });
});

describe('requiredFiles', () => {
  test('derives the entry points, every module, script and Lambda bundle from the repository', () => {
    expect(REQUIRED).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'dist/lib/index.js',
        'dist/lib/index.d.ts',
        'dist/lib/sizing/plan.js',
        'dist/lib/scripts/client-mount.sh',
        'dist/lambda/register/bundle/index.js',
        'dist/lambda/register/bundle/index.js.map',
        'dist/lambda/update-guard/bundle/index.js',
      ]),
    );
    expect(REQUIRED.every((f) => ALLOWED_FILES.map(globPattern).some((p) => p.test(f)))).toBe(true);
  });

  test("package.json's `files` publishes CHANGELOG.md and only built output besides the documents", () => {
    expect(PKG.files).toContain('CHANGELOG.md');
    // jsii's assembly is built output too, at the root where jsii writes it and jsii-pacmak reads it.
    expect(PKG.files.filter((f) => !f.startsWith('dist/') && !/\.md$/.test(f) && f !== '.jsii')).toEqual([]);
  });
});
