// Rows fetched a page at a time through the host (table browser, "Load All Rows", diffs). Wanted
// are the pages on screen, `ahead` pages in the direction of the last scroll and `margin` pages
// behind it, asked for in that order (nearest first), at most `maxPending` at once; the next one
// is asked for as soon as a page arrives, before the grid draws it, so the host reads the next
// page while the grid draws this one. After a jump only `margin` pages on both sides are wanted:
// where the user goes from there is not known yet, and the hub reads one query at a time per
// user, so the next jump would wait behind pages read ahead for nothing. In memory stay the pages on screen and those loaded within
// `ahead` pages on either side. A page that failed keeps its error for its rows (Retry reads it
// again) and every other page stays as it was. Answers that arrive for a page no longer wanted,
// or from before a reset (new sort or filter), are dropped by id.
import type { Cell, QueryColumn } from '../shared/wire';
import type { HostPagingMessage, RowKind } from '../shared/gridPaging';
import { ColumnStore } from '../shared/columnStore';
import type { RowSource, RowSpan, RowState } from './rowSource';

/** How the source asks the host for rows [start, end). */
export interface PageTransport {
  request(requestId: number, start: number, end: number): void;
  /** The page asked for is no longer wanted (scrolled away before it came). */
  cancel?(requestId: number): void;
}

export interface PagedRowSourceOptions {
  sourceId: string;
  columns: readonly QueryColumn[];
  pageSize: number;
  totalRows?: number;
  transport: PageTransport;
  /** Pages kept (and fetched) behind the pages on screen, on the side the user scrolled away from. */
  margin?: number;
  /** Pages fetched ahead of the pages on screen, in the direction of the last scroll. */
  ahead?: number;
  /** Page requests outstanding at once (the host reads one; the others wait there, cancellable). */
  maxPending?: number;
}

interface Page {
  requestId: number;
  state: RowState;
  start: number;
  /** Rows asked for. */
  size: number;
  rows?: ColumnStore;
  kinds?: (RowKind | null)[];
  old?: (Cell[] | null)[];
  error?: string;
}

export class PagedRowSource implements RowSource {
  readonly local = false;
  readonly sourceId: string;
  readonly columns: readonly QueryColumn[];
  readonly pageSize: number;
  private readonly margin: number;
  private readonly ahead: number;
  private readonly maxPending: number;
  /** The direction of the last scroll (down at first). */
  private down = true;
  /** The screen came by a jump (beyond the pages read ahead), not by a scroll. */
  private jumped = false;
  private readonly transport: PageTransport;
  private readonly pages = new Map<number, Page>();
  private readonly listeners = new Set<(arrived?: RowSpan) => void>();
  private total: number | undefined;
  /** Rows known to exist when the total is not known: the end of the furthest full page seen. */
  private seen = 0;
  private nextRequestId = 1;
  private first = 0;
  private last = -1;
  private disposed = false;
  /** Comment counts on a pull's diff rows (./commentMarks.ts), when the output has any. */
  comments?: (row: number, col: number) => number;

  constructor(opts: PagedRowSourceOptions) {
    this.sourceId = opts.sourceId;
    this.columns = opts.columns;
    this.pageSize = Math.max(1, Math.floor(opts.pageSize));
    this.total = opts.totalRows;
    this.transport = opts.transport;
    this.margin = Math.max(0, opts.margin ?? 1);
    this.ahead = Math.max(0, opts.ahead ?? 2);
    this.maxPending = Math.max(1, opts.maxPending ?? 2);
  }

  get totalKnown(): boolean {
    return this.total !== undefined;
  }

  get rowCount(): number {
    // Unknown total: what has been seen plus one page of placeholders, so scrolling fetches on.
    return this.total ?? this.seen + this.pageSize;
  }

  /** Pages held in memory (loaded, loading or failed). */
  get residentPages(): number {
    return this.pages.size;
  }

  /** Rows held in memory. */
  get residentRows(): number {
    let n = 0;
    for (const p of this.pages.values()) n += p.rows?.rowCount ?? 0;
    return n;
  }

