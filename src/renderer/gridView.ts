// How the grid draws: the scrolling element, the sticky header, and only the rows and columns
// on screen (RowWindow for the rows, an AxisWindow for the columns), with row elements recycled as they scroll. Leading
// columns can be frozen (sticky beside the row numbers, e.g. the primary key). Rows the source
// has not loaded draw as placeholders; rows of a failed page show its error and a Retry button
// (each row drawn by gridRowPainter.ts). Server text is only ever assigned through textContent /
// title, never parsed as HTML.
import type { QueryColumn } from '../shared/wire';
import { renderHeader } from './gridHeader';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import { AxisWindow, type WindowItem } from './gridWindow';
import { RowWindow } from './rowWindow';
import { el } from './dom';
import { GridRowPainter, type RowRec } from './gridRowPainter';
import { GridMotion } from './gridMotion';
import { scrollerViewport } from './scrollerViewport';
import { GUTTER_WIDTH, HEADER_HEIGHT, MAX_GRID_HEIGHT, ROW_HEIGHT, measureCharWidth } from './gridStyles';
import * as l10n from '../shared/l10n';

/** The leading primary-key columns: what stays in view on horizontal scroll by default. */
export function leadingKeyColumns(columns: readonly QueryColumn[]): number {
  let n = 0;
  while (n < columns.length && columns[n]?.is_primary_key) n++;
  // A table that is all key would freeze everything: then nothing could scroll.
  return n === columns.length ? 0 : n;
}

export interface GridViewOptions {
  id: string;
  label: string;
  maxHeight?: number;
  frozenColumns: number;
  sortable: boolean;
  /** Column headers get a filter button (server-side filters). */
  filterable: boolean;
}

export class GridView {
  readonly scroller: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private rowsWin: RowWindow | undefined;
  private colsWin: AxisWindow | undefined;
  private renderQueued = false;
  private disposed = false;
  /** Bumped whenever every visible row must be refilled (sort, filter, selection, rows arriving). */
  private version = 0;
  private headerVersion = -1;
  private widthVersion = 0;
  private colKey = '';
  private readonly rowRecs = new Map<number, RowRec>();
  private readonly freeRows: RowRec[] = [];
  private readonly frozen: number;
  private readonly rows: GridRowPainter;
  /** The rows drawn on a canvas while the scroll leaps (gridMotion.ts). */
  private readonly motion: GridMotion;
  /** The widths the columns are laid out at (the model's, as of the last layout). */
  private shownWidths: number[] = [];
  /** Column indexes with a filter set (marked in the header). */
  filteredColumns = new Set<number>();

  constructor(
    private readonly doc: Document,
    private readonly model: GridModel,
    private readonly source: () => RowSource,
    private readonly opts: GridViewOptions,
  ) {
    this.frozen = Math.max(0, Math.min(opts.frozenColumns, model.columnCount - 1));
    const scroller = el(doc, 'div', 'vdb-grid');
    scroller.tabIndex = 0;
    scroller.setAttribute('role', 'grid');
    scroller.setAttribute('aria-multiselectable', 'true');
    scroller.setAttribute('aria-label', opts.label);
    // What the keyboard does, for a screen reader (the header's tooltip says it to the mouse).
    scroller.setAttribute(
      'aria-description',
      l10n.t(
        'Arrows move, Shift extends the selection, Ctrl+C copies, Enter shows the value, Alt+S sorts by the column, Alt+F filters it, Shift+F10 opens the row menu',
      ),
    );
    scroller.setAttribute('aria-colcount', String(model.columnCount + 1));
    this.scroller = scroller;
    this.canvas = el(doc, 'div', 'vdb-canvas');
    this.header = el(doc, 'div', 'vdb-header');
    this.header.setAttribute('role', 'row');
    this.header.setAttribute('aria-rowindex', '1');
    this.canvas.appendChild(this.header);
    this.body = el(doc, 'div', 'vdb-body');
    this.body.setAttribute('role', 'rowgroup');
    this.canvas.appendChild(this.body);
    scroller.appendChild(this.canvas);
    this.rows = new GridRowPainter(doc, model, source, this.frozen, `${opts.id}-active`, scroller);
    this.motion = new GridMotion(doc, scroller, this.canvas, this.body, this.rows, model, source, this.frozen);
    this.setHeight();
  }

