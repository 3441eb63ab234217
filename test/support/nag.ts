import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks, NIST80053R5Checks, NagPack } from 'cdk-nag';

/** One unacknowledged cdk-nag finding: the rule id, with the finding id where the rule has several, and the path. */
export interface NagFinding {
  readonly ruleId: string;
  readonly resource: string;
  readonly message: string;
}

/** The cdk-nag packs a test can run, by the name each pack reports under, which is its rule ids' prefix. */
export const NAG_PACKS = {
  AwsSolutions: (app: App): NagPack => new AwsSolutionsChecks(app),
  'NIST.800.53.R5': (app: App): NagPack => new NIST80053R5Checks(app),
  'HIPAA.Security': (app: App): NagPack => new HIPAASecurityChecks(app),
} as const;

/** A pack name: `AwsSolutions`, `NIST.800.53.R5` or `HIPAA.Security`. */
export type NagPackName = keyof typeof NAG_PACKS;

/** Every pack the quality gates hold the app to. */
export const GATE_PACKS: NagPackName[] = ['AwsSolutions', 'NIST.800.53.R5', 'HIPAA.Security'];

/** Options of {@link nagFindings}. */
export interface NagOptions {
  /** The packs to run. Default: AwsSolutions. */
  readonly packs?: NagPackName[];
  /** Context of the App, e.g. the feature flags of cdk.json: see {@link cdkJsonContext}. Default: none. */
  readonly context?: Record<string, unknown>;
}

/** The `context` of the project's cdk.json: the feature flags `cdk synth` builds the app with. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'cdk.json'), 'utf8'));
  return cdkJson.context ?? {};
}

/**
 * Builds an App with the given cdk-nag packs registered as policy-validation plugins, lets `build` add stacks to it,
 * synthesizes it and returns every unacknowledged finding. Synth throws when there are findings. We read the report it
 * writes, so that the test can print precisely what was found.
 */
export function nagFindings(build: (app: App) => void, options: NagOptions = {}): NagFinding[] {
  return nagSynth(build, options).findings;
}

/**
 * {@link nagFindings}, and the templates of the synthesized stacks by stack name, none when synth failed on findings.
 * It serves tests that check the same synth in other ways too, such as cfn-lint, without synthesizing twice.
 */
export function nagSynth(
  build: (app: App) => void,
  options: NagOptions = {},
): { findings: NagFinding[]; templates: Record<string, unknown> } {
  const packs = options.packs ?? ['AwsSolutions'];
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-'));
  const app = new App({ outdir, context: options.context });
  build(app);
  Validations.of(app).addPlugins(...packs.map((name) => NAG_PACKS[name](app)));
  let synthError: unknown;
  const templates: Record<string, unknown> = {};
  try {
    for (const stack of app.synth().stacks) templates[stack.stackName] = stack.template;
  } catch (e) {
    synthError = e;
  }
  const reportFile = path.join(outdir, 'validation-report.json');
  if (!fs.existsSync(reportFile)) {
    if (synthError) throw synthError;
    return { findings: [], templates };
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const findings: NagFinding[] = [];
  for (const plugin of report.pluginReports ?? []) {
    if (!(packs as string[]).includes(plugin.pluginName)) continue;
    for (const violation of plugin.violations ?? []) {
      for (const construct of violation.violatingConstructs ?? []) {
        findings.push({
          ruleId: violation.ruleName,
          resource: construct.constructPath,
          message: violation.description ?? '',
        });
      }
    }
  }
  if (findings.length === 0 && synthError) throw synthError;
  return { findings, templates };
}
