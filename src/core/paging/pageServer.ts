// The host side of a paged grid (table browser, "Load All Rows", a table's diff): answers the
// grid's page requests from a `PageSource`, a few at a time, and keeps answers in step with the
// grid's sort and filters. Pure (no vscode): the panel or notebook output hands it the grid's
// messages (already checked by `parseGridPagingMessage`) and a `post` back to the grid.
//
// - At most `concurrency` pages are read at once; requests waiting for a slot are served in the
//   order asked: the grid asks for the pages on screen first, then the ones ahead of the scroll,
//   a few at a time (renderer/pagedRowSource.ts), and lets go of (`page.cancel`) what scrolled
//   away, which is dropped or aborted here. (Newest first served a prefetched page before the
//   one it was fetched after, and after a jump the margin before the page on screen.)
// - A sort or filter change aborts everything in flight, answers `page.reset` and counts the rows
//   again; an answer from before the change never reaches the grid.
// - A failed page is answered with `page.error` (the grid shows it on those rows, with Retry) and
//   every other page goes on.
// - The rows are counted only once the view's first page is answered (or failed): the hub runs one
//   query per user at a time, and a `COUNT(*)` of a million rows sent first held the first page
//   behind it (issue #28). Until `page.total` arrives the grid says it is still counting.
import type { Cell } from '../../shared/wire';
import type { ColumnFilter, ColumnSort, GridPagingMessage, HostPagingMessage, RowKind } from '../../shared/gridPaging';

/** The sort and filters pages are read in. */
export interface PageView {
  readonly sort: readonly ColumnSort[];
  readonly filters: readonly ColumnFilter[];
}

export interface PageRows {
  rows: Cell[][];
  /** Per row, for diffs. */
  kinds?: (RowKind | null)[];
  /** Per row, the values before the change (modified rows of a diff), else null. */
  old?: (Cell[] | null)[];
  /** True when nothing comes after these rows. */
  end?: boolean;
}

/** Where rows come from, a page at a time. Every read of one source is at one commit. */
export interface PageSource {
  /** Rows [start, end) in `view`; fewer rows (or `end`) when the source ends there. */
  read(start: number, end: number, view: PageView, signal: AbortSignal): Promise<PageRows>;
  /** The row count in `view`, when it can be known; undefined when not. */
  count?(view: PageView, signal: AbortSignal): Promise<number | undefined>;
  /**
   * Checks a sort or filter before it applies: a message for the user when it cannot (an unknown
   * column, a sort the source does not support), else undefined.
   */
  checkView?(view: PageView): string | undefined;
  /** Stops the source's own background reads (its grid is gone). */
  dispose?(): void;
}

export interface PageServerOptions {
  sourceId: string;
  source: PageSource;
  post: (m: HostPagingMessage) => void;
  /** The view the grid opened with. */
  view?: PageView;
  /** Pages read at once. */
  concurrency?: number;
  /** The text shown on the rows of a page that failed. */
  describeError?: (e: unknown) => string;
  /** Called with a count or read failure worth logging (never with an abort). */
  onError?: (e: unknown) => void;
}

interface Pending {
  requestId: number;
  start: number;
  end: number;
  generation: number;
  abort?: AbortController;
}

