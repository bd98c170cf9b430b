// Reading a diff into a copy (diffRowCache.ts): every cell of the copy's statement read out of WASM
// with the C column accessors called straight (no JS wrapper: they push and pop a scope and
// convert each argument), each cell once, with its exact SQLite type and value and its text as the
// hub answers it (selectRunner.ts):
// - a text is decoded once, its leading BOM kept in the value and dropped from the answer (as
//   `sqlite3_column_text`'s decoder drops it); a text that decodes to U+FFFD anywhere (invalid
//   UTF-8, or a real U+FFFD) keeps its bytes as its value;
// - an integer is read as a double, exact when safe; otherwise as an int64;
// - a real is read as a double, and its answer is SQLite's own text of it, read (remembered by
//   value: the same double always reads as the same text);
// - a blob keeps its bytes and answers a marker; NULL is null.
// (Reading each row as one `json_array` text and parsing it, as before, took 1.6–2.0 s of a
// 100,000-row copy, stepped and parsed, against 1.1–1.2 s read this way: DoltLite making the JSON
// cost more than reading the cells.)
// The copy's cells are then what reading every cell one by one gave (test/hub/diffCopyExact.test.ts).
// A copy is read whole (readCopy) or a few rows at a time as pages need them (CopyRead, for
// diffCopyStream.ts: a sorted read gives every row in its final place, so the rows read so far are
// a copy of their own). Read whole, SQLite's sort of the copy (its ORDER BY: the whole diff held
// and sorted before the first row) is spared when it would change nothing: the statement is read
// without it first, and kept when every row's key is an integer above the row before's (a diff by
// an integer key comes in key order); at the first row that is not, it is read again sorted.
import type { Sqlite3, Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Cell as AnswerCell } from '../../shared/wire';
import { AnswerRowsWriter, type AnswerRows } from './diffAnswers';
import { PackedRowsWriter, TEXT, type PackedRows } from './diffRowPacking';
import { IntegerKeyOrder, KeyTies } from './diffCopyKeys';
import { sqliteToMysqlText } from './mysqlText';
import { cellAt, columnsOf, decodeText, NULL_CELL, type Columns, type ReadCell } from './diffCopyCells';

export { IntegerKeyOrder } from './diffCopyKeys';

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
  /** Per row: 1 when its key equals the row before's (the order of the two is SQLite's sort's). */
  tieBefore: Uint8Array;
  kindColumn: number;
  bytes: number;
  /** Every row of the diff is here (a copy still being read has the first `rows` in place). */
  complete: boolean;
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
  /** The column whose text is answered as hub_mysql_text gives it (a patch's statement: mysqlText.ts). */
  answerAsMysqlText?: number;
  keyWidth: number;
  deadline: number;
}

/** The kinds of row change, as codes (0: any other text, read from the row). */
export const KINDS = ['added', 'modified', 'removed'];

function kindCode(cell: ReadCell): number {
  if (cell.type !== TEXT) return 0;
  const v = cell.value;
  return KINDS.indexOf(typeof v === 'string' ? v : decodeText(v as Uint8Array)) + 1;
}

/**
 * The copy `req` asks for, read whole: without the sort first when the request allows
 * (`unsortedSql`), read again sorted when its rows turn out not to be in key order; 'too-large'
 * past `budget`, undefined past the deadline or when the statement fails.
 */
export function readCopy(sqlite3: Sqlite3, conn: Sqlite3Db, req: DiffCopyRequest, budget: number): DiffCopy | 'too-large' | undefined {
  if (req.unsortedSql !== undefined && req.keyWidth > 0) {
    const read = readWhole(sqlite3, conn, req, req.unsortedSql, budget, 'unsorted');
    if (read !== 'unordered') return read;
  }
  return readWhole(sqlite3, conn, req, req.sql, budget, 'sorted') as DiffCopy | 'too-large' | undefined;
}

