// A copied diff's cells as the hub answers them (diffRowCache.ts): for each row, its cells' text as
// runSelect (selectRunner.ts) reads it from SQLite (`sqlite3_column_text`, blobs as a marker, NULL
// as null) and each cell's SQLite type. Read once, when the copy is made, on the very statement
// that reads the diff (diffCopyRead.ts), so a page served from the copy (directPage.ts) gives the
// same cells as the page read through SQLite without a second pass through it. A row is kept as one JSON text (a
// few bytes a cell, one string a row), its types as one byte a cell.
import type { Cell } from '../../shared/wire';

/** One row's cells as answered, each as its JSON text (a string literal or `null`), and their SQLite types. */
export interface AnswerPieces {
  pieces: string[];
  types: Uint8Array;
}

/** Appends rows of `width` answered cells; `bytes` is what they take so far (estimated). */
export class AnswerRowsWriter {
  private readonly rows: string[] = [];
  private types = new Uint8Array(1024);
  bytes = 0;

  constructor(readonly width: number) {}

  add(cells: readonly Cell[], types: readonly number[]): void {
    const text = JSON.stringify(cells);
    const at = this.rows.length * this.width;
    if (at + this.width > this.types.length) {
      const next = new Uint8Array(Math.max(this.types.length * 2, at + this.width));
      next.set(this.types);
      this.types = next;
    }
    for (let c = 0; c < this.width; c++) this.types[at + c] = types[c] as number;
    this.rows.push(text);
    // A string's characters (two bytes each at worst), its header, and the types.
    this.bytes += 2 * text.length + 32 + this.width;
  }

  /** The rows so far (later rows are appended past them: the view stays exact). */
  sofar(): AnswerRows {
    return new AnswerRows(this.width, this.rows, this.types.subarray(0, this.rows.length * this.width));
  }

  finish(): AnswerRows {
    return new AnswerRows(this.width, this.rows, this.types.slice(0, this.rows.length * this.width));
  }
}

export class AnswerRows {
  constructor(
    readonly width: number,
    private readonly rows: readonly string[],
    private readonly types: Uint8Array,
  ) {}

  /** Row `r`'s cells as JSON texts, cut out of the row's text without parsing it (a page passes them on as they are). */
  pieces(r: number): AnswerPieces {
    return { pieces: jsonCells(this.rows[r] as string), types: this.types.subarray(r * this.width, (r + 1) * this.width) };
  }
}

/**
 * The cells of a JSON array of strings and nulls, as JSON.stringify wrote it (no spaces), each as
 * its own JSON text: a string ends at the first quote not escaped by an odd run of backslashes.
 */
export function jsonCells(text: string): string[] {
  const out: string[] = [];
  const end = text.length - 1;
  let at = 1;
  while (at < end) {
    if (text.charCodeAt(at) === 0x22) {
      let close = text.indexOf('"', at + 1);
      while (escaped(text, close)) close = text.indexOf('"', close + 1);
      out.push(text.slice(at, close + 1));
      at = close + 2;
    } else {
      const comma = text.indexOf(',', at);
      const stop = comma < 0 ? end : comma;
      out.push(text.slice(at, stop));
      at = stop + 1;
    }
  }
  return out;
}

/** Is the quote at `i` escaped (an odd number of backslashes before it)? */
function escaped(text: string, i: number): boolean {
  let n = 0;
  while (text.charCodeAt(i - 1 - n) === 0x5c) n++;
  return n % 2 === 1;
}
