// Pages of a table's row diff without computing the diff for every page. DoltLite's
// `dolt_diff_<t>(from, to)` cannot seek: every page of `DOLT_DIFF(…) WHERE key > cursor ORDER BY key
// LIMIT n` computed and sorted the whole diff (about 1 s for 100,000 rows). From the second page
// (diffPageShape.ts; engineContext.ts reads the first as written), the diff is read once, in the
// page's ORDER BY, into a copy kept by this worker (packed: diffRowPacking.ts); every page then
// picks its rows from the copy (binary search for the cursor, the kind filter, LIMIT/OFFSET) and
// the query reads just those rows through `hub_diff_cell`, or, when the statement is nothing but
// the page, is answered from the cells the copy keeps as the hub answers them (directPage.ts).
//
// Sound by construction:
// - A copy is keyed by database, both commit hashes (immutable: the diff between two commits never
//   changes), table, the diff's columns and the table's schema on this connection, and the ORDER
//   BY, so it can never answer for another diff; values are copied with their exact SQLite types.
// - The cursor is tested by SQLite itself (the query's own condition on the row's key values), so
//   comparisons are SQLite's; a page whose edge falls inside a run of equal keys is not served.
// - Memory is bounded: copies share `budgetBytes` (least recently used dropped first), a diff
//   too large for it is not copied (and remembered as such), the copy is read under the query's
//   deadline, and the cell function of a query serves only the copies that query asked for.
import type { Sqlite3, Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { DiffPageShape } from './diffPageShape';
import { BLOB, FLOAT, INTEGER, NULL, PackedRowsWriter, TEXT, type Cell, type PackedRows } from './diffRowPacking';
import { answerCell, AnswerRowsWriter, type AnswerRows } from './diffAnswers';
import type { Cell as AnswerCell } from '../../shared/wire';

/**
 * Memory a query worker keeps copies of row diffs in: an eighth of the memory a worker may grow to
 * before it is replaced (engine.ts), at most 64 MiB.
 */
export function diffCopyBudget(workerMemoryBytes: number): number {
  return Math.min(64 * 1024 * 1024, Math.floor(workerMemoryBytes / 8));
}

/** The SQL function a served page reads its cells with: hub_diff_cell(copy, row, column). */
export const DIFF_CELL_FUNCTION = 'hub_diff_cell';

/** The kinds of row change, as codes (0: any other text, read from the row). */
const KINDS = ['added', 'modified', 'removed'];

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
  columns: readonly string[];
  keyWidth: number;
  deadline: number;
}

export class DiffRowCache {
  private readonly copies = new Map<string, DiffCopy>();
  /** Diffs found too large to copy (most recent last). */
  private readonly tooLarge = new Set<string>();
  private used = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly maxCopies = 32,
  ) {}

  get size(): { copies: number; bytes: number } {
    return { copies: this.copies.size, bytes: this.used };
  }

  /** Is there a copy for this key already? */
  has(cacheKey: string): boolean {
    return this.copies.has(cacheKey);
  }

  /** The copy for the request: cached, or read now; undefined when it cannot be had in time and memory. */
  obtain(sqlite3: Sqlite3, conn: Sqlite3Db, req: DiffCopyRequest): DiffCopy | undefined {
    const hit = this.copies.get(req.cacheKey);
    if (hit) {
      this.copies.delete(req.cacheKey);
      this.copies.set(req.cacheKey, hit);
      return hit;
    }
    if (this.tooLarge.has(req.cacheKey)) return undefined;
    const read = readCopy(sqlite3, conn, req, this.budgetBytes);
    if (read === 'too-large') {
      this.tooLarge.add(req.cacheKey);
      if (this.tooLarge.size > 256) this.tooLarge.delete(this.tooLarge.values().next().value as string);
      return undefined;
    }
    if (read === undefined) return undefined;
    while (this.copies.size > 0 && (this.used + read.bytes > this.budgetBytes || this.copies.size >= this.maxCopies)) {
      const [oldest, copy] = this.copies.entries().next().value as [string, DiffCopy];
      this.copies.delete(oldest);
      this.used -= copy.bytes;
    }
    this.copies.set(req.cacheKey, read);
    this.used += read.bytes;
    return read;
  }
}