function readWhole(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  req: DiffCopyRequest,
  sql: string,
  budget: number,
  order: 'sorted' | 'unsorted',
): DiffCopy | 'too-large' | 'unordered' | undefined {
  const read = CopyRead.open(sqlite3, conn, req, sql, budget, order);
  if (!read) return undefined;
  try {
    const state = read.readTo(Infinity, Infinity);
    return state === 'done' ? read.view() : state === 'too-large' || state === 'unordered' ? state : undefined;
  } finally {
    read.close();
  }
}

/** Where a read of a copy stands after a call: rows to come, all read, or why it stopped. */
export type CopyReadState = 'more' | 'done' | 'too-large' | 'unordered' | 'failed';

/**
 * One copy being read, a row at a time on demand: its rows so far are a copy of their own
 * (`view`), final when read in the statement's own order (`sorted`: SQLite's sort gives every row
 * in place). `unsorted` reads check the key order as they go (IntegerKeyOrder) and say
 * 'unordered' at the first row out of it; only a whole unsorted read may be used.
 */
export class CopyRead {
  private readonly width: number;
  private readonly all: number;
  private readonly kindColumn: number;
  private readonly skip: boolean[];
  private readonly writer: PackedRowsWriter;
  private readonly answers: AnswerRowsWriter;
  private kinds: Uint8Array = new Uint8Array(1024);
  private ties: Uint8Array = new Uint8Array(1024);
  private readonly order: IntegerKeyOrder | undefined;
  private readonly keys: KeyTies;
  private readonly texts: AnswerCell[];
  private readonly types: number[];
  private readonly col: Columns;
  private stmt: Sqlite3Stmt | undefined;
  private state: CopyReadState = 'more';
  private whole: { packed: PackedRows; answers: AnswerRows } | undefined;

  private constructor(
    private readonly sqlite3: Sqlite3,
    private readonly conn: Sqlite3Db,
    private readonly req: DiffCopyRequest,
    private readonly budget: number,
    stmt: Sqlite3Stmt,
    order: 'sorted' | 'unsorted',
  ) {
    this.width = req.columns.length;
    this.all = this.width + req.keyWidth;
    this.kindColumn = req.columns.indexOf('diff_type');
    this.skip = skippedColumns(req);
    this.writer = new PackedRowsWriter(this.all);
    this.answers = new AnswerRowsWriter(this.width);
    this.order = order === 'unsorted' ? new IntegerKeyOrder(req.keyWidth) : undefined;
    this.keys = new KeyTies(req.keyWidth);
    this.texts = new Array<AnswerCell>(this.width);
    this.types = new Array<number>(this.width);
    this.stmt = stmt;
    this.col = columnsOf(sqlite3, stmt.pointer);
  }

  /** The copy's statement prepared on `conn`; undefined when it cannot be. */
  static open(
    sqlite3: Sqlite3,
    conn: Sqlite3Db,
    req: DiffCopyRequest,
    sql: string,
    budget: number,
    order: 'sorted' | 'unsorted',
  ): CopyRead | undefined {
    if (req.columns.indexOf('diff_type') < 0) return undefined;
    const all = req.columns.length + req.keyWidth;
    let stmt: Sqlite3Stmt | undefined;
    try {
      stmt = conn.prepare(sql);
      if (stmt.columnCount === all) return new CopyRead(sqlite3, conn, req, budget, stmt, order);
    } catch {
      // A query this shape cannot run: the page reads the diff as written (and says what is wrong).
    }
    stmt?.finalize();
    return undefined;
  }

  get rows(): number {
    return this.writer.rows;
  }

  /** Bytes the rows read so far take. */
  get bytes(): number {
    return this.writer.bytes + this.answers.bytes + 2 * this.writer.rows;
  }

