/**
 * The README as a newcomer meets it. Its first screen, 24 lines of an 80-column terminal, holds the set-up commands,
 * `cdk deploy` and `npm run plan` (the context-key tables are docs/context-keys.md's: reference-docs.test.ts). Every
 * shell command in it is either marked as needing an AWS account or run: here, for `npm run plan` and an offline `cdk
 * synth`; or by CI, for `npm ci` and the install commands, which the consumer test runs as written. A marked `cdk
 * deploy` or `cdk diff` still has its `-c` keys parsed by the app's own parser, so an example with a misspelt key or a
 * bad value fails here.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ContextKey, checkContextKeys, parseContext } from '../../lib/context';
import { BACKENDS, Backend } from '../../lambda/register/backend';
import { TARGET } from '../support/grammars';
import { REPO_ROOT, ShellCommand, cdkContextOf, shellCommands } from '../support/readme';
import { planScript } from '../support/plan-script';

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The rows a terminal of `columns` shows for `markdown`'s first lines; a long line wraps over several rows. */
function firstScreen(markdown: string, rows = 24, columns = 80): string {
  const shown: string[] = [];
  for (const line of markdown.split('\n')) {
    for (let i = 0; i === 0 || i < line.length; i += columns) shown.push(line.slice(i, i + columns));
    if (shown.length >= rows) break;
  }
  return shown.slice(0, rows).join('\n');
}

/** Commands CI runs as the README writes them, and the script that runs each, checked to contain it. */
const RUN_BY_CI: { pattern: RegExp; script: string; text: string }[] = [
  { pattern: /^npm ci$/, script: '.ci/run', text: 'npm ci' },
  // The install commands: the consumer test packs the package and installs the tarball the README names.
  { pattern: /^npm ci && npm pack\b/, script: 'test/consumer/package-checks.ts', text: "run('npm', ['pack'" },
  { pattern: /^cd \S+ && npm install \S+\.tgz$/, script: 'test/consumer/package-checks.ts', text: "run('npm', ['install', path.relative(appDir, state.tarball)" },
  // The Python commands: the Python app test builds the wheel and installs it.
  { pattern: /^npm run package$/, script: 'test/python-app/run.sh', text: 'npm run package' },
  { pattern: /^cd \S+ && pip install \S+\.whl$/, script: 'test/python-app/run.sh', text: '-m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheel"' },
];

type Kind = 'marked' | 'plan' | 'synth' | 'ci';

