// The root clients on the EC2 server's export (issue 46, item 3): the settings' check, the exports line, and the check
// that the export is live with them, each run as the script's own functions cut from it, with stand-ins for the system.
import * as fs from 'fs';
import * as path from 'path';
import { renderBootstrapEnv } from '../../lib/bootstrap';
import { bootstrapScriptFile } from '../support/apply';
import { cutShellFile } from '../support/shell-cut';
import { bash, instanceStore, readSettings, tmpDir } from '../support/bootstrap-fixtures';


describe('root clients', () => {
  test('the setting comes back through the parser; absent is none', () => {
    const file = path.join(tmpDir(), 'bootstrap.env');
    fs.writeFileSync(file, renderBootstrapEnv({ ...instanceStore, rootClientCidrs: ['10.0.1.5/32', '10.0.2.0/28'] }));
    expect(fs.readFileSync(file, 'utf8')).toContain("STORAGE_ROOT_CLIENT_CIDRS='10.0.1.5/32 10.0.2.0/28'");
    expect(readSettings(file).status).toBe(0);
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_ROOT_CLIENT_CIDRS=''");
  });

  test('synth refuses a root client that is not an IPv4 CIDR, naming the field', () => {
    expect(() => renderBootstrapEnv({ ...instanceStore, rootClientCidrs: ['node1'] })).toThrow(/rootClientCidrs/);
    expect(() => renderBootstrapEnv({ ...instanceStore, rootClientCidrs: ['fd00::1/128'] })).toThrow(/rootClientCidrs/);
  });

  test('the server takes root clients within the client CIDRs and refuses the rest, naming the setting', () => {
    const script = bootstrapScriptFile();
    const check = (clients: string, roots: string) => bash(
      `set -u; . '${cutShellFile(script, ['root_clients_ok'])}'
      ENV_FILE=bootstrap.env REASON_FILE=/dev/null STORAGE_CLIENT_CIDRS='${clients}' STORAGE_ROOT_CLIENT_CIDRS='${roots}'
      root_clients_ok && echo ok`,
    );
    expect(check('10.0.0.0/16', '').stdout).toBe('ok\n');
    expect(check('10.0.0.0/16 192.168.1.0/24', '10.0.1.5/32 192.168.1.0/24 10.0.255.255/32').stdout).toBe('ok\n');
    for (const [clients, roots, message] of [
      ['10.0.0.0/16', '10.1.0.5/32', /'10\.1\.0\.5\/32' is not within any of STORAGE_CLIENT_CIDRS \(10\.0\.0\.0\/16\)/],
      ['10.0.0.0/16', '10.0.0.0/15', /'10\.0\.0\.0\/15' is not within/],
      ['10.0.1.0/24', '10.0.2.1/32', /'10\.0\.2\.1\/32' is not within/],
      ['10.0.0.0/16', '10.0.1.5', /STORAGE_ROOT_CLIENT_CIDRS '10\.0\.1\.5' is invalid/],
      ['10.0.0.0/16', '10.0.1.5/0', /STORAGE_ROOT_CLIENT_CIDRS '10\.0\.1\.5\/0' is invalid/],
      ['10.0.0.0/16', 'fd00::1/128', /STORAGE_ROOT_CLIENT_CIDRS 'fd00::1\/128' is invalid/],
      ['10.0.0.0/16', '10.0.1.5/32 10.0.1.5/32', /gives 10\.0\.1\.5\/32 twice/],
    ] as const) {
      const r = check(clients, roots);
      expect([clients, roots, r.status, r.stderr]).toEqual([clients, roots, 1, expect.stringMatching(message)]);
    }
  });

  // configure_nfs with stand-ins for nfsconf, systemctl and exportfs: only the exports file it writes is looked at.
  const exportsLine = (clients: string, roots: string) => {
    const dir = tmpDir();
    const r = bash(
      `set -eu; . '${cutShellFile(bootstrapScriptFile(), ['configure_nfs'])}'
      nfsconf() { :; }; systemctl() { return 1; }; exportfs() { :; }; in_scope() { :; }; log() { :; }
      state_dirs() { :; }; bench_dir() { :; }; nfs_units() { :; }
      THREADS=8 SCOPE=s STORAGE_NFS_VERSIONS='4.1 4.2' STORAGE_EXPORT_MODE=sync STORAGE_EXPORT_PATH=/export/data ENV_FILE=x
      CLD_DIR='${dir}/cld' EXPORTS_FILE='${dir}/storage-server.exports'
      STORAGE_CLIENT_CIDRS='${clients}' STORAGE_ROOT_CLIENT_CIDRS='${roots}'
      configure_nfs || true; tail -n 1 "$EXPORTS_FILE"`,
    );
    expect(r.stderr).toBe('');
    return r.stdout.trim().split(' ');
  };
  const opts = (squash: string) => `(rw,sync,no_subtree_check,${squash},sec=sys,mp)`;

  test('the exports line lists the root clients first, no_root_squash, and every other client root squashed', () => {
    expect(exportsLine('10.0.0.0/16', '')).toEqual(['/export/data', `10.0.0.0/16${opts('root_squash')}`]);
    // exports(5): of two IP-network entries that match a client, the first on the line wins.
    expect(exportsLine('10.0.0.0/16 192.168.1.0/24', '10.0.1.5/32')).toEqual([
      '/export/data', `10.0.1.5/32${opts('no_root_squash')}`, `10.0.0.0/16${opts('root_squash')}`,
      `192.168.1.0/24${opts('root_squash')}`,
    ]);
    // A client CIDR that is all root client is listed once, as the root client's.
    expect(exportsLine('10.0.0.0/16 192.168.1.0/24', '192.168.1.0/24')).toEqual([
      '/export/data', `192.168.1.0/24${opts('no_root_squash')}`, `10.0.0.0/16${opts('root_squash')}`,
    ]);
  });

  test('the export is live only when each root client has no_root_squash in exportfs -s', () => {
    const verify = (live: string) => bash(
      `set -u; . '${cutShellFile(bootstrapScriptFile(), ['verify'])}'
      exportfs() { printf '%s\\n' '${live}'; }; log() { :; }; cat() { echo 8; }
      REASON_FILE=/dev/null THREADS=8 DISKS=(a) STORAGE_EXPORT_PATH=/export/data STORAGE_CLIENT_CIDRS='10.0.0.0/16'
      STORAGE_ROOT_CLIENT_CIDRS='10.0.1.5/32' STORAGE_EXPORT_MODE=sync STORAGE_NFS_VERSIONS=4.2
      verify && echo ok`,
    );
    const squashed = '10.0.0.0/16(sync,wdelay,hide,no_subtree_check,sec=sys,rw,secure,root_squash,no_all_squash)';
    expect(verify(`/export/data 10.0.1.5/32(sync,wdelay,hide,sec=sys,rw,secure,no_root_squash,no_all_squash) ${squashed}`).stdout).toBe('ok\n');
    const r = verify(`/export/data 10.0.1.5/32(sync,wdelay,hide,sec=sys,rw,secure,root_squash,no_all_squash) ${squashed}`);
    expect([r.status, r.stderr]).toEqual([1, expect.stringMatching(/not exported to root client 10\.0\.1\.5\/32 with no_root_squash/)]);
    expect(verify(`/export/data ${squashed}`).status).toBe(1);
  });
});
