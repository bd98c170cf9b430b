// Pages of a table's row diff without computing the diff for every page. DoltLite's
// `dolt_diff_<t>(from, to)` cannot seek: every page of `DOLT_DIFF(…) WHERE key > cursor ORDER BY key
// LIMIT n` computed and sorted the whole diff (about 1 s for 100,000 rows). The first page shape
// (diffPageShape.ts) of a diff reads the diff once, in the page's ORDER BY, into a copy kept by
// this worker; every page then picks its rows from the copy (binary search for the cursor, the
// kind filter, LIMIT/OFFSET) and the query reads just those rows through `hub_diff_cell`.
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

const INTEGER = 1;
const FLOAT = 2;
const TEXT = 3;
const BLOB = 4;
const NULL = 5;

/**
 * Memory a query worker keeps copies of row diffs in: an eighth of the memory a worker may grow to
 * before it is replaced (engine.ts), at most 64 MiB.
 */
export function diffCopyBudget(workerMemoryBytes: number): number {
  return Math.min(64 * 1024 * 1024, Math.floor(workerMemoryBytes / 8));
}

/** The SQL function a served page reads its cells with: hub_diff_cell(copy, row, column). */
export const DIFF_CELL_FUNCTION = 'hub_diff_cell';

type Value = number | bigint | string | Uint8Array | null;

/** One diff, copied in one order. */
export interface DiffCopy {
  columns: readonly string[];
  rows: number;
  /** rows × columns values and their SQLite types. */
  cells: Value[];
  types: Uint8Array;
  /** rows × keyWidth values of the ORDER BY expressions (for the cursor and ties). */
  keys: Value[];
  keyTypes: Uint8Array;
  keyWidth: number;
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

  constructor(readonly budgetBytes: number, private readonly maxCopies = 32) {}

