/**
 * The public API's documentation rules. Every symbol the package exports has TSDoc, and so do the public members of its
 * classes and interfaces. Every optional property of an exported interface, that is every prop, states its `@default`.
 * TypeDoc's `validation.notDocumented` checks the first rule as the reference renders it. This check adds the
 * `@default` rule, which TypeDoc does not have.
 *
 * As a script, `ts-node --transpile-only test/support/api-docs.ts [entry]` lists the gaps of the entry, lib/index.ts by
 * default, as `file:line: symbol: problem`, and exits 1 if there is any.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { REPO_ROOT, repoCompilerOptions, virtualProgram } from './virtual-program';

/** One missing piece of documentation. */
export interface DocGap {
  /** File of the declaration, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the declaration. */
  readonly line: number;
  /** `Symbol` or `Symbol.member`. */
  readonly symbol: string;
  /** What is missing. */
  readonly problem: 'no TSDoc' | 'no @default';
}

/**
 * The documentation gaps of everything `entry` exports, followed through `export *`, declared in files of the
 * repository rather than node_modules. `virtualFiles` serves extra files from memory, for tests.
 */
export function apiDocGaps(entry: string, virtualFiles = new Map<string, string>()): DocGap[] {
  const program = virtualFiles.size
    ? virtualProgram(virtualFiles, repoCompilerOptions(), virtualFiles.has(entry) ? [] : [entry])
    : virtualProgram(new Map(), repoCompilerOptions(), [entry]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`${entry} is not part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${entry} exports nothing`);

  const gaps: DocGap[] = [];
  const seen = new Set<ts.Declaration>();
  const gap = (node: ts.Node, symbol: string, problem: DocGap['problem']): void => {
    const file = node.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    gaps.push({ file: path.relative(REPO_ROOT, file.fileName), line, symbol, problem });
  };

  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    for (const decl of symbol.declarations ?? []) {
      if (seen.has(decl) || !isOwn(decl)) continue;
      seen.add(decl);
      const name = exported.getName();
      if (!hasDoc(decl)) gap(decl, name, 'no TSDoc');
      if (ts.isInterfaceDeclaration(decl) || ts.isClassDeclaration(decl)) {
        for (const member of decl.members) checkMember(member, name, ts.isInterfaceDeclaration(decl), gap);
      }
      if (ts.isEnumDeclaration(decl)) {
        for (const member of decl.members) {
          if (!hasDoc(member)) gap(member, `${name}.${member.name.getText()}`, 'no TSDoc');
        }
      }
    }
  }
  return gaps;
}

function checkMember(
  member: ts.ClassElement | ts.TypeElement,
  owner: string,
  inInterface: boolean,
  gap: (node: ts.Node, symbol: string, problem: DocGap['problem']) => void,
): void {
  // Constructors are documented by their class; index signatures and private parts are not API.
  if (ts.isConstructorDeclaration(member) || ts.isIndexSignatureDeclaration(member) || !member.name) return;
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  if (
    modifiers.some(
      (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
    )
  ) {
    return;
  }
  if (ts.isPrivateIdentifier(member.name)) return;
  const name = `${owner}.${member.name.getText()}`;
  if (!hasDoc(member)) gap(member, name, 'no TSDoc');
  const optionalProp = inInterface && ts.isPropertySignature(member) && member.questionToken !== undefined;
  if (optionalProp && !ts.getJSDocTags(member).some((t) => t.tagName.text === 'default')) {
    gap(member, name, 'no @default');
  }
}

/** A TSDoc comment, `/** ... *\/`, with some text or tags. Variables carry it on their statement. */
function hasDoc(node: ts.Node): boolean {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  return ts
    .getJSDocCommentsAndTags(target)
    .some((d) => ts.isJSDoc(d) && (d.comment !== undefined || !!d.tags?.length));
}

function isOwn(decl: ts.Declaration): boolean {
  const file = decl.getSourceFile().fileName;
  return !file.split(/[\\/]/).includes('node_modules') && path.resolve(file).startsWith(REPO_ROOT + path.sep);
}

if (require.main === module) {
  const entry = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'lib', 'index.ts'));
  const gaps = apiDocGaps(entry);
  for (const g of gaps) console.log(`${g.file}:${g.line}: ${g.symbol}: ${g.problem}`);
  console.log(
    gaps.length
      ? `${gaps.length} documentation gap(s)`
      : 'every export documented, every optional prop has @default',
  );
  process.exitCode = gaps.length ? 1 : 0;
}
