import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { BACKENDS, type Backend, isFsxBackend } from '../../lambda/register/contract';
import { ec2ServerLayout } from '../../lib/backends/ec2/layout';
import type { Ec2NfsServerProps } from '../../lib/backends/ec2/props';
import { BACKEND_PLUGINS, DISTINCT_PLUGINS } from '../../lib/backends/registry';
import type { StoragePlan } from '../../lib/sizing';
import type { StorageServerProps } from '../../lib/storage-server/props';
import { type BackendMention, repoImport, scanBackendNames } from '../support/backend-names';
import { serverStack } from '../support/stacks';

/**
 * The facade's backends as plugins (CONTRIBUTING.md, "Adding a backend"): each backend's plugin checks the types of its
 * own options, gives its fields of the planner's request and checks the plan against the props, and the facade asks
 * every plugin in turn. So the facade (lib/storage-server.ts, lib/storage-server/) and the construct files it shares
 * with every backend name no backend in code: no string literal holds a backend's name as a word, and no identifier or
 * string is one FSx backend's own, Lustre or OpenZFS. The public API may: a member of a class or interface that
 * lib/index.ts exports, such as the prop `fsxOpenZfs`, and the facade's filling of its attribute from the backend's
 * parts. The EC2 server's layout names its own two backends only. Comments may name any.
 */
const ROOT = path.join(__dirname, '..', '..');

/** The facade and the shared construct files, each with the backends it may name: its own, for the EC2 layout. */
const SHARED: readonly (readonly [string, readonly string[]])[] = [
  ['lib/storage-server.ts', []],
  ...fs.readdirSync(path.join(ROOT, 'lib', 'storage-server')).filter((f) => f.endsWith('.ts')).map((f) => [`lib/storage-server/${f}`, []] as const),
  ['lib/backends/ec2/layout.ts', BACKENDS.filter((b) => BACKEND_PLUGINS[b] === BACKEND_PLUGINS.ebs)],
  ['lib/backends/snapshot-options.ts', []],
  ['lib/registration.ts', []],
];

/** What is one FSx backend's own, in any case and spelling, such as `openZfsRequestOptions` or `FsxLustreServerOptions`. */
const OWN_WORD = /lustre|open_?zfs/i;

/** The backends' own modules, those that export a plugin of the registry: no shared file may import one, nor a backend's folder. */
const BACKEND_MODULES = fs.readdirSync(path.join(ROOT, 'lib', 'backends'))
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => Object.values(jest.requireActual(path.join(ROOT, 'lib', 'backends', f)) as object).some((v) => DISTINCT_PLUGINS.includes(v)))
  .map((f) => `lib/backends/${f}`);

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** The names lib/index.ts exports: the public API. */
function publicNames(): Set<string> {
  const source = ts.createSourceFile('lib/index.ts', read('lib/index.ts'), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    }
  }
  return names;
}

/**
 * The lines of a public class's or interface's members, and of the statements that fill a public attribute from the
 * member of the same name, `this.openZfsFileSystem = parts.openZfsFileSystem`: the public API, which may name a backend.
 */