function readValue(sqlite3: Sqlite3, stmt: number, i: number): Cell {
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

const KIND_BYTES = KINDS.map((k) => new TextEncoder().encode(k));

function kindCode(cell: Cell): number {
  if (cell.type !== TEXT) return 0;
  const v = cell.value as Uint8Array;
  const i = KIND_BYTES.findIndex((k) => k.length === v.length && k.every((b, j) => b === v[j]));
  return i + 1;
}

function readCopy(sqlite3: Sqlite3, conn: Sqlite3Db, req: DiffCopyRequest, budget: number): DiffCopy | 'too-large' | undefined {
  const capi = sqlite3.capi;
  capi.sqlite3_progress_handler(conn.pointer, 1000, () => (Date.now() > req.deadline ? 1 : 0), 0);
  let stmt;
  try {
    stmt = conn.prepare(req.sql);
    const width = req.columns.length;
    const all = width + req.keyWidth;
    if (stmt.columnCount !== all) return undefined;
    const kindColumn = req.columns.indexOf('diff_type');
    if (kindColumn < 0) return undefined;
    // The commit hashes are constants in the page's select list (forms.ts): not copied.
    const skip = req.columns.map((c) => c === 'from_commit' || c === 'to_commit');
    const writer = new PackedRowsWriter(all);
    const answers = new AnswerRowsWriter(width);
    const texts: AnswerCell[] = new Array<AnswerCell>(width);
    const types: number[] = new Array<number>(width);
    const kinds: number[] = [];
    while (stmt.step()) {
      writer.startRow();
      for (let i = 0; i < all; i++) {
        const cell = skip[i] ? { type: NULL, value: null } : readValue(sqlite3, stmt.pointer, i);
        if (i === kindColumn) kinds.push(kindCode(cell));
        writer.cell(i, cell.type, cell.value);
        if (i < width) {
          texts[i] = answerCell(sqlite3, stmt.pointer, i, cell.type, cell.value);
          types[i] = cell.type;
        }
      }
      answers.add(texts, types);
      if (writer.bytes + answers.bytes + kinds.length > budget) return 'too-large';
      if ((writer.rows & 1023) === 0 && Date.now() > req.deadline) return undefined;
    }
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
  } catch {
    // Interrupted at the deadline, or a query this shape cannot run: the page reads the diff as
    // written (and says what is wrong, if anything is).
    return undefined;
  } finally {
    stmt?.finalize();
    capi.sqlite3_progress_handler(conn.pointer, 0, 0, 0);
  }
}

/** SQLite's equality of two values (numbers across INTEGER and REAL), for ties between keys. */
function sameValue(a: Cell, b: Cell): boolean {
  const numeric = (t: number): boolean => t === INTEGER || t === FLOAT;
  if (numeric(a.type) && numeric(b.type)) return (a.value as number | bigint) == (b.value as number | bigint);
  if (a.type !== b.type) return false;
  if (a.type === NULL) return true;
  const x = a.value as Uint8Array;
  const y = b.value as Uint8Array;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function keyOf(copy: DiffCopy, r: number): Cell[] {
  return copy.packed.row(r).slice(copy.columns.length);
}

/** Do two rows next to each other in `rows` have equal keys (then their order is SQLite's sort's)? */
export function tiesIn(copy: DiffCopy, rows: readonly number[]): boolean {
  if (copy.keyWidth === 0) return false;
  for (let i = 1; i < rows.length; i++) if (sameKey(copy, rows[i - 1] as number, rows[i] as number)) return true;
  return false;
}

function sameKey(copy: DiffCopy, r: number, s: number): boolean {
  const a = keyOf(copy, r);
  const b = keyOf(copy, s);
  return a.every((cell, k) => sameValue(cell, b[k] as Cell));
}

/** Binds the first `n` key values of row `r` to ?1…?n of `stmt`. */
function bindKey(sqlite3: Sqlite3, stmt: Sqlite3Stmt, copy: DiffCopy, r: number, n: number): void {
  const capi = sqlite3.capi;
  stmt.reset();
  stmt.clearBindings();
  const key = keyOf(copy, r);
  for (let k = 0; k < n; k++) {
    const { type, value } = key[k] as Cell;
    if (type === INTEGER) capi.sqlite3_bind_int64(stmt.pointer, k + 1, BigInt(value as number | bigint));
    else if (type === FLOAT) capi.sqlite3_bind_double(stmt.pointer, k + 1, value as number);
    else if (type === TEXT)
      capi.sqlite3_bind_text(stmt.pointer, k + 1, value as Uint8Array, (value as Uint8Array).length, capi.SQLITE_TRANSIENT);
    else if (type === BLOB) stmt.bind(k + 1, value);
    else capi.sqlite3_bind_null(stmt.pointer, k + 1);
  }
}

/**
 * The rows of `copy` the page `shape` returns, in order, or undefined when the page cannot be
 * served from the copy (a run of equal keys at its edge: the order among them is SQLite's to pick).
 */
export function pageRows(sqlite3: Sqlite3, conn: Sqlite3Db, copy: DiffCopy, shape: DiffPageShape): number[] | undefined {
  let start = 0;
  if (shape.cursor) {
    // Rows are in key order and the cursor is "the key sorts after these values": the rows it
    // admits are a suffix. SQLite evaluates the query's own condition for each probe.
    const stmt = conn.prepare(`SELECT CASE WHEN ${shape.cursor.sql} THEN 1 ELSE 0 END`);
    try {
      const after = (r: number): boolean => {
        bindKey(sqlite3, stmt, copy, r, shape.cursor?.keys ?? 0);
        stmt.step();
        return stmt.getInt(0) === 1;
      };
      let lo = 0;
      let hi = copy.rows;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (after(mid)) hi = mid;
        else lo = mid + 1;
      }
      start = lo;
    } finally {
      stmt.finalize();
    }
  }
  const wanted = shape.kinds ? new Set(shape.kinds) : undefined;
  const codes = new Set(KINDS.flatMap((k, i) => (wanted?.has(k) ? [i + 1] : [])));
  const matches = (r: number): boolean => {
    if (!wanted) return true;
    const code = copy.kinds[r] as number;
    if (code !== 0) return codes.has(code);
    // Not one of the three kinds: compare the text itself.
    const cell = copy.packed.row(r)[copy.kindColumn] as Cell;
    return cell.type === TEXT && wanted.has(new TextDecoder().decode(cell.value as Uint8Array));
  };
  const out: number[] = [];
  let skipped = 0;
  let lastSkipped = -1;
  let r = start;
  for (; r < copy.rows && out.length < shape.limit; r++) {
    if (!matches(r)) continue;
    if (skipped < shape.offset) {
      skipped++;
      lastSkipped = r;
      continue;
    }
    out.push(r);
  }
  if (shape.orderBy.length > 0 && copy.keyWidth > 0) {
    const first = out[0];
    if (first !== undefined && lastSkipped >= 0 && sameKey(copy, lastSkipped, first)) return undefined;
    const last = out[out.length - 1];
    if (last !== undefined && out.length === shape.limit) {
      while (r < copy.rows && !matches(r)) r++;
      if (r < copy.rows && sameKey(copy, last, r)) return undefined;
    }
  }
  return out;
}

/**
 * Registers, on a query's connection, the cell function over the copies that query was served
 * (`copies`, appended to as the rewrite serves pages): a caller can read nothing else with it.
 */
export function registerCellFunction(sqlite3: Sqlite3, conn: Sqlite3Db, copies: readonly DiffCopy[]): void {
  const { capi, wasm } = sqlite3;
  // SQLite asks for a row's cells one after another: decode the row once.
  let last: { copy: DiffCopy; row: number; cells: Cell[] } | undefined;
  conn.createFunction(
    DIFF_CELL_FUNCTION,
    (pCtx: number, slot: unknown, row: unknown, column: unknown) => {
      const copy = copies[Number(slot)];
      const r = Number(row);
      const c = Number(column);
      if (!copy || !Number.isInteger(r) || !Number.isInteger(c) || r < 0 || r >= copy.rows || c < 0 || c >= copy.columns.length)
        return null;
      if (!last || last.copy !== copy || last.row !== r) last = { copy, row: r, cells: copy.packed.row(r) };
      const { type, value } = last.cells[c] as Cell;
      switch (type) {
        case INTEGER:
          capi.sqlite3_result_int64(pCtx, BigInt(value as number | bigint));
          return undefined;
        case FLOAT:
          capi.sqlite3_result_double(pCtx, value as number);
          return undefined;
        case TEXT: {
          // The stored bytes, handed to SQLite as they are (freed by SQLite).
          const bytes = value as Uint8Array;
          const p = wasm.alloc(Math.max(1, bytes.length));
          wasm.heap8u().set(bytes, p);
          capi.sqlite3_result_text(pCtx, p, bytes.length, capi.SQLITE_WASM_DEALLOC);
          return undefined;
        }
        case BLOB:
          return value as Uint8Array;
        default:
          return null;
      }
    },
    { arity: 3, deterministic: true },
  );
}
