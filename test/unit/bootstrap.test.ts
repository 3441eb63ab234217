import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ts from 'typescript';
import {
  BOOTSTRAP_PATHS,
  BootstrapConfig,
  bootstrapScript,
  compactScript,
  renderBootstrapEnv,
  renderApplyCommand,
  renderApplyDocument,
  renderBootstrapUnit,
  renderLoaderUserData,
} from '../../lib/bootstrap';
import { partsOf, wholeScript } from '../../lib/script-parts';
import { bootstrapScriptFile } from '../support/apply';
import { venvBin } from '../support/venv';

const SCRIPTS_DIR = path.join(__dirname, '..', '..', 'lib', 'scripts');
/** The parts of the bootstrap (lib/scripts/storage-bootstrap-*.sh), which the entry storage-bootstrap.sh includes. */
const BOOTSTRAP_PARTS = fs.readdirSync(SCRIPTS_DIR).filter((f) => /^storage-bootstrap-.+\.sh$/.test(f)).sort();

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
  identity: 'my-stack/storage1',
  restored: false,
};
const ebs = (volumes: number): BootstrapConfig => ({
  ...instanceStore,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: Array.from({ length: volumes }, (_, i) => ({
    volumeId: `vol-0${'123456789abcdef0'.slice(i)}${'0'.repeat(i)}`,
    device: `/dev/sd${String.fromCharCode(102 + i)}`,
    sizeGiB: 5120,
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

/**
 * Runs the bootstrap's own settings parser (read_settings and what it uses, cut from the script) on `file` and
 * prints every setting, `|`-separated.
 */
function readSettings(file: string, env: NodeJS.ProcessEnv = {}) {
  const script = bootstrapScriptFile();
  return bash(
    `set -u; eval "$(sed -n '/^SETTINGS_KEYS/p; /^die() {/,/^}/p; /^read_settings() {/,/^}/p' '${script}')"
    ENV_FILE='${file}' REASON_FILE='${path.dirname(file)}/reason'
    read_settings
    printf '%s|' "$STORAGE_BACKEND" "$STORAGE_EBS_VOLUMES" "$STORAGE_INSTANCE_STORE_DEVICES" \
      "$STORAGE_EXPORT_PATH" "$STORAGE_CLIENT_CIDRS" "$STORAGE_NFS_THREADS" "$STORAGE_EXPORT_MODE" "$STORAGE_NFS_VERSIONS" \
      "$STORAGE_STRIPE_KIB" "$STORAGE_VOLUME_WAIT_SECONDS" "$STORAGE_IDENTITY" "$STORAGE_RESTORED" \
      "\${STORAGE_NETWORK_INTERFACE:-}" "\${STORAGE_ENCRYPTION:-}"`,
    env,
  );
}

describe('renderBootstrapEnv', () => {
  test('every value comes back exactly through the script\'s own parser', () => {
    // GIVEN
    const file = path.join(tmpDir(), 'bootstrap.env');
    fs.writeFileSync(
      file,
      renderBootstrapEnv({
        ...ebs(2),
        clientCidrs: ['10.0.0.0/16', '192.168.1.0/24'],
        nfsThreads: 64,
        networkInterfaceId: 'eni-0123456789abcdef0',
      }),
    );
    // WHEN
    const r = readSettings(file);
    // THEN
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'ebs|vol-0123456789abcdef0:/dev/sdf:5120 vol-023456789abcdef00:/dev/sdg:5120||/export/data|' +
        '10.0.0.0/16 192.168.1.0/24|64|sync|4.1 4.2|256|600|my-stack/storage1|false|eni-0123456789abcdef0|none|',
    );
  });

  test('metrics: the names are settings; the apply writes the agent configuration beside them, only when metrics are on', () => {
    const metrics = { clusterName: 'hpc1', serverName: 'storage1', agentConfig: '{"agent": {}}' };
    const env = renderBootstrapEnv({ ...instanceStore, metrics });
    expect(env).toContain("STORAGE_METRICS_CLUSTER='hpc1'\nSTORAGE_METRICS_SERVER='storage1'");
    const apply = renderApplyCommand({ ...instanceStore, metrics });
    expect(apply).toContain(`cat >"$tmp" <<'STORAGE_BOOTSTRAP_EOF'\n{"agent": {}}\nSTORAGE_BOOTSTRAP_EOF\nchmod 0644 "$tmp" && mv -f "$tmp" ${BOOTSTRAP_PATHS.agentConfig}`);
    expect(renderApplyCommand(instanceStore)).not.toContain(`mv -f "$tmp" ${BOOTSTRAP_PATHS.agentConfig}`);
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_METRICS_CLUSTER=''");
    // The script reads the configuration where the apply writes it, and runs storage-metrics where the apply puts it.
    const script = bootstrapScript();
    expect(script).toContain(`config=${BOOTSTRAP_PATHS.agentConfig} `);
    expect(script).toContain(`ExecStart=${BOOTSTRAP_PATHS.metrics} --cluster`);
    expect(() => renderBootstrapEnv({ ...instanceStore, metrics: { ...metrics, clusterName: 'a|b' } }))
      .toThrow(/bootstrap metrics.clusterName "a\|b" is invalid: must be 1-64 characters/);
  });

  test('client CIDRs: the server refuses at boot what client-mount.sh refuses, /0 above all (issue 39, item 1)', () => {
    const script = bootstrapScriptFile();
    const ok = (cidr: string) => bash(`eval "$(sed -n '/^client_cidr_ok() {/,/^}/p' '${script}')"; client_cidr_ok '${cidr}'`).status;
    for (const good of ['10.0.0.0/16', '192.168.1.0/24', '255.255.255.255/32', '10.0.0.0/1', 'fd00::/8', '2001:DB8::/32', '::1/128']) {
      expect([good, ok(good)]).toEqual([good, 0]);
    }
    for (const bad of ['0.0.0.0/0', '::/0', '10.0.0.0/33', '010.0.0.0/16', '10.0.0/16', '10.0.0.0', '256.0.0.0/8', 'fd00::/129', 'fd00::/08', 'x:y::/8', '']) {
      expect([bad, ok(bad)]).toEqual([bad, 1]);
    }
  });

  test('instance store with luks2 comes back through the parser; EBS is always none', () => {
    const file = path.join(tmpDir(), 'bootstrap.env');
    fs.writeFileSync(file, renderBootstrapEnv({ ...instanceStore, encryption: 'luks2' }));
    expect(readSettings(file).stdout).toMatch(/\|luks2\|$/);
    expect(renderBootstrapEnv(ebs(1))).toContain("STORAGE_ENCRYPTION='none'");
  });

  test.each([
    ['a command substitution', "STORAGE_BACKEND=$(touch /tmp/owned)", /line 1 is not KEY='value'/],
    ['a value with a quote', "STORAGE_EXPORT_PATH='/a'b'", /line 1 is not KEY='value'/],
    ['an unknown key', "PATH='/tmp'", /line 1: unknown setting PATH/],
    ['an unquoted value', 'STORAGE_BACKEND=ebs', /line 1 is not KEY='value'/],
  ])('the parser refuses %s and runs nothing of it', (_name, line, message) => {
    // GIVEN
    const dir = tmpDir();
    const file = path.join(dir, 'bootstrap.env');
    fs.writeFileSync(file, `# a comment\n\n${line}\n`.replace(/^# a comment\n\n/, ''));
    // WHEN
    const r = readSettings(file, { HOME: dir });
    // THEN
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync('/tmp/owned')).toBe(false);
  });

  test('threads are left to the host when not given', () => {
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_NFS_THREADS=''\n");
  });

  test('CDK token strings pass through whole, single-quoted', () => {
    const env = renderBootstrapEnv({
      ...ebs(1),
      ebsVolumes: [{ volumeId: '${Token[TOKEN.123]}', device: '/dev/sdf', sizeGiB: 125 }],
      clientCidrs: ['${Token[TOKEN.456]}'],
    });
    expect(env).toContain("STORAGE_EBS_VOLUMES='${Token[TOKEN.123]}:/dev/sdf:125'");
    expect(env).toContain("STORAGE_CLIENT_CIDRS='${Token[TOKEN.456]}'");
  });

  test.each<[string, Partial<BootstrapConfig>, RegExp]>([
    [
      'luks2 on EBS',
      { ...ebs(1), encryption: 'luks2' },
      /encryption "luks2" is invalid: must be 'none' for EBS/,
    ],
    [
      'an unknown encryption',
      { encryption: 'aes' as BootstrapConfig['encryption'] },
      /encryption "aes" is invalid: must be 'none' or 'luks2'/,
    ],
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
      { ...ebs(1), ebsVolumes: [{ volumeId: 'vol-xyz', device: '/dev/sdf', sizeGiB: 125 }] },
      /volumeId "vol-xyz"/,
    ],
    [
      'a fractional volume size',
      { ...ebs(1), ebsVolumes: [{ volumeId: 'vol-0123456789abcdef0', device: '/dev/sdf', sizeGiB: 1.5 }] },
      /sizeGiB 1.5.*whole number of GiB/,
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
    ['an identity with a space', { identity: 'my stack/x' }, /identity "my stack\/x"/],
    ['an identity with a quote', { identity: "a'b" }, /identity "a'b"/],
    ['an interface id that is not one', { networkInterfaceId: 'vol-0123456789abcdef0' }, /networkInterfaceId "vol-0123456789abcdef0".*eni-0123456789abcdef0/],
  ])('rejects %s with a message naming the field and value', (_name, override, message) => {
    expect(() => renderBootstrapEnv({ ...instanceStore, ...override })).toThrow(message);
  });
});

describe('bootstrapScript', () => {
  test('is lib/scripts/storage-bootstrap.sh with the code of each part it reads in place of the line that reads it', () => {
    const entry = fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-bootstrap.sh'), 'utf8');
    const code = (part: string): string =>
      fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8').split('\n\n').slice(1).join('\n\n').replace(/\n$/, '');
    const sourced = /^\. "\$\(dirname -- "\$\{BASH_SOURCE\[0\]\}"\)\/(\S+)"$/gm;
    expect(bootstrapScript()).toBe(entry.replace(sourced, (_line, part: string) => code(part)));
    expect(partsOf(bootstrapScript())).toEqual([]);
    expect(bootstrapScript()).toBe(wholeScript('storage-bootstrap.sh', entry, (part) => fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8')));
  });

  test('reads every part, once: a part it does not read would be neither delivered nor checked as delivered', () => {
    const entry = fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-bootstrap.sh'), 'utf8');
    expect([...partsOf(entry)].sort()).toEqual(BOOTSTRAP_PARTS);
    expect(BOOTSTRAP_PARTS.length).toBeGreaterThan(1);
  });

  // The module finds the script beside itself (lib/scripts) or, compiled into dist/lib, in the source tree.
  test.each([
    ['lib/bootstrap.js next to lib/scripts', 'lib', 'lib/scripts'],
    ['dist/lib/bootstrap.js in a tree with lib/scripts', 'dist/lib', 'lib/scripts'],
  ])('is found from a compiled %s', (_name, moduleDir, scriptsDir) => {
    // GIVEN a compiled copy of the module in a fresh tree
    const root = tmpDir();
    fs.mkdirSync(path.join(root, moduleDir, 'bootstrap'), { recursive: true });
    fs.mkdirSync(path.join(root, scriptsDir), { recursive: true });
    const modules = fs.readdirSync(path.join(__dirname, '..', '..', 'lib', 'bootstrap')).map((f) => `bootstrap/${f.replace(/\.ts$/, '')}`);
    for (const module of [...modules, 'bootstrap', 'script-file', 'script-parts']) {
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

  test('the apply document carries it without comment-only lines, still valid and shellcheck-clean', () => {
    const compact = compactScript(bootstrapScript());
    expect(compact.split('\n')[0]).toBe('#!/usr/bin/env bash');
    expect(
      compact
        .split('\n')
        .slice(2)
        .filter((l) => /^\s*#/.test(l)),
    ).toEqual([]);
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
    // Bounded, and longer than taking the volumes over plus the wait for them to show (2 x 600 s here).
    expect(unit).toContain('TimeoutStartSec=2400\n');
  });
});

/**
 * Runs the apply step for real, with /bin/sh, in a scratch root: its absolute paths are moved under it (the
 * here-document bodies stay byte for byte), and PATH serves a recording systemctl (`restart` exits with
 * RESTART_RC; `show` says ACTIVE_STATES one by one, then `active`) and a journalctl that prints one line.
 */
function runApply(command: string, opts: { restartRc?: number; reason?: string; activeStates?: string[] } = {}) {
  const root = tmpDir();
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    [
      '#!/bin/bash',
      `echo "$*" >>'${root}/systemctl.log'`,
      'if [ "$1" = show ]; then',
      `  n=$(grep -c '^show' '${root}/systemctl.log'); set -- $ACTIVE_STATES; eval "s=\\\${$n:-active}"; echo "$s"; exit 0`,
      'fi',
      `if [ "$1" = restart ] && [ -n "$REASON" ]; then mkdir -p '${root}/run/storage-server' && echo "$REASON" >'${root}${BOOTSTRAP_PATHS.failureReason}'; fi`,
      'if [ "$1" = restart ]; then exit "${RESTART_RC:-0}"; fi',
    ].join('\n'),
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, 'journalctl'), '#!/bin/sh\necho "storage-bootstrap: export live (journal)"\n', {
    mode: 0o755,
  });
  let inBody = false;
  const moved = command.split('\n').map((line) => {
    if (inBody) {
      inBody = line !== 'STORAGE_BOOTSTRAP_EOF';
      return line;
    }
    inBody = line.endsWith("<<'STORAGE_BOOTSTRAP_EOF'");
    return line.replace(
      /(?<![\w.-])(\/(usr\/local\/sbin|etc\/storage-server|etc\/systemd\/system|run\/storage-server))/g,
      `${root}$1`,
    );
  });
  const file = path.join(root, 'apply.sh');
  fs.writeFileSync(file, moved.join('\n'));
  const r = spawnSync('sh', [file], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${bin}:/usr/bin:/bin`,
      RESTART_RC: String(opts.restartRc ?? 0),
      REASON: opts.reason ?? '',
      ACTIVE_STATES: (opts.activeStates ?? []).join(' '),
    },
  });
  const read = (f: string): string =>
    fs.existsSync(path.join(root, f)) ? fs.readFileSync(path.join(root, f), 'utf8') : '';
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    file: (p: string) => read(p),
    mode: (p: string) => fs.statSync(path.join(root, p)).mode & 0o777,
    systemctl: read('systemctl.log').trim().split('\n'),
  };
}

function ec2UserData(lines: string[]): string {
  const userData = ec2.UserData.forLinux();
  userData.addCommands(...lines);
  return userData.render();
}

/**
 * Runs the bootstrap's own attach_own (cut from the script into a file beside a stand-in storage-attach, which
 * records its arguments) with the given settings. `imds`: a stand-in curl answers IMDSv2 as EC2 would.
 */
function runAttachOwn(settings: Record<string, string>, opts: { imds: boolean; attachRc?: number; interfaceHere?: boolean }) {
  const dir = tmpDir();
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const curl = opts.imds
    ? ['#!/bin/sh', 'case "$*" in', '  *api/token*) echo TOKEN ;;', '  *instance-id*) echo i-0123456789abcdef0 ;;',
      '  *placement/region*) echo eu-west-1 ;;',
      // The instance's own interface, and (interfaceHere) the server's stable one as its second.
      `  *0e:00:00:00:00:02/interface-id*) echo ${opts.interfaceHere ? 'eni-0cccccccccccccccc' : 'eni-0dddddddddddddddd'} ;;`,
      '  *interface-id*) echo eni-0eeeeeeeeeeeeeeee ;;', "  *interfaces/macs/*) printf '0e:00:00:00:00:01/\\n0e:00:00:00:00:02/\\n' ;;",
      '  *) exit 22 ;;', 'esac'].join('\n')
    : '#!/bin/sh\nexit 7';
  fs.writeFileSync(path.join(bin, 'curl'), `${curl}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'aws'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  fs.writeFileSync(
    path.join(dir, 'storage-attach'),
    `#!/bin/sh\necho "region=$AWS_DEFAULT_REGION $*" >'${dir}/args'\n` +
      `[ "${opts.attachRc ?? 0}" = 0 ] || { echo "storage-attach: ERROR: volume vol-1 is tagged for another server" >&2; exit 1; }\n`,
    { mode: 0o755 },
  );
  const script = bootstrapScriptFile();
  const part = path.join(dir, 'part.sh');
  const cut = spawnSync('sed', ['-n', '/^log() /p; /^die() {/,/^}/p; /^nvme_with() {/,/^}/p; /^by_mapping() {/,/^}/p; /^volume_device() {/,/^}/p; /^attached_here() {/,/^}/p; /^attach_own() {/,/^}/p', script], { encoding: 'utf8' });
  fs.writeFileSync(part, cut.stdout);
  const vars = Object.entries({ REASON_FILE: path.join(dir, 'reason'), ...settings })
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  const r = bash(`set -euo pipefail; ${vars}; . '${part}'; attach_own`, { PATH: `${bin}:/usr/bin:/bin`, AWS_DEFAULT_REGION: '' });
  const read = (f: string): string => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');
  return { ...r, args: read('args').trim(), reason: read('reason').trim() };
}

describe('attach_own (the bootstrap takes over its volumes and interface)', () => {
  const ebs = {
    STORAGE_BACKEND: 'ebs',
    STORAGE_EBS_VOLUMES: 'vol-0aaaaaaaaaaaaaaaa:/dev/sdf:5120 vol-0bbbbbbbbbbbbbbbb:/dev/sdg:5120',
    STORAGE_NETWORK_INTERFACE: 'eni-0cccccccccccccccc',
    STORAGE_IDENTITY: 'StorageServer-hpc1-storage1/storage1',
    STORAGE_VOLUME_WAIT_SECONDS: '900',
  };

  test('on EC2: storage-attach with this instance, the identity, the wait, the volumes in stripe order, the interface', () => {
    const r = runAttachOwn(ebs, { imds: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.args).toBe(
      'region=eu-west-1 --instance i-0123456789abcdef0 --identity StorageServer-hpc1-storage1/storage1 --wait 900 ' +
        'vol-0aaaaaaaaaaaaaaaa:/dev/sdf vol-0bbbbbbbbbbbbbbbb:/dev/sdg --interface eni-0cccccccccccccccc',
    );
  });

  test('instance store: only the interface', () => {
    const r = runAttachOwn({ ...ebs, STORAGE_BACKEND: 'instance-store', STORAGE_EBS_VOLUMES: '' }, { imds: true });
    expect(r.status).toBe(0);
    expect(r.args).toBe('region=eu-west-1 --instance i-0123456789abcdef0 --identity StorageServer-hpc1-storage1/storage1 --wait 900 --interface eni-0cccccccccccccccc');
  });

  test('without instance metadata (not on EC2, the VM tests): says so and attaches nothing', () => {
    const r = runAttachOwn(ebs, { imds: false });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('storage-bootstrap: no instance metadata (IMDSv2), curl or AWS CLI: not attaching the data volumes and interface from here');
    expect(r.args).toBe('');
  });

  test('a reboot needs no EC2 API: with the interface already this instance\'s (and no volumes), storage-attach is not run', () => {
    const r = runAttachOwn({ ...ebs, STORAGE_BACKEND: 'instance-store', STORAGE_EBS_VOLUMES: '' }, { imds: true, interfaceHere: true });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('storage-bootstrap: the data volumes and the interface are attached to this instance already');
    expect(r.args).toBe('');
  });

  test('the interface attached here but a volume missing: storage-attach runs', () => {
    const r = runAttachOwn(ebs, { imds: true, interfaceHere: true });
    expect(r.status).toBe(0);
    expect(r.args).toContain('--interface eni-0cccccccccccccccc');
  });

  test("a refusal by storage-attach fails the bootstrap with storage-attach's reason", () => {
    const r = runAttachOwn(ebs, { imds: true, attachRc: 1 });
    expect(r.status).toBe(1);
    expect(r.reason).toBe('volume vol-1 is tagged for another server');
  });
});

/** Cuts the named functions (and log/die) out of the bootstrap into a file to source. */
function bootstrapPart(dir: string, fns: string[]): string {
  const script = bootstrapScriptFile();
  const expr = ['/^log() /p', '/^die() {/,/^}/p', ...fns.map((f) => `/^${f}() {/,/^}/p`)].join('; ');
  const part = path.join(dir, 'part.sh');
  fs.writeFileSync(part, spawnSync('sed', ['-n', expr, script], { encoding: 'utf8' }).stdout);
  return part;
}

describe('NFSv4 state that outlives the instance', () => {
  const scopeOf = (identity: string): string => {
    const dir = tmpDir();
    const script = bootstrapScriptFile();
    // load_config's two scope lines, as they stand in the script.
    const lines = fs.readFileSync(script, 'utf8').split('\n').filter((l) => /^\s+(SCOPE=|\(\(\$\{#SCOPE\})/.test(l));
    expect(lines).toHaveLength(2);
    fs.writeFileSync(path.join(dir, 'scope.sh'), `${lines.join('\n')}\nprintf '%s' "$SCOPE"\n`);
    return bash(`STORAGE_IDENTITY='${identity}'; . '${dir}/scope.sh'`).stdout;
  };

  test('the server scope is the identity, the same on every instance of the server', () => {
    expect(scopeOf('StorageServer-hpc1-storage1/storage1')).toBe('StorageServer-hpc1-storage1/storage1');
  });

  test('a long identity is cut to 64 bytes (a host name) and stays distinct by its hash', () => {
    const long = `Stack-${'x'.repeat(80)}/storage1`;
    const scope = scopeOf(long);
    expect(scope).toHaveLength(64);
    expect(scope.startsWith(long.slice(0, 47))).toBe(true);
    expect(scope).not.toBe(scopeOf(`Stack-${'x'.repeat(80)}/storage2`));
  });

  test('the state directory is made root-only; a link or another owner\'s entry there is refused, untouched', () => {
    const dir = tmpDir();
    const part = bootstrapPart(dir, ['state_dirs']);
    const exp = path.join(dir, 'export');
    fs.mkdirSync(exp);
    const run = () =>
      bash(`set -euo pipefail; REASON_FILE='${dir}/reason' STATE_DIR='${exp}/.storage-server' CLD_DIR='${exp}/.storage-server/nfsdcld'; . '${part}'; state_dirs`);
    let r = run();
    expect(r.status).toBe(0);
    expect(fs.statSync(path.join(exp, '.storage-server')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(exp, '.storage-server', 'nfsdcld')).mode & 0o777).toBe(0o700);

    fs.rmSync(path.join(exp, '.storage-server'), { recursive: true });
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o755 });
    fs.symlinkSync(elsewhere, path.join(exp, '.storage-server'));
    r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${exp}/.storage-server is not a directory of root's (a link, a file, or another owner's)`);
    expect(fs.statSync(elsewhere).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(elsewhere)).toEqual([]);

    fs.rmSync(path.join(exp, '.storage-server'));
    fs.mkdirSync(path.join(exp, '.storage-server'), { mode: 0o755 });
    fs.chownSync(path.join(exp, '.storage-server'), 1000, 1000);
    r = run();
    expect(r.status).toBe(1);
    expect(fs.statSync(path.join(exp, '.storage-server')).mode & 0o777).toBe(0o755);
  });
});

describe('renderApplyCommand', () => {
  test('refuses extra commands that would end their here-document early, or hold SSM parameter syntax', () => {
    expect(() => renderApplyCommand(instanceStore, ['echo one', 'STORAGE_BOOTSTRAP_EOF'])).toThrow(
      "the extra commands must not contain a line 'STORAGE_BOOTSTRAP_EOF' (the heredoc delimiter)");
    expect(() => renderApplyCommand(instanceStore, ['echo {{ x }}'])).toThrow("the extra commands must not contain '{{' (SSM parameter syntax)");
  });

  test('installs the script, its settings and the unit, enables the unit, runs it through systemd, prints its log', () => {
    const run = runApply(renderApplyCommand(instanceStore));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.file(BOOTSTRAP_PATHS.script)).toBe(`${compactScript(bootstrapScript()).replace(/\n$/, '')}\n`);
    expect(run.mode(BOOTSTRAP_PATHS.script)).toBe(0o755);
    // storage-attach beside it, which the bootstrap runs to take over its volumes and interface.
    const attach = fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-attach.sh'), 'utf8');
    expect(run.file(BOOTSTRAP_PATHS.attach)).toBe(`${compactScript(attach).replace(/\n$/, '')}\n`);
    expect(path.dirname(BOOTSTRAP_PATHS.attach)).toBe(path.dirname(BOOTSTRAP_PATHS.script));
    expect(run.mode(BOOTSTRAP_PATHS.attach)).toBe(0o755);
    expect(run.file(BOOTSTRAP_PATHS.env)).toBe(renderBootstrapEnv(instanceStore));
    expect(run.file(BOOTSTRAP_PATHS.unit)).toBe(renderBootstrapUnit(instanceStore));
    expect(run.systemctl).toEqual([
      'daemon-reload',
      'enable storage-bootstrap.service',
      'show -p ActiveState --value storage-bootstrap.service',
      'restart storage-bootstrap.service',
    ]);
    expect(run.stdout).toContain('storage-bootstrap: export live (journal)');
  });

  test('waits for a run already under way (the boot\'s) before running again', () => {
    const run = runApply(renderApplyCommand(instanceStore), { activeStates: ['activating'] });
    expect(run.status).toBe(0);
    expect(run.systemctl.filter((c) => c.startsWith('show'))).toHaveLength(2);
    expect(run.systemctl[run.systemctl.length - 1]).toBe('restart storage-bootstrap.service');
  }, 20_000);

  test('fails with the bootstrap\'s status and its reason', () => {
    const run = runApply(renderApplyCommand(instanceStore), {
      restartRc: 1,
      reason: 'refusing data disks with content this bootstrap did not make: /dev/xvdc holds xfs',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'storage bootstrap failed (exit 1): refusing data disks with content this bootstrap did not make: /dev/xvdc holds xfs',
    );
  });

  test('runs the extra commands (bash) only after a successful bootstrap', () => {
    const extra = ['set -eu', 'arr=(clusterware joined)', 'echo "extra: ${arr[*]}"'];
    expect(runApply(renderApplyCommand(instanceStore, extra)).stdout).toContain('extra: clusterware joined');
    const failed = runApply(renderApplyCommand(instanceStore, extra), { restartRc: 3 });
    expect(failed.status).toBe(3);
    expect(failed.stdout).not.toContain('extra:');
  });

  test('is POSIX sh and shellcheck-clean', () => {
    const file = path.join(tmpDir(), 'apply.sh');
    fs.writeFileSync(file, renderApplyCommand(ebs(3)));
    expect(shellcheck(['-s', 'sh', file])).toEqual({ status: 0, output: '' });
  });

  test('keeps CDK tokens whole in the document, so CloudFormation substitutes the real volume ids', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Tokens');
    const volume = new ec2.CfnVolume(stack, 'Data', { availabilityZone: 'us-east-1a', size: 500, volumeType: 'st1' });
    // WHEN
    const content = renderApplyDocument({ ...ebs(1), ebsVolumes: [{ volumeId: volume.ref, device: '/dev/sdf', sizeGiB: 500 }] });
    // THEN
    expect(JSON.stringify(stack.resolve(content))).toContain(`STORAGE_EBS_VOLUMES='",{"Ref":"Data"},":/dev/sdf:500'`);
  });

  test('the document stays well under SSM\'s 64 KB with 3 volumes, and its step outlasts the unit', () => {
    const content = renderApplyDocument(ebs(3));
    expect(Buffer.byteLength(JSON.stringify(content))).toBeLessThan(48 * 1024);
    const step = (content.mainSteps as Array<{ inputs: { timeoutSeconds: string } }>)[0];
    expect(Number(step.inputs.timeoutSeconds)).toBeGreaterThan(600 + 1200);
  });
});

describe('renderLoaderUserData', () => {
  test('is the same whatever the settings: it takes none', () => {
    expect(renderLoaderUserData.length).toBe(0);
    expect(ec2UserData(renderLoaderUserData())).not.toMatch(/STORAGE_|10\.0\.0\.0|export\/data|vol-/);
  });

  test('enables the SSM agent that brings the bootstrap, and is shellcheck-clean', () => {
    const dir = tmpDir();
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'systemctl'), `#!/bin/sh\necho "$*" >>'${dir}/systemctl.log'\n`, { mode: 0o755 });
    const file = path.join(dir, 'user-data.sh');
    fs.writeFileSync(file, ec2UserData(renderLoaderUserData()));
    const r = spawnSync('bash', [file], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'systemctl.log'), 'utf8')).toContain('enable --now amazon-ssm-agent.service');
    expect(shellcheck(['-s', 'bash', file])).toEqual({ status: 0, output: '' });
  });
});

// Each part of the bootstrap is checked alone too (its header's directive names what other parts set or read); the
// entry, storage-bootstrap.sh, is checked as the server gets it: whole, its parts in place.
test.each(fs.readdirSync(SCRIPTS_DIR).filter((f) => f.endsWith('.sh')))(
  'shellcheck gate: lib/scripts/%s is clean',
  (file) => {
    const checked = file === 'storage-bootstrap.sh' ? bootstrapScriptFile() : path.join(SCRIPTS_DIR, file);
    expect(shellcheck([checked])).toEqual({ status: 0, output: '' });
  },
);

// The VM harness and its guest stages are shell too: linted here, on every npm test, not only when VMs run.
const E2E_DIR = path.join(__dirname, '..', 'e2e');
const e2eScripts = (dir: string): string[] =>
  fs.readdirSync(path.join(E2E_DIR, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.cache' ? [] : e2eScripts(rel);
    return e.name.endsWith('.sh') ? [rel] : [];
  });
test.each(e2eScripts('.'))('shellcheck gate: test/e2e/%s is clean', (file) => {
  // -x follows the `source` lines from the script's own directory, as the scripts' directives say.
  const r = spawnSync(path.join(venvBin(), 'shellcheck'), ['-x', path.basename(file)], {
    cwd: path.join(E2E_DIR, path.dirname(file)),
    encoding: 'utf8',
  });
  expect({ status: r.status, output: `${r.stdout}${r.stderr}` }).toEqual({ status: 0, output: '' });
});
