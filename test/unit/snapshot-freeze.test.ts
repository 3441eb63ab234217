// The pre- and post-snapshot freeze: its SSM document and snapshot-freeze.sh itself.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { DLM_SCRIPT_COMMANDS, FREEZE_SCRIPT_NAME, loadFreezeScript, renderFreezeCommand, renderFreezeDocument } from '../../lib/snapshot-document';

const SCRIPT = path.join(__dirname, '..', '..', 'lib', 'scripts', FREEZE_SCRIPT_NAME);

describe('freeze document rendering', () => {
  const script = loadFreezeScript();

  test('loads the script next to the module or from lib/scripts of a compiled copy', () => {
    expect(script).toBe(fs.readFileSync(SCRIPT, 'utf8'));
    const compiled = path.join(__dirname, '..', '..', 'dist', 'lib');
    expect(loadFreezeScript(compiled)).toBe(script);
    expect(() => loadFreezeScript(os.tmpdir())).toThrow(/snapshot-freeze.sh not found; looked in: /);
  });

  test('the script holds nothing SSM would substitute and the command passes DLM parameters through', () => {
    expect(script).not.toContain('{{');
    const command = renderFreezeCommand({ script, mountPath: '/export/data', maxFreezeSeconds: 60 });
    expect(command.match(/\{\{ command \}\}/g)).toHaveLength(2);
    expect(command).toContain('{{ executionId }}');
    const doc = renderFreezeDocument({ script, mountPath: '/export/data', maxFreezeSeconds: 60 }) as {
      parameters: { command: { allowedValues: string[] }; executionId: { allowedPattern: string } };
    };
    expect(doc.parameters.command.allowedValues).toEqual([...DLM_SCRIPT_COMMANDS]);
    expect(doc.parameters.executionId.allowedPattern).toBe(
      '^(None|[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12})$',
    );
  });

  test.each([
    [{ script: 'echo {{ssm:x}}' }, /must not contain '\{\{'/],
    [
      { script: 'x\nSTORAGE_SERVER_SNAPSHOT_FREEZE_SH\ny' },
      /must not contain a line 'STORAGE_SERVER_SNAPSHOT_FREEZE_SH'/,
    ],
    [{ mountPath: "/a'b" }, /mountPath '\/a'b' must be an absolute path/],
    [{ maxFreezeSeconds: 0 }, /maxFreezeSeconds 0 must be a positive whole number/],
  ])('rejects %j', (override, message) => {
    expect(() =>
      renderFreezeCommand({ script, mountPath: '/export/data', maxFreezeSeconds: 60, ...override }),
    ).toThrow(message);
  });
});

/**
 * The freeze script run for real with bash, with stubs in front of fsfreeze, sync, systemd-run and systemctl, so the
 * host's file systems are never frozen, and of findmnt where a mounted XFS file system is simulated. The fsfreeze stub
 * keeps a frozen flag and answers like the kernel does: EBUSY when freezing a frozen file system, EINVAL when thawing
 * one that is not frozen.
 */
describe('snapshot-freeze.sh', () => {
  let dir: string;
  let safeBin: string;
  let mountBin: string;
  const MOUNT = '/srv/storage-data';

  const stub = (bin: string, name: string, body: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/bash\necho "${name} $*" >>"$STUB_DIR/calls"\n${body}\n`, {
      mode: 0o755,
    });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freeze-'));
    safeBin = path.join(dir, 'safe-bin');
    mountBin = path.join(dir, 'mount-bin');
    fs.mkdirSync(safeBin);
    fs.mkdirSync(mountBin);
    stub(
      safeBin,
      'fsfreeze',
      [
        'flag="$STUB_DIR/frozen"',
        'case $1 in',
        '  -f) [[ -n ${STUB_FREEZE_ERROR:-} ]] && { echo "fsfreeze: $2: freeze failed: $STUB_FREEZE_ERROR" >&2; exit 1; }',
        '      [[ -e $flag ]] && { echo "fsfreeze: $2: freeze failed: Device or resource busy" >&2; exit 1; }',
        '      touch "$flag" ;;',
        '  -u) [[ -n ${STUB_THAW_ERROR:-} ]] && { echo "fsfreeze: $2: unfreeze failed: $STUB_THAW_ERROR" >&2; exit 1; }',
        '      [[ -e $flag ]] || { echo "fsfreeze: $2: unfreeze failed: Invalid argument" >&2; exit 1; }',
        '      rm "$flag" ;;',
        'esac',
      ].join('\n'),
    );
    stub(safeBin, 'sync', '');
    stub(safeBin, 'systemd-run', 'exit "${STUB_SYSTEMD_RUN_EXIT:-0}"');
    stub(safeBin, 'systemctl', '');
    stub(
      mountBin,
      'findmnt',
      [
        'for ((i = 1; i <= $#; i++)); do [[ ${!i} == --mountpoint ]] && { j=$((i + 1)); mp=${!j}; }; done',
        `[[ $mp == "${MOUNT}" ]] && { echo "\${STUB_FSTYPE:-xfs}"; exit 0; }`,
        'exit 1',
      ].join('\n'),
    );
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the script; `mounted` puts the findmnt stub, an XFS file system at MOUNT, on the PATH. */
  function run(args: string[], { mounted = true, env = {} as Record<string, string> } = {}) {
    const bins = mounted ? [safeBin, mountBin] : [safeBin];
    const result = spawnSync('bash', [SCRIPT, ...args], {
      encoding: 'utf8',
      env: {
        PATH: [...bins, process.env.PATH].join(':'),
        STUB_DIR: dir,
        SNAPSHOT_FREEZE_STATE_DIR: path.join(dir, 'state'),
        SNAPSHOT_FREEZE_WATCHDOG: 'detached',
        ...env,
      },
    });
    return { status: result.status, out: result.stdout + result.stderr };
  }
  const calls = () =>
    fs.existsSync(path.join(dir, 'calls')) ? fs.readFileSync(path.join(dir, 'calls'), 'utf8') : '';
  const freezeCalls = () =>
    calls()
      .split('\n')
      .filter((l) => /^(fsfreeze|sync|systemd-run|systemctl) /.test(l));
  const frozen = () => fs.existsSync(path.join(dir, 'frozen'));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // Polls for what a watchdog does, so a test waits as long as the watchdog takes, up to `ms`.
  const within = async (ms: number, done: () => boolean): Promise<boolean> => {
    for (const end = Date.now() + ms; !done() && Date.now() < end;) await sleep(50);
    return done();
  };

  describe('arguments', () => {
    test.each([
      [[], /expected 2 or 3 arguments, got 0/],
      [['dry-run'], /expected 2 or 3 arguments, got 1/],
      [['freeze', MOUNT], /command 'freeze' is not one of pre-script, post-script, dry-run/],
      [['pre-script', '/'], /mount path '\/' must be an absolute path/],
      [['pre-script', 'srv/data'], /mount path 'srv\/data' must be an absolute path/],
      [['pre-script', '/srv/../etc'], /mount path '\/srv\/..\/etc' must be an absolute path/],
      [['pre-script', '/srv/data/'], /mount path '\/srv\/data\/' must be an absolute path/],
      [['pre-script', MOUNT, '0'], /max-freeze-seconds '0' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '3601'], /max-freeze-seconds '3601' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '1m'], /max-freeze-seconds '1m' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '60', 'extra'], /expected 2 or 3 arguments, got 4/],
    ])('%j exits 2 with usage and touches nothing', (args, message) => {
      const { status, out } = run(args as string[]);
      expect(status).toBe(2);
      expect(out).toMatch(/usage: snapshot-freeze.sh <pre-script\|post-script\|dry-run> <mount-path>/);
      expect(out).toMatch(message);
      expect(freezeCalls()).toEqual([]);
    });
  });

  describe('dry-run', () => {
    test('an unmounted directory fails clearly (real findmnt)', () => {
      const unmounted = fs.mkdtempSync(path.join(os.tmpdir(), 'not-mounted-'));
      const { status, out } = run(['dry-run', unmounted], { mounted: false });
      fs.rmSync(unmounted, { recursive: true });
      expect(status).toBe(206);
      expect(out).toContain(`ERROR: ${unmounted} is not a mount point: the data file system is not mounted`);
      expect(freezeCalls()).toEqual([]);
    });

    test('a mounted file system that is not XFS fails clearly (real findmnt, /proc)', () => {
      const { status, out } = run(['dry-run', '/proc'], { mounted: false });
      expect(status).toBe(206);
      expect(out).toContain('ERROR: /proc is proc, not xfs: refusing to freeze it');
      expect(freezeCalls()).toEqual([]);
    });

    test('a mounted XFS file system passes without freezing anything', () => {
      const { status, out } = run(['dry-run', MOUNT, '45']);
      expect(status).toBe(0);
      expect(out).toContain(`dry-run: ${MOUNT} is a mounted xfs file system`);
      expect(out).toContain('held for at most 45s (watchdog: detached)');
      expect(freezeCalls()).toEqual([]);
    });
  });

  describe('pre-script and post-script', () => {
    test('pre-script syncs then freezes; post-script thaws and disarms the watchdog', async () => {
      const pre = run(['pre-script', MOUNT, '2']);
      expect(pre.status).toBe(0);
      expect(pre.out).toMatch(
        /froze \/srv\/storage-data; it thaws by itself in 2s unless post-script runs first \(detached:\d+\)/,
      );
      expect(frozen()).toBe(true);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`]);

      const post = run(['post-script', MOUNT, '2']);
      expect(post.status).toBe(0);
      expect(post.out).toContain(`thawed ${MOUNT}`);
      expect(post.out).toMatch(/auto-thaw watchdog disarmed \(detached:\d+\)/);
      expect(frozen()).toBe(false);
      expect(fs.readdirSync(path.join(dir, 'state'))).toEqual([]);

      // The disarmed watchdog never thaws.
      await sleep(3500);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`, `fsfreeze -u ${MOUNT}`]);
    });

    test('the watchdog thaws by itself when post-script never comes, and post-script then warns', async () => {
      expect(run(['pre-script', MOUNT, '1']).status).toBe(0);
      expect(frozen()).toBe(true);
      expect(await within(3500, () => !frozen())).toBe(true);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`, `fsfreeze -u ${MOUNT}`]);

      const post = run(['post-script', MOUNT, '1']);
      expect(post.status).toBe(0);
      expect(post.out).toContain('WARNING: /srv/storage-data was already thawed before post-script ran');
    });

    test('pre-script on a frozen file system exits 204 and leaves it frozen', () => {
      expect(run(['pre-script', MOUNT, '30']).status).toBe(0);
      const state = fs.readdirSync(path.join(dir, 'state'));
      const second = run(['pre-script', MOUNT, '30']);
      expect(second.status).toBe(204);
      expect(second.out).toContain('ERROR: /srv/storage-data is already frozen');
      expect(frozen()).toBe(true);
      // The first freeze's record, and so its watchdog, is kept for its post-script.
      expect(fs.readdirSync(path.join(dir, 'state'))).toEqual(state);
      expect(run(['post-script', MOUNT]).status).toBe(0);
      expect(frozen()).toBe(false);
    });

    test('a failed freeze exits 201 and disarms the watchdog it armed', async () => {
      const pre = run(['pre-script', MOUNT, '1'], { env: { STUB_FREEZE_ERROR: 'Operation not supported' } });
      expect(pre.status).toBe(201);
      expect(pre.out).toContain(
        'ERROR: fsfreeze -f /srv/storage-data failed: fsfreeze: /srv/storage-data: freeze failed: Operation not supported',
      );
      expect(pre.out).toMatch(/auto-thaw watchdog disarmed/);
      await sleep(2000);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`]);
    });

    test('pre-script refuses a file system that is not XFS or not mounted, before touching it', () => {
      const ext4 = run(['pre-script', MOUNT], { env: { STUB_FSTYPE: 'ext4' } });
      expect(ext4.status).toBe(206);
      expect(ext4.out).toContain('/srv/storage-data is ext4, not xfs');
      const unmounted = run(['pre-script', '/srv/elsewhere']);
      expect(unmounted.status).toBe(206);
      expect(freezeCalls()).toEqual([]);
    });

    test('post-script on a file system that is not frozen succeeds', () => {
      const post = run(['post-script', MOUNT]);
      expect(post.status).toBe(0);
      expect(post.out).toContain(`${MOUNT} is not frozen; nothing to thaw`);
    });

    test('post-script never runs fsfreeze on a path that is not a mount point', () => {
      const post = run(['post-script', '/srv/elsewhere']);
      expect(post.status).toBe(0);
      expect(post.out).toContain('/srv/elsewhere is not a mount point; nothing to thaw');
      expect(freezeCalls()).toEqual([]);
    });

    test('a failed thaw exits 202 and keeps the watchdog armed to retry', async () => {
      expect(run(['pre-script', MOUNT, '2']).status).toBe(0);
      const post = run(['post-script', MOUNT], { env: { STUB_THAW_ERROR: 'Input/output error' } });
      expect(post.status).toBe(202);
      expect(post.out).toContain('ERROR: fsfreeze -u /srv/storage-data failed');
      expect(post.out).not.toContain('disarmed');
      expect(await within(3000, () => !frozen())).toBe(true);
    });
  });

  describe('systemd watchdog', () => {
    test('is a transient timer that runs fsfreeze -u, stopped by post-script', () => {
      const env = { SNAPSHOT_FREEZE_WATCHDOG: 'systemd' };
      expect(run(['pre-script', MOUNT, '75'], { env }).status).toBe(0);
      const [arm] = freezeCalls().filter((l) => l.startsWith('systemd-run '));
      const unit = /--unit=(storage-server-thaw-\d+-\d+) /.exec(arm)?.[1];
      expect(unit).toBeDefined();
      expect(arm).toContain('--on-active=75s');
      expect(arm).toContain(`${path.join(safeBin, 'fsfreeze')} -u ${MOUNT}`);

      expect(run(['post-script', MOUNT, '75'], { env }).status).toBe(0);
      expect(freezeCalls()).toContain(`systemctl stop ${unit}.timer`);
      expect(frozen()).toBe(false);
    });

    test('falls back to a detached watchdog when systemd-run fails', () => {
      const env = { SNAPSHOT_FREEZE_WATCHDOG: 'systemd', STUB_SYSTEMD_RUN_EXIT: '1' };
      const pre = run(['pre-script', MOUNT, '30'], { env });
      expect(pre.status).toBe(0);
      expect(pre.out).toContain('systemd-run could not arm the watchdog; falling back to a detached process');
      expect(pre.out).toMatch(/\(detached:\d+\)/);
      expect(run(['post-script', MOUNT], { env }).status).toBe(0);
    });
  });

  describe('as the SSM document runs it', () => {
    /** The document's shell step with the parameters substituted as SSM does, run with /bin/sh. */
    function runDocument(command: string, mountPath = MOUNT) {
      const step = renderFreezeCommand({ script: loadFreezeScript(), mountPath, maxFreezeSeconds: 30 })
        .replace(/\{\{ command \}\}/g, command)
        .replace(/\{\{ executionId \}\}/g, '8f1e4a52-1b2c-4d3e-9f00-0123456789ab');
      const file = path.join(dir, '_script.sh');
      fs.writeFileSync(file, step);
      const result = spawnSync('sh', [file], {
        encoding: 'utf8',
        env: {
          PATH: [safeBin, mountBin, process.env.PATH].join(':'),
          STUB_DIR: dir,
          SNAPSHOT_FREEZE_STATE_DIR: path.join(dir, 'state'),
          SNAPSHOT_FREEZE_WATCHDOG: 'detached',
        },
      });
      return { status: result.status, out: result.stdout + result.stderr };
    }

    test.each([...DLM_SCRIPT_COMMANDS])('%s succeeds on the data mount', (command) => {
      const { status, out } = runDocument(command);
      expect(out).toContain(`DLM command ${command}, execution 8f1e4a52-1b2c-4d3e-9f00-0123456789ab`);
      expect(status).toBe(0);
      run(['post-script', MOUNT]);
    });

    test("the script's exit code reaches DLM", () => {
      expect(runDocument('dry-run', '/srv/not-mounted').status).toBe(206);
      expect(runDocument('pre-script').status).toBe(0);
      expect(runDocument('pre-script').status).toBe(204);
      expect(runDocument('post-script').status).toBe(0);
      expect(frozen()).toBe(false);
    });
  });
});
