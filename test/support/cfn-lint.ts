import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvBin } from './venv';

/**
 * Runs cfn-lint (from the project venv) over a synthesized template and returns its findings, one
 * line each. Errors, warnings and informational findings are all returned: the gate is "no finding".
 */
export function cfnLint(template: unknown, regions: string[] = ['us-east-1']): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfn-lint-'));
  const file = path.join(dir, 'template.json');
  fs.writeFileSync(file, JSON.stringify(template));
  const result = spawnSync(path.join(venvBin(), 'cfn-lint'), ['--format', 'parseable', '--regions', ...regions, '--', file], {
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  // cfn-lint exits 0 when clean; 2 (error), 4 (warning), 8 (informational) or their sum otherwise.
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  if (result.status !== 0 && lines.length === 0) {
    throw new Error(`cfn-lint failed (exit ${result.status}): ${result.stderr}`);
  }
  return lines;
}
