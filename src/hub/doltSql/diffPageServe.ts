// Pages of a row diff or a patch served from the worker's copies (diffRowCache.ts): which copy a
// page reads (keyed by everything its rows depend on), when a page makes one, and the page's rows
// from it, read on first when the copy is still being read (diffCopyStream.ts).
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { DiffPageRequest, DiffPageRows } from './common';
import { DIFF_CELL_FUNCTION, pageRows, registerCellFunction, tiesIn, type DiffCopy, type DiffRowCache } from './diffRowCache';
import type { CopyLease } from './diffCopyStream';
import { q } from '../sqliteQuote';

/** Where diff pages come from: the worker's copies of diffs, for this database, until the query's deadline. */
export interface DiffPageSource {
  cache: DiffRowCache;
  dbKey: string;
  deadline: number;
  /** Whether the query's caller went away (the engine's cancel flag). */
  callerGone?: () => boolean;
  /** Lends a connection to a copy read page by page (the worker's kept connections), or says no. */
  lease?: (conn: Sqlite3Db) => CopyLease | undefined;
}

export function diffPage(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  src: DiffPageSource,
  served: ServedCopies,
  req: DiffPageRequest,
): DiffPageRows | undefined {
  const { shape } = req;
  const keyed = req.patch ? patchCopyKey(src, req) : diffCopyKey(conn, src, req);
  if (!keyed) return undefined;
  const { cacheKey, sql } = keyed;
  // A copy read as its pages need it (diffCopyStream.ts) costs its first page what that page
  // computed whole costs (the diff made and sorted once): any first page starts one. A copy read
  // whole costs several times one page: then a small first page is read as written (a diff that
  // fits in it is never copied) and the next page makes the copy; a first page as large as an
  // export's asks for the whole diff: it makes the copy at once.
  const streamOnly = !shape.cursor && shape.offset === 0 && shape.limit < COPY_FROM_FIRST_PAGE && !src.cache.has(cacheKey);
  // Before a copy's statement may be left running on the connection (diffCopyStream.ts): SQLite
  // refuses to define a function on a connection while one of its statements runs.
  if (!served.registered) registerCellFunction(sqlite3, conn, served.copies);
  served.registered = true;
  const source = src.cache.obtain(
    sqlite3,
    conn,
    {
      cacheKey,
      sql,
      ...(shape.orderBy.length > 0 ? { unsortedSql: copySql(req, false) } : {}),
      columns: req.columns,
      ...(req.answerAsMysqlText !== undefined ? { answerAsMysqlText: req.answerAsMysqlText } : {}),
      keyWidth: shape.orderBy.length,
      deadline: src.deadline,
    },
    src.lease,
    streamOnly,
  );
  if (!source) return undefined;
  let copy = source.view();
  let rows: number[] | undefined | 'more';
  try {
    // A copy still being read is read on until the page's rows (and the row after them) are in.
    while ((rows = pageRows(sqlite3, conn, copy, shape)) === 'more') {
      if (!source.more(copy.rows + Math.max(shape.offset + shape.limit + 1, MIN_READ_ROWS))) return undefined;
      copy = source.view();
    }
  } catch {
    return undefined;
  }
  if (!rows) return undefined;
  const pageCopy = copy;
  served.copies.push(pageCopy);
  const page = { fn: DIFF_CELL_FUNCTION, slot: served.copies.length - 1, rows };
  return tiesIn(pageCopy, rows) ? page : { ...page, answer: (r: number) => pageCopy.answers.pieces(r) };
}

/** The copies a query's pages were served from, and whether its cell function is defined. */
export interface ServedCopies {
  copies: DiffCopy[];
  registered: boolean;
}

/** Rows a page reads on at least, when its copy is still being read. */
const MIN_READ_ROWS = 1024;

/** A first page of at least this many rows (an export's: src/core/review/patchPages.ts) makes the copy. */
export const COPY_FROM_FIRST_PAGE = 2000;

/**
 * `SELECT <columns>, <order> FROM <source> ORDER BY <order>`: the whole diff in the page's order.
 * A column the query does not read (`req.reads`) is NULL: DoltLite makes some cells per row at a
 * cost (a commit's date: about a third of a 100,000-row copy's time), and the copy is keyed by
 * this text, so a query that reads more gets a copy of its own. `sorted` false: without the ORDER
 * BY (diffCopyRead.ts reads that first and keeps it when its rows come in key order).
 */
function copySql(req: DiffPageRequest, sorted = true): string {
  const { shape } = req;
  const alias = q(shape.alias ?? (req.patch ? 'dolt_patch' : 'dolt_diff'));
  const cols = req.columns.map((c, k) => (req.reads && !req.reads.has(k) ? `NULL AS ${q(c)}` : `${alias}.${q(c)}`)).join(', ');
  const order = shape.orderBy.join(', ');
  return shape.orderBy.length > 0
    ? `SELECT ${cols}, ${order} FROM ${req.source} AS ${alias}${sorted ? ` ORDER BY ${order}` : ''}`
    : `SELECT ${cols} FROM ${req.source} AS ${alias}`;
}

/** The copy of a row diff: keyed by the diff's columns and the table's schema on this connection. */
function diffCopyKey(conn: Sqlite3Db, src: DiffPageSource, req: DiffPageRequest): { cacheKey: string; sql: string } | undefined {
  let diffColumns: [string, string][];
  let schema: unknown[];
  try {
    diffColumns = conn
      .selectObjects('SELECT name, type FROM pragma_table_info(?)', [`dolt_diff_${req.table}`])
      .map((r) => [String(r['name']), String(r['type'] ?? '')]);
    schema = conn.selectObjects('SELECT name, type, pk, "notnull" FROM pragma_table_info(?)', [req.table]).map((r) => Object.values(r));
  } catch {
    return undefined;
  }
  // The cursor is tested on the key values alone (diffRowCache.ts), which compare as in the query
  // only when the columns the keys read carry no type affinity, as the diff's own columns do.
  const declared = new Map(diffColumns.map(([n, t]) => [n.toLowerCase(), t]));
  if (req.shape.orderColumns.some((c) => declared.get(c.toLowerCase()) !== '')) return undefined;
  const sql = copySql(req);
  return { cacheKey: JSON.stringify([src.dbKey, req.fromHex, req.toHex, req.table, req.columns, diffColumns, schema, sql]), sql };
}

/**
 * The copy of a patch (patchPushdown.ts), ordered by statement_order alone. Its values are whole
 * numbers: compared with a number the cursor tests the same with or without the column's affinity;
 * a cursor with any quoted literal (text, blob) is read as written.
 */
function patchCopyKey(src: DiffPageSource, req: DiffPageRequest): { cacheKey: string; sql: string } | undefined {
  const { shape } = req;
  if (shape.kinds || shape.orderColumns.some((c) => c.toLowerCase() !== 'statement_order')) return undefined;
  if (shape.cursor && /['"`]/.test(shape.cursor.sql)) return undefined;
  const sql = copySql(req);
  return {
    cacheKey: JSON.stringify(['patch', src.dbKey, req.fromHex, req.toHex, req.table, req.columns, req.answerAsMysqlText, sql]),
    sql,
  };
}
