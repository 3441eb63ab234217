/**
 * Consumer test (`npm run test:consumer`): uses the package the way another CDK app would.
 *
 * 1. `npm pack` (its prepack runs `npm run build`) makes the tarball; its file list is checked against the
 *    package's allowlist and required files (test/support/pack-files.ts, as `npm run pack:check` does).
 * 2. A fresh CDK app in a temporary directory outside the repository, depending on the aws-cdk-lib and constructs
 *    versions this repository pins, installs the tarball the way the README's install commands do:
 *    `npm install <path>/<tarball>` (the package is not on a registry).
 * 3. The app is the README's "Use as a library" example: compiled with `tsc` against the installed package's
 *    declarations, synthesized with the `cdk` CLI, and its template checked.
 * 4. The registration Lambda of the package is compared with the one the sources build (esbuild's JS API, bin/handler-bundle.ts).
 *
 * Prints one line per check and a closing `N passed, M failed`; exits 1 if any check failed. A check that
 * cannot run because an earlier step failed counts as failed. KEEP_CONSUMER_DIR=1 keeps the temporary
 * directory for inspection.
 */
import { appChecks } from './app-checks';
import { bundleChecks } from './bundle-checks';
import { finish } from './harness';
import { packageChecks } from './package-checks';

// In this order: each group needs what the one before made (the tarball, the installed app, its template).
packageChecks();
appChecks();
bundleChecks();
finish();
