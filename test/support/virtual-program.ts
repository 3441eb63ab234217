/**
 * A TypeScript program over the repository's sources plus files served from memory, compiled with the repository's
 * strict options of tsconfig.json. It type-checks README examples and inspects the public API's documentation without
 * writing anything to disk.
 */
import * as path from 'path';
import * as ts from 'typescript';

/** Repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The repository's compiler options, from tsconfig.json, with emit off. */
export function repoCompilerOptions(extra: ts.CompilerOptions = {}): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  return { ...parsed.options, noEmit: true, ...extra };
}

// Files on disk, aws-cdk-lib's declarations above all, are parsed once per process, not once per program.
const parsedFiles = new Map<string, ts.SourceFile>();

/**
 * A program whose root files are `virtualFiles` and `rootFiles` on disk. `virtualFiles` maps an absolute path to a
 * text; put them inside the repository so that node_modules resolves.
 */
export function virtualProgram(
  virtualFiles: Map<string, string>,
  options: ts.CompilerOptions,
  rootFiles: string[] = [],
): ts.Program {
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const virtualDirs = new Set([...virtualFiles.keys()].map((f) => path.dirname(f)));
  host.fileExists = (f) => virtualFiles.has(f) || fileExists.call(host, f);
  // Module resolution skips directories that do not exist: the virtual files' directories must.
  host.directoryExists = (d) =>
    virtualDirs.has(d) || (directoryExists?.call(host, d) ?? ts.sys.directoryExists(d));
  host.readFile = (f) => virtualFiles.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, languageVersion, onError, shouldCreate) => {
    const text = virtualFiles.get(f);
    if (text !== undefined) return ts.createSourceFile(f, text, languageVersion, true);
    let source = parsedFiles.get(f);
    if (!source) {
      source = getSourceFile.call(host, f, languageVersion, onError, shouldCreate);
      if (source) parsedFiles.set(f, source);
    }
    return source;
  };
  return ts.createProgram([...virtualFiles.keys(), ...rootFiles], options, host);
}
