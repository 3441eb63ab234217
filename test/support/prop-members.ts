/**
 * The facade's props as TypeScript reads lib/storage-server/props.ts: each member of StorageServerProps with the
 * member names of its type, such as `fsxLustre` with `deploymentType`, `rootSquash` ... (inherited ones included). The
 * context descriptors build these props without loading the CDK, so they cannot name the types themselves. Beside it,
 * the plain-string members of an interface, whose values a rule must check.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { REPO_ROOT, repoCompilerOptions, virtualProgram } from './virtual-program';

/** Each prop's name, with its type's members; none for a prop whose type has no members of its own, such as a string. */
export function storageServerPropMembers(): Map<string, string[]> {
  const file = path.join(REPO_ROOT, 'lib', 'storage-server', 'props.ts');
  const program = virtualProgram(new Map(), repoCompilerOptions(), [file]);
  const checker = program.getTypeChecker();
  const declaration = program.getSourceFile(file)?.statements
    .find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'StorageServerProps');
  if (!declaration) throw new Error(`${file}: no interface StorageServerProps`);
  const members = new Map<string, string[]>();
  for (const prop of checker.getTypeAtLocation(declaration.name).getProperties()) {
    const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, declaration));
    const objectLike = (type.flags & ts.TypeFlags.Object) !== 0;
    members.set(prop.name, objectLike ? type.getProperties().map((p) => p.name) : []);
  }
  return members;
}

/** `file` and every repository file it imports, directly or not: the files a program reads without node_modules. */
function ownImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const ref of ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true).importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const target = ts.resolveModuleName(ref.fileName, file, {}, ts.sys).resolvedModule?.resolvedFileName;
    if (target && !target.includes(`${path.sep}node_modules${path.sep}`)) ownImports(target, seen);
  }
  return seen;
}

/**
 * The members of interface `name` in `file` (relative to the repository) whose type holds a plain `string`: a string
 * enum such as FsType, a closed set, is not one. The program reads the repository's files alone, since a type of a
 * package is never a plain string; such a member, unresolved, must name its package's type by an import.
 */
export function stringMembers(file: string, name: string): string[] {
  const absolute = path.join(REPO_ROOT, file);
  const program = virtualProgram(new Map(), repoCompilerOptions({ noResolve: true, types: [] }), [...ownImports(absolute)]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(absolute);
  const declaration = source?.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!source || !declaration) throw new Error(`${file}: no interface ${name}`);
  const packages = new Set(source.statements.filter(ts.isImportDeclaration)
    .filter((i) => ts.isStringLiteral(i.moduleSpecifier) && !i.moduleSpecifier.text.startsWith('.'))
    .flatMap((i) => {
      const bindings = i.importClause?.namedBindings;
      if (!bindings) return i.importClause?.name ? [i.importClause.name.text] : [];
      return ts.isNamespaceImport(bindings) ? [bindings.name.text] : bindings.elements.map((e) => e.name.text);
    }));
  return checker.getTypeAtLocation(declaration.name).getProperties()
    .filter((prop) => {
      const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, declaration));
      if (type.flags & ts.TypeFlags.Any) {
        const node = (prop.valueDeclaration as ts.PropertySignature | undefined)?.type;
        const head = node && ts.isTypeReferenceNode(node) ? node.typeName.getText().split('.')[0] : undefined;
        if (head === undefined || !packages.has(head)) throw new Error(`${file}: ${name}.${prop.name} has a type this program cannot read`);
        return false;
      }
      return (type.isUnion() ? type.types : [type]).some((t) => (t.flags & ts.TypeFlags.String) !== 0);
    })
    .map((prop) => prop.name);
}
