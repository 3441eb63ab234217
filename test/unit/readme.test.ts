/**
 * The README as a newcomer meets it. Its first screen, 24 lines of an 80-column terminal, names the four backends and
 * holds the set-up commands, `cdk deploy` and `npm run plan` (the context-key tables are docs/context-keys.md's:
 * reference-docs.test.ts). Every shell command in it and in the reference pages beside it is either marked as needing
 * an AWS account or run: here, for `npm run plan` and an offline `cdk synth`; by CI, for `npm ci` and the install
 * commands, which the consumer test runs as written; a `git checkout` names a release CHANGELOG dates (and a tag of
 * this clone, where it has tags: CI's clone has none), or the coming release's, marked. A marked `cdk deploy` or
 * `cdk diff` still has its `-c` keys parsed by the app's own parser, so an example with a misspelt key or a bad value
 * fails here.
 */
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ContextKey, checkContextKeys, parseAppContext } from '../../lib/context';
import { BACKENDS, Backend } from '../../lambda/register/backend';
import { TARGET } from '../support/grammars';
import { REPO_ROOT, ShellCommand, cdkContextOf, codeBlocks, packageVersion, shellCommands } from '../support/readme';
import { wideLines, wrapMarkdown } from '../support/markdown-width';
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

/**
 * The marker of a `git checkout <tag>` whose tag does not exist yet: the release this tree prepares makes it. Only
 * that tag, `v<package.json's version>`, may carry it; any other must be a release CHANGELOG dates.
 */
const RELEASE_MARKER = 'needs the release';

