// Compact, columnar storage of a query result's cells. JSON.parse gives one JS string per cell
// (~30 bytes each in V8 for short values, against ~14 bytes of JSON); a displayed result keeps
// instead, per column, the concatenated values in a few flat strings, a Uint32Array of offsets
// and a null bitmap, and slices a cell only when someone asks for it (the grid asks only for
// the cells on screen). Shared (no DOM, no node) so the grid, the sort and the text formats
// read every representation through one `CellTable` interface.
import type { Cell } from './wire';

/** Read access to a rectangle of cells. Rows and columns are 0-based; outside it reads NULL. */
export interface CellTable {
  readonly rowCount: number;
  readonly columnCount: number;
  cell(row: number, col: number): Cell;
}

/** Rows as JSON.parse gives them. */
export type CellRows = readonly (readonly Cell[])[];

/** Where a formatter or the sort may read cells from: plain row arrays or any table. */
export type CellSource = CellRows | CellTable;

/** A cell as the wire promised it: a string or NULL (a missing cell is NULL, a stray number its text). */
function normalize(v: unknown): Cell {
  return typeof v === 'string' ? v : v === null || v === undefined ? null : String(v);
}

/** Row arrays seen as a table (no copy). */
export class RowArrayTable implements CellTable {
  constructor(
    readonly rows: CellRows,
    readonly columnCount: number,
  ) {}

  get rowCount(): number {
    return this.rows.length;
  }

  cell(row: number, col: number): Cell {
    if (col < 0 || col >= this.columnCount) return null;
    return normalize(this.rows[row]?.[col]);
  }
}

export function asCellTable(source: CellSource, columnCount: number): CellTable {
  return Array.isArray(source) ? new RowArrayTable(source as CellRows, columnCount) : (source as CellTable);
}

/** The rows of a table as arrays (for small selections and tests; the grid never needs all of them). */
export function tableRows(table: CellTable): Cell[][] {
  const out: Cell[][] = new Array<Cell[]>(table.rowCount);
  for (let r = 0; r < table.rowCount; r++) {
    const row: Cell[] = new Array<Cell>(table.columnCount);
    for (let c = 0; c < table.columnCount; c++) row[c] = table.cell(r, c);
    out[r] = row;
  }
  return out;
}

/**
 * A window onto another table: `rowIndexes` picks and orders its rows (view order), and
 * columns `firstColumn` .. `firstColumn + columnCount - 1` are kept. Nothing is copied.
 */
export class TableView implements CellTable {
  constructor(
    private readonly source: CellTable,
    private readonly rowIndexes: readonly number[],
    private readonly firstColumn = 0,
    readonly columnCount = source.columnCount - firstColumn,
    private readonly firstRow = 0,
    readonly rowCount = rowIndexes.length - firstRow,
  ) {}

  cell(row: number, col: number): Cell {
    if (row < 0 || row >= this.rowCount || col < 0 || col >= this.columnCount) return null;
    const r = this.rowIndexes[this.firstRow + row];
    return r === undefined ? null : this.source.cell(r, this.firstColumn + col);
  }
}

/** Rows per text chunk: small enough that building one chunk is a short task, large enough that chunks stay few. */
const CHUNK_SHIFT = 10;
const CHUNK_ROWS = 1 << CHUNK_SHIFT;

interface StoredColumn {
  /** Chunk k holds the values of rows k*CHUNK_ROWS .. (k+1)*CHUNK_ROWS-1, concatenated. */
  readonly chunks: string[];
  /**
   * offsets[r] is where row r's value starts, counted over the whole column as if the chunks
   * were one string; offsets[rowCount] is the column's total length. Chunk k starts at
   * offsets[k*CHUNK_ROWS]. A NULL or empty value has zero length.
   */
  readonly offsets: Uint32Array;
  /** Bit r set = row r is NULL; undefined when the column has no NULL. */
  nulls: Uint8Array | undefined;
}

