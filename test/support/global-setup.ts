import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANDLER_BUNDLES_ENV } from '../../lib/handler-function';

/** The prefix of the run's temporary directory; global-teardown.ts removes only a directory so named. */
export const RUN_TMP_PREFIX = 'storage-server-jest-';

/**
 * Runs once before the jest workers start. Work every test file would otherwise repeat is done here, once per run, from
 * the sources as they are now; nothing is reused from an earlier run.
 *
 * - `npm run build:lambda` bundles the custom-resource handlers into dist/lambda, the package's own bundles, and
 *   `STORAGE_SERVER_HANDLER_BUNDLES` points the stacks at them. So the stacks deploy what the package ships. Without it
 *   they take the app's own cache of bin/handler-bundle.ts, the same bytes. The tests that check the app's bundles
 *   unset it: test/unit/handler-function.test.ts, test/integration/register-bundle.test.ts, and the first `cdk synth`
 *   of test/unit/app-cli.test.ts.
 * - The Python venv, with moto, cfn-lint and shellcheck, is created or checked once, not by each worker.
 * - aws-cdk-lib's built-in template validation is off, by CDK_VALIDATION=false: see below.
 * - Every temporary file of the run goes into one directory of its own, TMPDIR, inherited by the workers and the tools
 *   they start, which test/support/global-teardown.ts removes. Each synth without an outdir leaves a cdk.out directory
 *   in the temporary directory, some 900 of them, 3.5 GB, a run, enough to fill the disk.
 */
export default function globalSetup(): void {
  const root = path.join(__dirname, '..', '..');
  process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), RUN_TMP_PREFIX));
  execFileSync('npm', ['run', '--silent', 'build:lambda'], { cwd: root, stdio: 'inherit' });
  process.env[HANDLER_BUNDLES_ENV] = path.join(root, 'dist', 'lambda');
  // aws-cdk-lib's built-in template validation, CDK_VALIDATION, runs at every synth and only prints warnings. The tests
  // lint the templates with cfn-lint and cdk-nag themselves, in test/unit/gates.test.ts. Skipping it halves the cost of
  // a synth, of which the suite makes several hundred.
  process.env.CDK_VALIDATION = 'false';
  process.env.STORAGE_SERVER_TEST_VENV_BIN = execFileSync('bash', [path.join(__dirname, 'venv.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}
