/**
 * The members and parameters of the public API whose type is a string literal or a union holding one. jsii turns such
 * a type into a plain `string` in every other language, silently: the closed set is lost. The public API names a
 * closed set with an enum instead, which jsii keeps.
 *
 * It reads what `entry` exports, followed through `export *` and aliases, as TypeScript's checker resolves it, so a
 * literal behind a type alias is found too. Of each exported interface and class it reads the members declared in the
 * repository, not those inherited from aws-cdk-lib: their properties, and the parameters and return types of their
 * methods and constructors; of each exported function its parameters and return type. Arrays are read through.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { REPO_ROOT, repoCompilerOptions, virtualProgram } from './virtual-program';

/** One member or parameter typed with a string literal. */
export interface LiteralTyped {
  /** `Name.member`, `Name.method(param)`, `Name.method()` for a return type, or `function(param)`. */
  readonly where: string;
  /** The type as TypeScript prints it. */
  readonly type: string;
}

/** Each member or parameter of what `entry` exports whose type holds a string literal; `virtualFiles` for tests. */
export function literalTypedMembers(entry: string, virtualFiles = new Map<string, string>()): LiteralTyped[] {
  const program = virtualProgram(virtualFiles, repoCompilerOptions(), virtualFiles.has(entry) ? [] : [entry]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`${entry} is not part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${entry} exports nothing`);

  const found: LiteralTyped[] = [];
  const check = (where: string, type: ts.Type): void => {
    if (holdsStringLiteral(checker, type)) found.push({ where, type: checker.typeToString(type) });
  };
  const checkSignature = (where: string, decl: ts.SignatureDeclaration): void => {
    for (const param of decl.parameters) check(`${where}(${param.name.getText()})`, checker.getTypeAtLocation(param));
    const signature = checker.getSignatureFromDeclaration(decl);
    if (signature && !ts.isConstructorDeclaration(decl)) check(`${where}()`, checker.getReturnTypeOfSignature(signature));
  };

  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.getName();
    for (const decl of symbol.declarations ?? []) {
      if (!isOwn(decl)) continue;
      if (ts.isFunctionDeclaration(decl)) checkSignature(name, decl);
      if (!ts.isInterfaceDeclaration(decl) && !ts.isClassDeclaration(decl)) continue;
      for (const member of decl.members) {
        if (isPrivate(member)) continue;
        const memberName = member.name?.getText() ?? 'constructor';
        if (ts.isPropertySignature(member) || ts.isPropertyDeclaration(member) || ts.isGetAccessorDeclaration(member)) {
          check(`${name}.${memberName}`, checker.getTypeAtLocation(member));
        } else if (ts.isMethodSignature(member) || ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) {
          checkSignature(`${name}.${memberName}`, member);
        }
      }
    }
  }
  return found;
}

/** Whether `type`, or a member of its union, or its array's element, is a string literal that is not an enum member. */
function holdsStringLiteral(checker: ts.TypeChecker, type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => {
    if (t.flags & ts.TypeFlags.EnumLiteral) return false;
    if (t.flags & ts.TypeFlags.StringLiteral || t.flags & ts.TypeFlags.TemplateLiteral) return true;
    return checker.isArrayType(t) && checker.getTypeArguments(t as ts.TypeReference).some((e) => holdsStringLiteral(checker, e));
  });
}

/** A declaration in the repository's own files, not in node_modules. */
function isOwn(decl: ts.Declaration): boolean {
  const file = path.relative(REPO_ROOT, decl.getSourceFile().fileName);
  return !file.startsWith('..') && !file.split(path.sep).includes('node_modules');
}

/** A private member, which jsii leaves out; protected ones it keeps. */
function isPrivate(member: ts.ClassElement | ts.TypeElement): boolean {
  const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) || (member.name !== undefined && ts.isPrivateIdentifier(member.name));
}
