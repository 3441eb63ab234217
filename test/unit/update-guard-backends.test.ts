import * as fs from 'fs';
import * as path from 'path';
import { BACKENDS } from '../../lambda/register/contract';
import { GUARD_BACKENDS } from '../../lambda/update-guard/backends';
import { BACKEND_PLUGINS } from '../../lib/backends/registry';
import { type BackendMention, scanBackendNames, tsFilesUnder } from '../support/backend-names';

/**
 * The update guard's backends as plugins. What the guard knows of a backend is the backend's descriptor in
 * lambda/update-guard/backends/: its layout fields, their grammar, its rows of the policy table, its replacement
 * objections and wording. The guard's shared files reach it through the registry, lambda/update-guard/backends.ts,
 * alone. So no shared file names a backend in code: no string literal holding a backend's name, and no identifier or
 * string of one FSx backend's own, Lustre's or OpenZFS's. Comments may name them.
 */
const ROOT = path.join(__dirname, '..', '..');
const GUARD = 'lambda/update-guard';
/** The per-backend folder and the registry: the files that may name backends. */
const PER_BACKEND = [`${GUARD}/backends/`, `${GUARD}/backends.ts`];

/** Files that may name a backend throughout, each with the reason. */
const EXEMPT_FILES: Record<string, string> = {
  [`${GUARD}/replacement-rules.ts`]: 'generated from CloudFormation\'s resource specification: AWS::FSx::FileSystem\'s ' +
    'property paths (LustreConfiguration.*, OpenZFSConfiguration.*) are CloudFormation\'s names, one type for both FSx backends',
  [`${GUARD}/spec-overrides.ts`]: 'the specification\'s corrections, per CloudFormation type: a row names the property ' +
    'it corrects and quotes the AWS pages it was read from',
};

/** Phrases a shared file may hold in code, each with the reason: a name that looks like a backend's and is not one. */
const EXEMPT_PHRASES: readonly { readonly files: readonly string[]; readonly phrase: RegExp; readonly why: string }[] = [
  {
    files: [`${GUARD}/watched.ts`, `${GUARD}/held.ts`],
    phrase: /instance-store disks?/g,
    why: 'the hardware, an instance\'s local disks, which go with any instance replaced: what an instance holds, not a backend',
  },
];

/**
 * What is one FSx backend's own, in any case and spelling, such as `OpenZFSConfiguration`, `OPENZFS_COPY` or `lustre`.
 */
const OWN_WORD = /lustre|open_?zfs/i;

/** The string literals and identifiers of a TypeScript text that name a backend, its literals, and what it imports. */
function findings(file: string, text: string): { found: BackendMention[]; literals: string[]; imports: string[] } {
  const exempt = EXEMPT_PHRASES.filter((e) => e.files.includes(file)).map((e) => e.phrase);
  const { mentions, literals, imports } = scanBackendNames(file, text, { ownWord: OWN_WORD, exempt });
  return { found: mentions, literals, imports };
}

const SHARED = tsFilesUnder(ROOT, GUARD).filter((f) => !PER_BACKEND.some((p) => f === p || f.startsWith(p)));
/**
 * Files of backends/ that several backends share, such as the FSx pair's: what their words name of a backend, its
 * name, its file system type, its guide's words, they take from the backends sharing them.
 */
const SHARED_IN_BACKENDS = [`${GUARD}/backends/fsx.ts`];
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('the guard\'s registry of backends', () => {
  test('every backend the records know has a descriptor, and the library\'s registry the same backends', () => {
    expect(Object.keys(GUARD_BACKENDS).sort()).toEqual([...BACKENDS].sort());
    expect(Object.keys(GUARD_BACKENDS).sort()).toEqual(Object.keys(BACKEND_PLUGINS).sort());
  });

  test('a backend\'s own fields are set by it alone or shared with others, never by every backend (those are nobody\'s own)', () => {
    const owners = (field: string) => BACKENDS.filter((b) => (GUARD_BACKENDS[b].fields as readonly string[]).includes(field));
    const owned = [...new Set(BACKENDS.flatMap((b) => GUARD_BACKENDS[b].fields))];
    expect(owned.filter((f) => owners(f).length === BACKENDS.length)).toEqual([]);
  });
});

describe('the guard\'s shared files name no backend in code', () => {
  test('the files are found: shared, per-backend, and the exemptions still exist', () => {
    expect(SHARED).toEqual(expect.arrayContaining([`${GUARD}/validation.ts`, `${GUARD}/policies.ts`, `${GUARD}/watched.ts`, `${GUARD}/messages.ts`]));
    expect(SHARED).not.toContain(`${GUARD}/backends.ts`);
    expect(tsFilesUnder(ROOT, GUARD).filter((f) => f.startsWith(`${GUARD}/backends/`)).length).toBeGreaterThanOrEqual(BACKENDS.length);
    for (const file of Object.keys(EXEMPT_FILES)) expect(SHARED).toContain(file);
  });

  test('no string literal names a backend and no identifier or string is one FSx backend\'s own', () => {
    const named = SHARED.filter((f) => !(f in EXEMPT_FILES)).flatMap((f) => findings(f, read(f)).found);
    expect(named.map((n) => `${n.file}:${n.line}: ${n.text}`)).toEqual([]);
  });

  test('what several backends share in backends/ names none of them in code either', () => {
    for (const file of SHARED_IN_BACKENDS) expect(tsFilesUnder(ROOT, GUARD)).toContain(file);
    const named = SHARED_IN_BACKENDS.flatMap((f) => findings(f, read(f)).found);
    expect(named.map((n) => `${n.file}:${n.line}: ${n.text}`)).toEqual([]);
  });

  test('each exempt phrase still occurs in code where it is exempt (a stale exemption is removed)', () => {
    for (const e of EXEMPT_PHRASES) {
      for (const file of e.files) {
        const occurs = findings(file, read(file)).literals.some((l) => l.match(e.phrase) !== null);
        expect([file, e.phrase.source, occurs]).toEqual([file, e.phrase.source, true]);
      }
    }
  });

  test('the shared files reach a backend\'s descriptor through the registry alone', () => {
    const direct = SHARED.flatMap((f) => findings(f, read(f)).imports.filter((i) => /(^|\/)backends\//.test(i)).map((i) => `${f} -> ${i}`));
    expect(direct).toEqual([]);
  });

  test('the finder finds a backend named in code, and not in a comment (a check that cannot fail is no check)', () => {
    const text = [
      '// fsx-openzfs and Lustre in a comment are fine',
      "import { X } from './backends/fsx-openzfs';",
      "const key = layout.backend === 'fsx-openzfs' ? 'aws/fsx' : 'aws/ebs';",
      'const OPENZFS_COPY = `a copy on ${layout.backend}`;',
      "const why = 'every instance-store disk goes with it';",
      "const pin = `-c backend=instance-store or ${x}`;",
    ].join('\n');
    const { found, imports } = findings(`${GUARD}/watched.ts`, text);
    expect(found.map((f) => `${f.line}: ${f.text}`)).toEqual([
      '3: "fsx-openzfs"',
      '3: "aws/ebs"',
      '4: OPENZFS_COPY',
      '6: "-c backend=instance-store or "',
    ]);
    expect(imports).toEqual(['./backends/fsx-openzfs']);
  });
});
