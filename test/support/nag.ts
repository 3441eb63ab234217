import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/** One unacknowledged cdk-nag finding: rule id (with finding id where the rule has several) and path. */
export interface NagFinding {
  readonly ruleId: string;
  readonly resource: string;
  readonly message: string;
}

/**
 * Builds an App with the AwsSolutions pack registered as a policy-validation plugin, lets `build` add
 * stacks to it, synthesizes it and returns every unacknowledged finding. Synth fails (throws) when
 * there are findings; we read the report it writes so the test can print precisely what was found.
 */
export function nagFindings(build: (app: App) => void): NagFinding[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-'));
  const app = new App({ outdir });
  build(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let synthError: unknown;
  try {
    app.synth();
  } catch (e) {
    synthError = e;
  }
  const reportFile = path.join(outdir, 'validation-report.json');
  if (!fs.existsSync(reportFile)) {
    if (synthError) throw synthError;
    return [];
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const findings: NagFinding[] = [];
  for (const plugin of report.pluginReports ?? []) {
    if (plugin.pluginName !== 'AwsSolutions') continue;
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
  return findings;
}