/** The versions CHANGELOG.md records as released (a heading `## X.Y.Z - YYYY-MM-DD`): in every clone, tags or not. */
const RELEASED = [...fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8').matchAll(/^## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]);

/** This checkout's tags: a clone made without them (CI's is) has none, and then CHANGELOG alone is the record. */
const TAGS = execFileSync('git', ['tag', '-l'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter((l) => l !== '');

/**
 * Why `git checkout <ref>` would name no release, given CHANGELOG's `released` versions and the clone's `tags`;
 * undefined when it names one (in `tags` too, where the clone has any), or is the coming release's, marked.
 */
function checkoutProblem(command: string, released: readonly string[], tags: readonly string[]): string | undefined {
  const ref = /^git checkout (\S+)/.exec(command)?.[1];
  if (ref === undefined) return undefined;
  const comment = /\s#.*$/.exec(command)?.[0] ?? '';
  if (comment.includes(RELEASE_MARKER)) {
    return ref === `v${packageVersion()}` ? undefined : `${ref} is marked, but only this version's tag, v${packageVersion()}, may wait for the release`;
  }
  if (!released.map((v) => `v${v}`).includes(ref)) {
    return `${ref} is no release CHANGELOG.md dates (${released.map((v) => `v${v}`).join(', ') || 'none'}): name one, or mark it "# ${RELEASE_MARKER}"`;
  }
  if (tags.length > 0 && !tags.includes(ref)) return `${ref} is released in CHANGELOG.md but not in \`git tag -l\` (${tags.join(', ')})`;
  return undefined;
}

type Kind = 'marked' | 'plan' | 'synth' | 'ci' | 'tag';

/** How a README command is accounted for, or undefined when it is neither marked nor run by a test. */
function kindOf(c: ShellCommand): Kind | undefined {
  if (c.needsAwsAccount) return 'marked';
  if (/^git checkout\b/.test(c.command)) return checkoutProblem(c.command, RELEASED, TAGS) === undefined ? 'tag' : undefined;
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

/** The user pages: the README and the reference beside it, whose commands are held to the same rule. */
const USER_PAGES = [
  'README.md', 'docs/context-keys.md', 'docs/props.md', 'docs/what-gets-deployed.md', 'docs/client-mount.md',
  'docs/update-guard.md', 'docs/how-it-is-tested.md',
];

/** Every shell command of the user pages, with the page it is on. */
const commands: (ShellCommand & { file: string })[] = USER_PAGES.flatMap((file) =>
  shellCommands(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')).map((c) => ({ ...c, file })),
);

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

describe('README and docs pages: every shell command is run by a test or marked as needing an AWS account', () => {
  test('none is left unaccounted for', () => {
    expect(commands.length).toBeGreaterThan(10);
    const loose = commands.filter((c) => kindOf(c) === undefined).map((c) => `${c.file}:${c.line}: ${c.command}`);
    expect(loose).toEqual([]);
  });

  test('the check is not vacuous: an unmarked AWS CLI command is reported', () => {
    const extra = shellCommands(`${README}\n## Extra\n\n\`\`\`sh\naws s3 ls\n\`\`\`\n`);
    expect(extra.filter((c) => c.section === 'Extra' && kindOf(c) === undefined).map((c) => c.command)).toEqual(['aws s3 ls']);
  });

  test('each `git checkout` names a release CHANGELOG dates (and a tag, where the clone has tags), or the coming one, marked', () => {
    // Inline: the code spans of the prose, outside the blocks.
    let prose = README;
    for (const b of codeBlocks(README)) prose = prose.replace(b.code, '');
    const inline = [...prose.matchAll(/`(git checkout [^`]*)`/g)].map((m) => m[1]);
    const checkouts = [...commands.map((c) => c.command), ...inline].filter((c) => c.startsWith('git checkout '));
    expect(checkouts.length).toBeGreaterThan(0);
    expect(checkouts.flatMap((c) => checkoutProblem(c, RELEASED, TAGS) ?? [])).toEqual([]);
  });

  test('the tag check is not vacuous: an undated version, a missing tag and a marked tag of another version are refused', () => {
    const next = `v${packageVersion()}`;
    expect(RELEASED.length).toBeGreaterThan(0);
    expect(checkoutProblem('git checkout v0.0.1', ['0.0.1'], [])).toBeUndefined();
    expect(checkoutProblem('git checkout v0.0.1', ['0.0.1'], ['v0.0.1'])).toBeUndefined();
    expect(checkoutProblem('git checkout v0.0.2', ['0.0.1'], [])).toMatch(/is no release CHANGELOG\.md dates \(v0\.0\.1\)/);
    expect(checkoutProblem('git checkout v0.0.1', ['0.0.1'], ['v0.0.0'])).toMatch(/not in `git tag -l` \(v0\.0\.0\)/);
    expect(checkoutProblem(`git checkout ${next}  # ${RELEASE_MARKER}: made at the release`, [], [])).toBeUndefined();
    expect(checkoutProblem(`git checkout v0.0.2  # ${RELEASE_MARKER}`, [], [])).toMatch(/only this version's tag/);
  });

  test.each(RUN_BY_CI)('$text is run by $script as written', ({ script, text }) => {
    expect(fs.readFileSync(path.join(REPO_ROOT, script), 'utf8')).toContain(text);
  });

  test.each(commands.filter((c) => kindOf(c) === 'marked' && /\bcdk (deploy|diff|synth)\b/.test(c.command)).map((c) => [c.file, c.line, c.command]))(
    '%s:%i: its context keys are ones the app reads, with values it accepts: %s',
    (_, __, command) => {
      const context = cdkContextOf(command);
      expect(Object.keys(context).length).toBeGreaterThan(0);
      expect(() => checkContextKeys(Object.keys(context))).not.toThrow();
      expect(() => parseAppContext((key: ContextKey) => context[key], TARGET)).not.toThrow();
    },
  );

  // The runnable ones, each in its own process as a user runs it, in parallel, since each is mostly start-up.
  const runnable = commands.filter((c) => kindOf(c) === 'plan' || kindOf(c) === 'synth');
  let results: Map<ShellCommand, Run>;
  beforeAll(async () => {
    const runs = await Promise.all(runnable.map((c) => (kindOf(c) === 'plan' ? runPlan(c.command) : runSynth(c.command))));
    results = new Map(runnable.map((c, i) => [c, runs[i]]));
  }, 240_000);

  test.each(runnable.map((c) => [c.file, c.line, c.command, c]))('%s:%i runs offline and succeeds: %s', (_, __, ___, c) => {
    const result = results.get(c as ShellCommand)!;
    expect({ code: result.code, stderr: result.stderr.split('\n').filter((l) => /error/i.test(l)) }).toEqual({ code: 0, stderr: [] });
    if (kindOf(c as ShellCommand) === 'plan') expect(result.stdout.trim()).not.toBe('');
  });
});

describe('README and docs pages: prose at most 100 columns, outside tables and code blocks', () => {
  test.each(USER_PAGES)('%s has no wider line (test/support/markdown-width.ts refills a page)', (file) => {
    const wide = wideLines(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
    expect(wide.map((w) => `${file}:${w.line}: ${w.width} columns`)).toEqual([]);
  });

  test('the check is not vacuous: a wide line is found; a table row, a code line, a web address and one word are not', () => {
    const long = 'word '.repeat(21).trim();
    const page = [
      long, `| ${long} |`, '```sh', long, '```', `See [the guide](https://example.com/${'x'.repeat(120)}).`,
      `  \`${'x'.repeat(120)}\``,
    ].join('\n');
    expect(wideLines(page).map((w) => w.line)).toEqual([1]);
  });

  test('refilling keeps every word, each link and short code span whole, and leaves no wide line', () => {
    const link = '[a link of several words](docs/props.md#a-b)';
    const page = `${'word '.repeat(30)}\`a code span\` ${link} ${'more '.repeat(30)}\n\n- ${'item '.repeat(30)}\n`;
    const wrapped = wrapMarkdown(page);
    expect(wrapped.replace(/\s+/g, ' ')).toBe(page.replace(/\s+/g, ' '));
    expect(wrapped).toContain('`a code span`');
    expect(wrapped).toContain(link);
    expect(wideLines(wrapped)).toEqual([]);
    expect(wrapped.split('\n').filter((l) => l.startsWith('  item')).length).toBeGreaterThan(0);
  });
});