const defaultDescribe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class PageServer {
  readonly sourceId: string;
  private readonly source: PageSource;
  private readonly post: (m: HostPagingMessage) => void;
  private readonly concurrency: number;
  private readonly describe: (e: unknown) => string;
  private readonly onError: ((e: unknown) => void) | undefined;
  private viewNow: PageView;
  private generation = 0;
  private readonly waiting: Pending[] = [];
  private readonly running = new Set<Pending>();
  private counting: AbortController | undefined;
  /** The generation whose count waits for its first page to be answered, if any. */
  private countAfterPage: number | undefined;
  private disposed = false;

  constructor(opts: PageServerOptions) {
    this.sourceId = opts.sourceId;
    this.source = opts.source;
    this.post = opts.post;
    this.concurrency = Math.max(1, opts.concurrency ?? 2);
    this.describe = opts.describeError ?? defaultDescribe;
    this.onError = opts.onError;
    this.viewNow = { sort: opts.view?.sort ?? [], filters: opts.view?.filters ?? [] };
  }

  get view(): PageView {
    return this.viewNow;
  }

  /** Pages being read or waiting (for tests and the memory bench). */
  get inFlight(): number {
    return this.running.size + this.waiting.length;
  }

  /**
   * Counts the rows of the opening view (posts `page.total` when known) once its first page is
   * answered, so the count never delays the page.
   */
  start(): void {
    this.countAfterFirstPage();
  }

  private countAfterFirstPage(): void {
    this.counting?.abort();
    this.counting = undefined;
    this.countAfterPage = this.generation;
  }

  /** A page of the current view was answered: its count may go now. */
  private pageAnswered(): void {
    if (this.countAfterPage !== this.generation) return;
    this.countAfterPage = undefined;
    this.count();
  }

  /**
   * Handles a message from the grid when it is about this source's rows: a page request, a
   * cancel, or a sort/filter change. Returns false for anything else (Load All Rows, export,
   * refresh, row history), which the owner handles.
   */
  handle(m: GridPagingMessage): boolean {
    if (this.disposed) return false;
    switch (m.type) {
      case 'page.request':
        if (m.sourceId !== this.sourceId) return false;
        this.waiting.push({ requestId: m.requestId, start: m.start, end: m.end, generation: this.generation });
        this.pump();
        return true;
      case 'page.cancel':
        if (m.sourceId !== this.sourceId) return false;
        this.cancel(m.requestId);
        return true;
      case 'view.change':
        if (m.sourceId !== this.sourceId) return false;
        this.changeView({ sort: m.sort, filters: m.filters });
        return true;
      default:
        return false;
    }
  }

  private cancel(requestId: number): void {
    const i = this.waiting.findIndex((p) => p.requestId === requestId);
    if (i >= 0) this.waiting.splice(i, 1);
    for (const p of this.running) if (p.requestId === requestId) p.abort?.abort();
  }

  private changeView(view: PageView): void {
    const refusal = this.source.checkView?.(view);
    // A view the source cannot read keeps the one that was showing; the grid shows the reason.
    const next = refusal ? this.viewNow : { sort: view.sort.slice(), filters: view.filters.slice() };
    this.generation++;
    this.waiting.length = 0;
    for (const p of this.running) p.abort?.abort();
    this.viewNow = next;
    this.post({
      type: 'page.reset',
      sourceId: this.sourceId,
      sort: [...next.sort],
      filters: [...next.filters],
      ...(refusal ? { message: refusal } : {}),
    });
    this.countAfterFirstPage();
  }

  private count(): void {
    this.counting?.abort();
    if (!this.source.count) return;
    const abort = new AbortController();
    this.counting = abort;
    const generation = this.generation;
    this.source.count(this.viewNow, abort.signal).then(
      (n) => {
        if (this.disposed || abort.signal.aborted || generation !== this.generation || n === undefined) return;
        this.post({ type: 'page.total', sourceId: this.sourceId, totalRows: n });
      },
      (e: unknown) => {
        // The count is a nicety: the grid pages on without it.
        if (!abort.signal.aborted) this.onError?.(e);
      },
    );
  }

  private pump(): void {
    while (!this.disposed && this.running.size < this.concurrency && this.waiting.length > 0) {
      // In the order asked: the grid asks for what is on screen first and cancels what it let go.
      const p = this.waiting.shift() as Pending;
      if (p.generation !== this.generation) continue;
      void this.serve(p);
    }
  }

  private async serve(p: Pending): Promise<void> {
    const abort = new AbortController();
    p.abort = abort;
    this.running.add(p);
    try {
      const page = await this.source.read(p.start, p.end, this.viewNow, abort.signal);
      if (this.isCurrent(p, abort)) {
        const rows = page.rows.slice(0, p.end - p.start);
        this.post({
          type: 'page.result',
          sourceId: this.sourceId,
          requestId: p.requestId,
          start: p.start,
          rows,
          ...(page.kinds ? { kinds: page.kinds.slice(0, rows.length) } : {}),
          ...(page.old ? { old: page.old.slice(0, rows.length) } : {}),
          ...(page.end || rows.length < p.end - p.start ? { end: true } : {}),
        });
        this.pageAnswered();
      }
    } catch (e) {
      if (this.isCurrent(p, abort)) {
        this.onError?.(e);
        this.post({
          type: 'page.error',
          sourceId: this.sourceId,
          requestId: p.requestId,
          start: p.start,
          end: p.end,
          message: this.describe(e),
        });
        this.pageAnswered();
      }
    } finally {
      this.running.delete(p);
      this.pump();
    }
  }

  private isCurrent(p: Pending, abort: AbortController): boolean {
    return !this.disposed && !abort.signal.aborted && p.generation === this.generation;
  }

  /** Stops every read; nothing more is posted. */
  dispose(): void {
    this.disposed = true;
    this.waiting.length = 0;
    for (const p of this.running) p.abort?.abort();
    this.counting?.abort();
    this.source.dispose?.();
  }
}
