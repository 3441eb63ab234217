/**
 * One record schema: lambda/register/records.schema.json defines the ring and mount records, and every other statement
 * of them is held to it here. Those are the TypeScript types the registration writes, in records.ts and owner.ts; the
 * values it writes, validated with Ajv; the client script's checker, client_mount.py, with the fields it requires and
 * reads and the backends and file system types it admits; and the script's header.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import schema from '../../lambda/register/records.schema.json';
import { FS_TYPES, RECORD_BACKENDS, RECORD_FS_TYPES, RecordKind, mountRecord } from '../../lambda/register/contract';
import { recordProblems } from '../support/record-schema';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const defs = schema.$defs;

/**
 * The members of a TypeScript interface, with those of the interfaces it extends in the same file; `?` marks the
 * optional.
 */
function interfaceMembers(file: string, name: string): string[] {
  const sf = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true);
  const found = new Map<string, ts.InterfaceDeclaration>();
  sf.forEachChild((n) => { if (ts.isInterfaceDeclaration(n)) found.set(n.name.text, n); });
  const members = (decl: ts.InterfaceDeclaration): string[] => [
    ...(decl.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText(sf))).flatMap((base) => members(found.get(base)!)),
    ...decl.members.filter(ts.isPropertySignature).map((m) => `${m.name.getText(sf)}${m.questionToken ? '?' : ''}`),
  ];
  return members(found.get(name)!).sort();
}

/** A schema object's properties, `?` marking those it does not require. */
function schemaMembers(...objects: { properties: Record<string, unknown>; required?: string[] }[]): string[] {
  const required = new Set(objects.flatMap((o) => o.required ?? []));
  // A kind may narrow a base property (a ring record's backend): each name once.
  return [...new Set(objects.flatMap((o) => Object.keys(o.properties)))].map((k) => (required.has(k) ? k : `${k}?`)).sort();
}

