import { execFileSync } from 'child_process';
import * as path from 'path';

let binDir: string | undefined;

/**
 * The bin directory of the project's Python venv, with moto, cfn-lint and shellcheck. test/support/venv.sh creates it
 * on first use, so that `npm test` works on a fresh machine with nothing installed by hand. Under jest,
 * test/support/global-setup.ts has run it once already and passed the directory on in the environment.
 */
export function venvBin(): string {
  if (!binDir) binDir = process.env.STORAGE_SERVER_TEST_VENV_BIN;
  if (!binDir) {
    const script = path.join(__dirname, 'venv.sh');
    binDir = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  }
  return binDir;
}
