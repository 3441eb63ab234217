/**
 * `npm run plan` in a terminal of 80 columns, run as npm runs it: help, a plan, comparisons and errors fit, and one
 * question gets one answer. When the cheapest plan shown is not what `cdk deploy` builds, a line says why and how to
 * get it. Options npm took for itself, the `--` forgotten, get the command line to run instead.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { terminalWidth } from '../../bin/args';
import { planScript } from '../support/plan-script';

const root = path.join(__dirname, '..', '..');

interface Run { status: number; stdout: string; stderr: string }

/** The plan script with `args`, its output a pipe as in CI; `env` adds to the environment, as npm does. */
function spawnPlan(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const { file, args: argv } = planScript(args);
  // Without npm's own variables, whichever npm runs jest.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: root, encoding: 'utf8', env: { ...base, ...env } }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

/** What each case runs: help, a plan, comparisons of every backend, and errors of each kind. */
const CASES: Record<string, readonly string[]> = {
  'help': ['--help'],
  'a plan, FSx for Lustre cheaper': ['10'],
  'a comparison with every EFS row': ['2', '--throughput', '500'],
  'a comparison where EFS is cheapest': ['0.01'],
  'a backend asked for by name': ['10', 'ebs'],
  'a plan of the current generation': ['40', '--generation', 'current', '--client-instance-type', 'm6in.large'],
  'an unknown option': ['10', '--thruput', '400'],
  'a bad value': ['10', '--client-instance-type', 'm6i.lrage'],
  'a request the planner refuses': ['100', 'ebs'],
};

const runs: Record<string, Run> = {};

beforeAll(async () => {
  const names = Object.keys(CASES);
  const done = await Promise.all(names.map((name) => spawnPlan(CASES[name])));
  names.forEach((name, i) => { runs[name] = done[i]; });
}, 60_000);

/** Lines wrapped at 80 columns as one again: each continuation line starts with two spaces. */
const unwrap = (text: string) => text.replace(/\n {2}(?=\S)/g, ' ');

/** The lines of a run wider than 80 columns, with their width. */
function overWide(run: Run): string[] {
  return `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.length > 80).map((l) => `${l.length}: ${l}`);
}

describe('npm run plan fits 80 columns when its output is not a terminal', () => {
  test.each(Object.keys(CASES))('%s: no line over 80 columns', (name) => {
    const run = runs[name];
    expect(`${run.stdout}${run.stderr}`.length).toBeGreaterThan(0);
    expect(overWide(run)).toEqual([]);
  });

  test('the errors exit as before: 2 for the command line, 1 for the planner', () => {
    expect([runs['an unknown option'].status, runs['a bad value'].status, runs['a request the planner refuses'].status]).toEqual([2, 2, 1]);
  });

  test('a terminal sets the width, never under 40; anything else is 80', () => {
    expect(terminalWidth({ isTTY: true, columns: 132 })).toBe(132);
    expect(terminalWidth({ isTTY: true, columns: 20 })).toBe(40);
    expect(terminalWidth({ isTTY: undefined, columns: undefined })).toBe(80);
  });
});

describe('npm run plan gives one answer', () => {
  const planned = ['a plan, FSx for Lustre cheaper', 'a comparison with every EFS row', 'a comparison where EFS is cheapest', 'a backend asked for by name'];

  test.each(planned)('%s: one Choice line, naming what cdk deploy builds', (name) => {
    const text = unwrap(runs[name].stdout);
    expect(text.match(/^Choice: .*$/gm)).toHaveLength(1);
    expect(text.match(/`cdk deploy`/g)).toHaveLength(1);
  });

  test.each(planned)('%s: when the cheapest row shown is not what cdk deploy builds, a line says why and how to get it', async (name) => {
    const json = JSON.parse((await spawnPlan([...CASES[name], '--json'])).stdout) as {
      plan: { backend: string; monthlyCostUsd: number }; choice: string; comparison: { backend: string; efs?: object }[];
    };
    const text = unwrap(runs[name].stdout);
    const choice = /^Choice: ([a-z-]+) /m.exec(text)?.[1];
    expect(choice).toBe(json.plan.backend);
    if (json.choice === json.plan.backend) {
      expect(text).not.toMatch(/ is cheaper /);
      return;
    }
    const efs = json.comparison.find((r) => r.backend === json.choice)?.efs !== undefined;
    const why = efs ? new RegExp(`${json.choice} at \\$[0-9.]+/month is cheaper still|^${json.choice} is cheaper at .*deploys no EFS`, 'm')
      : new RegExp(`^${json.choice} .* is cheaper at \\$[0-9.]+/month; .*: pass backend ${json.choice} \\(-c backend=${json.choice}\\) to build it`, 'm');
    expect(text).toMatch(why);
  }, 30_000);
});

test("the README's quoted answer of `npm run plan -- 10` is what it prints", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n```\nChoice: ') + '\n```\n'.length;
  const quoted = readme.slice(start, readme.indexOf('\n```\n', start) + 1);
  expect(quoted).toMatch(/^Choice: /);
  expect(runs['a plan, FSx for Lustre cheaper'].stdout.endsWith(`\n\n${quoted}`)).toBe(true);
});

describe('npm run plan without `--`: npm took the options', () => {
  test('`npm run plan 10 --throughput 500`: the command line to run instead, exit 2', async () => {
    // What npm passes: the value left among the arguments, the option as its setting.
    const run = await spawnPlan(['10', '500'], { npm_lifecycle_event: 'plan', npm_config_throughput: 'true' });
    expect([run.status, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(/^Error: npm took the options; run `npm run plan -- 10 --throughput 500`\n/);
    expect(overWide(run)).toEqual([]);
  });

  test('`npm run plan 10 ebs --throughput=500 --json`: the value npm kept and the flag go back', async () => {
    const run = await spawnPlan(['10', 'ebs'], { npm_lifecycle_event: 'plan', npm_config_throughput: '500', npm_config_json: 'true' });
    expect(run.status).toBe(2);
    expect(unwrap(run.stderr)).toMatch(/^Error: npm took the options; run `npm run plan -- 10 ebs --throughput 500 --json`\n/);
  });

  test('settings npm keeps for another script, such as jest under `npm test`, are not this command\'s', async () => {
    const run = await spawnPlan(['10'], { npm_lifecycle_event: 'test', npm_config_throughput: 'true' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  test('options after `--` are the command\'s: a setting of the same name from elsewhere is not taken for them', async () => {
    const run = await spawnPlan(['10', '--throughput', '500'], { npm_lifecycle_event: 'plan', npm_config_throughput: 'true' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });
});
