// Reading a diff into a copy (diffRowCache.ts) in bulk: DoltLite gives each row of the copy's
// statement as one JSON text (`json_array` over the sorted rows, a co-routine, so every cell is made
// once), parsed in JS, instead of every cell read out of WASM one call at a time (about 1.4 s of a
// 100,000-row diff's copy). The JSON text is exact for what it holds, and the statement also
// returns each cell itself, read one by one only where the text is not enough:
// - a string is a text cell: exact, unless it holds U+FFFD (invalid UTF-8 decodes to it): then
//   the cell's bytes are read;
// - a number is an integer or a real. A number with a fraction is a real; a whole number may be
//   either, so its type is read. An integer is exact when safe (an int64 past 2^53 never parses
//   to a safe number): otherwise the int64 is read. A real's value is its JSON number (exact: the
//   digits SQLite writes read back as the same double), but a zero's is read (its sign); its answer
//   text is read;
// - null is NULL or a blob (left out of the text: json_array would read it as JSONB): its type is
//   read, a blob's bytes.
// The copy's cells are then what reading every cell one by one gave (test/hub/diffCopyExact.test.ts).
// SQLite's sort of the copy (its ORDER BY: the whole diff held and sorted before the first row) is
// spared when it would change nothing: the statement is read without it first, and kept when every
// row's key is an integer above the row before's (a diff by an integer key comes in key order);
// at the first row that is not, it is read again sorted.
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { BINARY_CELL, type Cell as AnswerCell } from '../../shared/wire';
import { AnswerRowsWriter, type AnswerRows } from './diffAnswers';
import { BLOB, FLOAT, INTEGER, NULL, PackedRowsWriter, TEXT, type Cell, type PackedRows } from './diffRowPacking';
import { q } from '../sqliteQuote';

/** One diff, copied in one order. */
export interface DiffCopy {
  columns: readonly string[];
  rows: number;
  /** Per row: the diff's columns, then the values of the ORDER BY expressions (for the cursor and ties). */
  packed: PackedRows;
  /** Per row: the diff's columns as the hub answers them (diffAnswers.ts), for pages served without SQLite. */
  answers: AnswerRows;
  keyWidth: number;
  /** Per row: 1 + the index of its diff_type in KINDS, or 0. */
  kinds: Uint8Array;
  kindColumn: number;
  bytes: number;
}

export interface DiffCopyRequest {
  cacheKey: string;
  /** `SELECT …` that reads the whole diff, in the page's order, with the ORDER BY values after the columns. */
  sql: string;
  /**
   * `sql` without its ORDER BY: read first when given; kept when its rows come with strictly
   * increasing integer keys (then they are in `sql`'s order, and SQLite's sort is spared).
   */
  unsortedSql?: string;
  columns: readonly string[];
  keyWidth: number;
  deadline: number;
}

/** The kinds of row change, as codes (0: any other text, read from the row). */
export const KINDS = ['added', 'modified', 'removed'];

/** What `sqlite3_column_text` decodes a text's bytes with in this build: a default TextDecoder (a leading BOM dropped). */
const decoder = new TextDecoder();

/** The statement that gives each row of `sql` as one JSON text, then its cells (`skip`: constants left out of the text). */
export function bulkCopySql(sql: string, width: number, skip: readonly boolean[]): string {
  const names = Array.from({ length: width }, (_, i) => q(`c${i}`));
  // A blob given to json_array is read as JSONB (a value, or an error when it is none): never given.
  const json = names.map((n, i) => (skip[i] ? 'NULL' : `iif(typeof(${n}) = 'blob', NULL, ${n})`)).join(', ');
  return `WITH ${q('~hub diff copy')}(${names.join(', ')}) AS (${sql}) SELECT json_array(${json}), ${names.join(', ')} FROM ${q('~hub diff copy')}`;
}

