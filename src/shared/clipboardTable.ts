// A block of cells pasted from a spreadsheet or another grid: tab-separated text, one row per line,
// as Excel, LibreOffice, Google Sheets and this extension's own grid write it. A cell is quoted
// when it holds a tab, a line break or a quote (`"a""b"` is `a"b`); a quote that does not end the
// cell leaves it as written (Excel's reading of `5" pipe`). An empty unquoted cell is NULL and a
// quoted empty cell (`""`) the empty string, which is how the grid copies them, so a block copied
// from the grid pastes back exactly. The block must be rectangular.

import type { Cell } from './wire';

export class ClipboardTableError extends Error {
  override readonly name = 'ClipboardTableError';
}

/** Most cells one paste may hold (a paste larger than this is refused, not cut). */
export const MAX_PASTE_CELLS = 1_000_000;

interface Field {
  value: Cell;
  /** Index just past the field (at its tab, line break or the end). */
  end: number;
}

/** A quoted field starting at `at` (a quote), or undefined when the quote does not close it. */
function quotedField(text: string, at: number): Field | undefined {
  let out = '';
  let i = at + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return undefined;
    out += text.slice(i, q);
    if (text[q + 1] === '"') {
      out += '"';
      i = q + 2;
      continue;
    }
    const next = text[q + 1];
    if (next === undefined || next === '\t' || next === '\n' || next === '\r') return { value: out, end: q + 1 };
    return undefined;
  }
}

function plainField(text: string, at: number): Field {
  let i = at;
  while (i < text.length && text[i] !== '\t' && text[i] !== '\n' && text[i] !== '\r') i++;
  const raw = text.slice(at, i);
  return { value: raw === '' ? null : raw, end: i };
}

/** The length of the line break at `i` (0 when there is none). */
function lineBreak(text: string, i: number): number {
  if (text[i] === '\r') return text[i + 1] === '\n' ? 2 : 1;
  return text[i] === '\n' ? 1 : 0;
}

/** Splits pasted text into rows of cells; throws ClipboardTableError when it is not a rectangle. */
export function parseClipboardTable(text: string): Cell[][] {
  if (text === '') return [];
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let i = 0;
  let cells = 0;
  while (i <= text.length) {
    const f = text[i] === '"' ? (quotedField(text, i) ?? plainField(text, i)) : plainField(text, i);
    row.push(f.value);
    if (++cells > MAX_PASTE_CELLS)
      throw new ClipboardTableError(`The pasted block has more than ${MAX_PASTE_CELLS.toLocaleString('en-US')} cells.`);
    i = f.end;
    if (text[i] === '\t') {
      i++;
      continue;
    }
    rows.push(row);
    row = [];
    const br = lineBreak(text, i);
    // A line break at the very end closes the last row; it does not start an empty one.
    if (br === 0 || i + br >= text.length) break;
    i += br;
  }
  const width = rows[0]?.length ?? 0;
  const ragged = rows.findIndex((r) => r.length !== width);
  if (ragged >= 0) {
    throw new ClipboardTableError(
      `The pasted text is not a rectangle of cells: row ${ragged + 1} has ${rows[ragged]?.length} cells, row 1 has ${width}.`,
    );
  }
  return rows;
}
