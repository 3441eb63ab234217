import * as fs from 'fs';
import * as path from 'path';
import { repoImport, scanBackendNames } from '../support/backend-names';

/**
 * The monitoring's backends as plugins (CONTRIBUTING.md, "Adding a backend"): each backend's alarms, metrics and
 * dashboard row are its own `IMonitoredStorage` in its folder (lib/backends/<name>/monitoring.ts), and the shared
 * monitoring (lib/monitoring.ts, lib/monitoring/) only calls it. So no shared file imports a backend folder, or a
 * backend's AWS module (aws-ec2, aws-fsx), or names a backend in code: no string literal holding a backend's name as
 * a word, no identifier or string of one backend's own (EC2, EBS, st1, gp3, instance store, FSx, Lustre, OpenZFS).
 * Comments may name them.
 */
const ROOT = path.join(__dirname, '..', '..');

/** The shared monitoring: the entry file and its folder. */
const SHARED = [
  'lib/monitoring.ts',
  ...fs.readdirSync(path.join(ROOT, 'lib', 'monitoring')).filter((f) => f.endsWith('.ts')).map((f) => `lib/monitoring/${f}`),
].sort();

/** Each backend's own monitoring, which the words below must see as naming a backend. */
const OWN = ['lib/backends/ec2/monitoring.ts', 'lib/backends/fsx/monitoring.ts', 'lib/backends/openzfs/monitoring.ts'];

/** What is one backend's own, in any case and spelling (`ec2Metric`, `'AWS/EBS'`, `openZfsWidgets`, `aws-fsx`). */
const OWN_WORD = /ec2|ebs|st1|gp3|instance.?store|fsx|lustre|open_?zfs/i;

/** A file's imports, resolved to repository paths (packages as named), and what of its code names a backend. */
function read(file: string): { imports: string[]; named: string[] } {
  const { mentions, imports } = scanBackendNames(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), { ownWord: OWN_WORD, packages: true });
  return { imports: imports.map((spec) => repoImport(file, spec)), named: mentions.map((m) => `${m.file}:${m.line}: ${m.text}`) };
}

describe("the monitoring's backends", () => {
  test('the shared files are found', () => {
    expect(SHARED).toEqual(expect.arrayContaining(['lib/monitoring.ts', 'lib/monitoring/storage.ts', 'lib/monitoring/alarms.ts', 'lib/monitoring/widgets.ts']));
  });

  test.each(SHARED)('%s imports no backend folder and names no backend in code', (file) => {
    const { imports, named } = read(file);
    expect(imports.filter((i) => i.startsWith('lib/backends/'))).toEqual([]);
    expect(named).toEqual([]);
  });

  test.each(OWN)('%s, a backend\'s own monitoring, is seen as naming its backend: the words catch it', (file) => {
    expect(read(file).named.length).toBeGreaterThan(0);
  });
});