/** Cell `i` of the statement's current row read out of WASM with its exact SQLite type. */
export function readValue(sqlite3: Sqlite3, stmt: number, i: number): Cell {
  const capi = sqlite3.capi;
  const type = capi.sqlite3_column_type(stmt, i);
  switch (type) {
    case INTEGER: {
      // As a double first (no BigInt): exact whenever it is a safe integer, since an int64 of
      // magnitude 2^53 or more never converts to one below it.
      const d = capi.sqlite3_column_double(stmt, i);
      if (Number.isSafeInteger(d)) return { type, value: d };
      const v = capi.sqlite3_column_int64(stmt, i);
      return {
        type,
        value: typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v,
      };
    }
    case FLOAT:
      return { type, value: capi.sqlite3_column_double(stmt, i) };
    case TEXT:
    case BLOB: {
      // The bytes as stored (text with NUL or invalid UTF-8 included), copied out of WASM memory.
      const p = capi.sqlite3_column_blob(stmt, i);
      const n = capi.sqlite3_column_bytes(stmt, i);
      return { type, value: n === 0 ? new Uint8Array(0) : sqlite3.wasm.heap8u().slice(p, p + n) };
    }
    default:
      return { type: NULL, value: null };
  }
}

/** One cell: its exact value (text as a string when exact), and its text as the hub answers it. */
interface ReadCell {
  type: number;
  value: number | bigint | Uint8Array | string | null;
  answer: AnswerCell;
}

const NULL_CELL: ReadCell = { type: NULL, value: null, answer: null };

/**
 * The C column accessors called straight (the JS wrappers push and pop a scope and convert each
 * argument: a third of the copy's time in calls); text decoded as the wrapper decodes it.
 */
interface Columns {
  type(i: number): number;
  double(i: number): number;
  text(i: number): string;
}

function columnsOf(sqlite3: Sqlite3, stmt: number): Columns {
  const ex = sqlite3.wasm.exports;
  return {
    type: (i) => ex.sqlite3_column_type(stmt, i),
    double: (i) => ex.sqlite3_column_double(stmt, i),
    text: (i) => {
      const p = ex.sqlite3_column_text(stmt, i);
      const n = ex.sqlite3_column_bytes(stmt, i);
      return p === 0 || n === 0 ? '' : decoder.decode(sqlite3.wasm.heap8u().slice(p, p + n));
    },
  };
}

/** Cell `i` from its JSON value `v`, reading column `at` of the statement only where `v` is not exact. */
function cellOf(sqlite3: Sqlite3, col: Columns, stmt: number, at: number, v: unknown): ReadCell {
  if (typeof v === 'string') {
    if (!v.includes('\uFFFD')) return { type: TEXT, value: v, answer: v.charCodeAt(0) === 0xfeff ? v.slice(1) : v };
    const bytes = readValue(sqlite3, stmt, at).value as Uint8Array;
    return { type: TEXT, value: bytes, answer: decoder.decode(bytes) };
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v) && col.type(at) === INTEGER) {
      if (Number.isSafeInteger(v)) return { type: INTEGER, value: v, answer: String(v) };
      const exact = readValue(sqlite3, stmt, at).value as number | bigint;
      return { type: INTEGER, value: exact, answer: String(exact) };
    }
    // A real's JSON number is exact: SQLite (3.43 on) renders it with the digits that read back
    // as the same double (test/hub/diffCopyExact.test.ts), so only its answer text is read;
    // except a zero, whose sign the JSON text drops (-0.0 is written 0.0).
    return { type: FLOAT, value: v === 0 ? col.double(at) : v, answer: col.text(at) };
  }
  if (col.type(at) === BLOB) return { type: BLOB, value: readValue(sqlite3, stmt, at).value, answer: BINARY_CELL };
  return NULL_CELL;
}

function kindCode(cell: ReadCell): number {
  if (cell.type !== TEXT) return 0;
  const v = cell.value;
  return KINDS.indexOf(typeof v === 'string' ? v : decoder.decode(v as Uint8Array)) + 1;
}

/**
 * Whether rows come in strictly increasing order of their keys, told from INTEGER keys only (a key
 * of any other type, or not above the one before, says no): then sorting them by key changes
 * nothing, ties included (there are none).
 */
export class IntegerKeyOrder {
  private prev: (number | bigint)[] | undefined;
  private key: (number | bigint)[];

  constructor(private readonly width: number) {
    this.key = new Array<number | bigint>(width);
  }

  /** Key cell `k` of the current row; false when it is not an integer. */
  cell(k: number, type: number, value: unknown): boolean {
    if (type !== INTEGER) return false;
    this.key[k] = value as number | bigint;
    return true;
  }

  /** Ends the current row: false when its key is not above the previous row's. */
  endRow(): boolean {
    const { prev, key } = this;
    if (prev && !above(key, prev)) return false;
    this.prev = key;
    this.key = prev ?? new Array<number | bigint>(this.width);
    return true;
  }
}

