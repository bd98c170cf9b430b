// Pages of a table's row diff without computing the diff for every page. DoltLite's
// `dolt_diff_<t>(from, to)` cannot seek: every page of `DOLT_DIFF(…) WHERE key > cursor ORDER BY key
// LIMIT n` computed and sorted the whole diff (about 1 s for 100,000 rows). A page (diffPageShape.ts;
// which one makes a copy: diffPageServe.ts) has the diff read once, in the page's ORDER BY, into a
// copy kept by this worker (packed: diffRowPacking.ts), as its pages need it (diffCopyStream.ts,
// the rows read so far standing for the diff's first rows) or whole (readCopy); every page then
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
//   too large for it is not copied (and remembered as such), the copy is read under the deadline
//   of the query that started it, a worker reads at most MAX_STREAMS copies as pages need them,
//   and the cell function of a query serves only the copies that query asked for.
import type { Sqlite3, Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { DiffPageShape } from './diffPageShape';
import { BLOB, FLOAT, INTEGER, TEXT, type Cell } from './diffRowPacking';
import { KINDS, readCopy, type DiffCopy, type DiffCopyRequest } from './diffCopyRead';
import { StreamingCopy, type CopyLease, type StreamEnd } from './diffCopyStream';

export type { DiffCopy, DiffCopyRequest } from './diffCopyRead';

/**
 * Memory a query worker keeps copies of row diffs in: an eighth of the memory a worker may grow to
 * before it is replaced (engine.ts), at most 64 MiB.
 */
export function diffCopyBudget(workerMemoryBytes: number): number {
  return Math.min(64 * 1024 * 1024, Math.floor(workerMemoryBytes / 8));
}

/** The SQL function a served page reads its cells with: hub_diff_cell(copy, row, column). */
export const DIFF_CELL_FUNCTION = 'hub_diff_cell';

export class DiffRowCache {
  private readonly copies = new Map<string, DiffCopy>();
  /** Diffs found too large to copy (most recent last). */
  private readonly tooLarge = new Set<string>();
  private used = 0;
  /** Copies being read as their pages need them (most recently used last). */
  private readonly streams = new Map<string, StreamingCopy>();

  constructor(
    readonly budgetBytes: number,
    private readonly maxCopies = 32,
  ) {}

  get size(): { copies: number; bytes: number } {
    let reading = 0;
    for (const s of this.streams.values()) reading += s.bytes;
    return { copies: this.copies.size + this.streams.size, bytes: this.used + reading };
  }

  /** Is there a copy for this key already (whole, or being read)? */
  has(cacheKey: string): boolean {
    return this.copies.has(cacheKey) || this.streams.has(cacheKey);
  }

  /**
   * The copy for the request: cached, being read, or started now; undefined when it cannot be had
   * in time and memory. A copy with an order starts being read page by page (diffCopyStream.ts)
   * when `lease` lends it the connection; otherwise it is read whole now, unless `streamOnly`.
   */
  obtain(
    sqlite3: Sqlite3,
    conn: Sqlite3Db,
    req: DiffCopyRequest,
    lease?: (conn: Sqlite3Db) => CopyLease | undefined,
    streamOnly = false,
  ): CopySource | undefined {
    const key = req.cacheKey;
    const hit = this.copies.get(key);
    if (hit) {
      this.copies.delete(key);
      this.copies.set(key, hit);
      return whole(hit);
    }
    const stream = this.streams.get(key);
    if (stream) {
      this.streams.delete(key);
      this.streams.set(key, stream);
      return stream;
    }
    if (this.tooLarge.has(key)) return undefined;
    const lent = req.keyWidth > 0 ? lease?.(conn) : undefined;
    if (lent) {
      const started = StreamingCopy.start(sqlite3, conn, req, this.budgetBytes, lent, (end) => this.ended(key, end));
      if (started) {
        this.streams.set(key, started);
        // A few at a time: each holds a sorted diff in SQLite's memory and a connection.
        while (this.streams.size > MAX_STREAMS) (this.streams.values().next().value as StreamingCopy).abandon();
        return started;
      }
      lent.release();
    }
    if (streamOnly) return undefined;
    const read = readCopy(sqlite3, conn, req, this.budgetBytes);
    if (read === 'too-large') {
      this.markTooLarge(key);
      return undefined;
    }
    if (read === undefined) return undefined;
    this.keep(key, read);
    return whole(read);
  }

  /** Reads on, for about `ms`, the copy being read that was used last; false when none is left. */
  readOn(ms: number): boolean {
    const last = [...this.streams.values()].pop();
    last?.readFor(ms);
    return this.streams.size > 0;
  }

  private ended(key: string, end: StreamEnd): void {
    this.streams.delete(key);
    if (end.state === 'done') this.keep(key, end.copy);
    else if (end.state === 'too-large') this.markTooLarge(key);
  }

  private markTooLarge(key: string): void {
    this.tooLarge.add(key);
    if (this.tooLarge.size > 256) this.tooLarge.delete(this.tooLarge.values().next().value as string);
  }

  private keep(key: string, read: DiffCopy): void {
    while (this.copies.size > 0 && (this.used + read.bytes > this.budgetBytes || this.copies.size >= this.maxCopies)) {
      const [oldest, copy] = this.copies.entries().next().value as [string, DiffCopy];
      this.copies.delete(oldest);
      this.used -= copy.bytes;
    }
    this.copies.set(key, read);
    this.used += read.bytes;
  }
}

/** A copy's rows as a page reads them: the copy so far, and reading on until there are `rows`. */
export interface CopySource {
  view(): DiffCopy;
  /** False when no more rows can be read (the copy stopped: the page reads the diff as written). */
  more(rows: number): boolean;
}

function whole(copy: DiffCopy): CopySource {
  return { view: () => copy, more: () => true };
}

/** Copies read page by page at once in one worker. */
const MAX_STREAMS = 2;

function keyOf(copy: DiffCopy, r: number): Cell[] {
  return copy.packed.row(r, copy.columns.length);
}

/** Do two rows next to each other in `rows` have equal keys (then their order is SQLite's sort's)? */
export function tiesIn(copy: DiffCopy, rows: readonly number[]): boolean {
  if (copy.keyWidth === 0) return false;
  for (let i = 1; i < rows.length; i++) if (sameKey(copy, rows[i - 1] as number, rows[i] as number)) return true;
  return false;
}

/** Rows r < s of a copy in key order have equal keys when every row after r up to s ties with the one before. */
function sameKey(copy: DiffCopy, r: number, s: number): boolean {
  for (let k = r + 1; k <= s; k++) if (copy.tieBefore[k] !== 1) return false;
  return true;
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
 * served from the copy (a run of equal keys at its edge: the order among them is SQLite's to pick);
 * 'more' when the copy is still being read and the page reaches past its rows so far.
 */
export function pageRows(sqlite3: Sqlite3, conn: Sqlite3Db, copy: DiffCopy, shape: DiffPageShape): number[] | undefined | 'more' {
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
  if (!copy.complete && out.length < shape.limit) return 'more';
  if (shape.orderBy.length > 0 && copy.keyWidth > 0) {
    const first = out[0];
    if (first !== undefined && lastSkipped >= 0 && sameKey(copy, lastSkipped, first)) return undefined;
    const last = out[out.length - 1];
    if (last !== undefined && out.length === shape.limit) {
      // The next row of the page's kinds must be read to know it does not tie with the last.
      while (r < copy.rows && !matches(r)) r++;
      if (r >= copy.rows && !copy.complete) return 'more';
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
