// The memory budget of a caller's query in a query worker (issue 26): a sort of big values, a
// large VALUES list or a big group_concat fails with a message naming the budget instead of
// growing the worker until its deadline.
//
// SQLite counts every allocation of its WASM instance, and `PRAGMA hard_heap_limit` makes one that
// would pass a limit fail (SQLITE_NOMEM; the JS glue's own allocations throw WasmAllocError, with
// the same result code). That limit can be lowered but never raised (the C call that raises it is
// not exported), and it covers the page caches of the connections the worker keeps, which fill as
// they are read and must not start failing. So the limit is set once, high (HEAP_CEILING), and
// around each caller's query the worker holds a ballast: one allocation SQLite counts but nothing
// writes to (none of its pages becomes resident), sized so that what is left under the ceiling is
// the query's budget plus room for the page caches it may still fill. The ballast is freed when
// the query ends, as are the sorter's and the statement's allocations when it fails. A sort also
// spills to temporary files, which live in the in-memory file system outside SQLite's heap: their
// growth is read between the query's steps and stops it past the same budget.
import { getHeapStatistics } from 'node:v8';
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { formatBytes } from './resultBudget';

const SQLITE_STATUS_MEMORY_USED = 0;
const SQLITE_NOMEM = 7;

/**
 * The heap limit of a query worker's SQLite. Its WASM memory cannot pass 2 GiB; below the limit
 * stay its kept connections' caches and the query's room, above it the raw copies of database
 * files being loaded (loadMemFile) and the allocator's slack.
 */
export const HEAP_CEILING = 1280 * 1024 * 1024;

export class QueryMemory {
  private ceilingSet = false;
  /** How much the ballast alone made the WASM memory grow (it never shrinks). */
  private ballastGrowth = 0;

  constructor(private readonly sqlite3: Sqlite3) {}

  /** Bytes of SQLite's heap in use now (its allocations and the JS glue's). */
  used(): number {
    const w = this.sqlite3.wasm;
    // Scratch outside SQLite's count, so this works at the limit too.
    const p = w.exports.malloc(16);
    try {
      this.sqlite3.capi.sqlite3_status64(SQLITE_STATUS_MEMORY_USED, p, p + 8, 0);
      return Number(w.peek64(p));
    } finally {
      w.exports.free(p);
    }
  }

  /**
   * Runs `fn` (a caller's query) with `room` bytes of SQLite heap to grow by, whatever the
   * worker holds already. When the ballast cannot be placed (the worker's memory is fragmented
   * or its caches fill most of the ceiling) the query gets what is left under the ceiling.
   */
  within<T>(room: number, fn: () => T): T {
    if (!this.ceilingSet) this.setCeiling();
    const memory = this.sqlite3.wasm.memory;
    const before = memory.buffer.byteLength;
    const size = HEAP_CEILING - this.used() - room;
    const ballast = size > 0 ? this.sqlite3.capi.sqlite3_malloc64(BigInt(size)) : 0;
    this.ballastGrowth += memory.buffer.byteLength - before;
    try {
      return fn();
    } finally {
      if (ballast) this.sqlite3.capi.sqlite3_free(ballast);
    }
  }

  /**
   * A meter of the worker's memory outside SQLite's heap from now on: ArrayBuffers besides the
   * WASM memory, where the in-memory file system keeps files, a sort's temporary files among
   * them (SQLite spills a sort there past its cache size, or when its heap is nearly full).
   */
  outsideHeapMeter(): () => number {
    const outside = (): number =>
      ((getHeapStatistics() as { external_memory?: number }).external_memory ?? 0) - this.sqlite3.wasm.memory.buffer.byteLength;
    const start = outside();
    return () => outside() - start;
  }

  /** Bytes of WASM memory the worker has used: its size, less what only the ballast grew it by. */
  wasmBytes(): number {
    return this.sqlite3.wasm.memory.buffer.byteLength - this.ballastGrowth;
  }

  private setCeiling(): void {
    const db = new this.sqlite3.oo1.DB(':memory:', 'c');
    try {
      db.exec(`PRAGMA hard_heap_limit = ${HEAP_CEILING}`);
    } finally {
      db.close();
    }
    this.ceilingSet = true;
  }
}

/**
 * Creates (or replaces) a file in the worker's in-memory file system with `bytes`. The copy the
 * glue makes on the way passes through memory SQLite does not count, so loading a database never
 * fails under the heap limit, and never counts against a query's budget.
 */
export function loadMemFile(sqlite3: Sqlite3, path: string, bytes: Uint8Array): void {
  const w = sqlite3.wasm;
  const p = w.exports.malloc(Math.max(1, bytes.length));
  if (!p) throw new Error(`The worker has no room left to load a ${formatBytes(bytes.length)} database file.`);
  try {
    w.heap8u().set(bytes, p);
    sqlite3.capi.sqlite3_js_posix_create_file(path, p, bytes.length);
  } finally {
    w.exports.free(p);
  }
}

/**
 * Keeps a query's sorts and temporary tables in SQLite's heap, under its limit, rather than in
 * temporary files of the in-memory file system, outside it: SQLite's sorter writes its rows out
 * each time they pass the cache size (a kept connection's is 64 MiB or more), so a sort of 600 MB
 * under a 256 MiB budget grew the worker by 1.2 GB in files. With the cache size at least the
 * budget (the sorter's threshold, at most 512 MiB), a sort past the budget fails instead. The
 * page cache itself stays bounded by the file it reads.
 */
export function sortsInHeap(conn: Sqlite3Db, cacheBytes: number, budgetBytes: number): void {
  const kib = Math.ceil(Math.max(cacheBytes, Math.min(budgetBytes, MAX_SORT_IN_HEAP_BYTES)) / 1024);
  conn.exec(`PRAGMA temp_store = MEMORY; PRAGMA cache_size = -${kib}`);
}

/** SQLite's largest sorter threshold (SQLITE_MAX_PMASZ). */
const MAX_SORT_IN_HEAP_BYTES = 512 * 1024 * 1024;

/** SQLite ran out of heap (SQLITE_NOMEM), or the glue could not allocate (WasmAllocError). */
export function isOutOfMemory(e: unknown): boolean {
  return (e as { resultCode?: unknown } | null)?.resultCode === SQLITE_NOMEM;
}

export function queryMemoryMessage(budgetBytes: number): string {
  return (
    `The query needed more than the hub's ${formatBytes(budgetBytes)} of memory per query (--max-query-memory-mb) ` +
    'for sorting, grouping or building its values, and was stopped. Add a LIMIT, sort or group fewer or smaller values, or select fewer columns.'
  );
}
