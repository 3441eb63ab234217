// The bootstrap tests' fixtures: its script parts, two configurations for instance store and EBS, a scratch directory,
// and bash and ShellCheck runners.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { BootstrapConfig } from '../../lib/bootstrap';
import { bootstrapScriptFile } from './apply';
import { cutShellFile } from './shell-cut';
import { venvBin } from './venv';

export const SCRIPTS_DIR = path.join(__dirname, '..', '..', 'lib', 'scripts');
/** The parts of the bootstrap, lib/scripts/storage-bootstrap-*.sh, which the entry storage-bootstrap.sh includes. */
export const BOOTSTRAP_PARTS = fs.readdirSync(SCRIPTS_DIR).filter((f) => /^storage-bootstrap-.+\.sh$/.test(f)).sort();

export const instanceStore: BootstrapConfig = {
  backend: 'instance-store',
  ebsVolumes: [],
  instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
  exportPath: '/export/data',
  clientCidrs: ['10.0.0.0/16'],
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  stripeSizeKiB: 256,
  volumeWaitSeconds: 600,
  identity: 'my-stack/storage1',
  restored: false,
};
export const ebs = (volumes: number): BootstrapConfig => ({
  ...instanceStore,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: Array.from({ length: volumes }, (_, i) => ({
    volumeId: `vol-0${'123456789abcdef0'.slice(i)}${'0'.repeat(i)}`,
    device: `/dev/sd${String.fromCharCode(102 + i)}`,
    sizeGiB: 5120,
  })),
});

export function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'bootstrap-test-'));
}

export function bash(
  script: string,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function shellcheck(args: string[]): { status: number | null; output: string } {
  const r = spawnSync(path.join(venvBin(), 'shellcheck'), args, { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/**
 * Runs the bootstrap's own settings parser, read_settings and what it uses, cut from the script, on `file`, and prints
 * every setting, `|`-separated.
 */
export function readSettings(file: string, env: NodeJS.ProcessEnv = {}) {
  const script = bootstrapScriptFile();
  return bash(
    `set -u; . '${cutShellFile(script, ['SETTINGS_KEYS', 'read_settings'])}'
    ENV_FILE='${file}' REASON_FILE='${path.dirname(file)}/reason'
    read_settings
    printf '%s|' "$STORAGE_BACKEND" "$STORAGE_EBS_VOLUMES" "$STORAGE_INSTANCE_STORE_DEVICES" \
      "$STORAGE_EXPORT_PATH" "$STORAGE_CLIENT_CIDRS" "$STORAGE_NFS_THREADS" "$STORAGE_EXPORT_MODE" "$STORAGE_NFS_VERSIONS" \
      "$STORAGE_STRIPE_KIB" "$STORAGE_VOLUME_WAIT_SECONDS" "$STORAGE_IDENTITY" "$STORAGE_RESTORED" \
      "\${STORAGE_NETWORK_INTERFACE:-}" "\${STORAGE_ENCRYPTION:-}"`,
    env,
  );
}