/** How a README command is accounted for, or undefined when it is neither marked nor run by a test. */
function kindOf(c: ShellCommand): Kind | undefined {
  if (c.needsAwsAccount) return 'marked';
  if (/^npm run plan\b/.test(c.command)) return 'plan';
  if (/^npx cdk synth\b/.test(c.command)) return 'synth';
  if (RUN_BY_CI.some((r) => r.pattern.test(c.command.replace(/\s+#.*$/, '')))) return 'ci';
  return undefined;
}

interface Run { code: number | null; stdout: string; stderr: string }

function run(command: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_VERSION_CHECK: '1',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The words of a command line, without a trailing comment; the README's runnable commands use no quoting. */
function words(command: string): string[] {
  return command.replace(/\s#.*$/, '').trim().split(/\s+/);
}

/** `npm run plan -- <args>` as npm runs it: the package's plan script with those arguments. */
function runPlan(command: string): Promise<Run> {
  const args = words(command).slice(3);
  const script = planScript(args[0] === '--' ? args.slice(1) : args);
  return run(script.file, script.args);
}

/** `npx cdk synth ...` with the real CLI, offline, into a scratch directory. */
function runSynth(command: string): Promise<Run> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-synth-'));
  const args = words(command).slice(2);
  return run(path.join(REPO_ROOT, 'node_modules', '.bin', 'cdk'), [...args, '--no-notices', '--no-version-reporting', '-o', outdir]);
}

const commands = shellCommands(README);

/** Each backend as the first screen names it, with what it stores the data on. */
const BACKEND_WORDS: Record<Backend, RegExp> = {
  'ebs': /\*\*EBS\*\*: an EC2 NFS server\b.*\bst1 or gp3 volumes/,
  'instance-store': /\*\*instance store\*\*: an EC2 NFS server\b.*\bd2, d3 or d3en HDDs/,
  'fsx-lustre': /\*\*FSx for Lustre\*\*: /,
  'fsx-openzfs': /\*\*FSx for OpenZFS\*\*: /,
};

describe('README: the first screen', () => {
  test.each(['npm ci', 'npx cdk synth', 'cdk deploy', 'npm run plan'])('shows `%s` in 24 rows of 80 columns', (command) => {
    expect(firstScreen(README)).toContain(command);
  });

  test.each(Object.entries(BACKEND_WORDS))('names the backend %s, as %s', (_, words) => {
    expect(firstScreen(README).replace(/\s+/g, ' ')).toMatch(words);
  });

  test('knows every backend the app deploys, and no other', () => {
    expect(Object.keys(BACKEND_WORDS).sort()).toEqual([...BACKENDS].sort());
  });

  test('the check is not vacuous: the old README, set-up below a paragraph of tests, fails it', () => {
    const old = README.replace(/\n```sh\nnpm ci\n/, `\n${'npm test runs the unit tests. '.repeat(30)}\n\`\`\`sh\nnpm ci\n`);
    expect(firstScreen(old)).not.toContain('npm run plan');
  });
});

describe('README: every shell command is run by a test or marked as needing an AWS account', () => {
  test('none is left unaccounted for', () => {
    expect(commands.length).toBeGreaterThan(10);
    const loose = commands.filter((c) => kindOf(c) === undefined).map((c) => `README.md:${c.line}: ${c.command}`);
    expect(loose).toEqual([]);
  });

  test('the check is not vacuous: an unmarked AWS CLI command is reported', () => {
    const extra = shellCommands(`${README}\n## Extra\n\n\`\`\`sh\naws s3 ls\n\`\`\`\n`);
    expect(extra.filter((c) => c.section === 'Extra' && kindOf(c) === undefined).map((c) => c.command)).toEqual(['aws s3 ls']);
  });

  test.each(RUN_BY_CI)('$text is run by $script as written', ({ script, text }) => {
    expect(fs.readFileSync(path.join(REPO_ROOT, script), 'utf8')).toContain(text);
  });

  test.each(commands.filter((c) => kindOf(c) === 'marked' && /\bcdk (deploy|diff|synth)\b/.test(c.command)).map((c) => [c.line, c.command]))(
    'README.md:%i: its context keys are ones the app reads, with values it accepts: %s',
    (_, command) => {
      const context = cdkContextOf(command);
      expect(Object.keys(context).length).toBeGreaterThan(0);
      expect(() => checkContextKeys(Object.keys(context))).not.toThrow();
      expect(() => parseContext((key: ContextKey) => context[key], TARGET)).not.toThrow();
    },
  );

  // The runnable ones, each in its own process as a user runs it, in parallel, since each is mostly start-up.
  const runnable = commands.filter((c) => kindOf(c) === 'plan' || kindOf(c) === 'synth');
  let results: Map<ShellCommand, Run>;
  beforeAll(async () => {
    const runs = await Promise.all(runnable.map((c) => (kindOf(c) === 'plan' ? runPlan(c.command) : runSynth(c.command))));
    results = new Map(runnable.map((c, i) => [c, runs[i]]));
  }, 240_000);

  test.each(runnable.map((c) => [c.line, c.command, c]))('README.md:%i runs offline and succeeds: %s', (_, __, c) => {
    const result = results.get(c as ShellCommand)!;
    expect({ code: result.code, stderr: result.stderr.split('\n').filter((l) => /error/i.test(l)) }).toEqual({ code: 0, stderr: [] });
    if (kindOf(c as ShellCommand) === 'plan') expect(result.stdout.trim()).not.toBe('');
  });
});
