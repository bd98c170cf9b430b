// "Load All Rows": a user's query that ended at the row limit, read again a page at a time at the
// commit it ran at (`wrapPage` / `wrapCount` in src/core/sql/pagedQuery.ts), as a `PageSource`
// for the paged grid and for streamed export. Pure (no vscode): the notebook controller and the
// SQL result panel hand it a `run` that sends SQL to the API at that commit.
//
// - `loadAllPlan` decides whether a result can be paged at all, with the reason when not (not
//   one SELECT, repeated column names, not at a known commit, not a row_limit result); the host
//   offers Load All Rows only when it can, and refuses a `loadAll` message the same way.
// - A page the server cuts short (its byte budget is reached before the page's rows) is read on
//   from where it stopped, so a short page always means the end of the rows.
// - A page that times out or fails throws `QueryPageError`, whose message says which rows and
//   why; the PageServer shows it on those rows with Retry.
// - `SELECT * FROM <table>` alone is the table's rows: with no sort or filter they are read as the
//   table browser reads a table, in primary key order, each page after the last one's key when
//   reads follow each other (an export, scrolling down), so a long read is not quadratic in OFFSET.
//   Both engines return an unordered `SELECT *` of a table in primary key order (the table is
//   stored by it), so these pages continue the first result. Other queries page by OFFSET.
import type { SqlRunner } from '../sql/sqlPort';
import type { QueryColumn, QueryResult, QueryStatus } from '../../shared/wire';
import type { PageRows, PageSource, PageView } from './pageServer';
import type { Cell } from '../../shared/wire';
import { checkPageable, duplicateColumnNames, plainTableOf, wrapCount, wrappedFrom, wrapPage } from '../sql/pagedQuery';
import { quoteIdentifier, SqlInputError } from '../sql/quote';
import { buildCountQuery, buildPageQuery, cursorOf, keysetSupported, type TableColumnInfo, type TableView } from '../sql/tableQuery';
import { parseColumns } from '../review/rowDiff';

export type LoadAllPlan = { ok: true; query: string; commit: string } | { ok: false; reason: string };

export interface LoadAllInput {
  sql: string;
  status: QueryStatus;
  columns: readonly { name: string }[];
  /** The commit the query ran at; undefined when the ref could not be pinned. */
  commit: string | undefined;
}

/** Whether Load All Rows can page this result, and the reason when it cannot. */
export function loadAllPlan(r: LoadAllInput): LoadAllPlan {
  if (r.status === 'timeout')
    return {
      ok: false,
      reason:
        'The query timed out, so there are no rows to page. Narrow the query or raise "versionedDb.sql.timeoutMs", then run it again.',
    };
  if (r.status !== 'row_limit')
    return { ok: false, reason: 'Only a result that stopped at the row limit has more rows to load; this one is complete or failed.' };
  const check = checkPageable(r.sql);
  if (!check.ok) return { ok: false, reason: `${check.reason} Load All Rows pages a single SELECT only; nothing else is ever re-run.` };
  const dups = duplicateColumnNames(r.columns.map((c) => c.name));
  if (dups.length > 0) {
    const list = dups.map((d) => `"${d}"`).join(', ');
    return {
      ok: false,
      reason: `The result has more than one column named ${list}; give each a name of its own with AS (for example b.id AS b_id), then run it again to load all rows.`,
    };
  }
  if (!r.commit)
    return {
      ok: false,
      reason:
        'The commit this query ran at is not known, so pages could not be read at the same data. Run it at a branch, tag or commit hash.',
    };
  return { ok: true, query: check.query, commit: r.commit };
}

/** A page that could not be read: the message names the rows and the reason. */
export class QueryPageError extends Error {
  override readonly name = 'QueryPageError';
  constructor(
    message: string,
    readonly status: QueryStatus,
  ) {
    super(message);
  }
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function failure(what: string, r: QueryResult): QueryPageError {
  const said = r.message ? ` ${r.message}` : '';
  if (r.status === 'timeout') return new QueryPageError(`${what} timed out.${said} Retry, or raise "versionedDb.sql.timeoutMs".`, r.status);
  return new QueryPageError(`${what} failed (${r.status}).${said}`, r.status);
}

export interface QueryPageSourceOptions {
  /** The user's query, checked by `loadAllPlan`. */
  query: string;
  /** SQL at the pinned commit (the SQL port bound to it). */
  run: SqlRunner;
  /** The number of columns every page must have (the first result's). */
  columnCount: number;
  /** The first result's columns (names and types): what a sort or filter on the server names. */
  columns?: readonly QueryColumn[];
}

export class QueryPageSource implements PageSource {
  /** The table a plain `SELECT * FROM t` reads, keyed (undefined: not such a query, or no key). */
  private table?: Promise<TableView | undefined>;
  /** Where the last unsorted, unfiltered read of the table ended, and its last row's key. */
  private cursor?: { end: number; key: Cell[] };

