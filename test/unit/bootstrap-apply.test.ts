// The bootstrap's apply step, its take-over of volumes and interface, NFSv4 state, the loader, and the e2e scripts' lint.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import {
  BOOTSTRAP_PATHS,
  bootstrapScript,
  compactScript,
  renderBootstrapEnv,
  renderApplyCommand,
  renderApplyDocument,
  renderBootstrapUnit,
  renderLoaderUserData,
} from '../../lib/bootstrap';
import { bootstrapScriptFile } from '../support/apply';
import { venvBin } from '../support/venv';
import { SCRIPTS_DIR, bash, ebs, instanceStore, shellcheck, tmpDir } from '../support/bootstrap-fixtures';

/**
 * Runs the apply step for real, with /bin/sh, in a scratch root: its absolute paths are moved under it, and the
 * here-document bodies stay byte for byte. PATH serves a recording systemctl and a journalctl that prints one line. The
 * systemctl's `restart` exits with RESTART_RC, and its `show` says ACTIVE_STATES one by one, then `active`.
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
 * Runs the bootstrap's own attach_own with the given settings. It is cut from the script into a file beside a stand-in
 * storage-attach, which records its arguments. With `imds`, a stand-in curl answers IMDSv2 as EC2 would.
 */
function runAttachOwn(settings: Record<string, string>, opts: { imds: boolean; attachRc?: number; interfaceHere?: boolean }) {
  const dir = tmpDir();
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const curl = opts.imds
    ? ['#!/bin/sh', 'case "$*" in', '  *api/token*) echo TOKEN ;;', '  *instance-id*) echo i-0123456789abcdef0 ;;',
      '  *placement/region*) echo eu-west-1 ;;',
      // The instance's own interface, and with interfaceHere the server's stable one as its second.
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

/** Cuts the named functions, and log and die, out of the bootstrap into a file to source. */
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

// Each part of the bootstrap is checked alone too; its header's directive names what other parts set or read. The
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
