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
import { sampleable, SAMPLE_TARGET } from '../sql/keySamples';
import { KeySampler } from './keySampler';

export interface TableSourceOptions {
  table: string;
  /** The table's columns, in the order the pages select them. */
  columns: readonly TableColumnInfo[];
  /** SQL at the source's commit (the SQL port bound to it). */
  run: SqlRunner;
  /** Rows per page as the grid asks for them (pages are aligned to it). */
  pageSize: number;
  /**
   * Far jumps from sampled keys (src/core/sql/keySamples.ts): about `target` boundaries per view,
   * read once a jump would otherwise skip `minSkip` rows or more by OFFSET, or (`eager`, the
   * default) as soon as a view that large is counted. Defaults below.
   */
  sampling?: { target?: number; minSkip?: number; eager?: boolean };
}

/** A jump that would skip fewer rows by OFFSET than this reads no sample (cheap enough as it is). */
export const SAMPLE_MIN_SKIP = 20_000;

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

/** How a read found its rows, or `sample` for the read of a view's key boundaries (tests and the benchmark). */
export type ReadKind = PagePosition['kind'] | 'sample';

interface ViewState {
  /** Cursor of the row at an index (the first and last row of every page read). */
  readonly keys: Map<number, Cell[]>;
  total?: number;
  /** The sampled key boundaries, read in the background from the first far jump (or the count) on. */
  sample?: KeySampler;
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
  private readonly sampling: { target: number; minSkip: number; eager: boolean };
  private readonly views = new Map<string, ViewState>();
  /** The position kind of every read, in order (tests and the benchmark look at it). */
  readonly reads: ReadKind[] = [];

  constructor(opts: TableSourceOptions) {
    if (opts.columns.length === 0) throw new SqlInputError(`The table ${opts.table} has no columns to read.`);
    this.table = opts.table;
    this.columns = opts.columns;
    this.run = opts.run;
    this.pageSize = Math.max(1, Math.floor(opts.pageSize));
    this.sampling = {
      target: opts.sampling?.target ?? SAMPLE_TARGET,
      minSkip: opts.sampling?.minSkip ?? SAMPLE_MIN_SKIP,
      eager: opts.sampling?.eager ?? true,
    };
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
    // An export reads in order, by keyset: it never jumps, so it samples nothing.
    return new TableSource({
      table: this.table,
      columns: this.columns,
      run: this.run,
      pageSize,
      sampling: { ...this.sampling, eager: false },
    });
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
    const st = this.state(view);
    st.total = n;
    // The grid shows one view at a time: the others' samples stop (a return starts afresh).
    for (const other of this.views.values()) {
      if (other === st || !other.sample) continue;
      other.sample.stop();
      delete other.sample;
    }
    // Sampled ahead of the first far jump, in chunks between the user's reads.
    const tv = this.tableView(view);
    if (this.sampling.eager && n >= 2 * this.sampling.minSkip && sampleable(tv)) this.sampler(tv, st);
    return n;
  }

  async read(start: number, end: number, view: PageView, signal: AbortSignal): Promise<PageRows> {
    const tv = this.tableView(view);
    const st = this.state(view);
    const wanted = end - start;
    if (wanted <= 0) return { rows: [], end: false };
    if (st.total !== undefined && start >= st.total) return { rows: [], end: true };
    let { position, limit } = this.plan(tv, st, start, end);
    if (this.worthSampling(tv, st, position)) {
      const otherwise = position.kind === 'offset' || position.kind === 'fromEnd' ? position.offset : start;
      const boundary = await this.sampler(tv, st).before(start, this.sampling.minSkip, otherwise, signal);
      if (boundary) ({ position, limit } = this.plan(tv, st, start, end, boundary));
    }
    const q = buildPageQuery(tv, position, limit);
    this.reads.push(position.kind);
    const r = await this.ask(q.sql, limit, signal, `read rows ${start + 1}–${end}`);
    const rows = q.reversed ? r.rows.slice().reverse() : r.rows;
    this.remember(tv, st, start, rows);
    const atEnd = rows.length < limit || (st.total !== undefined && start + rows.length >= st.total);
    return { rows, end: atEnd };
  }

  private plan(
    tv: TableView,
    st: ViewState,
    start: number,
    end: number,
    boundary?: { index: number; key: readonly Cell[] },
  ): { position: PagePosition; limit: number } {
    const wanted = end - start;
    // The grid asks for whole pages (the last one may be short): plan them with their neighbours.
    if (start % this.pageSize === 0 && wanted <= this.pageSize) {
      const known = {
        ...(st.keys.has(start - 1) ? { previousLast: st.keys.get(start - 1) } : {}),
        ...(st.keys.has(start + this.pageSize) ? { nextFirst: st.keys.get(start + this.pageSize) } : {}),
        ...(st.total !== undefined ? { totalRows: st.total } : {}),
        ...(boundary ? { boundary } : {}),
      };
      const p = planPage(tv, start / this.pageSize, this.pageSize, known);
      return { position: p.position, limit: Math.min(p.limit, wanted) };
    }
    if (start === 0) return { position: { kind: 'first' }, limit: wanted };
    const previous = keysetSupported(tv) ? st.keys.get(start - 1) : undefined;
    if (previous) return { position: { kind: 'after', key: previous }, limit: wanted };
    if (boundary && keysetSupported(tv) && boundary.index < start) {
      return { position: { kind: 'seek', key: boundary.key, offset: start - boundary.index - 1 }, limit: wanted };
    }
    return { position: { kind: 'offset', offset: start }, limit: wanted };
  }

  /** A far read (a long OFFSET either way) of a view whose order an index serves, counted. */
  private worthSampling(tv: TableView, st: ViewState, position: PagePosition): boolean {
    if (position.kind !== 'offset' && position.kind !== 'fromEnd') return false;
    return position.offset >= this.sampling.minSkip && st.total !== undefined && sampleable(tv);
  }

  /** When the view's key sample is read whole (or stopped), if one was started (tests and the benchmark). */
  sampled(view: PageView): Promise<void> | undefined {
    return this.views.get(JSON.stringify([view.sort, view.filters]))?.sample?.settled;
  }

  /**
   * The view's sampler, started once its rows are counted. Its reads are not cancelled with the
   * jump that started them (the next jump needs them as much), only when another view is counted
   * or the grid goes (`dispose`).
   */
  private sampler(tv: TableView, st: ViewState): KeySampler {
    st.sample ??= new KeySampler(tv, this.run, st.total ?? 0, this.pageSize, this.sampling.target, () => this.reads.push('sample'));
    return st.sample;
  }

  /** Stops every view's key sample (the grid that read this source is gone). */
  dispose(): void {
    for (const st of this.views.values()) st.sample?.stop();
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
      while (this.views.size >= MAX_VIEWS) {
        const oldest = this.views.keys().next().value as string;
        this.views.get(oldest)?.sample?.stop();
        this.views.delete(oldest);
      }
    }
    this.views.set(key, st);
    return st;
  }
}
