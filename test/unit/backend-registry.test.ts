import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { BACKENDS } from '../../lambda/register/contract';
import { BACKEND_PLUGINS } from '../../lib/backends/registry';
import { StorageServer } from '../../lib/storage-server';
import { Backend } from '../../lib/backend-enum';

/**
 * Backends as plugins: the facade builds every backend through lib/backends/registry.ts and knows none by name, so that
 * a backend is added without touching it.
 */
const FACADE = path.join(__dirname, '..', '..', 'lib', 'storage-server.ts');

/** The string literals and the module specifiers of a TypeScript file, read by TypeScript's parser. */
function literalsAndImports(file: string): { literals: string[]; imports: string[] } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const literals: string[] = [];
  const imports: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) imports.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isStringLiteralLike(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, imports };
}

describe('the backend registry', () => {
  test('every backend the records know has a plugin, and the registry names no other', () => {
    expect(Object.keys(BACKEND_PLUGINS).sort()).toEqual([...BACKENDS].sort());
  });

  test('the facade names no backend and imports no backend construct: it builds through the registry alone', () => {
    const { literals, imports } = literalsAndImports(FACADE);
    expect(literals.filter((l) => (BACKENDS as readonly string[]).includes(l))).toEqual([]);
    const backendModules = imports.filter((i) => i.startsWith('./backends/'));
    expect(backendModules.sort()).toEqual(['./backends/registry']);
  });

  test.each([
    ['ebs', { capacityTiB: 3, backend: Backend.EBS }, ['instance', 'privateIp', 'networkInterfaceId', 'snapshotPolicy']],
    ['instance-store', { capacityTiB: 3, backend: Backend.INSTANCE_STORE }, ['instance', 'privateIp', 'networkInterfaceId']],
    ['fsx-lustre', { capacityTiB: 2.4, backend: Backend.FSX_LUSTRE }, ['fileSystem']],
    ['fsx-openzfs', { capacityTiB: 1, backend: Backend.FSX_OPENZFS }, ['openZfsFileSystem']],
  ])('%s: the facade exposes what the plugin built, and nothing of the other backends', (_name, request, exposed) => {
    const stack = new Stack(new App(), 'S', { env: { account: '111111111111', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2 });
    const server = new StorageServer(stack, 'Server', { vpc, clientCidrs: ['10.0.0.0/16'], ...request });
    const parts = ['instance', 'privateIp', 'networkInterfaceId', 'snapshotPolicy', 'clusterware', 'fileSystem', 'openZfsFileSystem'] as const;
    for (const part of parts) expect([part, server[part] !== undefined]).toEqual([part, exposed.includes(part)]);
    expect(server.dataVolumes.length > 0).toBe(request.backend === 'ebs');
  });
});
