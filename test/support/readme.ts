/**
 * README code examples: extraction of the fenced TypeScript blocks, and a type-check of each block as the
 * module a user would paste, with the package's name resolving to the package's sources.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { REPO_ROOT, repoCompilerOptions, virtualProgram } from './virtual-program';

export { REPO_ROOT };

/** The README section whose first TypeScript block is the complete consumer app. */
export const LIBRARY_SECTION = 'Use as a library';

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The info string's first word, e.g. `ts`. */
  readonly lang: string;
  /** The block's text, without the fences. */
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** Title of the `## ` section the block is in; '' before the first one. */
  readonly section: string;
}

/** Every fenced code block of `markdown`, by ```, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+?)\s*$/.exec(lines[i]);
    if (heading) section = heading[1];
    // Fences may be indented, as for a block inside a list item; the block's lines lose that indentation.
    const fence = /^(\s*)```\s*([\w-]*)/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    if (end < 0) throw new Error(`unclosed code fence at line ${i + 1}`);
    const indent = fence[1].length;
    const code = lines.slice(i + 1, end).map((l) => (l.slice(0, indent).trim() === '' ? l.slice(indent) : l)).join('\n');
    blocks.push({ lang: fence[2], code, line: i + 1, section });
    i = end;
  }
  return blocks;
}

/** The TypeScript blocks, ```ts or ```typescript. */
export function typeScriptBlocks(markdown: string): CodeBlock[] {
  return codeBlocks(markdown).filter((b) => b.lang === 'ts' || b.lang === 'typescript');
}

/** The complete app of the "Use as a library" section: its first TypeScript block. */
export function libraryExample(markdown: string): CodeBlock {
  const block = typeScriptBlocks(markdown).find((b) => b.section === LIBRARY_SECTION);
  if (!block) throw new Error(`README.md has no \`\`\`ts block in its "## ${LIBRARY_SECTION}" section`);
  return block;
}

/** The package's name, from package.json. */
export function packageName(): string {
  return manifest().name;
}

/** The package's version, from package.json. */
export function packageVersion(): string {
  return manifest().version;
}

/** The file `npm pack` makes of the package: `@scope/name` becomes `scope-name`, then `-<version>.tgz`. */
export function tarballName(): string {
  return `${packageName().replace(/^@/, '').replace('/', '-')}-${packageVersion()}.tgz`;
}

/**
 * The install commands of the "Use as a library" section, its
 * ```sh blocks. The package is not on a registry, so the release's tag is checked out, packed with `npm
 * pack`, and the app installs the tarball. Returns the tarball path its `npm
 * install` names. Throws naming what is missing: the tag `v<version>`, `npm ci`, `npm pack`, or the `npm
 * install` of this version's tarball.
 */
export function installedTarball(markdown: string): string {
  // The section's prose, which names the tag to check out, and its ```sh blocks, the commands.
  const section = markdown.slice(markdown.indexOf(`## ${LIBRARY_SECTION}`));
  const commands = `${section.slice(0, section.indexOf('```'))}\n${codeBlocks(markdown)
    .filter((b) => b.section === LIBRARY_SECTION && b.lang === 'sh')
    .map((b) => b.code)
    .join('\n')}`;
  const version = packageVersion();
  const expected: [string, RegExp][] = [
    [`the release's tag, git checkout v${version}`, new RegExp(`git checkout v${escape(version)}\\b`)],
    ['npm ci', /\bnpm ci\b/],
    ['npm pack', /\bnpm pack\b/],
  ];
  const missing = expected.filter(([, re]) => !re.test(commands)).map(([what]) => what);
  const install = new RegExp(`\\bnpm install (\\S*${escape(tarballName())})`).exec(commands);
  if (!install) missing.push(`npm install <path>/${tarballName()}`);
  if (!install || missing.length > 0) {
    throw new Error(`README.md's "## ${LIBRARY_SECTION}" install commands lack: ${missing.join('; ')}`);
  }
  return install[1];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function manifest(): { name: string; version: string } {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
}

/**
 * Type-checks each block as its own module, with the repository's strict compiler options and the package's
 * name mapped to `lib/index.ts`. The blocks are served from memory at paths inside the repository, so
 * `aws-cdk-lib` and `constructs` resolve from its node_modules; nothing is written to disk.
 * Returns one message per diagnostic in a block, `README.md:<line>: <message>`, with the README's line.
 */
export function typeCheckBlocks(blocks: CodeBlock[]): string[] {
  const options = repoCompilerOptions({
    paths: { [packageName()]: [path.join(REPO_ROOT, 'lib', 'index.ts')] },
  });
  const dir = path.join(REPO_ROOT, 'test', '.readme-examples');
  const files = new Map(blocks.map((b) => [path.join(dir, `readme-line-${b.line}.ts`), b]));
  const program = virtualProgram(new Map([...files].map(([f, b]) => [f, b.code])), options);
  const problems = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (d) => `compiler: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  );
  for (const [file, block] of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`the example at README.md:${block.line} was not loaded`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const d of diagnostics) {
      const codeLine = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      // +1: the opening fence is on block.line, the code starts on the next line.
      const readmeLine = block.line + 1 + codeLine;
      problems.push(`README.md:${readmeLine}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
  }
  return problems;
}

/** One shell command of a README ```sh block: continuation lines joined, comments and blank lines dropped. */
export interface ShellCommand {
  readonly command: string;
  /** 1-based README line where the command starts. */
  readonly line: number;
  /** Title of the `## ` section the command is in. */
  readonly section: string;
  /** Marked as needing an AWS account: by a comment on its line, or a comment line above it in its block. */
  readonly needsAwsAccount: boolean;
}

/** The marker a README shell command carries when it cannot run without an AWS account. */
export const AWS_ACCOUNT_MARKER = 'needs an AWS account';

/** Every command of the ```sh / ```bash / ```console blocks of `markdown`, in order. */
export function shellCommands(markdown: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const block of codeBlocks(markdown).filter((b) => ['sh', 'bash', 'shell', 'console'].includes(b.lang))) {
    const lines = block.code.split('\n');
    let markedAbove = false;
    for (let i = 0; i < lines.length; i++) {
      const start = i;
      let text = lines[i];
      while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
      const command = text.replace(/^\$ /, '').trim();
      if (command.startsWith('#')) markedAbove ||= command.includes(AWS_ACCOUNT_MARKER);
      if (command === '' || command.startsWith('#')) continue;
      const needsAwsAccount = markedAbove || /\s#.*/.exec(command)?.[0].includes(AWS_ACCOUNT_MARKER) === true;
      commands.push({ command, line: block.line + 1 + start, section: block.section, needsAwsAccount });
    }
  }
  return commands;
}

/** The `-c key=value` pairs of a `cdk synth|deploy|diff` command line, values without quotes or spaces. */
export function cdkContextOf(command: string): Record<string, string> {
  const context: Record<string, string> = {};
  for (const m of command.matchAll(/(?:^|\s)(?:-c|--context)\s+([A-Za-z0-9_]+)=(\S+)/g)) context[m[1]] = m[2].replace(/^'(.*)'$/, '$1');
  return context;
}
