/**
 * The README's TypeScript examples compile against the package's sources exactly as a user would paste them, importing
 * the package by its name. So an API change that breaks them fails here.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  LIBRARY_SECTION,
  REPO_ROOT,
  installedTarball,
  libraryExample,
  packageName,
  tarballName,
  typeCheckBlocks,
  typeScriptBlocks,
} from '../support/readme';

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
