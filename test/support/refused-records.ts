/**
 * The records client-mount.sh refuses, one or more for each rule of the record grammar (docs/design.md, section 6),
 * each with the reason the script gives. test/integration/client-mount-grammar.test.ts puts the table into moto at
 * once.
 */
import { mountRecord } from '../../lambda/register/contract';
import { ALLOWANCE, OPTIONS } from './client-mount-harness';

export interface Fields {
  server: string;
  exportPath: string;
  mountPoint: string;
  fsType: string;
  options: string;
  backend?: string;
}
/** A record whose fstab agrees with its fields, unless `fstab` is given, so that only the field under test is wrong. */
export function record(fields: Partial<Fields> & { fstab?: string }): Record<string, string> {
  const f: Fields = {
    server: '10.0.0.5',
    exportPath: '/export/data',
    mountPoint: '/data',
    fsType: 'nfs4',
    options: OPTIONS,
    ...fields,
  };
  const sep = f.fsType === 'lustre' ? '@tcp:' : ':';
  return {
    ...f,
    fstab: fields.fstab ?? `${f.server}${sep}${f.exportPath} ${f.mountPoint} ${f.fsType} ${f.options} 0 0`,
  };
}
const q = JSON.stringify;
const GOOD_FSTAB = mountRecord('10.0.0.5', '/export/data', '/data', OPTIONS).fstab;
/** Why a mount point outside the default mount roots is refused. */
const OUTSIDE = (mp: string, home = false) =>
  `mountPoint ${q(mp)} is not a mount root or below one; the mount roots are /data /scratch /shared /fsx${home ? ' (/home only with --allow-home)' : ''}`;
const CHARS = 'has an empty segment or a character other than A-Z a-z 0-9 . _ -';
/** Why an FSx for OpenZFS record's server that is not an FSx DNS name is refused. */
const OPENZFS_RULE =
  'of an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only) is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)';

