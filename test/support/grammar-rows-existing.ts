/**
 * The grammar row (test/unit/input-grammar.test.ts) of `existingStorage`: `<kind>:<target>`, built from what each
 * target is. The keys refused or required beside it: test/unit/existing-context.test.ts.
 */
import fc from 'fast-check';
import type { ContextKey } from '../../lib/context';
import { badEc2Id, ec2Id, printable, privateHost, publicHost, stringOf, type Context, type Row } from './grammars';

/** The cluster's VPC, which a file system must be reachable in. */
const VPC: Context = { vpcId: 'vpc-0123456789abcdef0' };
/**
 * A file system id as FSx and EFS issue them: 'fs-' and hex digits (FSx's FileSystemId: pattern `fs-[0-9a-f]{8,}`,
 * 11-21 characters, the SageMaker API reference's FSxLustreFileSystem), in the two lengths the registration takes.
 */
const fsId = ec2Id('fs');
/**
 * A path segment the clients take: A-Z a-z 0-9 . _ - (lib/scripts/client_mount.py's rule), never `.` or `..`, which
 * name another directory.
 */
const segment = stringOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-', 1, 20).filter((s) => s !== '.' && s !== '..');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
const withVpc = (text: fc.Arbitrary<string>) => text.map((t): [string, Context] => [t, VPC]);

/** The parsed value of a valid text, split as the grammar reads it: kind, id, and the path after the id if typed. */
function parsed(text: string): unknown {
  const [kind, id, ...rest] = text.split(':');
  return { kind, id, ...(rest.length > 0 ? { path: rest.join(':') } : {}) };
}

export const EXISTING_ROWS = {
  existingStorage: {
    // Every key beside it is refused or needed: the name and mount point are (test/unit/existing-context.test.ts).
    base: { serverName: 'home', mountPoint: '/data' },
    valid: fc.oneof(
      withVpc(fsId.map((id) => `fsx-lustre:${id}`)),
      withVpc(fc.tuple(fsId, fc.option(fc.array(segment, { maxLength: 3 }))).map(([id, s]) => `fsx-openzfs:${id}${s === null ? '' : `:/fsx${s.map((x) => `/${x}`).join('')}`}`)),
      withVpc(fc.tuple(fsId, fc.option(fc.oneof(fc.constant('/'), path))).map(([id, p]) => `efs:${id}${p === null ? '' : `:${p}`}`)),
      fc.tuple(privateHost, path).map(([host, p]) => `nfs:${host}:${p}`),
    ),
    invalid: fc.oneof(
      // No kind of the four, spelt near or far.
      fc.tuple(printable.filter((k) => !['fsx-lustre', 'fsx-openzfs', 'efs', 'nfs'].includes(k.split(':')[0])), fsId)
        .map(([k, id]): [string, Context] => [`${k.split(':')[0]}:${id}`, VPC]),
      withVpc(fc.tuple(fc.constantFrom('fsx-lustre', 'fsx-openzfs', 'efs'), badEc2Id('fs')).map(([k, id]) => `${k}:${id}`)),
      withVpc(fc.tuple(fsId, path).map(([id, p]) => `fsx-lustre:${id}:${p}`)),
      withVpc(fc.tuple(fsId, path.filter((p) => p !== '/fsx' && !p.startsWith('/fsx/'))).map(([id, p]) => `fsx-openzfs:${id}:${p}`)),
      fc.tuple(publicHost, path).map(([host, p]) => `nfs:${host}:${p}`),
      privateHost.map((host) => `nfs:${host}`),
      fsId.map((id) => `nfs:${id}:/export`),
    ),
    parsed,
    fixedValid: [
      ['fsx-lustre:fs-0123456789abcdef0', VPC],
      ['fsx-openzfs:fs-01234567', VPC],
      ['fsx-openzfs:fs-0123456789abcdef0:/fsx/vol1', VPC],
      ['efs:fs-01234567:/', { vpcFrom: 'StorageServer-hpc1-home' }],
      ['efs:fs-0123456789abcdef0:/projects/a', VPC],
      'nfs:10.0.1.20:/export/home',
    ],
    fixedInvalid: [
      ['lustre:fs-0123456789abcdef0', VPC],
      ['fsx-lustre:fs-0123456789ABCDEF0', VPC],
      ['fsx-lustre:fs-0123456789abcdef0:/fsx', VPC],
      ['fsx-openzfs:fs-0123456789abcdef0:/vol1', VPC],
      ['fsx-openzfs:fs-0123456789abcdef0:/fsx/../etc', VPC],
      ['efs:fs-0123456789abcdef0:/a//b', VPC],
      ['efs:fs-0123456789abcdef0:relative', VPC],
      'nfs:10.0.1.20',
      'nfs:10.0.1.20:/',
      'nfs:8.8.8.8:/export',
      'nfs:fileserver.example.com:/export',
      'nfs:010.0.1.20:/export',
      ['efs', VPC],
      ['efs:', VPC],
    ],
  },
  // Read beside a file system's existingStorage only (refused beside nfs: test/unit/existing-context.test.ts).
  storageSecurityGroupId: {
    base: { existingStorage: 'efs:fs-0123456789abcdef0', serverName: 'home', mountPoint: '/data', ...VPC },
    valid: ec2Id('sg'),
    invalid: badEc2Id('sg'),
    fixedValid: ['sg-0123456789abcdef0', 'sg-01234567'],
    fixedInvalid: ['sg-0123456789ABCDEF0', 'sg-', 'vpc-0123456789abcdef0', 'sg-0123456789abcdef0,sg-01234567'],
  },
} satisfies Partial<Record<ContextKey, Row>>;