/**
 * The compact store. Build it with `ColumnStore.fromRows` (at once) or `ColumnStoreBuilder`
 * (a chunk at a time, so a large result converts in idle time). Immutable once built.
 */
export class ColumnStore implements CellTable {
  private constructor(
    readonly rowCount: number,
    private readonly columns: readonly StoredColumn[],
  ) {}

  /** @internal For ColumnStoreBuilder. */
  static of(rowCount: number, columns: readonly StoredColumn[]): ColumnStore {
    return new ColumnStore(rowCount, columns);
  }

  static fromRows(rows: CellRows, columnCount: number): ColumnStore {
    const b = new ColumnStoreBuilder(rows, columnCount);
    return b.finish();
  }

  get columnCount(): number {
    return this.columns.length;
  }

  isNull(row: number, col: number): boolean {
    const nulls = this.columns[col]?.nulls;
    return !!nulls && ((nulls[row >>> 3] as number) & (1 << (row & 7))) !== 0;
  }

  cell(row: number, col: number): Cell {
    const column = this.columns[col];
    if (!column || row < 0 || row >= this.rowCount) return null;
    const { nulls, offsets } = column;
    if (nulls && ((nulls[row >>> 3] as number) & (1 << (row & 7))) !== 0) return null;
    const k = row >>> CHUNK_SHIFT;
    const base = offsets[k << CHUNK_SHIFT] as number;
    return (column.chunks[k] as string).slice((offsets[row] as number) - base, (offsets[row + 1] as number) - base);
  }

  /** Length of a value without slicing it (0 for NULL). */
  cellLength(row: number, col: number): number {
    const offsets = this.columns[col]?.offsets;
    if (!offsets || row < 0 || row >= this.rowCount) return 0;
    return (offsets[row + 1] as number) - (offsets[row] as number);
  }

  /**
   * Sets flags[r] = 1 for every row with a value in column `col` that contains `needle`
   * (already lower-cased) once lower-cased, like `value.toLowerCase().includes(needle)`.
   * Lower-cases each chunk once instead of each cell, and never counts a match that runs
   * over from one value into the next.
   */
  markRowsContaining(col: number, needle: string, flags: Uint8Array): void {
    const column = this.columns[col];
    if (!column || needle === '') return;
    const { chunks, offsets } = column;
    const len = needle.length;
    for (let k = 0; k < chunks.length; k++) {
      const text = chunks[k] as string;
      if (text.length < len) continue;
      const first = k << CHUNK_SHIFT;
      const end = Math.min(this.rowCount, first + CHUNK_ROWS);
      const lower = text.toLowerCase();
      // Lower-casing text in one piece equals lower-casing each value only when no character
      // changes length (U+0130) or depends on its neighbours (final sigma): otherwise per value.
      if (lower.length !== text.length || text.includes('Σ')) {
        for (let r = first; r < end; r++) {
          if (flags[r]) continue;
          const v = this.cell(r, col);
          if (v !== null && v.toLowerCase().includes(needle)) flags[r] = 1;
        }
        continue;
      }
      const base = offsets[first] as number;
      let p = lower.indexOf(needle);
      while (p >= 0) {
        const at = base + p;
        // The row whose value holds position `at`: the last r with offsets[r] <= at.
        let lo = first;
        let hi = end - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >>> 1;
          if ((offsets[mid] as number) <= at) lo = mid;
          else hi = mid - 1;
        }
        const rowEnd = offsets[lo + 1] as number;
        if (at + len <= rowEnd) {
          flags[lo] = 1;
          p = lower.indexOf(needle, rowEnd - base);
        } else {
          p = lower.indexOf(needle, p + 1);
        }
      }
    }
  }

  /** Sets flags[r] = 1 for every row with a NULL in column `col`. */
  markRowsWithNull(col: number, flags: Uint8Array): void {
    const nulls = this.columns[col]?.nulls;
    if (!nulls) return;
    for (let r = 0; r < this.rowCount; r++) {
      if (((nulls[r >>> 3] as number) & (1 << (r & 7))) !== 0) flags[r] = 1;
    }
  }
}

