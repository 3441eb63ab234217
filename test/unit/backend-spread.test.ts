/**
 * CONTRIBUTING's "Adding a backend" states how many shared files FSx for OpenZFS still touches, and shows the loop that
 * counts them. The loop is run here as a reader would paste it, so the stated count cannot drift from the code's.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/** The count CONTRIBUTING states and the loop it shows, from the paragraph that begins "Not yet one folder". */
function statedSpread(contributing: string): { stated: number; loop: string } {
  const section = contributing.slice(contributing.indexOf('Not yet one folder'));
  const stated = /touches (\d+) shared files/.exec(section);
  const loop = /```sh\n([\s\S]*?)```/.exec(section);
  if (!stated || !loop) throw new Error('CONTRIBUTING.md: no "touches <n> shared files" paragraph with its ```sh loop');
  return { stated: Number(stated[1]), loop: loop[1] };
}

describe("CONTRIBUTING's count of the shared files a backend touches", () => {
  test('is what its loop prints on the tree', () => {
    // GIVEN
    const { stated, loop } = statedSpread(fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8'));

    // WHEN
    const run = spawnSync('bash', ['-c', loop], { cwd: ROOT, encoding: 'utf8' });

    // THEN: the loop's status is its last grep's, so what tells a broken loop is its stderr
    expect(run.stderr).toBe('');
    const files = run.stdout.split('\n').filter((l) => l !== '');
    expect({ count: files.length, files }).toEqual({ count: stated, files });
  });

  test('finds the stated count and the loop, or says what is missing', () => {
    expect(statedSpread('Not yet one folder: it touches 2 shared files.\n```sh\necho a\n```\n')).toEqual({ stated: 2, loop: 'echo a\n' });
    expect(() => statedSpread('Not yet one folder, nothing else')).toThrow(/no "touches <n> shared files" paragraph/);
  });
});