/** Is key `a` above key `b`, compared as SQLite compares integers, term by term? */
function above(a: readonly (number | bigint)[], b: readonly (number | bigint)[]): boolean {
  for (let k = 0; k < a.length; k++) {
    // A number and a BigInt compare by value with < and >.
    if ((a[k] as number | bigint) > (b[k] as number | bigint)) return true;
    if ((a[k] as number | bigint) < (b[k] as number | bigint)) return false;
  }
  return false;
}

/**
 * The copy `req` asks for, read in bulk: without the sort first when the request allows
 * (`unsortedSql`), read again sorted when its rows turn out not to be in key order; 'too-large'
 * past `budget`, undefined past the deadline or when the statement fails.
 */
export function readCopy(sqlite3: Sqlite3, conn: Sqlite3Db, req: DiffCopyRequest, budget: number): DiffCopy | 'too-large' | undefined {
  if (req.unsortedSql !== undefined && req.keyWidth > 0) {
    const read = readCopyOf(sqlite3, conn, req, req.unsortedSql, budget, new IntegerKeyOrder(req.keyWidth));
    if (read !== 'unordered') return read;
  }
  return readCopyOf(sqlite3, conn, req, req.sql, budget) as DiffCopy | 'too-large' | undefined;
}

function finished(
  req: DiffCopyRequest,
  writer: PackedRowsWriter,
  answers: AnswerRowsWriter,
  kinds: number[],
  kindColumn: number,
): DiffCopy {
  const packed = writer.finish();
  return {
    columns: req.columns,
    rows: packed.rows,
    packed,
    answers: answers.finish(),
    keyWidth: req.keyWidth,
    kinds: Uint8Array.from(kinds),
    kindColumn,
    bytes: packed.bytes + answers.bytes + kinds.length,
  };
}

function readCopyOf(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  req: DiffCopyRequest,
  sql: string,
  budget: number,
  order?: IntegerKeyOrder,
): DiffCopy | 'too-large' | 'unordered' | undefined {
  const capi = sqlite3.capi;
  capi.sqlite3_progress_handler(conn.pointer, 1000, () => (Date.now() > req.deadline ? 1 : 0), 0);
  const width = req.columns.length;
  const all = width + req.keyWidth;
  const kindColumn = req.columns.indexOf('diff_type');
  if (kindColumn < 0) return undefined;
  // The commit hashes are constants in the page's select list (forms.ts): not copied.
  const skip = Array.from({ length: all }, (_, i) => req.columns[i] === 'from_commit' || req.columns[i] === 'to_commit');
  let stmt;
  try {
    stmt = conn.prepare(bulkCopySql(sql, all, skip));
    if (stmt.columnCount !== all + 1) return undefined;
    const p = stmt.pointer;
    const col = columnsOf(sqlite3, p);
    const writer = new PackedRowsWriter(all);
    const answers = new AnswerRowsWriter(width);
    const texts: AnswerCell[] = new Array<AnswerCell>(width);
    const types: number[] = new Array<number>(width);
    const kinds: number[] = [];
    while (stmt.step()) {
      const row = JSON.parse(col.text(0)) as unknown[];
      if (row.length !== all) return undefined;
      writer.startRow();
      for (let i = 0; i < all; i++) {
        const cell = skip[i] ? NULL_CELL : cellOf(sqlite3, col, p, i + 1, row[i]);
        if (i === kindColumn) kinds.push(kindCode(cell));
        if (typeof cell.value === 'string') writer.textCell(i, cell.value);
        else writer.cell(i, cell.type, cell.value);
        if (i < width) {
          texts[i] = cell.answer;
          types[i] = cell.type;
        } else if (order && !order.cell(i - width, cell.type, cell.value)) return 'unordered';
      }
      if (order && !order.endRow()) return 'unordered';
      answers.add(texts, types);
      if (writer.bytes + answers.bytes + kinds.length > budget) return 'too-large';
      if ((writer.rows & 1023) === 0 && Date.now() > req.deadline) return undefined;
    }
    return finished(req, writer, answers, kinds, kindColumn);
  } catch {
    // Interrupted at the deadline, or a query this shape cannot run: the page reads the diff as
    // written (and says what is wrong, if anything is).
    return undefined;
  } finally {
    stmt?.finalize();
    capi.sqlite3_progress_handler(conn.pointer, 0, 0, 0);
  }
}
