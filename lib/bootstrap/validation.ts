/**
 * The checks a bootstrap configuration passes before it is rendered. Every value the settings file will carry is one
 * the script on the server accepts, so a bad setting fails at synth, naming the field and the value, instead of on the
 * server. A value that is an unresolved CDK token string passes the pattern checks, since CloudFormation substitutes it
 * later; the script checks the real value again when it reads its settings.
 */
import { BootstrapConfig, SUPPORTED_NFS_VERSIONS } from './config';

/** A device mapping name, e.g. `/dev/sdf`, or `/dev/xvdf` on Xen. */
const DEVICE_NAME = /^\/dev\/(sd|xvd)[a-z]{1,2}$/;

/**
 * Throws, naming the field, the value and the rule, on the first value of `c` the bootstrap would not accept. The
 * checks run in a fixed order, the disks, the export, then the array and the server, so the first bad field of a
 * configuration is always the one reported.
 */
export function validateBootstrapConfig(c: BootstrapConfig): void {
  checkDisks(c);
  checkExport(c);
  checkArrayAndServer(c);
}

/** The backend, its encryption, and its disks: EBS volumes or instance-store devices, each named once. */
function checkDisks(c: BootstrapConfig): void {
  check(
    c.backend === 'ebs' || c.backend === 'instance-store',
    'backend',
    c.backend,
    "must be 'ebs' or 'instance-store'",
  );
  const ebs = c.backend === 'ebs';
  check(
    c.encryption === undefined || c.encryption === 'none' || (c.encryption === 'luks2' && !ebs),
    'encryption',
    c.encryption,
    ebs ? "must be 'none' for EBS (EBS encrypts the volumes)" : "must be 'none' or 'luks2'",
  );
  check(
    ebs ? c.ebsVolumes.length > 0 : c.ebsVolumes.length === 0,
    'ebsVolumes',
    c.ebsVolumes,
    ebs ? 'the EBS backend needs at least one volume' : 'must be empty for instance store',
  );
  check(
    ebs ? c.instanceStoreDevices.length === 0 : c.instanceStoreDevices.length > 0,
    'instanceStoreDevices',
    c.instanceStoreDevices,
    ebs ? 'must be empty for EBS' : 'the instance-store backend needs at least one device',
  );
  for (const v of c.ebsVolumes) {
    check(
      concrete(v.volumeId, /^vol-[0-9a-f]{8,17}$/),
      'ebsVolumes.volumeId',
      v.volumeId,
      'must look like vol-0123456789abcdef0',
    );
    check(concrete(v.device, DEVICE_NAME), 'ebsVolumes.device', v.device, 'must be a device name like /dev/sdf');
    check(
      Number.isInteger(v.sizeGiB) && v.sizeGiB >= 1 && v.sizeGiB <= 65536,
      'ebsVolumes.sizeGiB',
      v.sizeGiB,
      'must be a whole number of GiB from 1 to 65536',
    );
  }
  for (const d of c.instanceStoreDevices) {
    check(concrete(d, DEVICE_NAME), 'instanceStoreDevices', d, 'must be a device name like /dev/sdb');
  }
  const names = [...c.ebsVolumes.map((v) => v.device), ...c.instanceStoreDevices];
  check(new Set(names).size === names.length, 'devices', names, 'each device name may appear only once');
}

/** The export: its path, its clients, never everyone, and how NFS serves it, by threads, mode and versions. */
function checkExport(c: BootstrapConfig): void {
  check(
    concrete(c.exportPath, /^(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/) && !/\/\.\.?(\/|$)/.test(c.exportPath),
    'exportPath',
    c.exportPath,
    "must be an absolute path of letters, digits, '.', '_', '-' (not '/', no '..')",
  );
  check(c.clientCidrs.length > 0, 'clientCidrs', c.clientCidrs, 'at least one client CIDR is required');
  for (const cidr of c.clientCidrs) {
    check(
      concrete(cidr, /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/),
      'clientCidrs',
      cidr,
      "must be a CIDR such as 10.0.0.0/16 (never '*' or a host name)",
    );
  }
  for (const cidr of c.rootClientCidrs ?? []) {
    // IPv4 only: the script checks each against the client CIDRs by its address and prefix.
    check(concrete(cidr, /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/), 'rootClientCidrs', cidr, 'must be an IPv4 CIDR such as 10.0.1.5/32');
  }
  if (c.nfsThreads !== undefined) {
    check(
      Number.isInteger(c.nfsThreads) && c.nfsThreads >= 1 && c.nfsThreads <= 4096,
      'nfsThreads',
      c.nfsThreads,
      'must be a whole number from 1 to 4096',
    );
  }
  check(
    c.exportMode === 'sync' || c.exportMode === 'async',
    'exportMode',
    c.exportMode,
    "must be 'sync' or 'async'",
  );
  check(
    c.nfsVersions.length > 0 &&
      new Set(c.nfsVersions).size === c.nfsVersions.length &&
      c.nfsVersions.every((v) => SUPPORTED_NFS_VERSIONS.includes(v)),
    'nfsVersions',
    c.nfsVersions,
    `must be distinct values from ${SUPPORTED_NFS_VERSIONS.join(', ')}`,
  );
}

/** The array's stripe size, the server's identity, its metrics names, its stable interface, and the volume wait. */
function checkArrayAndServer(c: BootstrapConfig): void {
  check(
    Number.isInteger(c.stripeSizeKiB) &&
      c.stripeSizeKiB >= 4 &&
      c.stripeSizeKiB <= 4096 &&
      (c.stripeSizeKiB & (c.stripeSizeKiB - 1)) === 0,
    'stripeSizeKiB',
    c.stripeSizeKiB,
    'must be a power of two from 4 to 4096',
  );
  check(
    concrete(c.identity, /^[A-Za-z0-9_.:/=-]{1,200}$/),
    'identity',
    c.identity,
    'must be 1-200 characters of A-Z a-z 0-9 _ . : / = -',
  );
  check(typeof c.restored === 'boolean', 'restored', c.restored, 'must be true or false');
  if (c.metrics !== undefined) {
    for (const [field, value] of [['clusterName', c.metrics.clusterName], ['serverName', c.metrics.serverName]] as const) {
      check(concrete(value, /^[A-Za-z0-9_.-]{1,64}$/), `metrics.${field}`, value, 'must be 1-64 characters of A-Z a-z 0-9 _ . -');
    }
  }
  if (c.networkInterfaceId !== undefined) {
    check(
      concrete(c.networkInterfaceId, /^eni-[0-9a-f]{8,17}$/),
      'networkInterfaceId',
      c.networkInterfaceId,
      'must look like eni-0123456789abcdef0',
    );
  }
  check(
    Number.isInteger(c.volumeWaitSeconds) && c.volumeWaitSeconds >= 0 && c.volumeWaitSeconds <= 86400,
    'volumeWaitSeconds',
    c.volumeWaitSeconds,
    'must be a whole number from 0 to 86400',
  );
}

/** Throws `bootstrap <field> <value> is invalid: <rule>` unless `ok`. */
function check(ok: boolean, field: string, value: unknown, rule: string): void {
  if (!ok) throw new Error(`bootstrap ${field} ${JSON.stringify(value)} is invalid: ${rule}`);
}

/** A value matches `re`, or is a token string whose real value only CloudFormation knows. */
function concrete(value: string, re: RegExp): boolean {
  return isToken(value) || re.test(value);
}

function isToken(value: string): boolean {
  return value.includes('${Token[');
}