function publicLines(file: string, text: string, api: Set<string>): Set<number> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const mark = (node: ts.Node) => {
    const first = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const last = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  const isPublic = (member: ts.Node) => !ts.canHaveModifiers(member) || !(ts.getModifiers(member) ?? [])
    .some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name && api.has(node.name.text)) {
      const attributes = new Set<string>();
      for (const member of node.members) {
        if ((ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) && isPublic(member) && ts.isIdentifier(member.name)) {
          attributes.add(member.name.text);
          mark(member);
        }
      }
      const fill = (n: ts.Node): void => {
        if (ts.isExpressionStatement(n) && ts.isBinaryExpression(n.expression) && n.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
          const { left, right } = n.expression;
          if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && attributes.has(left.name.text)
            && ts.isPropertyAccessExpression(right) && right.name.text === left.name.text) mark(n);
        }
        ts.forEachChild(n, fill);
      };
      fill(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** A shared file's imports as repository paths, and what of its code names a backend outside the public API. */
function scan(file: string, own: readonly string[]): { imports: string[]; named: string[]; api: BackendMention[] } {
  const text = read(file);
  // A backend's name as BACKEND_NAME matches it: a word of its own.
  const exempt = own.map((b) => new RegExp(`(?<![A-Za-z0-9-])${b}(?![A-Za-z0-9-])`, 'g'));
  const { mentions, imports } = scanBackendNames(file, text, { ownWord: OWN_WORD, exempt });
  const lines = publicLines(file, text, publicNames());
  return {
    imports: imports.map((spec) => repoImport(file, spec)),
    named: mentions.filter((m) => !lines.has(m.line)).map((m) => `${m.file}:${m.line}: ${m.text}`),
    api: mentions.filter((m) => lines.has(m.line)),
  };
}

/** A plugin's backend: the first the registry builds with it. */
const backendOf = (plugin: (typeof DISTINCT_PLUGINS)[number]) => BACKENDS.find((b) => BACKEND_PLUGINS[b] === plugin)!;
/** A backend of another plugin than `backend`'s, and no FSx one: a plan that no option group applies to. */
const otherThan = (backend: string) => BACKENDS.find((b) => BACKEND_PLUGINS[b] !== BACKEND_PLUGINS[backend as Backend] && !isFsxBackend(b))!;
/** The plugins with an option group of their own, and the prop that holds it. */
const WITH_OPTIONS = DISTINCT_PLUGINS.flatMap((plugin) => (plugin.optionsProp === undefined ? [] : [[plugin.optionsProp, backendOf(plugin)] as const]));

describe("the facade's backends", () => {
  test('the shared files and the backends\' modules are found', () => {
    expect(SHARED.map(([file]) => file)).toEqual(expect.arrayContaining(['lib/storage-server/plan.ts', 'lib/storage-server/validation.ts', 'lib/storage-server/props.ts']));
    expect(BACKEND_MODULES.sort()).toEqual(['lib/backends/ec2-nfs-server.ts', 'lib/backends/fsx-lustre.ts', 'lib/backends/fsx-openzfs.ts']);
  });

  test.each(SHARED)('%s names no backend in code but its own, %j, and the public API', (file, own) => {
    const { imports, named } = scan(file, own);
    if (!file.startsWith('lib/backends/ec2/')) {
      expect(imports.filter((i) => /^lib\/backends\/[^/]+\//.test(i) || BACKEND_MODULES.includes(`${i}.ts`))).toEqual([]);
    }
    expect(named).toEqual([]);
  });

  test('the public API is what names a backend: the facade\'s attributes and props, each seen by the scan', () => {
    expect(scan('lib/storage-server.ts', []).api.map((m) => m.text)).toEqual(expect.arrayContaining(['openZfsFileSystem', 'LustreFileSystem']));
    expect(scan('lib/storage-server/props.ts', []).api.map((m) => m.text)).toEqual(expect.arrayContaining(['fsxOpenZfs', 'fsxLustre']));
  });

  test.each(['lib/backends/fsx-openzfs.ts', 'lib/backends/fsx-lustre.ts'])('%s, a backend\'s own module, is seen as naming its backend', (file) => {
    expect(scan(file, []).named.length).toBeGreaterThan(0);
  });

  test('every option group is a plugin\'s, found by the facade', () => {
    expect(WITH_OPTIONS.map(([prop]) => prop).sort()).toEqual(['fsxLustre', 'fsxOpenZfs']);
  });

  test.each(WITH_OPTIONS)('%s must be an object, as its plugin names it', (prop) => {
    expect(() => serverStack({ [prop]: 'x' } as Partial<StorageServerProps>)).toThrow(new RegExp(`^${prop} must be an object of options, got 'x'\\.$`));
  });

  test.each(WITH_OPTIONS)('%s on another backend\'s plan is refused by its plugin, naming both backends', (prop, backend) => {
    const other = otherThan(backend);
    expect(() => serverStack({ backend: other, capacityTiB: 2, [prop]: {} } as Partial<StorageServerProps>))
      .toThrow(new RegExp(`^${prop} applies to backend '${backend}' only.*; the plan is backend '${other}'\\.$`));
  });

  // Each backend's construct checks some of these again; its plugin's check comes first, on any plan, with the reason.
  test.each([
    ['fsxLustre', { dataRepositoryPath: 'https://hpc-inputs' },
      /^fsxLustre\.dataRepositoryPath must be an S3 path s3:\/\/<bucket>\[\/<prefix>\] of at most 900 characters, got "https:\/\/hpc-inputs": it does not start with 's3:\/\/' \(bucket names by S3's naming rules\)\.$/],
    ['fsxOpenZfs', { standbySubnet: 'subnet-1' }, /^fsxOpenZfs\.standbySubnet must be an ec2\.ISubnet, got 'subnet-1'\.$/],
    ['fsxOpenZfs', { rootSquash: 'no' }, /^fsxOpenZfs\.rootSquash must be one of true, false, got "no"\.$/],
  ] as const)('%s %j: a member of the wrong type is refused by its plugin, before any plan', (prop, options, message) => {
    const backend = WITH_OPTIONS.find(([p]) => p === prop)![1];
    expect(() => serverStack({ backend: otherThan(backend), capacityTiB: 2, [prop]: options } as Partial<StorageServerProps>)).toThrow(message);
  });

  test.each(BACKENDS.filter(isFsxBackend))('the EC2 layout refuses a %s plan: it builds its own backends only', (backend) => {
    const p = { server: {}, plan: { backend } as StoragePlan, capacityTiB: 1, serverName: 's' } as unknown as Ec2NfsServerProps;
    expect(() => ec2ServerLayout(p)).toThrow(`Ec2NfsServer builds the ebs and instance-store backends; ${backend} is a file system of its own`);
  });
});
