// Runs one read-only SELECT on a DoltLite connection inside an engine worker (engineWorker.ts):
// steps it under a deadline and the read-only guard, turns SQLite values into the API's cells
// (declared decimal scale kept, blobs as a marker), stops at the row limit or the byte budget, and
// describes the columns (declared type, primary key, source table). Plus the messages a failed
// query gets.
import type { Sqlite3, Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { QueryColumn, QueryResult, Cell } from '../shared/wire';
import { BINARY_CELL } from '../shared/wire';
import { type ReadOnlyGuard, ReadOnlyRefusal } from './readOnlyGuard';
import { CELL_OVERHEAD, ResultBudget, valueTooLargeMessage } from './resultBudget';
import { queryMemoryMessage } from './queryMemory';
import { UserColumnTypes } from './doltSql/engineContext';
import type { DirectPage } from './doltSql/directPage';
import { decimalScales, withScale } from './decimalScale';

const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_BLOB = 4;
const SQLITE_NULL = 5;
const SQLITE_NOMEM = 7;
const SQLITE_TOOBIG = 18;

/** Budgets of one query (see resultBudget.ts). */
export interface QueryBudget {
  maxBytes: number;
  maxValueBytes: number;
  /** What the query may allocate besides the page caches (queryMemory.ts). */
  memoryBytes: number;
}

const CANCELLED_MESSAGE = 'The query was stopped: its caller went away.';

export interface SelectOptions {
  /** When the query must stop (default: `timeoutMs` from now); work before the select counts too. */
  deadline?: number;
  /**
   * The same query in another form (a row diff read whole where `sql` reads one page of it from a
   * copy): the columns are described from it, as that query shows them.
   */
  describeSql?: string;
  /**
   * Asked between steps (with the deadline): when it says yes, the query stops and answers an
   * error nobody reads, so the worker is free for the next caller.
   */
  callerGone?: () => boolean;
  /**
   * Bytes the worker's memory outside SQLite's heap grew by since the query started: a sort's
   * temporary files live there (queryMemory.ts). Asked between steps; past the query's memory
   * budget the query stops.
   */
  grownOutsideHeap?: () => number;
  /** The rows, read from a copy of a diff (directPage.ts): `describeSql` is prepared for the columns, `sql` runs only if they do not fit it. */
  direct?: DirectPage;
  /** Rows of a `direct` page may be answered as one JSON text (`rowsJson`). */
  rawRows?: boolean;
}

/** A query's answer in the worker: its rows may be one JSON text, written into the response as it is. */
export type EngineQueryResult = QueryResult & { rowsJson?: string };

export function runSelect(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  guard: ReadOnlyGuard,
  sql: string,
  limit: number,
  timeoutMs: number,
  budget: QueryBudget,
  fixedTypes?: string[],
  options: SelectOptions = {},
): EngineQueryResult {
  if (options.direct && options.describeSql !== undefined) {
    const answered = answerDirect(sqlite3, conn, guard, options.describeSql, options.direct, limit, budget, fixedTypes, options.rawRows);
    if (answered) return answered;
  }
  const capi = sqlite3.capi;
  const stop = new QueryStop(capi, conn, options.deadline ?? Date.now() + timeoutMs, {
    callerGone: options.callerGone,
    grownPastBudget: options.grownOutsideHeap && (() => (options.grownOutsideHeap?.() ?? 0) > budget.memoryBytes),
  });
  // The guard's refusal is a reason for failing to prepare; a step that fails says why itself.
  const failed = (columns: QueryColumn[], e: unknown, preparing: boolean): QueryResult => {
    if (stop.timedOut) return { columns, rows: [], status: 'timeout', message: timeoutMessage(timeoutMs) };
    if (stop.cancelled) return { columns, rows: [], status: 'error', message: CANCELLED_MESSAGE };
    if (stop.outOfMemory) return { columns, rows: [], status: 'error', message: queryMemoryMessage(budget.memoryBytes) };
    return { columns, rows: [], status: 'error', message: (preparing ? guard.refusedReason : undefined) ?? queryFailure(e, budget) };
  };
  let stmt;
  guard.reset();
  try {
    stmt = conn.prepare(sql);
  } catch (e) {
    stop.clear();
    return failed([], e, true);
  }
  try {
    guard.checkStatement(stmt.pointer, sql);
  } catch (e) {
    stop.clear();
    stmt.finalize();
    if (e instanceof ReadOnlyRefusal) return { columns: [], rows: [], status: 'error', message: e.message };
    throw e;
  }
  const n = stmt.columnCount;
  // Types, keys and source tables come from the statement that describes the result.
  const described = options.describeSql === undefined ? undefined : prepareDescription(conn, options.describeSql, n);
  const meta = described ?? stmt;
  const read = new RowReader(capi, stmt.pointer, n, decimalScales(capi, conn, meta.pointer, n));
  let result: Omit<QueryResult, 'columns'> | undefined;
  let failure: unknown;
  try {
    result = stepRows(stmt, read, limit, budget);
  } catch (e) {
    failure = e;
  }
  stop.clear();
  const columns = resultColumns(sqlite3, conn, meta, read.firstTypes, fixedTypes);
  stmt.finalize();
  described?.finalize();
  // A table function that runs queries of its own (dolt_test_run) turns the interrupt into a row
  // ("Query error: interrupted") and goes on; the deadline passed all the same, so no row stands.
  if (result && (stop.timedOut || stop.cancelled || stop.outOfMemory)) return failed(columns, undefined, false);
  return result ? { columns, ...result } : failed(columns, failure, false);
}

/**
 * Stops the query on the connection at its deadline, when its caller went away, or when its
 * temporary files grew past its memory budget.
 */
class QueryStop {
  timedOut = false;
  cancelled = false;
  outOfMemory = false;

  constructor(
    private readonly capi: Sqlite3['capi'],
    private readonly conn: Sqlite3Db,
    deadline: number,
    checks: { callerGone?: () => boolean; grownPastBudget?: (() => boolean) | undefined },
  ) {
    capi.sqlite3_progress_handler(
      conn.pointer,
      1000,
      () => {
        if (Date.now() > deadline) {
          this.timedOut = true;
          return 1;
        }
        if (checks.callerGone?.()) {
          this.cancelled = true;
          return 1;
        }
        if (checks.grownPastBudget?.()) {
          this.outOfMemory = true;
          return 1;
        }
        return 0;
      },
      0,
    );
  }

  clear(): void {
    this.capi.sqlite3_progress_handler(this.conn.pointer, 0, 0, 0);
  }
}

/** Steps the statement into rows until it ends, the row limit or the byte budget. Throws what a step throws. */
function stepRows(stmt: Sqlite3Stmt, read: RowReader, limit: number, budget: QueryBudget): Omit<QueryResult, 'columns'> {
  const rows: Cell[][] = [];
  const bytes = new ResultBudget(budget.maxBytes);
  while (stmt.step()) {
    if (rows.length >= limit) return { rows, status: 'row_limit', message: rowLimitMessage(limit) };
    const row = read.row();
    if (!bytes.admit(row)) return { rows, status: 'row_limit', message: bytes.message(rows.length) };
    rows.push(row);
  }
  return { rows, status: 'success', message: '' };
}

function rowLimitMessage(limit: number): string {
  return `The result has more than ${limit} rows; only the first ${limit} are returned. Narrow the query or raise the limit.`;
}

/**
 * The answer of a page read from a copy (`direct`), described by `describeSql` as runSelect
 * describes a page served through SQLite, with the same row limit, byte budget and decimal
 * scales; undefined when the rows do not fit the description (runSelect then runs the query).
 * Its cells come as JSON texts: with `raw`, the rows are left as one JSON text (`rowsJson`, the
 * response is written around it: routes/sql.ts), else parsed.
 */
function answerDirect(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  guard: ReadOnlyGuard,
  describeSql: string,
  direct: DirectPage,
  limit: number,
  budget: QueryBudget,
  fixedTypes?: string[],
  raw = false,
): EngineQueryResult | undefined {
  let stmt: Sqlite3Stmt | undefined;
  try {
    guard.reset();
    stmt = conn.prepare(describeSql);
    guard.checkStatement(stmt.pointer, describeSql);
    const n = stmt.columnCount;
    if (direct.width !== n) return undefined;
    const scales = decimalScales(sqlite3.capi, conn, stmt.pointer, n);
    const firstTypes = new Array<number>(n).fill(SQLITE_NULL);
    const rows: string[] = [];
    const bytes = new ResultBudget(budget.maxBytes);
    let end: { status: 'row_limit'; message: string } | undefined;
    for (let i = 0, at = 0; i < direct.rows && !end; i++, at += n) {
      if (rows.length >= limit) {
        end = { status: 'row_limit', message: rowLimitMessage(limit) };
        break;
      }
      let text = '[';
      let size = 2;
      for (let j = 0; j < n; j++) {
        const ty = direct.types[at + j] as number;
        if (firstTypes[j] === SQLITE_NULL && ty !== SQLITE_NULL) firstTypes[j] = ty;
        const scale = scales[j];
        let piece = direct.cells[at + j] as string;
        // A number's text has no escapes: its JSON text is the text in quotes.
        if (scale !== undefined && (ty === SQLITE_INTEGER || ty === SQLITE_FLOAT)) piece = `"${withScale(piece.slice(1, -1), scale)}"`;
        size += pieceLength(piece) + CELL_OVERHEAD;
        text += j === 0 ? piece : ',' + piece;
      }
      if (!bytes.admitBytes(size)) end = { status: 'row_limit', message: bytes.message(rows.length) };
      else rows.push(text + ']');
    }
    const columns = resultColumns(sqlite3, conn, stmt, firstTypes, fixedTypes);
    const rowsJson = `[${rows.join(',')}]`;
    const answered = end ?? { status: 'success' as const, message: '' };
    return raw ? { columns, rows: [], rowsJson, ...answered } : { columns, rows: JSON.parse(rowsJson) as Cell[][], ...answered };
  } catch {
    // Not prepared or refused here: runSelect runs the query and says so as it would.
    return undefined;
  } finally {
    stmt?.finalize();
  }
}

/** What ResultBudget counts for a cell given as JSON text: a string's length, 4 for null. */
function pieceLength(piece: string): number {
  if (piece.charCodeAt(0) !== 0x22) return 4;
  // Without a backslash the text between the quotes is the string itself.
  return piece.indexOf('\\') < 0 ? piece.length - 2 : (JSON.parse(piece) as string).length;
}

/** Turns the current row of a statement into the API's cells, noting each column's first non-NULL type. */
class RowReader {
  readonly firstTypes: number[];

  constructor(
    private readonly capi: Sqlite3['capi'],
    private readonly stmt: number,
    private readonly n: number,
    private readonly scales: (number | undefined)[],
  ) {
    this.firstTypes = new Array<number>(n).fill(SQLITE_NULL);
  }

  row(): Cell[] {
    const { capi, stmt, scales, firstTypes } = this;
    const row: Cell[] = [];
    for (let i = 0; i < this.n; i++) {
      const ty = capi.sqlite3_column_type(stmt, i);
      if (firstTypes[i] === SQLITE_NULL && ty !== SQLITE_NULL) firstTypes[i] = ty;
      if (ty === SQLITE_NULL) row.push(null);
      else if (ty === SQLITE_BLOB) row.push(BINARY_CELL);
      else {
        const text = capi.sqlite3_column_text(stmt, i) ?? '';
        const scale = scales[i];
        row.push(scale !== undefined && (ty === SQLITE_INTEGER || ty === SQLITE_FLOAT) ? withScale(text, scale) : text);
      }
    }
    return row;
  }
}

/** The statement `sql`, prepared only, when it has `columns` columns; else undefined. */
function prepareDescription(conn: Sqlite3Db, sql: string, columns: number): Sqlite3Stmt | undefined {
  let other: Sqlite3Stmt | undefined;
  try {
    other = conn.prepare(sql);
    if (other.columnCount === columns) return other;
  } catch {
    // described from the query that runs
  }
  other?.finalize();
  return undefined;
}

function resultColumns(
  sqlite3: Sqlite3,
  conn: Sqlite3Db,
  stmt: { pointer: number; columnCount: number; getColumnName(i: number): string },
  firstTypes: number[],
  fixedTypes?: string[],
): QueryColumn[] {
  const capi = sqlite3.capi;
  const pkCache = new Map<string, Set<string>>();
  const userCols = new UserColumnTypes(conn);
  const cols: QueryColumn[] = [];
  for (let i = 0; i < stmt.columnCount; i++) {
    const name = stmt.getColumnName(i);
    if (fixedTypes) {
      cols.push({ name, type: fixedTypes[i] ?? 'text', is_primary_key: false, source_table: '' });
      continue;
    }
    const decl = userCols.declType(capi, stmt.pointer, i);
    const [table, origin] = userCols.source(capi, stmt.pointer, i);
    let isPk = false;
    if (table !== '' && origin !== '') {
      let pks = pkCache.get(table);
      if (!pks) {
        pks = new Set();
        try {
          for (const r of conn.selectObjects(`SELECT name, pk FROM pragma_table_info(?)`, [table])) {
            if (Number(r['pk']) > 0) pks.add(String(r['name']));
          }
        } catch {
          // Virtual tables (dolt_log, ...) have no table_info; they have no primary key to show.
        }
        pkCache.set(table, pks);
      }
      isPk = pks.has(origin);
    }
    const type = decl && decl.trim() !== '' ? decl.toLowerCase() : expressionType(firstTypes[i] ?? SQLITE_NULL);
    cols.push({ name, type, is_primary_key: isPk, source_table: table });
  }
  return cols;
}

function expressionType(sqliteType: number): string {
  switch (sqliteType) {
    case SQLITE_INTEGER:
      return 'bigint';
    case SQLITE_FLOAT:
      return 'double';
    case SQLITE_BLOB:
      return 'blob';
    default:
      return 'text';
  }
}

export function timeoutMessage(ms: number): string {
  return `The query ran longer than ${ms} ms and was stopped.`;
}

/** A failed query's message; the limits the hub sets say which limit and option. */
function queryFailure(e: unknown, budget: QueryBudget): string {
  const code = (e as { resultCode?: unknown } | null)?.resultCode;
  if (code === SQLITE_TOOBIG) return valueTooLargeMessage(budget.maxValueBytes);
  if (code === SQLITE_NOMEM) return queryMemoryMessage(budget.memoryBytes);
  return clipMessage(engineMessage(e));
}

/** Engine messages may quote the query (`near "…": syntax error`); a result never echoes much of it. */
function clipMessage(m: string): string {
  return m.length > 1000 ? `${m.slice(0, 1000)}… (message cut at 1000 characters)` : m;
}

export function engineMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  // "SQLITE_ERROR: sqlite3 result code 1: no such table: x" -> "no such table: x"
  return m.replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, '');
}