  get frozenCount(): number {
    return this.frozen;
  }

  private frozenWidth(widths: readonly number[] = this.model.widths): number {
    let w = 0;
    for (let i = 0; i < this.frozen; i++) w += widths[i] ?? 100;
    return w;
  }

  setHeight(): void {
    const max = this.opts.maxHeight ?? MAX_GRID_HEIGHT;
    // Room for a horizontal scrollbar so a short result is not hidden behind it.
    const natural = HEADER_HEIGHT + Math.max(1, this.model.rowCount) * ROW_HEIGHT + 16;
    this.scroller.style.height = `${Math.min(max, natural)}px`;
  }

  /** Starts windowing once the scroller is in the document. */
  mount(): void {
    // Columns are sized in characters: now that the grid's font is known, in its real width.
    this.model.setCharWidth(measureCharWidth(this.scroller));
    this.shownWidths = this.model.widths.slice();
    const viewport = scrollerViewport(this.scroller);
    const onChange = (): void => this.queueRender();
    // Rows all have one height: their window is arithmetic, its cost the same at any row count.
    this.rowsWin = new RowWindow({
      count: this.model.rowCount,
      size: ROW_HEIGHT,
      overscan: 8,
      paddingStart: HEADER_HEIGHT,
      viewport,
      onChange,
    });
    // Only the columns after the frozen ones scroll (and are windowed); the frozen ones sit
    // in the padding before them.
    const frozenW = this.frozenWidth();
    this.colsWin = new AxisWindow({
      horizontal: true,
      count: this.model.columnCount - this.frozen,
      sizeOf: (i) => this.model.widths[i + this.frozen] ?? 100,
      overscan: 2,
      paddingStart: GUTTER_WIDTH + frozenW,
      scrollPaddingStart: GUTTER_WIDTH + frozenW,
      viewport,
      onChange,
    });
    this.render();
  }

  queueRender(): void {
    if (this.renderQueued || this.disposed) return;
    this.renderQueued = true;
    // A microtask runs before the next paint, so a scrolled frame never shows blank rows.
    queueMicrotask(() => {
      this.renderQueued = false;
      if (!this.disposed) this.render();
    });
  }

  /** Every visible row is filled again at the next render. */
  invalidate(): void {
    this.version++;
  }

  /**
   * Rows [start, end) (view positions) just arrived: only the drawn rows among them are filled
   * again. A page read ahead of the screen redraws nothing on screen.
   */
  rowsArrived(start: number, end: number): void {
    for (const [viewRow, rec] of this.rowRecs) if (viewRow >= start && viewRow < end) rec.version = -1;
  }

  /** The row count changed (sort, filter, pages arriving with a new total). */
  rowCountChanged(): void {
    this.version++;
    this.rowsWin?.setCount(this.model.rowCount);
    this.setHeight();
  }

  /**
   * Column widths changed. With `keepLeftColumn` (columns widened for rows that arrived, not by
   * the user's hand) the column at the left edge stays where it is when columns before it grow.
   */
  widthsChanged(keepLeftColumn = false): void {
    const win = this.colsWin;
    if (!win) return;
    // The scrolling columns start after the gutter and the frozen columns.
    const edge = win.scroll.offset + GUTTER_WIDTH + this.frozenWidth(this.shownWidths);
    const left = keepLeftColumn && win.scroll.offset > 0 ? win.items().find((c) => c.start <= edge && edge < c.start + c.size) : undefined;
    this.widthVersion++;
    this.shownWidths = this.model.widths.slice();
    const pad = GUTTER_WIDTH + this.frozenWidth();
    if (this.frozen > 0) win.setPaddingStart(pad);
    win.remeasure();
    if (!left) return this.queueRender();
    // Draw at the new widths first (the canvas grows), then scroll by what grew before the edge.
    this.render();
    this.scroller.scrollLeft = win.startOf(left.index) + (edge - left.start) - pad;
  }

  reveal(row: number, col: number): void {
    this.rowsWin?.reveal(row);
    if (col >= this.frozen) this.colsWin?.reveal(col - this.frozen);
  }

  scrollToTop(): void {
    this.scroller.scrollTop = 0;
  }

