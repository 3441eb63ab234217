/**
 * The width of the user pages' prose: README.md and the reference pages under docs/. `wideLines` finds the lines over
 * the limit outside code blocks and tables (a table row or a command is one line however wide). A link's web address
 * does not count, as it cannot break, nor does a line of one word. `wrapMarkdown` refills paragraphs and list items to fit,
 * keeping each link and each code span of up to 80 columns whole, since tests match code spans as written and the link
 * check reads one line at a time. Refill after an edit that leaves a line too wide:
 *
 *   bash test/support/tools.sh ts-node --transpile-only test/support/markdown-width.ts README.md docs/context-keys.md
 */
import * as fs from 'fs';

/** The widest a prose line of a user page may be, in columns. */
export const PROSE_WIDTH = 100;

/** A line over the limit: its 1-based number, its width and its text. */
export interface WideLine {
  readonly line: number;
  readonly width: number;
  readonly text: string;
}

const FENCE = /^\s*(```|~~~)/;
const TABLE_ROW = /^\s*\|/;
const HEADING = /^#{1,6}\s/;
const LIST_ITEM = /^(\s*)([-*]|\d+\.)\s+/;

/** The columns `text` takes, each web address of a link left out: `[text](https://...)` counts as `[text]()`. */
function proseColumns(text: string): number {
  return [...text.replace(/(!?\[[^\]]*\])\([a-z][a-z0-9+.-]*:\/\/[^)]*\)/gi, '$1()')].length;
}

/** Whether `text` is one word, after its indentation and list marker. */
function oneWord(text: string): boolean {
  return !/\s/.test(text.trim().replace(/^([-*]|\d+\.)\s+/, ''));
}

/** Each line of `markdown` over `width` columns, links' web addresses aside, but a line of one word; code and tables aside. */
export function wideLines(markdown: string, width = PROSE_WIDTH): WideLine[] {
  const wide: WideLine[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (FENCE.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced || TABLE_ROW.test(text)) return;
    if (proseColumns(text) > width && !oneWord(text)) wide.push({ line: i + 1, width: proseColumns(text), text });
  });
  return wide;
}

/** The longest code span kept on one line; a longer one breaks at its spaces, as Markdown allows. */
const CODE_SPAN_HELD = 80;

/** The words of a text, each link and each code span of up to 80 columns one word however many spaces it holds. */
function words(text: string): string[] {
  const SPACE = '\u0000';
  const held = text
    .replace(/`[^`]*`/g, (s) => ([...s].length <= CODE_SPAN_HELD ? s.replace(/\s+/g, SPACE) : s))
    .replace(/!?\[[^\]]*\]\([^)]*\)/g, (s) => s.replace(/\s+/g, SPACE));
  return held.split(/\s+/).filter((w) => w !== '').map((w) => w.split(SPACE).join(' '));
}

/** `words` filled into lines of at most `width` columns, the first after `first`, the rest after `indent`. */
function fill(ws: string[], first: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const w of ws) {
    if (!empty && proseColumns(`${line} ${w}`) > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += (empty ? '' : ' ') + w;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * `markdown` with every paragraph and list item refilled to `width` columns; code blocks, tables, headings and blank
 * lines are kept as they are. A word longer than a line takes a line of its own.
 */
export function wrapMarkdown(markdown: string, width = PROSE_WIDTH): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fenced = false;
  const plain = (l: string) => l.trim() !== '' && !FENCE.test(l) && !TABLE_ROW.test(l) && !HEADING.test(l);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || FENCE.test(line) || !plain(line)) {
      out.push(line);
      continue;
    }
    // A paragraph or list item: this line and the lines that continue it.
    const item = LIST_ITEM.exec(line);
    const first = item ? item[0].replace(/\s+$/, ' ') : /^\s*/.exec(line)![0];
    const indent = item ? ' '.repeat(first.length) : first;
    const texts = [line.slice(item ? item[0].length : first.length)];
    while (i + 1 < lines.length && plain(lines[i + 1]) && !LIST_ITEM.test(lines[i + 1])) texts.push(lines[++i]);
    out.push(...fill(words(texts.join(' ')), first, indent, width));
  }
  return out.join('\n');
}

if (require.main === module) {
  for (const file of process.argv.slice(2)) {
    const before = fs.readFileSync(file, 'utf8');
    const after = wrapMarkdown(before);
    if (after !== before) fs.writeFileSync(file, after);
    for (const w of wideLines(after)) console.log(`${file}:${w.line}: ${w.width} columns`);
  }
}