  private pageOf(row: number): Page | undefined {
    return this.pages.get(Math.floor(row / this.pageSize));
  }

  rowState(row: number): RowState {
    const p = this.pageOf(row);
    if (!p) return 'pending';
    if (p.state !== 'ready') return p.state;
    return row - p.start < (p.rows?.rowCount ?? 0) ? 'ready' : 'pending';
  }

  cell(row: number, col: number): Cell {
    const p = this.pageOf(row);
    return p?.rows ? p.rows.cell(row - p.start, col) : null;
  }

  rowKind(row: number): RowKind | undefined {
    const p = this.pageOf(row);
    return p?.kinds?.[row - (p?.start ?? 0)] ?? undefined;
  }

  oldCell(row: number, col: number): Cell | undefined {
    const p = this.pageOf(row);
    const old = p?.old?.[row - p.start];
    return old ? (old[col] ?? null) : undefined;
  }

  failure(row: number): string | undefined {
    const p = this.pageOf(row);
    return p?.state === 'failed' ? p.error : undefined;
  }

  /** The rows held now, page by page (a few pages around the screen). */
  loadedSpans(): RowSpan[] {
    const out: RowSpan[] = [];
    for (const p of this.pages.values()) if (p.state === 'ready' && p.rows) out.push({ start: p.start, end: p.start + p.rows.rowCount });
    return out.sort((a, b) => a.start - b.start);
  }

  /** True when every row in [first, last] is loaded (what copying a selection needs). */
  isLoaded(first: number, last: number): boolean {
    for (let pi = Math.floor(first / this.pageSize); pi <= Math.floor(last / this.pageSize); pi++) {
      if (this.pages.get(pi)?.state !== 'ready') return false;
    }
    return true;
  }

  showing(first: number, last: number): void {
    if (this.disposed) return;
    const top = Math.max(0, first);
    // The rows shown before and more around them (the grid's overscan drawn once a scroll settles)
    // are no scroll: the direction and the jump stay as they were.
    const grew = top < this.first && last >= this.last;
    if (top !== this.first && !grew) {
      this.down = top > this.first;
      this.jumped = this.isJump(top, Math.max(top, last));
    }
    this.first = top;
    this.last = Math.max(this.first, last);
    this.evict();
    this.requestWanted();
  }

  /** True when rows [first, last] lie beyond the pages read ahead of the screen shown so far (never for the first screen). */
  private isJump(first: number, last: number): boolean {
    if (this.last < 0) return false;
    const reach = this.ahead + 1;
    const from = Math.floor(this.first / this.pageSize);
    const to = Math.floor(this.last / this.pageSize);
    return Math.floor(first / this.pageSize) > to + reach || Math.floor(last / this.pageSize) < from - reach;
  }

  /** Requests being read or waiting at the host. */
  get pendingPages(): number {
    let n = 0;
    for (const p of this.pages.values()) if (p.state === 'pending') n++;
    return n;
  }

  /** The pages wanted now, most wanted first: on screen, then ahead (nearest first), then behind. */
  private wantedPages(): number[] {
    if (this.rowCount === 0 || this.last < 0) return [];
    const lastPage = Math.floor(Math.max(0, this.rowCount - 1) / this.pageSize);
    const screenFrom = Math.min(lastPage, Math.floor(this.first / this.pageSize));
    const screenTo = Math.min(lastPage, Math.floor(this.last / this.pageSize));
    const lead = this.jumped ? this.margin : this.ahead;
    const after = this.down ? lead : this.margin;
    const before = this.down ? this.margin : lead;
    const order: number[] = [];
    for (let pi = screenFrom; pi <= screenTo; pi++) order.push(pi);
    const below = (): void => {
      for (let pi = screenTo + 1; pi <= Math.min(lastPage, screenTo + after); pi++) order.push(pi);
    };
    const above = (): void => {
      for (let pi = screenFrom - 1; pi >= Math.max(0, screenFrom - before); pi--) order.push(pi);
    };
    if (this.down) {
      below();
      above();
    } else {
      above();
      below();
    }
    return order;
  }