// [what, the record or a raw value, why the script gives]
export const REFUSED: [string, Record<string, string> | string, string][] = [
  [
    "the reviewer's example: 203.0.113.66:/evil on /etc/cron.d with suid,dev",
    record({
      server: '203.0.113.66',
      exportPath: '/evil',
      mountPoint: '/etc/cron.d',
      options: `${OPTIONS},suid,dev`,
    }),
    `server 203.0.113.66 is outside the allowed servers ${ALLOWANCE}`,
  ],
  [
    'the same from a server inside the allowance: the mount point is refused',
    record({ exportPath: '/evil', mountPoint: '/etc/cron.d', options: `${OPTIONS},suid,dev` }),
    OUTSIDE('/etc/cron.d'),
  ],
  [
    'the option suid',
    record({ options: `${OPTIONS},suid` }),
    'options: "suid" is not an allowed mount option',
  ],
  [
    'the option dev',
    record({ options: `dev,${OPTIONS}` }),
    'options: "dev" is not an allowed mount option',
  ],
  [
    'the option exec',
    record({ options: `${OPTIONS},exec` }),
    'options: "exec" is not an allowed mount option',
  ],
  [
    'the option defaults (suid and dev)',
    record({ options: 'defaults' }),
    'options: "defaults" is not an allowed mount option',
  ],
  [
    'an unknown option',
    record({ options: `${OPTIONS},fsc` }),
    'options: "fsc" is not an allowed mount option',
  ],
  [
    'an option that takes a value, without one',
    record({ options: 'rsize,hard' }),
    'options: "rsize" needs a value',
  ],
  ['NFSv3', record({ options: 'nfsvers=3,hard' }), 'options: "nfsvers=3" has a value out of range'],
  [
    'rsize out of range',
    record({ options: 'rsize=99999999,hard' }),
    'options: "rsize=99999999" has a value out of range',
  ],
  [
    'nconnect with a leading zero',
    record({ options: 'nconnect=08' }),
    'options: "nconnect=08" has a value out of range',
  ],
  ['soft', record({ options: 'soft,timeo=1,retrans=0' }), 'options: "soft" returns an I/O error after a timeout'],
  [
    'an option given twice',
    record({ options: 'hard,timeo=600,timeo=1' }),
    'options: "timeo" is given twice',
  ],
  ['an empty option', record({ options: 'hard,,_netdev' }), 'options: "" is not an allowed mount option'],
  [
    'a server outside the allowance',
    record({ server: '10.1.0.5' }),
    `server 10.1.0.5 is outside the allowed servers ${ALLOWANCE}`,
  ],
  [
    'a server with leading zeros',
    record({ server: '10.0.0.05' }),
    'server "10.0.0.05" is not an IPv4 address in canonical dotted-quad form (no leading zeros)',
  ],
  ['the server 0.0.0.0', record({ server: '0.0.0.0' }), 'server "0.0.0.0" is not a host address'],
  [
    'a server DNS name',
    record({ server: 'nfs.example.com' }),
    'server "nfs.example.com" is not an IPv4 address',
  ],
  [
    'an FSx for Lustre name with fsType nfs4',
    record({ server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com' }),
    'server "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com" is an FSx DNS name, which needs fsType "lustre" (FSx for Lustre) or backend "fsx-openzfs" (FSx for OpenZFS)',
  ],
  [
    'a lustre record with an IP address',
    record({ fsType: 'lustre', options: 'relatime,flock,_netdev' }),
    'server "10.0.0.5" of a lustre record is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)',
  ],
  [
    'a lustre record whose name this node cannot resolve (no getent answer: the stand-in knows no name)',
    record({
      server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com',
      fsType: 'lustre',
      exportPath: '/abcdefgh',
      mountPoint: '/fsx',
      options: 'relatime,flock,_netdev',
    }),
    'server fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com does not resolve to an IPv4 address on this node (getent ahostsv4)',
  ],
  [
    'a lustre record whose name resolves outside the allowed servers',
    record({
      server: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com',
      fsType: 'lustre',
      exportPath: '/abcdefgh',
      mountPoint: '/fsx',
      options: 'relatime,flock,_netdev',
    }),
    `server fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com resolves to 203.0.113.9, outside the allowed servers ${ALLOWANCE}`,
  ],
  [
    'an FSx for OpenZFS record with an IP address',
    record({ backend: 'fsx-openzfs' }),
    `server "10.0.0.5" ${OPENZFS_RULE}`,
  ],
  [
    'an FSx for OpenZFS record with a name that is not FSx\'s',
    record({ backend: 'fsx-openzfs', server: 'nfs.example.com', exportPath: '/fsx' }),
    `server "nfs.example.com" ${OPENZFS_RULE}`,
  ],
  [
    'an FSx for OpenZFS record whose name resolves outside the allowed servers',
    record({ backend: 'fsx-openzfs', server: 'fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com', exportPath: '/fsx' }),
    `server fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com resolves to 203.0.113.9, outside the allowed servers ${ALLOWANCE}`,
  ],
  [
    'an FSx for OpenZFS record whose name this node cannot resolve',
    record({ backend: 'fsx-openzfs', server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com', exportPath: '/fsx' }),
    'server fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com does not resolve to an IPv4 address on this node (getent ahostsv4)',
  ],
  [
    'an FSx for OpenZFS record with fsType lustre',
    record({ backend: 'fsx-openzfs', server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com', fsType: 'lustre', exportPath: '/abcdefgh', options: 'relatime' }),
    'backend "fsx-openzfs" does not fit fsType "lustre" (fsx-lustre is mounted as "lustre", efs as "nfs4" or "efs", every other backend as "nfs4")',
  ],
  [
    'an EFS-over-TLS record (fsType efs) of an NFS server',
    record({ backend: 'nfs', fsType: 'efs', options: 'tls,hard' }),
    'backend "nfs" does not fit fsType "efs" (fsx-lustre is mounted as "lustre", efs as "nfs4" or "efs", every other backend as "nfs4")',
  ],
  [
    'an EFS-over-TLS record (fsType efs) without tls, which mount.efs would mount in the clear',
    record({ backend: 'efs', fsType: 'efs', server: 'fs-0123456789abcdef0.efs.us-east-1.amazonaws.com', exportPath: '/', options: 'hard,_netdev' }),
    'options: "tls" is missing: fsType "efs" is EFS over TLS (without TLS, mount it as "nfs4")',
  ],
  [
    'a backend that is not one',
    record({ backend: 'glusterfs' }),
    'backend "glusterfs" is not one of ebs, instance-store, fsx-lustre, fsx-openzfs, efs, nfs',
  ],
  [
    'a lustre record whose exportPath is not a mount name',
    record({
      server: 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com',
      fsType: 'lustre',
      exportPath: '/export/data',
      mountPoint: '/fsx',
      options: 'relatime,flock,_netdev',
    }),
    'exportPath "/export/data" of a lustre record is not "/" and a mount name (3-8 of a-z 0-9)',
  ],
  ['a relative mountPoint', record({ mountPoint: 'data' }), 'mountPoint "data" is not an absolute path'],
  ['the mountPoint /', record({ mountPoint: '/' }), 'mountPoint "/" is the root directory'],
  ['the mountPoint /usr/local', record({ mountPoint: '/usr/local' }), OUTSIDE('/usr/local')],
  ['the mountPoint /var/lib/x', record({ mountPoint: '/var/lib/x' }), OUTSIDE('/var/lib/x')],
  ['the mountPoint /root', record({ mountPoint: '/root' }), OUTSIDE('/root')],
  // Where root-run code lives: nosuid,nodev do not stop root running a file planted there.
  ['the mountPoint /opt', record({ mountPoint: '/opt' }), OUTSIDE('/opt')],
  ['the mountPoint /opt/aws', record({ mountPoint: '/opt/aws' }), OUTSIDE('/opt/aws')],
  [
    'the mountPoint /opt/parallelcluster',
    record({ mountPoint: '/opt/parallelcluster' }),
    OUTSIDE('/opt/parallelcluster'),
  ],
  ['the mountPoint /snap/bin', record({ mountPoint: '/snap/bin' }), OUTSIDE('/snap/bin')],
  ['the mountPoint /nix', record({ mountPoint: '/nix' }), OUTSIDE('/nix')],
  ['the mountPoint /mnt/data', record({ mountPoint: '/mnt/data' }), OUTSIDE('/mnt/data')],
  ['a name that only starts like a root', record({ mountPoint: '/database' }), OUTSIDE('/database')],
  [
    'the mountPoint /home/x without --allow-home',
    record({ mountPoint: '/home/x' }),
    OUTSIDE('/home/x', true),
  ],
  [
    'a record nested too deeply to decode (RecursionError)',
    `${'['.repeat(2000)}${']'.repeat(2000)}`, // 4,000 characters: a standard parameter holds 4,096
    'is nested too deeply to check (RecursionError)',
  ],
  [
    'a ".." segment in mountPoint',
    record({ mountPoint: '/data/../etc' }),
    'mountPoint "/data/../etc" has a "." or ".." segment',
  ],
  [
    'a ".." segment in exportPath',
    record({ exportPath: '/export/../../etc' }),
    'exportPath "/export/../../etc" has a "." or ".." segment',
  ],
  ['a trailing slash', record({ mountPoint: '/data/' }), `mountPoint "/data/" ${CHARS}`],
  [
    'a mountPoint longer than 255 characters',
    record({ mountPoint: `/${'d'.repeat(255)}` }),
    `mountPoint "/${'d'.repeat(255)}" is longer than 255 characters`,
  ],
  [
    '";" in server',
    record({ server: '10.0.0.5;reboot' }),
    'server "10.0.0.5;reboot" is not an IPv4 address',
  ],
  ['a newline in server', record({ server: '10.0.0.5\n' }), 'server "10.0.0.5\\n" is not an IPv4 address'],
  [
    '";" in exportPath',
    record({ exportPath: '/export/data;reboot' }),
    `exportPath "/export/data;reboot" ${CHARS}`,
  ],
  ['a quote in exportPath', record({ exportPath: "/export/da'ta" }), `exportPath "/export/da'ta" ${CHARS}`],
  [
    '"$(reboot)" in mountPoint',
    record({ mountPoint: '/data$(reboot)' }),
    `mountPoint "/data$(reboot)" ${CHARS}`,
  ],
  ['a space in mountPoint', record({ mountPoint: '/data x' }), `mountPoint "/data x" ${CHARS}`],
  ['a newline in mountPoint', record({ mountPoint: '/data\n' }), `mountPoint "/data\\n" ${CHARS}`],
  ['a tab in mountPoint', record({ mountPoint: '/da\tta' }), `mountPoint "/da\\tta" ${CHARS}`],
  [
    'a backtick in options',
    record({ options: 'hard,`reboot`' }),
    'options: "`reboot`" is not an allowed mount option',
  ],
  [
    'a space in options',
    record({ options: 'hard, nofail' }),
    'options: " nofail" is not an allowed mount option',
  ],
  [
    '"$(reboot)" in options',
    record({ options: 'hard,$(reboot)' }),
    'options: "$(reboot)" is not an allowed mount option',
  ],
  ['";" in fsType', record({ fsType: 'nfs4;reboot' }), 'fsType "nfs4;reboot" is not "nfs4" (or "lustre", "efs")'],
  [
    'a second line smuggled into fstab',
    record({ fstab: `${GOOD_FSTAB}\n* * * * * root reboot` }),
    `fstab ${q(`${GOOD_FSTAB}\n* * * * * root reboot`)} disagrees with its fields`,
  ],
  [
    'suid in fstab only',
    record({ fstab: GOOD_FSTAB.replace('_netdev', '_netdev,suid') }),
    `fstab ${q(GOOD_FSTAB.replace('_netdev', '_netdev,suid'))} disagrees with its fields (expected ${q(GOOD_FSTAB)})`,
  ],
  ['not JSON', '{"server": "10.0.0.5", "mountPoint": "/etc"', 'is not JSON'],
];