  /** Rows that fit on one screen (PageUp/PageDown). */
  pageRows(): number {
    const h = this.scroller.clientHeight || MAX_GRID_HEIGHT;
    return Math.max(1, Math.floor((h - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
  }

  /**
   * Brings the DOM in line with the model and the two windows. A row that stays on screen is
   * not touched, so a scroll step only fills the rows that came into view. Anything that changes
   * what every row shows bumps `version`, which refills the visible rows.
   */
  render(): void {
    const { rowsWin, colsWin, canvas, header, scroller } = this;
    if (!rowsWin || !colsWin) return;
    const m = this.model;
    const totalW = colsWin.totalSize();
    const totalH = rowsWin.totalSize();
    const cols = colsWin.items().map((c) => ({ index: c.index + this.frozen, start: c.start, size: c.size }));
    const colKey = `${cols[0]?.index ?? -1}:${cols[cols.length - 1]?.index ?? -1}:${this.widthVersion}:${totalW}`;
    if (colKey !== this.colKey || this.headerVersion !== this.version) {
      this.colKey = colKey;
      this.headerVersion = this.version;
      canvas.style.width = `${totalW}px`;
      header.style.width = `${totalW}px`;
      this.renderHeader(header, cols);
    }
    canvas.style.height = `${totalH}px`;
    // -1 while a paged source is still counting (ARIA's "unknown"), never the rows seen so far as the total.
    scroller.setAttribute('aria-rowcount', this.source().totalKnown ? String(m.rowCount + 1) : '-1');

    const range = rowsWin.range();
    if (range) this.source().showing(range.first, range.last);
    if (range && rowsWin.leaping && this.drawMotion(range, cols)) return;
    this.motion.hide();
    this.renderRows(rowsWin.items(), cols, colKey, totalW);
  }

  /** While the scroll leaps, the rows on screen go on the motion canvas (false: they cannot). */
  private drawMotion(range: { first: number; last: number }, cols: readonly WindowItem[]): boolean {
    const { rowsWin, colsWin } = this;
    if (!rowsWin || !colsWin) return false;
    const v = rowsWin.scroll;
    const h = colsWin.scroll;
    return this.motion.draw({ ...range, top: v.offset, left: h.offset, cols, width: h.viewSize, height: v.viewSize });
  }

  /** The row elements: recycled for the rows that came into the window, refilled when stale. */
  private renderRows(items: readonly WindowItem[], cols: readonly WindowItem[], colKey: string, totalW: number): void {
    const { scroller, body } = this;
    const m = this.model;
    const wanted = new Set<number>();
    for (const r of items) wanted.add(r.index);
    // Rows that left the window are refilled for the rows that came in, an odd row's element for
    // an odd row (its class, and so its cells' style, stays); only those left over are hidden
    // (hiding and showing a row again in one render costs a style pass for nothing).
    const leaving: [RowRec[], RowRec[]] = [[], []];
    for (const [viewRow, rec] of this.rowRecs) {
      if (!wanted.has(viewRow)) {
        this.rowRecs.delete(viewRow);
        rec.viewRow = -1;
        leaving[viewRow % 2]?.push(rec);
      }
    }
    for (const r of items) {
      let rec = this.rowRecs.get(r.index);
      if (!rec) {
        const parity = r.index % 2;
        rec = leaving[parity]?.pop() ?? leaving[1 - parity]?.pop() ?? this.freeRows.pop() ?? this.rows.create(body);
        this.rowRecs.set(r.index, rec);
      }
      if (rec.viewRow !== r.index || rec.colKey !== colKey || rec.version !== this.version) {
        this.rows.fill(rec, r.index, r.start, cols, totalW, colKey, this.version);
      }
    }
    for (const rec of leaving.flat()) {
      this.rows.release(rec);
      this.freeRows.push(rec);
    }
    const active = m.active;
    if (active && this.rowRecs.has(active.row)) scroller.setAttribute('aria-activedescendant', `${this.opts.id}-active`);
    else scroller.removeAttribute('aria-activedescendant');
  }

  private renderHeader(header: HTMLElement, cols: readonly WindowItem[]): void {
    renderHeader(this.doc, header, this.model, cols, {
      frozen: this.frozen,
      sortable: this.opts.sortable,
      filterable: this.opts.filterable,
      filtered: this.filteredColumns,
    });
  }

  dispose(): void {
    this.disposed = true;
    this.motion.dispose();
    this.rowsWin?.dispose();
    this.colsWin?.dispose();
  }
}
