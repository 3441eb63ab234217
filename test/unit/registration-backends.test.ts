import * as fs from 'fs';
import * as path from 'path';
import { FSX_BACKENDS } from '../../lambda/register/backend';
import { FSX_TARGETS } from '../../lambda/register/fsx-targets';
import { type BackendMention, scanBackendNames, tsFilesUnder } from '../support/backend-names';

/**
 * The registration's FSx backends as plugins. What the registration knows of an FSx backend, beyond what every FSx file
 * system shares, is the backend's rules in lambda/register/backends/: its deployment's grammar, its mount name, the path
 * it exports and its fsType. The shared files reach them through the registry, lambda/register/fsx-targets.ts, alone.
 * So no shared file names a backend in code: no string literal holding a backend's name, and no identifier or string of
 * one FSx backend's own. Comments may name them.
 */
const ROOT = path.join(__dirname, '..', '..');
const REGISTER = 'lambda/register';
/** The list of names, the registry and the per-backend folder: the files that may name backends. */
const PER_BACKEND = [`${REGISTER}/backend.ts`, `${REGISTER}/fsx-targets.ts`, `${REGISTER}/backends/`];

/** Phrases a shared file may hold in code, each with the reason: a name that looks like a backend's and is not one. */
const EXEMPT_PHRASES: readonly { readonly file: string; readonly phrase: RegExp; readonly why: string }[] = [
  {
    file: `${REGISTER}/records.ts`,
    phrase: /^lustre$/,
    why: 'the mount config\'s fsType, the Linux file system type of fstab\'s third field, as records.schema.json lists it',
  },
];

/** What is one FSx backend's own, in any case and spelling, such as `LUSTRE_MOUNT_NAME` or `OPENZFS_EXPORT`. */
const OWN_WORD = /lustre|open_?zfs/i;

function findings(file: string, text: string): { found: BackendMention[]; literals: string[]; imports: string[] } {
  const exempt = EXEMPT_PHRASES.filter((e) => e.file === file).map((e) => e.phrase);
  const { mentions, literals, imports } = scanBackendNames(file, text, { ownWord: OWN_WORD, exempt });
  return { found: mentions, literals, imports };
}

const SHARED = tsFilesUnder(ROOT, REGISTER).filter((f) => !PER_BACKEND.some((p) => f === p || f.startsWith(p)));
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('the registration\'s FSx backends', () => {
  test('every FSx backend has its rules in the registry', () => {
    expect(Object.keys(FSX_TARGETS).sort()).toEqual([...FSX_BACKENDS].sort());
  });

  test('the files are found: the trust boundary and the handler are shared, each backend\'s rules its own', () => {
    expect(SHARED).toEqual(expect.arrayContaining([`${REGISTER}/validation.ts`, `${REGISTER}/index.ts`, `${REGISTER}/records.ts`]));
    expect(tsFilesUnder(ROOT, REGISTER).filter((f) => f.startsWith(`${REGISTER}/backends/`))).toHaveLength(FSX_BACKENDS.length);
  });

  test('no shared file names a backend in code: no string literal holding its name, no identifier or string its own', () => {
    const named = SHARED.flatMap((f) => findings(f, read(f)).found);
    expect(named.map((n) => `${n.file}:${n.line}: ${n.text}`)).toEqual([]);
  });

  test('each exempt phrase still occurs in code where it is exempt (a stale exemption is removed)', () => {
    for (const e of EXEMPT_PHRASES) {
      const occurs = findings(e.file, read(e.file)).literals.some((l) => e.phrase.test(l));
      expect([e.file, e.phrase.source, occurs]).toEqual([e.file, e.phrase.source, true]);
    }
  });

  test('the shared files reach a backend\'s rules through the registry alone', () => {
    const direct = SHARED.flatMap((f) => findings(f, read(f)).imports.filter((i) => /(^|\/)backends\//.test(i)).map((i) => `${f} -> ${i}`));
    expect(direct).toEqual([]);
  });

  test('the finder finds a backend named in code, and not in a comment (a check that cannot fail is no check)', () => {
    const text = [
      '// fsx-openzfs and Lustre in a comment are fine',
      "import { FSX_OPENZFS_TARGET } from './backends/fsx-openzfs';", // an import: the registry check's
      "if (backend === 'fsx-lustre') check(LUSTRE_MOUNT_NAME.test(name));",
      "const rule = \"'' for FSx for OpenZFS\";",
      "export type FsType = 'nfs4' | 'lustre';",
    ].join('\n');
    const { found, imports } = findings(`${REGISTER}/validation.ts`, text);
    expect(found.map((f) => `${f.line}: ${f.text}`)).toEqual([
      '3: "fsx-lustre"',
      '3: LUSTRE_MOUNT_NAME',
      '4: "\'\' for FSx for OpenZFS"',
      '5: "lustre"',
    ]);
    expect(imports).toEqual(['./backends/fsx-openzfs']);
    expect(findings(`${REGISTER}/records.ts`, "export type FsType = 'nfs4' | 'lustre';").found).toEqual([]);
  });
});
