// How the grid draws: the scrolling element, the sticky header, and only the rows and columns
// on screen (one AxisWindow per axis), with row elements recycled as they scroll. Leading
// columns can be frozen (sticky beside the row numbers, e.g. the primary key). Rows the source
// has not loaded draw as placeholders; rows of a failed page show its error and a Retry button.
// Server text is only ever assigned through textContent / title, never parsed as HTML.
import type { QueryColumn } from '../shared/wire';
import { renderHeader } from './gridHeader';
import { cellPreview, isBinaryCell, isLongValue } from '../shared/queryResultFormat';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import { AxisWindow, type WindowItem } from './gridWindow';
import { scrollerViewport } from './scrollerViewport';
import { GUTTER_WIDTH, HEADER_HEIGHT, MAX_GRID_HEIGHT, ROW_HEIGHT, measureCharWidth } from './gridStyles';

interface RowRec {
  el: HTMLElement;
  num: HTMLElement;
  frozen: HTMLElement[];
  cells: HTMLElement[];
  error: HTMLElement | undefined;
  /** The view row this element shows, -1 when free. */
  viewRow: number;
  colKey: string;
  version: number;
}

export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

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
  private rowsWin: AxisWindow | undefined;
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
    this.rowsWin = new AxisWindow({
      horizontal: false,
      count: this.model.rowCount,
      sizeOf: () => ROW_HEIGHT,
      overscan: 8,
      paddingStart: HEADER_HEIGHT,
      scrollPaddingStart: HEADER_HEIGHT,
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
    const { rowsWin, colsWin, canvas, header, body, scroller } = this;
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
    scroller.setAttribute('aria-rowcount', String(m.rowCount + 1));

    const items = rowsWin.items();
    const range = rowsWin.range();
    if (range) this.source().showing(range.first, range.last);
    const wanted = new Set<number>();
    for (const r of items) wanted.add(r.index);
    for (const [viewRow, rec] of this.rowRecs) {
      if (!wanted.has(viewRow)) {
        this.rowRecs.delete(viewRow);
        rec.viewRow = -1;
        rec.el.hidden = true;
        this.freeRows.push(rec);
      }
    }
    for (const r of items) {
      let rec = this.rowRecs.get(r.index);
      if (!rec) {
        rec = this.freeRows.pop() ?? this.createRow(body);
        this.rowRecs.set(r.index, rec);
      }
      if (rec.viewRow !== r.index || rec.colKey !== colKey || rec.version !== this.version) {
        this.fillRow(rec, r.index, r.start, cols, totalW, colKey);
      }
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

  private createRow(body: HTMLElement): RowRec {
    const d = this.doc;
    const row = el(d, 'div', 'vdb-row');
    row.setAttribute('role', 'row');
    const num = el(d, 'div', 'vdb-rownum');
    num.setAttribute('role', 'rowheader');
    num.setAttribute('aria-colindex', '1');
    row.appendChild(num);
    const frozen: HTMLElement[] = [];
    let left = GUTTER_WIDTH;
    for (let i = 0; i < this.frozen; i++) {
      const cell = el(d, 'div', 'vdb-cell frozen');
      cell.setAttribute('role', 'gridcell');
      cell.style.left = `${left}px`;
      left += this.model.widths[i] ?? 100;
      row.appendChild(cell);
      frozen.push(cell);
    }
    body.appendChild(row);
    return { el: row, num, frozen, cells: [], error: undefined, viewRow: -1, colKey: '', version: -1 };
  }

  private fillCell(cell: HTMLElement, viewRow: number, col: number, extra: string): void {
    const m = this.model;
    const src = this.source();
    const state = src.rowState(viewRow);
    const active = m.active;
    let cls = `vdb-cell${extra}`;
    let text = '';
    let title = '';
    if (state === 'ready') {
      const value = m.cell(viewRow, col);
      const kind = m.kinds[col];
      if (value === null) cls += ' null';
      else if (isBinaryCell(value) && kind !== 'text') cls += ' binary';
      else if (kind === 'number') cls += ' num';
      if (isLongValue(value)) cls += ' long';
      const old = src.rowKind(viewRow) === 'modified' ? src.oldCell(viewRow, col) : undefined;
      text = cellPreview(value, 300);
      if (old !== undefined && old !== value) {
        // A changed cell of a modified row reads old → new; the others show the value alone.
        cls += ' changed';
        title = `Was: ${cellPreview(old, 300)}`;
        text = `${cellPreview(old, 140)} → ${cellPreview(value, 140)}`;
      }
    } else {
      cls += ' placeholder';
    }
    const selected = m.isSelected(viewRow, col);
    if (selected) cls += ' selected';
    const isActive = !!active && active.row === viewRow && active.col === col;
    if (isActive) cls += ' active';
    if (cell.className !== cls) cell.className = cls;
    if (cell.textContent !== text) cell.textContent = text;
    if (cell.title !== title) cell.title = title;
    cell.setAttribute('aria-colindex', String(col + 2));
    cell.setAttribute('data-c', String(col));
    cell.setAttribute('data-r', String(viewRow));
    if (state !== 'ready') cell.setAttribute('aria-busy', 'true');
    else cell.removeAttribute('aria-busy');
    if (selected) cell.setAttribute('aria-selected', 'true');
    else cell.removeAttribute('aria-selected');
    if (isActive) cell.id = `${this.opts.id}-active`;
    else if (cell.id) cell.removeAttribute('id');
  }

  private fillRow(rec: RowRec, viewRow: number, top: number, cols: readonly WindowItem[], totalW: number, colKey: string): void {
    const d = this.doc;
    const src = this.source();
    const state = src.rowState(viewRow);
    const kind = state === 'ready' ? src.rowKind(viewRow) : undefined;
    rec.el.hidden = false;
    let rowCls = viewRow % 2 ? 'vdb-row odd' : 'vdb-row';
    if (state !== 'ready') rowCls += ` ${state}`;
    if (kind) rowCls += ` ${kind}`;
    if (rec.el.className !== rowCls) rec.el.className = rowCls;
    if (kind) rec.el.setAttribute('data-kind', kind);
    else rec.el.removeAttribute('data-kind');
    if (rec.viewRow !== viewRow) {
      rec.el.setAttribute('aria-rowindex', String(viewRow + 2));
      rec.el.style.transform = `translateY(${top}px)`;
      rec.num.textContent = String(viewRow + 1);
      rec.num.setAttribute('data-rownum', String(viewRow));
    }
    let rowW = totalW;

    if (state === 'failed') {
      // The page's error beside the row number, where the cells would be, with Retry; the row is
      // made as wide as the bar so the bar stays on the row's line (see .vdb-row in gridStyles.ts).
      for (const c of rec.cells) c.remove();
      rec.cells.length = 0;
      for (const f of rec.frozen) f.hidden = true;
      if (!rec.error) {
        rec.error = el(d, 'div', 'vdb-rowerror');
        rec.error.setAttribute('role', 'gridcell');
        rec.el.appendChild(rec.error);
      }
      const msg = el(d, 'span', undefined, `Could not load these rows: ${src.failure(viewRow) ?? 'unknown error'}`);
      const retry = el(d, 'button', 'vdb-retry', 'Retry');
      retry.setAttribute('data-retry', String(viewRow));
      rec.error.replaceChildren(msg, retry);
      rec.error.hidden = false;
      const barW = Math.max(200, this.scroller.clientWidth - GUTTER_WIDTH - 4);
      rec.error.style.width = `${barW}px`;
      rowW = Math.max(totalW, GUTTER_WIDTH + barW);
    } else {
      if (rec.error) rec.error.hidden = true;
      let left = GUTTER_WIDTH;
      for (let i = 0; i < this.frozen; i++) {
        const f = rec.frozen[i] as HTMLElement;
        const w = this.model.widths[i] ?? 100;
        f.hidden = false;
        f.style.left = `${left}px`;
        f.style.width = `${w}px`;
        left += w;
        this.fillCell(f, viewRow, i, ' frozen');
      }
      while (rec.cells.length < cols.length) {
        const cell = el(d, 'div', 'vdb-cell');
        cell.setAttribute('role', 'gridcell');
        rec.el.appendChild(cell);
        rec.cells.push(cell);
      }
      while (rec.cells.length > cols.length) rec.cells.pop()?.remove();
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i] as WindowItem;
        const cell = rec.cells[i] as HTMLElement;
        if (rec.colKey !== colKey || rec.viewRow === -1 || cell.style.left === '') {
          cell.style.left = `${c.start}px`;
          cell.style.width = `${c.size}px`;
        }
        this.fillCell(cell, viewRow, c.index, '');
      }
    }
    const width = `${rowW}px`;
    if (rec.el.style.width !== width) rec.el.style.width = width;
    rec.viewRow = viewRow;
    rec.colKey = colKey;
    rec.version = this.version;
  }

  dispose(): void {
    this.disposed = true;
    this.rowsWin?.dispose();
    this.colsWin?.dispose();
  }
}
