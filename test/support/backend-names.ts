/**
 * What of a TypeScript file's code names a backend, as TypeScript's parser reads it, for the tests that hold a shared
 * part (the context parser, the monitoring, the update guard) to naming none: comments may, code may not.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { BACKENDS } from '../../lambda/register/contract';

/** A string literal that holds a backend's name as a word of its own, such as `-c backend=ebs` or `'aws/ebs'`. */
export const BACKEND_NAME = new RegExp(`(?<![A-Za-z0-9-])(?:${BACKENDS.join('|')})(?![A-Za-z0-9-])`);

/** One place in code that names a backend: its file, its 1-based line and what it shows. */
export interface BackendMention {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface ScanOptions {
  /** What is one backend's own, in any case and spelling; matched in identifiers and string literals. */
  readonly ownWord: RegExp;
  /** Phrases taken out of a string literal before it is matched: names that look like a backend's and are not. */
  readonly exempt?: readonly RegExp[];
  /** Also report an import of a package whose name matches `ownWord`, such as `aws-cdk-lib/aws-fsx`. */
  readonly packages?: boolean;
}

/**
 * The places in `text` (the file `file`) whose code names a backend, its string literals, and its module specifiers
 * as written.
 */
export function scanBackendNames(file: string, text: string, options: ScanOptions): { mentions: BackendMention[]; literals: string[]; imports: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const mentions: BackendMention[] = [];
  const literals: string[] = [];
  const imports: string[] = [];
  const at = (node: ts.Node, shown: string): BackendMention =>
    ({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: shown });
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      imports.push(spec);
      if (options.packages && !spec.startsWith('.') && options.ownWord.test(spec)) mentions.push(at(node, `import ${JSON.stringify(spec)}`));
      return;
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      literals.push(node.text);
      const rest = (options.exempt ?? []).reduce((t, phrase) => t.replace(phrase, ''), node.text);
      if (BACKEND_NAME.test(rest) || options.ownWord.test(rest)) mentions.push(at(node, JSON.stringify(node.text)));
    } else if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && options.ownWord.test(node.text)) {
      mentions.push(at(node, node.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { mentions, literals, imports };
}

/** A module specifier of `file` as a repository path when it is relative, as written when it names a package. */
export function repoImport(file: string, spec: string): string {
  return spec.startsWith('.') ? path.posix.join(path.posix.dirname(file), spec) : spec;
}

/** The TypeScript files under `dir` (relative to `root`), recursively, as paths relative to `root`, sorted. */
export function tsFilesUnder(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFilesUnder(root, rel);
    return rel.endsWith('.ts') ? [rel] : [];
  }).sort();
}