  constructor(private readonly opts: QueryPageSourceOptions) {}

  /**
   * The table of `SELECT * FROM t`, read by its primary key, when its columns are the result's
   * (names and order) and it has a key that orders exactly; else undefined (OFFSET pages).
   */
  private plainTable(signal: AbortSignal): Promise<TableView | undefined> {
    const name = plainTableOf(this.opts.query);
    if (name === undefined) return Promise.resolve(undefined);
    this.table ??= (async () => {
      const r = await this.opts.run(`DESCRIBE ${quoteIdentifier(name)}`, { limit: 10_000, signal });
      if (r.status !== 'success') return undefined;
      const columns = parseColumns(r);
      const result = this.opts.columns ?? [];
      if (columns.length !== result.length || columns.some((c, i) => c.name !== result[i]?.name)) return undefined;
      const view: TableView = { table: name, columns };
      return keysetSupported(view) ? view : undefined;
    })().catch(() => {
      // Cancelled or failed: this read pages by OFFSET, the next one asks again.
      this.table = undefined;
      return undefined;
    });
    return this.table;
  }

  /**
   * A sort or filter is run on the server by wrapping the query (`SELECT … FROM (query) AS q
   * WHERE … ORDER BY …`, every column breaking ties, NULLs where Dolt puts them); without one the
   * query's own order stands.
   */
  private view(view: PageView): TableView | undefined {
    if (view.sort.length === 0 && view.filters.length === 0) return undefined;
    const columns: TableColumnInfo[] = (this.opts.columns ?? []).map((c) => ({ name: c.name, type: c.type, primaryKey: false }));
    if (columns.length === 0) throw new SqlInputError('The columns of this result are not known, so it cannot be sorted or filtered here.');
    return { table: 'the result', from: wrappedFrom(this.opts.query), columns, sort: view.sort, filters: view.filters };
  }

  checkView(view: PageView): string | undefined {
    try {
      const tv = this.view(view);
      if (tv) buildCountQuery(tv);
      if (tv) buildPageQuery(tv, { kind: 'first' }, 1);
      return undefined;
    } catch (e) {
      if (e instanceof SqlInputError) return e.message;
      throw e;
    }
  }

  private pageSql(view: PageView, limit: number, offset: number, table: TableView | undefined): string {
    if (table) {
      const c = this.cursor;
      return buildPageQuery(table, c && c.end === offset ? { kind: 'after', key: c.key } : { kind: 'offset', offset }, limit).sql;
    }
    const tv = this.view(view);
    return tv ? buildPageQuery(tv, { kind: 'offset', offset }, limit).sql : wrapPage(this.opts.query, limit, offset);
  }

  /** After rows `from`… of the table were read: where the next read in a row starts, and after which key. */
  private follow(table: TableView | undefined, from: number, rows: readonly (readonly Cell[])[]): void {
    if (!table) return;
    const last = rows[rows.length - 1];
    const key = last ? cursorOf(table, last) : undefined;
    this.cursor = key ? { end: from + rows.length, key } : undefined;
  }

  async read(start: number, end: number, view: PageView, signal: AbortSignal): Promise<PageRows> {
    const refusal = this.checkView(view);
    if (refusal) throw new QueryPageError(refusal, 'error');
    const rows: PageRows['rows'] = [];
    const table = view.sort.length === 0 && view.filters.length === 0 ? await this.plainTable(signal) : undefined;
    // A page the server cuts short (its result budget) is read on from where it stopped.
    while (start + rows.length < end) {
      const from = start + rows.length;
      const want = end - from;
      const r = await this.opts.run(this.pageSql(view, want, from, table), { limit: want, signal });
      const what = `Rows ${fmt(from + 1)}–${fmt(end)}`;
      if (r.status !== 'success' && r.status !== 'row_limit') throw failure(what, r);
      if (r.rows.length > 0 && r.columns.length !== this.opts.columnCount) {
        throw new QueryPageError(`${what} came back with ${r.columns.length} columns instead of ${this.opts.columnCount}.`, 'error');
      }
      for (const row of r.rows.slice(0, want)) rows.push(row);
      this.follow(table, start, rows);
      if (r.status === 'success') return { rows, ...(r.rows.length < want ? { end: true } : {}) };
      if (r.rows.length === 0) {
        throw new QueryPageError(`${what}: the server stopped before the first row.${r.message ? ` ${r.message}` : ''}`, r.status);
      }
    }
    return { rows };
  }

  async count(view: PageView, signal: AbortSignal): Promise<number | undefined> {
    const tv = this.view(view);
    const r = await this.opts.run(tv ? buildCountQuery(tv) : wrapCount(this.opts.query), { limit: 1, signal });
    if (r.status !== 'success') throw failure('Counting the rows', r);
    const v = r.rows[0]?.[0];
    const n = v === null || v === undefined ? NaN : Number(v);
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  }
}