  /**
   * Reads rows until there are `rows`, the clock passes `until` (checked every 64 rows), or the
   * statement ends; stops for good past the request's deadline, the budget, an error or, when
   * unsorted, a row out of key order.
   */
  readTo(rows: number, until: number): CopyReadState {
    const stmt = this.stmt;
    if (this.state !== 'more' || !stmt) return this.state;
    const capi = this.sqlite3.capi;
    const deadline = this.req.deadline;
    capi.sqlite3_progress_handler(this.conn.pointer, 1000, () => (Date.now() > deadline ? 1 : 0), 0);
    try {
      while (this.writer.rows < rows) {
        if ((this.writer.rows & 63) === 0) {
          const now = Date.now();
          if (now > deadline) return this.end('failed');
          if (now > until) break;
        }
        if (!stmt.step()) return this.end('done');
        const state = this.row(stmt.pointer);
        if (state !== 'more') return this.end(state);
      }
      return this.state;
    } catch {
      // Interrupted at the deadline, or the connection closed under it.
      return this.end('failed');
    } finally {
      capi.sqlite3_progress_handler(this.conn.pointer, 0, 0, 0);
    }
  }

  private row(p: number): CopyReadState {
    const { all, width, skip, order, writer, col } = this;
    // Reused row to row: the answers' writer copies them.
    const { texts, types } = this;
    writer.startRow();
    for (let i = 0; i < all; i++) {
      const cell = skip[i] ? NULL_CELL : cellAt(this.sqlite3, col, p, i);
      if (i === this.kindColumn) this.kinds = put(this.kinds, writer.rows - 1, kindCode(cell));
      if (typeof cell.value === 'string') writer.textCell(i, cell.value);
      else writer.cell(i, cell.type, cell.value);
      if (i < width) {
        texts[i] = i === this.req.answerAsMysqlText && cell.type === TEXT ? sqliteToMysqlText(cell.answer ?? '') : cell.answer;
        types[i] = cell.type;
      } else {
        if (order && !order.cell(i - width, cell.type, cell.value)) return 'unordered';
        this.keys.cell(i - width, cell.type, cell.value);
      }
    }
    if (order && !order.endRow()) return 'unordered';
    if (this.keys.endRow()) this.ties = put(this.ties, writer.rows - 1, 1);
    this.answers.add(texts, types);
    return this.bytes > this.budget ? 'too-large' : 'more';
  }

  private end(state: CopyReadState): CopyReadState {
    this.state = state;
    // A whole copy is kept trimmed to its size.
    if (state === 'done') this.whole = { packed: this.writer.finish(), answers: this.answers.finish() };
    this.close();
    return state;
  }

  /** The rows read so far, as a copy (`complete` once the statement ended). */
  view(): DiffCopy {
    const rows = this.writer.rows;
    return {
      columns: this.req.columns,
      rows,
      packed: this.whole?.packed ?? this.writer.sofar(),
      answers: this.whole?.answers ?? this.answers.sofar(),
      keyWidth: this.req.keyWidth,
      kinds: this.whole ? this.kinds.slice(0, rows) : this.kinds.subarray(0, rows),
      tieBefore: this.whole ? this.ties.slice(0, rows) : this.ties.subarray(0, rows),
      kindColumn: this.kindColumn,
      bytes: this.bytes,
      complete: this.state === 'done',
    };
  }

  /** Ends the statement (the rows read stay readable). */
  close(): void {
    this.stmt?.finalize();
    this.stmt = undefined;
    if (this.state === 'more') this.state = 'failed';
  }
}

/** The columns a copy leaves out: the commit hashes are constants in the page's select list (forms.ts). */
function skippedColumns(req: DiffCopyRequest): boolean[] {
  return Array.from(
    { length: req.columns.length + req.keyWidth },
    (_, i) => req.columns[i] === 'from_commit' || req.columns[i] === 'to_commit',
  );
}

/** `a` with byte `i` set to `v`, grown (doubled) when it is too short. */
function put(a: Uint8Array, i: number, v: number): Uint8Array {
  let out = a;
  if (i >= a.length) {
    out = new Uint8Array(Math.max(a.length * 2, i + 1));
    out.set(a);
  }
  out[i] = v;
  return out;
}
