/**
 * The storage server's bootstrap, rendered for the server's SSM apply document. It is made of the script, the settings
 * file it reads, the systemd unit that runs it at every boot, and the shell step that installs all three and runs it.
 * The script is lib/scripts/storage-bootstrap.sh and its parts, real shell files. The user data is a constant loader,
 * renderLoaderUserData, so settings never reach the server through user data and changing one never stops the instance
 * (docs/design.md, section 10). These are pure functions with no CDK imports: the construct wires their output, the
 * unit tests check it directly, and the e2e tests in test/e2e run exactly this step in Linux VMs.
 *
 * Values may be unresolved CDK token strings, `${Token[...]}`. They are only ever concatenated into the output, never
 * parsed, so CloudFormation substitutes the real volume ids.
 *
 * This module is the entry the construct and the tests import; each concept lives in a module of its own:
 * - lib/bootstrap/config.ts: the configuration's types, BootstrapConfig, and lib/bootstrap/validation.ts its checks;
 * - lib/bootstrap/paths.ts: where everything lives on the server;
 * - lib/bootstrap/env.ts: the settings file;
 * - lib/bootstrap/script.ts: the script, its parts in place, and its compact form;
 * - lib/bootstrap/unit.ts: the systemd unit and the time bounds;
 * - lib/bootstrap/apply.ts: the apply command and document;
 * - lib/bootstrap/loader.ts: the constant user data.
 */
export type { BootstrapConfig } from './bootstrap/config';
export { BOOTSTRAP_PATHS } from './bootstrap/paths';
export { renderBootstrapEnv } from './bootstrap/env';
export { bootstrapScript, compactScript } from './bootstrap/script';
export { applyTimeoutSeconds, renderBootstrapUnit } from './bootstrap/unit';
export { renderApplyCommand, renderApplyDocument } from './bootstrap/apply';
export { renderLoaderUserData } from './bootstrap/loader';
