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
  return cfnLintAll({ template }, regions).template;
}

/**
 * cfn-lint over several templates in one run (one Python start-up, ~2 s, instead of one per template):
 * the findings of each template, by the name it was given.
 */
export function cfnLintAll(templates: Record<string, unknown>, regions: string[] = ['us-east-1']): Record<string, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfn-lint-'));
  const files = Object.keys(templates).map((name, i) => {
    const file = path.join(dir, `${i}.json`);
    fs.writeFileSync(file, JSON.stringify(templates[name]));
    return { name, file };
  });
  const result = spawnSync(
    path.join(venvBin(), 'cfn-lint'),
    ['--format', 'parseable', '--regions', ...regions, '--', ...files.map((f) => f.file)],
    { encoding: 'utf8' },
  );
  if (result.error) throw result.error;
  // cfn-lint exits 0 when clean; 2 (error), 4 (warning), 8 (informational) or their sum otherwise.
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  if (result.status !== 0 && lines.length === 0) {
    throw new Error(`cfn-lint failed (exit ${result.status}): ${result.stderr}`);
  }
  // Parseable findings start with the file's path; a line that names no file is reported under every name.
  const findings: Record<string, string[]> = {};
  for (const { name, file } of files) {
    findings[name] = lines.filter((l) => l.startsWith(`${file}:`) || !files.some((f) => l.startsWith(`${f.file}:`)));
  }
  return findings;
}
