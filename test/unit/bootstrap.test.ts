import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Aws, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ts from 'typescript';
import {
  BOOTSTRAP_PATHS,
  BootstrapConfig,
  bootstrapScript,
  compactScript,
  renderBootstrapEnv,
  renderBootstrapUnit,
  renderUserData,
} from '../../lib/bootstrap';
import { venvBin } from '../support/venv';

const SCRIPTS_DIR = path.join(__dirname, '..', '..', 'lib', 'scripts');
const SIGNAL = { stackName: 'my-stack', logicalId: 'StorageReady1A2B', region: 'eu-west-1' };

const instanceStore: BootstrapConfig = {
  backend: 'instance-store',
  ebsVolumes: [],
  instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
  exportPath: '/export/data',
  clientCidrs: ['10.0.0.0/16'],
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  stripeSizeKiB: 256,
  volumeWaitSeconds: 600,
};
const ebs = (volumes: number): BootstrapConfig => ({
  ...instanceStore,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: Array.from({ length: volumes }, (_, i) => ({
    volumeId: `vol-0${'123456789abcdef0'.slice(i)}${'0'.repeat(i)}`,
    device: `/dev/sd${String.fromCharCode(102 + i)}`,
  })),
});

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'bootstrap-test-'));
}

function bash(
  script: string,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function shellcheck(args: string[]): { status: number | null; output: string } {
  const r = spawnSync(path.join(venvBin(), 'shellcheck'), args, { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('renderBootstrapEnv', () => {
  test('every value comes back exactly when the script sources the file', () => {
    // GIVEN
    const dir = tmpDir();
    const file = path.join(dir, 'bootstrap.env');
    fs.writeFileSync(
      file,
      renderBootstrapEnv({ ...ebs(2), clientCidrs: ['10.0.0.0/16', '192.168.1.0/24'], nfsThreads: 64 }),
    );
    // WHEN
    const r =
      bash(`set -u; . '${file}'; printf '%s|' "$STORAGE_BACKEND" "$STORAGE_EBS_VOLUMES" "$STORAGE_INSTANCE_STORE_DEVICES" \
      "$STORAGE_EXPORT_PATH" "$STORAGE_CLIENT_CIDRS" "$STORAGE_NFS_THREADS" "$STORAGE_EXPORT_MODE" "$STORAGE_NFS_VERSIONS" \
      "$STORAGE_STRIPE_KIB" "$STORAGE_VOLUME_WAIT_SECONDS"`);
    // THEN
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'ebs|vol-0123456789abcdef0:/dev/sdf vol-023456789abcdef00:/dev/sdg||/export/data|' +
        '10.0.0.0/16 192.168.1.0/24|64|sync|4.1 4.2|256|600|',
    );
  });

  test('threads are left to the host when not given', () => {
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_NFS_THREADS=''\n");
  });

  test('CDK token strings pass through whole, single-quoted', () => {
    const env = renderBootstrapEnv({
      ...ebs(1),
      ebsVolumes: [{ volumeId: '${Token[TOKEN.123]}', device: '/dev/sdf' }],
      clientCidrs: ['${Token[TOKEN.456]}'],
    });
    expect(env).toContain("STORAGE_EBS_VOLUMES='${Token[TOKEN.123]}:/dev/sdf'");
    expect(env).toContain("STORAGE_CLIENT_CIDRS='${Token[TOKEN.456]}'");
  });

  test.each<[string, Partial<BootstrapConfig>, RegExp]>([
    [
      'an unknown backend',
      { backend: 'nfs' as BootstrapConfig['backend'] },
      /backend "nfs".*'ebs' or 'instance-store'/,
    ],
    [
      'EBS without volumes',
      { backend: 'ebs', instanceStoreDevices: [] },
      /ebsVolumes \[\].*at least one volume/,
    ],
    [
      'instance store without devices',
      { instanceStoreDevices: [] },
      /instanceStoreDevices \[\].*at least one device/,
    ],
    [
      'EBS volumes on instance store',
      { ebsVolumes: ebs(1).ebsVolumes },
      /ebsVolumes .*must be empty for instance store/,
    ],
    [
      'a malformed volume id',
      { ...ebs(1), ebsVolumes: [{ volumeId: 'vol-xyz', device: '/dev/sdf' }] },
      /volumeId "vol-xyz"/,
    ],
    [
      'a device that is not a mapping name',
      { instanceStoreDevices: ['/dev/nvme1n1'] },
      /instanceStoreDevices "\/dev\/nvme1n1"/,
    ],
    ['a device twice', { instanceStoreDevices: ['/dev/sdb', '/dev/sdb'] }, /devices .*only once/],
    ['a relative export path', { exportPath: 'export' }, /exportPath "export"/],
    ['the root as export path', { exportPath: '/' }, /exportPath "\/"/],
    ['an export path with ..', { exportPath: '/export/../etc' }, /exportPath "\/export\/..\/etc"/],
    ['an export path with a space', { exportPath: '/export/my data' }, /exportPath/],
    ['no client CIDR', { clientCidrs: [] }, /clientCidrs \[\].*at least one/],
    ['everyone as client', { clientCidrs: ['*'] }, /clientCidrs "\*".*never '\*'/],
    ['a host name as client', { clientCidrs: ['login1'] }, /clientCidrs "login1"/],
    ['zero threads', { nfsThreads: 0 }, /nfsThreads 0.*1 to 4096/],
    ['fractional threads', { nfsThreads: 2.5 }, /nfsThreads 2.5/],
    ['an unknown export mode', { exportMode: 'fast' as BootstrapConfig['exportMode'] }, /exportMode "fast"/],
    ['no NFS version', { nfsVersions: [] }, /nfsVersions \[\]/],
    ['NFS version 2', { nfsVersions: ['2'] }, /nfsVersions \["2"\].*3, 4.0, 4.1, 4.2/],
    ['a stripe that is not a power of two', { stripeSizeKiB: 384 }, /stripeSizeKiB 384.*power of two/],
    ['a negative volume wait', { volumeWaitSeconds: -1 }, /volumeWaitSeconds -1/],
  ])('rejects %s with a message naming the field and value', (_name, override, message) => {
    expect(() => renderBootstrapEnv({ ...instanceStore, ...override })).toThrow(message);
  });
});

describe('bootstrapScript', () => {
  test('is lib/scripts/storage-bootstrap.sh', () => {
    expect(bootstrapScript()).toBe(fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-bootstrap.sh'), 'utf8'));
  });

  // The module finds the script beside itself (lib/scripts) or, compiled into dist/lib, in the source tree.
  test.each([
    ['lib/bootstrap.js next to lib/scripts', 'lib', 'lib/scripts'],
    ['dist/lib/bootstrap.js in a tree with lib/scripts', 'dist/lib', 'lib/scripts'],
  ])('is found from a compiled %s', (_name, moduleDir, scriptsDir) => {
    // GIVEN a compiled copy of the module in a fresh tree
    const root = tmpDir();
    fs.mkdirSync(path.join(root, moduleDir), { recursive: true });
    fs.mkdirSync(path.join(root, scriptsDir), { recursive: true });
    for (const module of ['bootstrap', 'script-file']) {
      const js = ts.transpileModule(
        fs.readFileSync(path.join(__dirname, '..', '..', 'lib', `${module}.ts`), 'utf8'),
        { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } },
      ).outputText;
      fs.writeFileSync(path.join(root, moduleDir, `${module}.js`), js);
    }
    fs.writeFileSync(path.join(root, scriptsDir, 'storage-bootstrap.sh'), '#!/bin/bash\necho compiled\n');
    // WHEN
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `process.stdout.write(require(${JSON.stringify(path.join(root, moduleDir, 'bootstrap.js'))}).bootstrapScript())`,
      ],
      { encoding: 'utf8' },
    );
    // THEN
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('#!/bin/bash\necho compiled\n');
  });

  test('user data carries it without comment-only lines, still valid and shellcheck-clean', () => {
    const compact = compactScript(bootstrapScript());
    expect(compact.split('\n')[0]).toBe('#!/usr/bin/env bash');
    expect(
      compact
        .split('\n')
        .slice(2)
        .filter((l) => /^\s*#/.test(l)),
    ).toEqual(['  # shellcheck source=/dev/null']);
    expect(compact.length).toBeLessThan(bootstrapScript().length);
    const file = path.join(tmpDir(), 'compact.sh');
    fs.writeFileSync(file, compact);
    expect(bash(`bash -n '${file}'`).stderr).toBe('');
    expect(shellcheck([file])).toEqual({ status: 0, output: '' });
  });
});

describe('renderBootstrapUnit', () => {
  test('a oneshot unit that stays active, logs to the journal and runs at every boot', () => {
    const unit = renderBootstrapUnit(instanceStore);
    expect(unit).toContain(`ExecStart=${BOOTSTRAP_PATHS.script}\n`);
    expect(unit).toContain('Type=oneshot\nRemainAfterExit=yes\n');
    expect(unit).toContain('StandardOutput=journal+console\n');
    expect(unit).toContain('[Install]\nWantedBy=multi-user.target\n');
    expect(unit).toContain('After=network-online.target local-fs.target\n');
    // Bounded, and longer than the wait for volumes.
    expect(unit).toContain('TimeoutStartSec=1800\n');
  });
});

/**
 * Runs rendered user data for real in a scratch root: the absolute paths are moved under it, and PATH
 * serves a recording systemctl (exit code SYSTEMCTL_START_RC for `start`) and no dnf.
 */
function runUserData(
  lines: string[],
  opts: { startRc?: number; reason?: string; breakScriptPath?: boolean } = {},
) {
  const root = tmpDir();
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    [
      '#!/bin/bash',
      `echo "$*" >>'${root}/systemctl.log'`,
      `if [ "$1" = start ] && [ -n "$REASON" ]; then mkdir -p '${root}/run/storage-server' && echo "$REASON" >'${root}${BOOTSTRAP_PATHS.failureReason}'; fi`,
      'if [ "$1" = start ]; then exit "${SYSTEMCTL_START_RC:-0}"; fi',
    ].join('\n'),
    { mode: 0o755 },
  );
  fs.mkdirSync(path.join(root, 'opt/aws/bin'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'opt/aws/bin/cfn-signal'),
    `#!/bin/bash\nprintf '%s\\n' "$@" >'${root}/signal.log'\n`,
    { mode: 0o755 },
  );
  if (opts.breakScriptPath) fs.mkdirSync(path.join(root, BOOTSTRAP_PATHS.script), { recursive: true });
  // Move the user data's own paths under the scratch root; the here-document bodies stay byte for byte.
  let inBody = false;
  const moved = lines.map((line) => {
    if (inBody) {
      inBody = line !== 'STORAGE_BOOTSTRAP_EOF';
      return line;
    }
    inBody = line.endsWith("<<'STORAGE_BOOTSTRAP_EOF'");
    return line.replace(
      /(?<![\w.-])(\/(usr\/local\/sbin|etc\/storage-server|etc\/systemd\/system|run\/storage-server|opt\/aws\/bin))/g,
      `${root}$1`,
    );
  });
  const r = bash(ec2UserData(moved), {
    PATH: `${bin}:/usr/bin:/bin`,
    SYSTEMCTL_START_RC: String(opts.startRc ?? 0),
    REASON: opts.reason ?? '',
  });
  const read = (f: string): string =>
    fs.existsSync(path.join(root, f)) ? fs.readFileSync(path.join(root, f), 'utf8') : '';
  return {
    ...r,
    file: (p: string) => read(p),
    systemctl: read('systemctl.log').trim().split('\n'),
    signal: read('signal.log').trim().split('\n'),
  };
}

function ec2UserData(lines: string[]): string {
  const userData = ec2.UserData.forLinux();
  userData.addCommands(...lines);
  return userData.render();
}

describe('renderUserData', () => {
  test('installs the script, its settings and the unit, enables it, and runs it once through systemd', () => {
    const run = runUserData(renderUserData(instanceStore));
    expect(run.status).toBe(0);
    expect(run.file(BOOTSTRAP_PATHS.script)).toBe(`${compactScript(bootstrapScript()).replace(/\n$/, '')}\n`);
    expect(run.file(BOOTSTRAP_PATHS.env)).toBe(renderBootstrapEnv(instanceStore));
    expect(run.file(BOOTSTRAP_PATHS.unit)).toBe(renderBootstrapUnit(instanceStore));
    expect(run.systemctl).toEqual([
      'daemon-reload',
      'enable storage-bootstrap.service',
      'start storage-bootstrap.service',
    ]);
    expect(run.signal).toEqual(['']);
  });

  test('signals CloudFormation success when the export is live', () => {
    const run = runUserData(renderUserData(instanceStore, SIGNAL));
    expect(run.signal).toEqual([
      '-e',
      '0',
      '--reason',
      'NFS export is live',
      '--stack',
      'my-stack',
      '--resource',
      'StorageReady1A2B',
      '--region',
      'eu-west-1',
    ]);
  });

  test('signals failure with the reason the bootstrap left', () => {
    const run = runUserData(renderUserData(instanceStore, SIGNAL), {
      startRc: 1,
      reason: 'refusing data disks with content this bootstrap did not make: /dev/xvdc holds xfs',
    });
    expect(run.signal.slice(0, 4)).toEqual([
      '-e',
      '1',
      '--reason',
      'storage bootstrap failed (exit 1): refusing data disks with content this bootstrap did not make: /dev/xvdc holds xfs',
    ]);
    expect(run.stderr).toContain('/dev/xvdc holds xfs');
  });

  test('signals failure even when installing the bootstrap fails', () => {
    const run = runUserData(renderUserData(instanceStore, SIGNAL), { breakScriptPath: true });
    expect(run.systemctl).toEqual(['']);
    expect(run.signal[0]).toBe('-e');
    expect(run.signal[1]).not.toBe('0');
    expect(run.signal[3]).toMatch(
      /^storage bootstrap failed \(exit \d+\): see journalctl -u storage-bootstrap$/,
    );
  });

  test('quotes the signal target for the shell', () => {
    const run = runUserData(renderUserData(instanceStore, { ...SIGNAL, stackName: "it's $(reboot)" }));
    expect(run.signal.slice(4, 6)).toEqual(['--stack', "it's $(reboot)"]);
  });

  test('keeps CDK tokens whole, so CloudFormation substitutes the real values', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Tokens');
    const volume = new ec2.CfnVolume(stack, 'Data', {
      availabilityZone: 'us-east-1a',
      size: 500,
      volumeType: 'st1',
    });
    const userData = ec2.UserData.forLinux();
    // WHEN
    userData.addCommands(
      ...renderUserData(
        { ...ebs(1), ebsVolumes: [{ volumeId: volume.ref, device: '/dev/sdf' }] },
        { stackName: Aws.STACK_NAME, logicalId: 'Ready', region: Aws.REGION },
      ),
    );
    // THEN
    const resolved = JSON.stringify(stack.resolve(userData.render()));
    expect(resolved).toContain(`STORAGE_EBS_VOLUMES='",{"Ref":"Data"},":/dev/sdf'`);
    expect(resolved).toContain(`--stack '",{"Ref":"AWS::StackName"},"'`);
    expect(resolved).toContain(`--region '",{"Ref":"AWS::Region"},"'`);
  });

  test('is valid bash and shellcheck-clean', () => {
    const file = path.join(tmpDir(), 'user-data.sh');
    fs.writeFileSync(file, ec2UserData(renderUserData(ebs(4), SIGNAL)));
    expect(bash(`bash -n '${file}'`).stderr).toBe('');
    expect(shellcheck(['-s', 'bash', file])).toEqual({ status: 0, output: '' });
  });

  test('stays well under the 16 KB user-data limit with 4 volumes (leaving room for other commands)', () => {
    const bytes = Buffer.byteLength(ec2UserData(renderUserData(ebs(4), SIGNAL)));
    expect(bytes).toBeLessThan(13 * 1024);
  });
});

test.each(fs.readdirSync(SCRIPTS_DIR).filter((f) => f.endsWith('.sh')))(
  'shellcheck gate: lib/scripts/%s is clean',
  (file) => {
    expect(shellcheck([path.join(SCRIPTS_DIR, file)])).toEqual({ status: 0, output: '' });
  },
);
