import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvBin } from './venv';

/**
 * Runs cfn-lint from the project venv over a synthesized template and returns its findings, one line each. Errors,
 * warnings and informational findings are all returned, since the gate is "no finding".
 */
export function cfnLint(template: unknown, regions: string[] = ['us-east-1']): string[] {
  const run = cfnLintRun({ template }, regions);
  return run.findings(spawnSync(run.command, run.args, { encoding: 'utf8' })).template;
}

/**
 * The findings of each template, by the name it was given, of cfn-lint over many templates in `processes` runs side by
 * side. One Python start-up per run, about 2 s, replaces one per template. cfn-lint itself uses one core, and a gate
 * file's other worker is often waiting on a child process.
 */
export async function cfnLintAll(
  templates: Record<string, unknown>, processes = 2, regions: string[] = ['us-east-1'],
): Promise<Record<string, string[]>> {
  const names = Object.keys(templates);
  const groups = Array.from({ length: Math.min(processes, names.length) }, (_, i) => names.filter((_n, j) => j % processes === i));
  const results = await Promise.all(groups.map((group) => {
    const run = cfnLintRun(Object.fromEntries(group.map((name) => [name, templates[name]])), regions);
    return new Promise<Record<string, string[]>>((resolve, reject) => {
      const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (status) => {
        try {
          resolve(run.findings({ status, stdout, stderr }));
        } catch (e) {
          reject(e);
        }
      });
    });
  }));
  return Object.assign({}, ...results) as Record<string, string[]>;
}

/** One cfn-lint run over `templates`, written to files: its command line, and how to read its output by template. */
function cfnLintRun(templates: Record<string, unknown>, regions: string[]): {
  command: string;
  args: string[];
  findings: (result: { status: number | null; stdout: string; stderr: string; error?: Error }) => Record<string, string[]>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfn-lint-'));
  const files = Object.keys(templates).map((name, i) => {
    const file = path.join(dir, `${i}.json`);
    fs.writeFileSync(file, JSON.stringify(templates[name]));
    return { name, file };
  });
  const findings = (result: { status: number | null; stdout: string; stderr: string; error?: Error }) => {
    if (result.error) throw result.error;
    // cfn-lint exits 0 when clean, and otherwise 2 for an error, 4 for a warning, 8 for informational, or their sum.
    const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
    if (result.status !== 0 && lines.length === 0) {
      throw new Error(`cfn-lint failed (exit ${result.status}): ${result.stderr}`);
    }
    // Parseable findings start with the file's path; a line that names no file is reported under every name.
    const byName: Record<string, string[]> = {};
    for (const { name, file } of files) {
      byName[name] = lines.filter((l) => l.startsWith(`${file}:`) || !files.some((f) => l.startsWith(`${f.file}:`)));
    }
    return byName;
  };
  return {
    command: path.join(venvBin(), 'cfn-lint'),
    args: ['--format', 'parseable', '--regions', ...regions, '--', ...files.map((f) => f.file)],
    findings,
  };
}