  get size(): { copies: number; bytes: number } {
    return { copies: this.copies.size, bytes: this.used };
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

function valueBytes(type: number, v: Value): number {
  switch (type) {
    case INTEGER: return typeof v === 'bigint' ? 40 : 16;
    case FLOAT: return 16;
    case TEXT: return 24 + 2 * (v as string).length;
    case BLOB: return 96 + (v as Uint8Array).length;
    default: return 0;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readValue(sqlite3: Sqlite3, stmt: number, i: number): { type: number; value: Value } {
  const capi = sqlite3.capi;
  const type = capi.sqlite3_column_type(stmt, i);
  switch (type) {
    case INTEGER: {
      const v = BigInt(capi.sqlite3_column_int64(stmt, i) as bigint | number);
      return { type, value: v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v };
    }
    case FLOAT:
      return { type, value: capi.sqlite3_column_double(stmt, i) };
    case TEXT:
    case BLOB: {
      // The bytes as stored (text with NUL or invalid UTF-8 included), copied out of WASM memory.
      const p = capi.sqlite3_column_blob(stmt, i) as number;
      const n = capi.sqlite3_column_bytes(stmt, i);
      const bytes = n === 0 ? new Uint8Array(0) : sqlite3.wasm.heap8u().slice(p, p + n);
      return { type, value: type === TEXT ? strictUtf8.decode(bytes) : bytes };
    }
    default:
      return { type: NULL, value: null };
  }
}

function readCopy(sqlite3: Sqlite3, conn: Sqlite3Db, req: DiffCopyRequest, budget: number): DiffCopy | 'too-large' | undefined {
  const capi = sqlite3.capi;
  let late = false;
  capi.sqlite3_progress_handler(conn.pointer, 1000, () => {
    late = Date.now() > req.deadline;
    return late ? 1 : 0;
  }, 0);
  let stmt;
  try {
    stmt = conn.prepare(req.sql);
    const width = req.columns.length;
    if (stmt.columnCount !== width + req.keyWidth) return undefined;
    const kindColumn = req.columns.indexOf('diff_type');
    if (kindColumn < 0) return undefined;
    const cells: Value[] = [];
    const keys: Value[] = [];
    const types: number[] = [];
    const keyTypes: number[] = [];
    let bytes = 0;
    let rows = 0;
    while (stmt.step()) {
      for (let i = 0; i < width + req.keyWidth; i++) {
        const { type, value } = readValue(sqlite3, stmt.pointer, i);
        bytes += 9 + valueBytes(type, value);
        if (i < width) {
          cells.push(value);
          types.push(type);
        } else {
          keys.push(value);
          keyTypes.push(type);
        }
      }
      rows++;
      if (bytes > budget) return 'too-large';
      if ((rows & 1023) === 0 && Date.now() > req.deadline) return undefined;
    }
    return { columns: req.columns, rows, cells, types: Uint8Array.from(types), keys, keyTypes: Uint8Array.from(keyTypes), keyWidth: req.keyWidth, kindColumn, bytes };
  } catch {
    // Interrupted at the deadline, text that is not UTF-8, or a query this shape cannot run:
    // the page reads the diff as written (and says what is wrong, if anything is).
    return undefined;
  } finally {
    stmt?.finalize();
    capi.sqlite3_progress_handler(conn.pointer, 0, 0, 0);
  }
}

/** SQLite's equality of two values (numbers across INTEGER and REAL), for ties between keys. */
function sameValue(ta: number, a: Value, tb: number, b: Value): boolean {
  const numeric = (t: number): boolean => t === INTEGER || t === FLOAT;
  if (numeric(ta) && numeric(tb)) return (a as number | bigint) == (b as number | bigint);
  if (ta !== tb) return false;
  if (ta === NULL) return true;
  if (ta === BLOB) {
    const x = a as Uint8Array;
    const y = b as Uint8Array;
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  return a === b;
}

function sameKey(copy: DiffCopy, r: number, s: number): boolean {
  for (let k = 0; k < copy.keyWidth; k++) {
    const i = r * copy.keyWidth + k;
    const j = s * copy.keyWidth + k;
    if (!sameValue(copy.keyTypes[i] as number, copy.keys[i] as Value, copy.keyTypes[j] as number, copy.keys[j] as Value)) return false;
  }
  return true;
}

/** Binds the first `n` key values of row `r` to ?1…?n of `stmt`. */
function bindKey(sqlite3: Sqlite3, stmt: Sqlite3Stmt, copy: DiffCopy, r: number, n: number): void {
  const capi = sqlite3.capi;
  stmt.reset();
  stmt.clearBindings();
  for (let k = 0; k < n; k++) {
    const i = r * copy.keyWidth + k;
    const t = copy.keyTypes[i];
    const v = copy.keys[i] as Value;
    if (t === INTEGER) capi.sqlite3_bind_int64(stmt.pointer, k + 1, BigInt(v as number | bigint));
    else if (t === FLOAT) capi.sqlite3_bind_double(stmt.pointer, k + 1, v as number);
    else if (t === TEXT || t === BLOB) stmt.bind(k + 1, v);
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
  const kinds = shape.kinds ? new Set(shape.kinds) : undefined;
  const matches = (r: number): boolean => !kinds || kinds.has(copy.cells[r * copy.columns.length + copy.kindColumn] as string);
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
  const capi = sqlite3.capi;
  conn.createFunction(DIFF_CELL_FUNCTION, (pCtx: number, slot: unknown, row: unknown, column: unknown) => {
    const copy = copies[Number(slot)];
    const r = Number(row);
    const c = Number(column);
    if (!copy || !Number.isInteger(r) || !Number.isInteger(c) || r < 0 || r >= copy.rows || c < 0 || c >= copy.columns.length) return null;
    const i = r * copy.columns.length + c;
    const v = copy.cells[i] as Value;
    switch (copy.types[i]) {
      case INTEGER:
        capi.sqlite3_result_int64(pCtx, BigInt(v as number | bigint));
        return undefined;
      case FLOAT:
        capi.sqlite3_result_double(pCtx, v as number);
        return undefined;
      default:
        return v;
    }
  }, { arity: 3, deterministic: true });
}
