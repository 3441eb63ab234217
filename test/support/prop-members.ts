/**
 * The facade's props as TypeScript reads lib/storage-server/props.ts: each member of StorageServerProps with the
 * member names of its type, such as `fsxLustre` with `deploymentType`, `rootSquash` ... (inherited ones included). The
 * context descriptors build these props without loading the CDK, so they cannot name the types themselves.
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
