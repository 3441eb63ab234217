/**
 * Consumer test, `npm run test:consumer`: it uses the package the way another CDK app would.
 *
 * 1. `npm pack` makes the tarball, its prepack running `npm run build`. Its file list is checked against the package's
 *    allowlist and required files in test/support/pack-files.ts, as `npm run pack:check` does.
 * 2. A fresh CDK app in a temporary directory outside the repository, depending on the aws-cdk-lib and constructs
 *    versions this repository pins, installs the tarball the way the README's install commands do:
 *    `npm install <path>/<tarball>`, since the package is not on a registry.
 * 3. The app is the README's "Use as a library" example. It is compiled with `tsc` against the installed package's
 *    declarations, synthesized with the `cdk` CLI, and its template checked.
 * 4. The package's registration Lambda is compared with the one the sources build by esbuild's JS API, in
 *    bin/handler-bundle.ts.
 *
 * It prints one line per check and a closing `N passed, M failed`, and exits 1 if any check failed. A check that cannot
 * run because an earlier step failed counts as failed. KEEP_CONSUMER_DIR=1 keeps the temporary directory for
 * inspection.
 */
import { appChecks } from './app-checks';
import { bundleChecks } from './bundle-checks';
import { finish } from './harness';
import { packageChecks } from './package-checks';

// In this order, since each group needs what the one before made: the tarball, the installed app, its template.
packageChecks();
appChecks();
bundleChecks();
finish();
