/**
 * Text for a terminal `width` columns wide: `npm run plan` wraps its help, tables and messages with these, so that no
 * line is wider than the terminal. Words break at spaces; a word wider than its room breaks after a comma, bar or
 * slash, else at the room's edge.
 */

/** No width at all: the text as written, one line per line. */
export const UNWRAPPED = Infinity;

/**
 * One line of text as lines of at most `width` columns: the first keeps its leading spaces, the others start with
 * `hang` spaces.
 */
export function wrapLine(line: string, width: number, hang = 0): string[] {
  const lead = /^ */.exec(line)?.[0] ?? '';
  const words = line.slice(lead.length).split(' ').filter((w) => w !== '');
  if (line.length <= width || words.length === 0) return [line.trimEnd()];
  const lines: string[] = [];
  let current = lead;
  const indent = ' '.repeat(Math.min(hang, width - 1));
  for (const word of words) {
    const fresh = current.trim() === '';
    if (!fresh && current.length + 1 + word.length <= width) {
      current += ` ${word}`;
      continue;
    }
    if (!fresh) {
      lines.push(current);
      current = indent;
    }
    const pieces = breakWord(word, width - current.length);
    for (const piece of pieces.slice(0, -1)) {
      lines.push(current + piece);
      current = indent;
    }
    current += pieces[pieces.length - 1];
  }
  lines.push(current);
  return lines;
}

/** Every line of `text` wrapped by wrapLine, joined again. */
export function wrapText(text: string, width: number, hang = 0): string {
  return text.split('\n').flatMap((line) => wrapLine(line, width, hang)).join('\n');
}

/** A word as pieces of at most `room` columns, each broken after its last comma, bar or slash that fits. */
function breakWord(word: string, room: number): string[] {
  const pieces: string[] = [];
  let rest = word;
  const most = Math.max(room, 1);
  while (rest.length > most) {
    const head = rest.slice(0, most);
    const at = Math.max(head.lastIndexOf(','), head.lastIndexOf('|'), head.lastIndexOf('/')) + 1;
    const cut = at > 0 ? at : most;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...pieces, rest];
}

/**
 * Rows of cells as lines of at most `width` columns: each column as wide as its widest cell, two spaces between
 * columns, so every cell of a column starts at the same offset. When the columns are too wide, the widest narrows
 * first, its cells wrapped onto more lines, until they fit; a word breaks only when no column can narrow further
 * without breaking one.
 */
export function alignColumns(rows: readonly (readonly string[])[], width = UNWRAPPED): string {
  const columns = rows[0].length;
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const longestWord = widths.map((_, i) => Math.max(1, ...rows.flatMap((r) => (r[i] ?? '').split(' ').map((w) => w.length))));
  const room = width - 2 * (columns - 1);
  for (const floor of [longestWord, widths.map(() => 1)]) {
    while (widths.reduce((a, b) => a + b, 0) > room) {
      const narrowable = widths.map((w, i) => (w > floor[i] ? w : -1));
      const widest = narrowable.indexOf(Math.max(...narrowable));
      if (narrowable[widest] < 0) break;
      widths[widest]--;
    }
  }
  return rows.flatMap((r) => {
    const cells = widths.map((w, i) => wrapLine(r[i] ?? '', w));
    const height = Math.max(...cells.map((c) => c.length));
    return Array.from({ length: height }, (_, line) =>
      cells.map((c, i) => (i < columns - 1 ? (c[line] ?? '').padEnd(widths[i]) : (c[line] ?? ''))).join('  ').trimEnd());
  }).join('\n');
}