  /**
   * Lets go of pages away from the screen: a page loaded stays while it is within `ahead` pages
   * on either side (scrolling back a little finds it again); a page still asked for is let go as
   * soon as it is not wanted in the direction of the scroll. An answer on its way for a page let
   * go is dropped by id, and the host is told so it can skip reading it.
   */
  private evict(): void {
    const wanted = new Set(this.wantedPages());
    const reach = Math.max(this.ahead, this.margin);
    const from = Math.floor(this.first / this.pageSize) - reach;
    const to = Math.floor(this.last / this.pageSize) + reach;
    for (const [pi, page] of [...this.pages]) {
      if (wanted.has(pi) || (page.state !== 'pending' && pi >= from && pi <= to)) continue;
      this.pages.delete(pi);
      if (page.state === 'pending') this.transport.cancel?.(page.requestId);
    }
  }

  /** Asks for the wanted pages not held yet, most wanted first, while fewer than `maxPending` are out. */
  private requestWanted(): void {
    let pending = this.pendingPages;
    for (const pi of this.wantedPages()) {
      if (pending >= this.maxPending) return;
      if (this.pages.has(pi)) continue;
      if (this.request(pi)) pending++;
    }
  }

  private request(pi: number): boolean {
    const start = pi * this.pageSize;
    const end = this.total !== undefined ? Math.min(this.total, start + this.pageSize) : start + this.pageSize;
    if (end <= start) return false;
    const page: Page = { requestId: this.nextRequestId++, state: 'pending', start, size: end - start };
    this.pages.set(pi, page);
    this.transport.request(page.requestId, start, end);
    return true;
  }

  retry(row: number): void {
    const pi = Math.floor(row / this.pageSize);
    if (this.pages.get(pi)?.state !== 'failed') return;
    this.pages.delete(pi);
    this.request(pi);
    this.emit();
  }

  private pageByRequest(requestId: number): [number, Page] | undefined {
    for (const entry of this.pages) if (entry[1].requestId === requestId) return entry;
    return undefined;
  }

  /** Applies a host message meant for this source; returns false when it is not. */
  receive(m: HostPagingMessage): boolean {
    if (this.disposed || !('sourceId' in m) || m.sourceId !== this.sourceId) return false;
    switch (m.type) {
      case 'page.result': {
        const hit = this.pageByRequest(m.requestId);
        if (!hit) return true;
        const [pi, page] = hit;
        const rows = Array.isArray(m.rows) ? m.rows : [];
        page.rows = ColumnStore.fromRows(rows.slice(0, page.size), this.columns.length);
        page.kinds = m.kinds;
        page.old = m.old;
        page.state = 'ready';
        const got = page.rows.rowCount;
        if (got < page.size || m.end) {
          this.total = page.start + got;
          for (const [k, after] of [...this.pages]) {
            if (k <= pi) continue;
            this.pages.delete(k);
            if (after.state === 'pending') this.transport.cancel?.(after.requestId);
          }
        } else if (this.total === undefined) {
          this.seen = Math.max(this.seen, page.start + got);
        }
        // The next page goes out before this one is drawn, so the host reads while the grid draws.
        this.requestWanted();
        this.emit({ start: page.start, end: page.start + got });
        return true;
      }
      case 'page.error': {
        const hit = this.pageByRequest(m.requestId);
        if (!hit) return true;
        hit[1].state = 'failed';
        hit[1].error = m.message || 'The page could not be read.';
        this.requestWanted();
        this.emit();
        return true;
      }
      case 'page.total':
        if (Number.isSafeInteger(m.totalRows) && m.totalRows >= 0) {
          this.total = m.totalRows;
          this.emit();
        }
        return true;
      case 'page.reset':
        this.pages.clear();
        this.total = m.totalRows;
        this.seen = 0;
        this.emit();
        return true;
      default:
        return true;
    }
  }

  subscribe(listener: (arrived?: RowSpan) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(arrived?: RowSpan): void {
    for (const l of [...this.listeners]) l(arrived);
  }

  dispose(): void {
    this.disposed = true;
    this.pages.clear();
    this.listeners.clear();
  }
}