describe('the TypeScript types are the schema', () => {
  test('ring records (EC2, file system, address), the mount record and the owner mark have the schema\'s fields, optional where it says', () => {
    expect(interfaceMembers('lambda/register/records.ts', 'Ec2RingRecord')).toEqual(schemaMembers(defs.ringBase, defs.ec2RingRecord));
    expect(interfaceMembers('lambda/register/records.ts', 'FsxRingRecord')).toEqual(schemaMembers(defs.ringBase, defs.fsxRingRecord));
    // An existing NFS server's record is the base alone (AddressRingRecord), its backend narrowed to nfs.
    expect(interfaceMembers('lambda/register/records.ts', 'RingRecordBase')).toEqual(schemaMembers(defs.ringBase, defs.addressRingRecord));
    expect(interfaceMembers('lambda/register/records.ts', 'MountRecord')).toEqual(schemaMembers(defs.mountRecord));
    expect(interfaceMembers('lambda/register/owner.ts', 'RecordOwner')).toEqual(schemaMembers(defs.owner));
  });

  test('the enums: backends, file system types, record kinds', () => {
    expect(defs.backend.enum).toEqual([...RECORD_BACKENDS]);
    expect(/export type RecordFsType = ([^;]+);/.exec(read('lambda/register/records.ts'))![1].split(' | ').map((s) => s.replace(/'/g, ''))).toEqual(defs.fsType.enum);
    expect([...RECORD_FS_TYPES]).toEqual(defs.fsType.enum);
    // A deployed or imported server's types, which mountOn mounts without the client script: EFS over TLS is not one.
    expect([...FS_TYPES]).toEqual(defs.fsType.enum.filter((t) => t !== 'efs'));
    expect(defs.owner.properties.record.enum).toEqual(Object.values(RecordKind));
  });

  test("owner.ts reads an unmarked record by the schema's required mount fields and owner fields", () => {
    const owner = read('lambda/register/owner.ts');
    const list = (name: string) => JSON.parse(new RegExp(`const ${name} = (\\[[^\\]]*\\])`).exec(owner)![1].replace(/'/g, '"'));
    expect(list('MOUNT_KEYS')).toEqual(defs.mountRecord.required);
    expect(list('OWNER_KEYS')).toEqual(defs.owner.required);
  });
});

describe('what the registration writes is valid', () => {
  test('mount records of every backend (mountRecord), and a marked one', () => {
    for (const backend of RECORD_BACKENDS) {
      const fsType = backend === 'fsx-lustre' ? 'lustre' : 'nfs4';
      expect(recordProblems('mountRecord', mountRecord('10.0.0.4', '/export/data', '/data', 'hard,_netdev', fsType, backend))).toEqual([]);
    }
    const dns = 'fs-0123456789abcdef0.efs.us-east-1.amazonaws.com';
    expect(recordProblems('mountRecord', mountRecord(dns, '/', '/data', 'tls,_netdev', 'efs', 'efs'))).toEqual([]);
    const owner = { stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1', logicalResourceId: 'R', record: 'mount', clusterName: 'c', serverName: 's' };
    expect(recordProblems('mountRecord', { ...mountRecord('10.0.0.4', '/e', '/d', 'hard'), owner })).toEqual([]);
  });

  test('the schema refuses what no writer makes (a check that cannot fail is no check)', () => {
    const good = mountRecord('10.0.0.4', '/export/data', '/data', 'hard', 'nfs4', 'ebs');
    expect(recordProblems('mountRecord', { ...good, fsType: 'nfs' })).not.toEqual([]);
    expect(recordProblems('mountRecord', { ...good, backend: 'glusterfs' })).not.toEqual([]);
    expect(recordProblems('mountRecord', { ...good, extra: 'x' })).not.toEqual([]);
    const ring = { name: 's', role: 'storage', privateIp: '', privateDnsName: '', availabilityZone: '', instanceType: '', backend: 'ebs', registeredAt: 't' };
    expect(recordProblems('ringRecord', { ...ring, instanceId: 'i-1' })).toEqual([]);
    expect(recordProblems('ringRecord', ring)).not.toEqual([]); // neither instanceId nor fileSystemId
    expect(recordProblems('ringRecord', { ...ring, instanceId: 'i-1', fileSystemId: 'fs-1' })).not.toEqual([]);
  });

  test('each ring record kind has its own backends: EC2, a file system (FSx or EFS), an address (nfs)', () => {
    const ring = { name: 's', role: 'storage', privateIp: '10.0.0.9', privateDnsName: '', availabilityZone: '', instanceType: '', registeredAt: 't' };
    expect(recordProblems('ringRecord', { ...ring, backend: 'nfs' })).toEqual([]);
    expect(recordProblems('ringRecord', { ...ring, backend: 'efs', fileSystemId: 'fs-0123456789abcdef0' })).toEqual([]);
    expect(recordProblems('ringRecord', { ...ring, backend: 'fsx-openzfs', fileSystemId: 'fs-0123456789abcdef0' })).toEqual([]);
    // A kind's id with another kind's backend, or an address record with an id, fits none.
    expect(recordProblems('ringRecord', { ...ring, backend: 'nfs', instanceId: 'i-1' })).not.toEqual([]);
    expect(recordProblems('ringRecord', { ...ring, backend: 'ebs', fileSystemId: 'fs-1' })).not.toEqual([]);
    expect(recordProblems('ringRecord', { ...ring, backend: 'efs', instanceId: 'i-1' })).not.toEqual([]);
    expect(recordProblems('ringRecord', { ...ring, backend: 'efs' })).not.toEqual([]);
  });
});

describe('the client script reads the schema\'s records', () => {
  const python = read('lib/scripts/client_mount.py');
  const shell = read('lib/scripts/client-mount.sh');

  test("client_mount.py requires the schema's mount fields and admits its backends and file system types", () => {
    expect(JSON.parse(/^KEYS = (\[.*\])$/m.exec(python)![1].replace(/'/g, '"'))).toEqual(defs.mountRecord.required);
    expect(/^BACKENDS = \(([^)]*)\)$/m.exec(python)![1].split(', ').map((b) => b.replace(/'/g, ''))).toEqual(defs.backend.enum);
    expect(/if rec\['fsType'\] not in \(([^)]*)\)/.exec(python)![1].split(', ').map((b) => b.replace(/'/g, ''))).toEqual(defs.fsType.enum);
  });

  test('client_mount.py reads no record field the schema does not define', () => {
    const fields = new Set([...python.matchAll(/rec(?:\.get\(|\[)'([A-Za-z]+)'/g)].map((m) => m[1]));
    expect(fields.size).toBeGreaterThan(3);
    for (const f of fields) expect({ f, defined: f in defs.mountRecord.properties }).toEqual({ f, defined: true });
  });

  test("the script's header states the mount record as the schema does", () => {
    const line = /^# +<prefix>\/<cluster>\/storage\/<server>\/mount = (\{.*\})$/m.exec(shell)![1];
    const named = [...line.matchAll(/"([A-Za-z]+)"(?!\|)(?=[,:\]}[])/g)].map((m) => m[1]).filter((n) => !defs.fsType.enum.includes(n));
    expect(named).toEqual([...defs.mountRecord.required, 'backend']);
    expect(line).toContain(defs.fsType.enum.map((t) => `"${t}"`).join('|'));
  });
});
