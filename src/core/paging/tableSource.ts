// One table's rows a page at a time, for the table browser and its streamed export: a
// `PageSource` over src/core/sql/tableQuery.ts. Pure (no vscode): the SQL goes through a runner
// that sends it at ONE commit (the one the browser opened at), so every page agrees with the
// others however the branch moves meanwhile.
//
// How a page is read: the source remembers the cursor (order-column values) of the first and last
// row of each page it has read, per sort and filter. The page after a read page is read by keyset
// from that page's last row, the page before one from its first row (`planPage`'s neighbours), so
// scrolling reads by index; the last page comes from the end (`last`) once the row count is known;
// anything else, and every page of a keyless table, by LIMIT/OFFSET (exact at a fixed commit).
import type { QueryResult } from '../../shared/wire';
import type { PageRows, PageSource, PageView } from './pageServer';
import { SqlInputError } from '../sql/quote';
import {
  buildCountQuery,
  buildPageQuery,
  cursorOf,
  keysetSupported,
  planPage,
  type PagePosition,
  type TableColumnInfo,
  type TableView,
} from '../sql/tableQuery';
import type { Cell } from '../../shared/wire';
import type { SqlRunner } from '../sql/sqlPort';

export interface TableSourceOptions {
  table: string;
  /** The table's columns, in the order the pages select them. */
  columns: readonly TableColumnInfo[];
  /** SQL at the source's commit (the SQL port bound to it). */
  run: SqlRunner;
  /** Rows per page as the grid asks for them (pages are aligned to it). */
  pageSize: number;
}

/** A page or count the server answered with anything but success. */
export class TableReadError extends Error {
  override readonly name = 'TableReadError';
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
  }
}

/** How a read found its rows (kept for tests and the benchmark). */
export type ReadKind = PagePosition['kind'];

interface ViewState {
  /** Cursor of the row at an index (the first and last row of every page read). */
  readonly keys: Map<number, Cell[]>;
  total?: number;
}

/** Rows per read of a streamed export: a fraction of any server cap, fewer round trips than the grid's pages. */
export const EXPORT_PAGE_SIZE = 2_000;

/** Cursors kept per view; past this the oldest go (a million-row scroll keeps ~4,000). */
const MAX_KEYS = 20_000;
/** Views (sort + filters) whose cursors are kept. */
const MAX_VIEWS = 4;

export class TableSource implements PageSource {
  readonly table: string;
  readonly columns: readonly TableColumnInfo[];
  private readonly run: SqlRunner;
  private readonly pageSize: number;
  private readonly views = new Map<string, ViewState>();
  /** The position kind of every read, in order (tests and the benchmark look at it). */
  readonly reads: ReadKind[] = [];

  constructor(opts: TableSourceOptions) {
    if (opts.columns.length === 0) throw new SqlInputError(`The table ${opts.table} has no columns to read.`);
    this.table = opts.table;
    this.columns = opts.columns;
    this.run = opts.run;
    this.pageSize = Math.max(1, Math.floor(opts.pageSize));
  }

  /** Whether pages of the opening view are found by keyset (false: by position). */
  get keyed(): boolean {
    return keysetSupported(this.tableView({ sort: [], filters: [] }));
  }

  /**
   * A new source over the same table, columns and runner (so at the same commit) reading pages of
   * `pageSize` rows, with cursors of its own: what a streamed export reads while the grid goes on.
   */
  withPageSize(pageSize: number): TableSource {
    return new TableSource({ table: this.table, columns: this.columns, run: this.run, pageSize });
  }

  checkView(view: PageView): string | undefined {
    try {
      const tv = this.tableView(view);
      buildPageQuery(tv, { kind: 'first' }, 1);
      buildCountQuery(tv);
      return undefined;
    } catch (e) {
      if (e instanceof SqlInputError) return e.message;
      throw e;
    }
  }

  async count(view: PageView, signal: AbortSignal): Promise<number | undefined> {
    const r = await this.ask(buildCountQuery(this.tableView(view)), 1, signal, 'count the rows');
    const n = Number(r.rows[0]?.[0]);
    if (!Number.isSafeInteger(n) || n < 0)
      throw new TableReadError(
        `Could not count the rows of ${this.table}: the server answered ${JSON.stringify(r.rows[0]?.[0] ?? null)}.`,
        'error',
      );
    this.state(view).total = n;
    return n;
  }

  async read(start: number, end: number, view: PageView, signal: AbortSignal): Promise<PageRows> {
    const tv = this.tableView(view);
    const st = this.state(view);
    const wanted = end - start;
    if (wanted <= 0) return { rows: [], end: false };
    if (st.total !== undefined && start >= st.total) return { rows: [], end: true };
    const { position, limit } = this.plan(tv, st, start, end);
    const q = buildPageQuery(tv, position, limit);
    this.reads.push(position.kind);
    const r = await this.ask(q.sql, limit, signal, `read rows ${start + 1}–${end}`);
    const rows = q.reversed ? r.rows.slice().reverse() : r.rows;
    this.remember(tv, st, start, rows);
    const atEnd = rows.length < limit || (st.total !== undefined && start + rows.length >= st.total);
    return { rows, end: atEnd };
  }

  private plan(tv: TableView, st: ViewState, start: number, end: number): { position: PagePosition; limit: number } {
    const wanted = end - start;
    // The grid asks for whole pages (the last one may be short): plan them with their neighbours.
    if (start % this.pageSize === 0 && wanted <= this.pageSize) {
      const known = {
        ...(st.keys.has(start - 1) ? { previousLast: st.keys.get(start - 1) } : {}),
        ...(st.keys.has(start + this.pageSize) ? { nextFirst: st.keys.get(start + this.pageSize) } : {}),
        ...(st.total !== undefined ? { totalRows: st.total } : {}),
      };
      const p = planPage(tv, start / this.pageSize, this.pageSize, known);
      return { position: p.position, limit: Math.min(p.limit, wanted) };
    }
    if (start === 0) return { position: { kind: 'first' }, limit: wanted };
    const previous = keysetSupported(tv) ? st.keys.get(start - 1) : undefined;
    return previous
      ? { position: { kind: 'after', key: previous }, limit: wanted }
      : { position: { kind: 'offset', offset: start }, limit: wanted };
  }

  private remember(tv: TableView, st: ViewState, start: number, rows: readonly Cell[][]): void {
    if (rows.length === 0 || !keysetSupported(tv)) return;
    const first = cursorOf(tv, rows[0] as Cell[]);
    const last = cursorOf(tv, rows[rows.length - 1] as Cell[]);
    if (first) st.keys.set(start, first);
    if (last) st.keys.set(start + rows.length - 1, last);
    while (st.keys.size > MAX_KEYS) st.keys.delete(st.keys.keys().next().value as number);
  }

  private async ask(sql: string, limit: number, signal: AbortSignal, what: string): Promise<QueryResult> {
    // One row of room: the SQL's own LIMIT bounds the answer, so the server's never cuts it.
    const r = await this.run(sql, { limit: limit + 1, signal });
    if (r.status !== 'success') {
      throw new TableReadError(`Could not ${what} of ${this.table}: ${r.message || r.status}`, r.status);
    }
    return r;
  }

  private tableView(view: PageView): TableView {
    return { table: this.table, columns: this.columns, sort: view.sort, filters: view.filters };
  }

  private state(view: PageView): ViewState {
    const key = JSON.stringify([view.sort, view.filters]);
    let st = this.views.get(key);
    if (st) {
      this.views.delete(key);
    } else {
      st = { keys: new Map() };
      while (this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
    }
    this.views.set(key, st);
    return st;
  }
}
