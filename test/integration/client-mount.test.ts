import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { DeleteParameterCommand } from '@aws-sdk/client-ssm';
import { hardenMountOptions, renderFstabUpdate } from '../../lib/client-mount';
import { mountParameterName, mountRecord } from '../../lambda/register/contract';
import {
  OPTIONS,
  PREFIX,
  SCRIPT,
  WRITTEN_OPTIONS,
  cluster,
  fstab,
  fstabLines,
  line,
  putRecord,
  putServer,
  run,
  scriptEnv,
  ssm,
  tag,
  tagged,
  useClientMountHarness,
} from '../support/client-mount-harness';

// What client-mount.sh writes to the fstab from the records in moto, with --no-mount and --dry-run, and the arguments
// it refuses. Its AWS CLI calls are tested in client-mount-aws-cli.test.ts, and a run that mounts in the other
// client-mount-*.test.ts.
useClientMountHarness();

describe('client-mount.sh against the emulator', () => {
  test('adds one tagged line per server, which libmount reads back as the record says', async () => {
    await putServer('s1', '10.0.0.5');

    const r = run();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab added for ${cluster}/s1`);
    expect(fstabLines()).toEqual([
      '# /etc/fstab',
      'UUID=0a1b2c3d / ext4 defaults 0 1',
      line('10.0.0.5', '/data', 's1'),
    ]);
    const findmnt = spawnSync(
      'findmnt',
      ['--tab-file', fstab, '--target', '/data', '-n', '-r', '-o', 'SOURCE,TARGET,FSTYPE,OPTIONS'],
      { encoding: 'utf8' },
    );
    expect(findmnt.stdout.trim()).toBe(`10.0.0.5:/export/data /data nfs4 ${WRITTEN_OPTIONS}`);
  });

  test('a re-run leaves the fstab byte for byte, with one line', async () => {
    await putServer('s1', '10.0.0.5');
    run();
    const first = fs.readFileSync(fstab, 'utf8');

    const again = run();

    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`fstab unchanged for ${cluster}/s1`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(first);
    expect(tagged('s1')).toHaveLength(1);
  });

  test('a changed config replaces its line in place', async () => {
    await putServer('s1', '10.0.0.5');
    run();
    fs.appendFileSync(fstab, 'tmpfs /scratch tmpfs defaults 0 0\n');
    await putServer('s1', '10.0.9.9');

    const r = run();

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab updated for ${cluster}/s1`);
    expect(fstabLines()).toEqual([
      '# /etc/fstab',
      'UUID=0a1b2c3d / ext4 defaults 0 1',
      line('10.0.9.9', '/data', 's1'),
      'tmpfs /scratch tmpfs defaults 0 0',
    ]);
  });

  test("a second server's config adds a second line", async () => {
    await putServer('s1', '10.0.0.5');
    run();
    await putServer('s2', '10.0.0.6', '/scratch');

    const r = run();

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual([
      line('10.0.0.5', '/data', 's1'),
      line('10.0.0.6', '/scratch', 's2'),
    ]);
  });

  test('a deleted config is reported by name, and its line is left as it is', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    run();
    const before = fs.readFileSync(fstab, 'utf8');
    await ssm.send(new DeleteParameterCommand({ Name: mountParameterName(PREFIX, cluster, 's1') }));

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION STALE ${cluster}/s1: its mount config ${mountParameterName(PREFIX, cluster, 's1')} is gone; left in fstab and mounted as it is`,
    );
    expect(r.stdout).not.toContain(`STALE ${cluster}/s2`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('a line written before nosuid,nodev were forced is updated in place', async () => {
    await putServer('s1', '10.0.0.5');
    fs.appendFileSync(
      fstab,
      `${mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS).fstab}${tag('s1')}\n`,
    );

    const r = run();

    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`fstab updated for ${cluster}/s1`);
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('malformed records are reported by parameter name; the good one still goes in', async () => {
    const good = mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS);
    await putServer('a-good', '10.0.0.5');
    await putRecord('b-not-json', '{"server": "10.0.0.6",');
    await putRecord('c-fstype', {
      ...good,
      mountPoint: '/data/c',
      fsType: 'nfs',
      fstab: good.fstab.replace(' /data ', ' /data/c '),
    });
    await putRecord('d-mismatch', { ...good, mountPoint: '/data/d' });
    await putRecord('e-missing', {
      server: '10.0.0.7',
      exportPath: '/export/data',
      mountPoint: '/data/e',
      fsType: 'nfs4',
    });
    await putRecord('f-space', {
      ...good,
      mountPoint: '/f f',
      fstab: good.fstab.replace(' /data ', ' /f f '),
    });

    const r = run();

    expect(r.status).toBe(2);
    const name = (s: string) => mountParameterName(PREFIX, cluster, s);
    expect(r.stdout).toContain(`ATTENTION ${name('b-not-json')}: is not JSON`);
    expect(r.stdout).toContain(`ATTENTION ${name('c-fstype')}: fsType "nfs" is not "nfs4"`);
    expect(r.stdout).toContain(
      `ATTENTION ${name('d-mismatch')}: fstab ${JSON.stringify(good.fstab)} disagrees with its fields`,
    );
    expect(r.stdout).toContain(`ATTENTION ${name('e-missing')}: lacks string field(s) options, fstab`);
    expect(r.stdout).toContain(
      `ATTENTION ${name('f-space')}: mountPoint "/f f" has an empty segment or a character other than A-Z a-z 0-9 . _ -`,
    );
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 'a-good')]);
  });

  test('two configs claiming one mount point: the first by name goes in, the second is reported', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6');

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ATTENTION ${mountParameterName(PREFIX, cluster, 's2')}: mountPoint /data is already used by server s1`,
    );
    expect(fstabLines().slice(2)).toEqual([line('10.0.0.5', '/data', 's1')]);
  });

  test('a hand-written entry with the same source is adopted in place; another source is a conflict', async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    fs.writeFileSync(
      fstab,
      `10.0.0.5:/export/data /data nfs4 defaults 0 0\n10.9.9.9:/old /scratch nfs4 defaults 0 0\n`,
    );

    const r = run();

    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`fstab entry adopted for ${cluster}/s1`);
    expect(r.stdout).toContain(
      `ATTENTION CONFLICT /scratch: fstab already has '10.9.9.9:/old /scratch nfs4 defaults 0 0'; not adding 10.0.0.6:/export/data`,
    );
    expect(fstabLines()).toEqual([
      line('10.0.0.5', '/data', 's1'),
      '10.9.9.9:/old /scratch nfs4 defaults 0 0',
    ]);
  });

  test("--server mounts only that server and judges only that server's line", async () => {
    await putServer('s1', '10.0.0.5');
    await putServer('s2', '10.0.0.6', '/scratch');
    fs.appendFileSync(fstab, `${line('10.0.0.7', '/gone', 'gone')}\n`);

    const r = run(['--server', 's2']);

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual([
      line('10.0.0.7', '/gone', 'gone'),
      line('10.0.0.6', '/scratch', 's2'),
    ]);
  });

  test('--dry-run changes nothing and prints the fstab it would write', async () => {
    await putServer('s1', '10.0.0.5');
    const before = fs.readFileSync(fstab, 'utf8');

    const r = run(['--dry-run']);

    expect(r.status).toBe(0);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
    expect(fs.existsSync(`${fstab}.storage-server.bak`)).toBe(false);
    expect(r.stdout).toContain(
      `--- fstab after this run ---\n${before}${line('10.0.0.5', '/data', 's1')}\n--- end ---`,
    );
  });

  test('reads all pages: twelve servers, ten per page', async () => {
    const servers = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const [i, s] of servers.entries()) await putServer(s, `10.0.1.${i + 1}`, `/data/${i}`);

    const r = run();

    expect(r.status).toBe(0);
    expect(fstabLines().slice(2)).toEqual(servers.map((s, i) => line(`10.0.1.${i + 1}`, `/data/${i}`, s)));
  });

  test.each([
    [['--cluster', 'bad name'], "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got 'bad name'"],
    [['--prefix', 'relative'], "--prefix must be /-separated levels of A-Z a-z 0-9 _ . -, got 'relative'"],
    [['--server', 'a/b'], "--server must be 1-64 characters of A-Z a-z 0-9 _ . -, got 'a/b'"],
    [['--fstab', '/nonexistent/fstab'], "--fstab '/nonexistent/fstab' is not a file"],
    [['--frobnicate'], "unknown argument '--frobnicate'"],
    [['--allowed-servers', ''], '--allowed-servers is required'],
    [
      ['--allowed-servers', '10.0.0.0'],
      "--allowed-servers must be a comma list of IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, prefix /1-/32), got '10.0.0.0'",
    ],
    [['--allowed-servers', '10.0.0.0/0'], "got '10.0.0.0/0'"],
    [['--allowed-servers', '10.00.0.0/16'], "got '10.00.0.0/16'"],
    [['--allowed-servers', '10.0.0.0/16,$(reboot)'], "got '10.0.0.0/16,$(reboot)'"],
  ])('refuses %j with exit 1', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
  });

  test('without --allowed-servers: exit 1 before anything is read, saying why it is required', async () => {
    await putServer('s1', '10.0.0.5');
    const before = fs.readFileSync(fstab, 'utf8');
    const r = spawnSync('bash', [SCRIPT, '--cluster', cluster, '--fstab', fstab, '--no-mount'], {
      encoding: 'utf8',
      env: scriptEnv(),
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "client-mount: ERROR --allowed-servers is required: the CIDRs a record's server address must lie in (e.g. the VPC's, 10.0.0.0/16); a record names the server this node mounts as root\n",
    );
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
  });

  test('the mountStorageOn user data and the script keep one line between them', async () => {
    await putServer('s1', '10.0.0.5');
    const snippet = renderFstabUpdate({
      server: '10.0.0.5',
      exportPath: '/export/data',
      mountPoint: '/data',
      options: OPTIONS,
      tag: `${cluster}/s1`,
      fstab,
    }).join('\n');
    expect(hardenMountOptions(OPTIONS)).toBe(WRITTEN_OPTIONS);
    const userData = () =>
      spawnSync('bash', ['-c', snippet.replace("mkdir -p '/data'", 'true')], { encoding: 'utf8' });

    expect(userData().status).toBe(0);
    expect(userData().status).toBe(0);
    expect(tagged('s1')).toEqual([line('10.0.0.5', '/data', 's1')]);
    const r = run();
    expect(r.stdout).toContain(`fstab unchanged for ${cluster}/s1`);
    await putServer('s1', '10.0.0.8');
    run();
    expect(userData().status).toBe(0);
    expect(tagged('s1')).toEqual([line('10.0.0.5', '/data', 's1')]);
    expect(fstabLines()).toHaveLength(3);
  });
});