/**
 * Converts row arrays into a ColumnStore a chunk of rows at a time (`step()`), so a large
 * result can convert in idle time while the arrays serve reads. It holds the row arrays only
 * until `finish()`.
 */
export class ColumnStoreBuilder {
  private rows: CellRows | undefined;
  private readonly rowCount: number;
  private readonly columns: StoredColumn[] = [];
  /** Per column: characters stored so far. */
  private readonly lengths: number[];
  /** Reused per chunk: the values of one column for the chunk's rows. */
  private readonly parts: string[][];
  private nextRow = 0;
  private store: ColumnStore | undefined;

  constructor(rows: CellRows, columnCount: number) {
    this.rows = rows;
    this.rowCount = rows.length;
    for (let c = 0; c < columnCount; c++) {
      this.columns.push({ chunks: [], offsets: new Uint32Array(this.rowCount + 1), nulls: undefined });
    }
    this.lengths = new Array<number>(columnCount).fill(0);
    this.parts = Array.from({ length: columnCount }, () => new Array<string>(Math.min(CHUNK_ROWS, this.rowCount)).fill(''));
  }

  get done(): boolean {
    return this.nextRow >= this.rowCount;
  }

  /** Converts the next chunk of rows; returns true when every row is stored. */
  step(): boolean {
    const rows = this.rows;
    if (!rows || this.done) return true;
    const first = this.nextRow;
    const end = Math.min(this.rowCount, first + CHUNK_ROWS);
    const n = end - first;
    const columnCount = this.columns.length;
    const { columns, parts, lengths } = this;
    // Row by row: each row array is read once while it is in cache.
    for (let r = first; r < end; r++) {
      const row = rows[r];
      for (let c = 0; c < columnCount; c++) {
        const v = normalize(row?.[c]);
        const column = columns[c] as StoredColumn;
        const pos = lengths[c] as number;
        column.offsets[r] = pos;
        const p = parts[c] as string[];
        if (v === null) {
          (column.nulls ??= new Uint8Array((this.rowCount + 7) >>> 3))[r >>> 3] |= 1 << (r & 7);
          p[r - first] = '';
        } else {
          p[r - first] = v;
          lengths[c] = pos + v.length;
        }
      }
    }
    for (let c = 0; c < columnCount; c++) {
      const p = parts[c] as string[];
      if (p.length !== n) p.length = n;
      (columns[c] as StoredColumn).chunks.push(p.join(''));
    }
    this.nextRow = end;
    if (this.done) {
      for (let c = 0; c < columnCount; c++) (columns[c] as StoredColumn).offsets[this.rowCount] = lengths[c] as number;
    }
    return this.done;
  }

  /** Converts what is left, releases the row arrays and returns the store. */
  finish(): ColumnStore {
    if (this.store) return this.store;
    while (!this.step()) {
      // every chunk in turn
    }
    this.rows = undefined;
    this.parts.length = 0;
    this.store = ColumnStore.of(this.rowCount, this.columns);
    return this.store;
  }
}

/**
 * Indexes of the rows where some cell contains `needle` (already trimmed and lower-cased),
 * case-insensitively; NULL cells match when `nullMatches`. In row order.
 */
export function rowsContaining(table: CellTable, needle: string, nullMatches: boolean): number[] {
  const n = table.rowCount;
  const out: number[] = [];
  if (table instanceof ColumnStore) {
    const flags = new Uint8Array(n);
    for (let c = 0; c < table.columnCount; c++) {
      table.markRowsContaining(c, needle, flags);
      if (nullMatches) table.markRowsWithNull(c, flags);
    }
    for (let r = 0; r < n; r++) if (flags[r]) out.push(r);
    return out;
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < table.columnCount; c++) {
      const v = table.cell(r, c);
      if (v === null ? nullMatches : v.toLowerCase().includes(needle)) {
        out.push(r);
        break;
      }
    }
  }
  return out;
}
