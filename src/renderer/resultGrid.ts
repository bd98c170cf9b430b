// The result grid (DOM). Renders only the rows and columns on screen (AxisWindow per axis),
// keeps the header sticky, and turns mouse and keyboard input into GridModel calls.
// Server text is only ever assigned through textContent / title, never parsed as HTML.
import type { QueryOutput } from '../shared/queryResultOutput';
import { statusBanner } from '../shared/queryResultOutput';
import {
  COPY_FORMATS,
  EXPORT_FORMATS,
  FORMAT_EXTENSIONS,
  FORMAT_LABELS,
  cellPreview,
  formatResult,
  isBinaryCell,
  isLongValue,
  type CopyFormat,
  type ExportFormat,
} from '../shared/queryResultFormat';
import { ColumnStore, ColumnStoreBuilder } from '../shared/columnStore';
import { GridModel } from './gridModel';
import { AxisWindow, type Size, type Viewport, type WindowItem } from './gridWindow';
import { GUTTER_WIDTH, HEADER_HEIGHT, MAX_GRID_HEIGHT, ROW_HEIGHT, injectStyles } from './gridStyles';

/** What the grid needs from whoever hosts it (notebook renderer context or webview panel). */
export interface GridHost {
  /** Puts text on the system clipboard (through the extension host when possible). */
  copy(text: string, format: CopyFormat, rows: number): void;
  /** Asks the extension host to save the content through its save dialog. */
  export(format: ExportFormat, content: string, suggestedName: string, rows: number): void;
}

export interface ResultGridOptions {
  /** Max height of the scrolling area in px (the notebook output grows up to it). */
  maxHeight?: number;
  nonce?: string;
}

/**
 * Results up to this many cells convert to the compact store before the first paint (a few
 * ms); larger ones paint from the row arrays and convert in idle time, a chunk at a time.
 */
const SYNC_COMPACT_CELLS = 50_000;
/** Most conversion work per callback, so a frame (scrolling, the first paint) never waits long. */
const COMPACT_SLICE_MS = 8;

let gridSeq = 0;

interface RowRec {
  el: HTMLElement;
  num: HTMLElement;
  cells: HTMLElement[];
  /** The view row this element shows, -1 when free. */
  viewRow: number;
  colKey: string;
  version: number;
}

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function shortHash(h: string): string {
  return h.length > 8 ? h.slice(0, 8) : h;
}

function headerTooltip(c: QueryOutput['result']['columns'][number]): string {
  const lines = [c.name, `Type: ${c.type || 'unknown'}`];
  if (c.is_primary_key) lines.push('Primary key');
  lines.push(c.source_table ? `Source table: ${c.source_table}` : 'Computed (no source table)');
  lines.push('Click to sort, Shift+click to add a sort key');
  return lines.join('\n');
}

export class ResultGrid {
  readonly root: HTMLElement;
  readonly model: GridModel;
  private readonly doc: Document;
  private readonly id = `vdb${++gridSeq}`;
  private scroller: HTMLElement | undefined;
  private canvas: HTMLElement | undefined;
  private header: HTMLElement | undefined;
  private body: HTMLElement | undefined;
  private summary: HTMLElement | undefined;
  private live: HTMLElement | undefined;
  private detail: HTMLElement | undefined;
  private rowsWin: AxisWindow | undefined;
  private colsWin: AxisWindow | undefined;
  private renderQueued = false;
  private disposed = false;
  private readonly cleanups: (() => void)[] = [];
  private dragging = false;
  /** Bumped whenever every visible row must be refilled (sort, filter, selection). */
  private version = 0;
  private headerVersion = -1;
  private widthVersion = 0;
  private colKey = '';
  private readonly rowRecs = new Map<number, RowRec>();
  private readonly freeRows: RowRec[] = [];
  private copyFormat: CopyFormat = 'tsv';
  /** The output without its rows: the grid keeps its cells only in the model. */
  private readonly output: QueryOutput;
  private cancelCompaction: (() => void) | undefined;
  /**
   * Resolves once the cells are in the compact store and the grid holds no reference to the
   * parsed row arrays any more (at once for small results), or once the grid is disposed.
   */
  readonly compacted: Promise<void>;

  constructor(
    output: QueryOutput,
    private readonly host: GridHost,
    parent: HTMLElement,
    private readonly opts: ResultGridOptions = {},
  ) {
    this.doc = parent.ownerDocument;
    injectStyles(this.doc, opts.nonce);
    const { result } = output;
    this.output = { ...output, result: { ...result, rows: [] } };
    this.model = new GridModel(result.columns, result.rows);
    this.compacted = this.compact(result.rows);
    this.root = el(this.doc, 'div', 'vdb-result');
    this.root.setAttribute('data-status', String(result.status));
    this.renderBanner(output);
    if (result.columns.length > 0) {
      this.renderToolbar();
      this.renderGrid();
      this.renderDetail();
    }
    this.live = el(this.doc, 'div', 'vdb-sr');
    this.live.setAttribute('aria-live', 'polite');
    this.root.appendChild(this.live);
    parent.appendChild(this.root);
    if (this.scroller) this.mountWindows(this.scroller);
  }

  /**
   * Moves the cells from the parsed row arrays into a ColumnStore (about a third of the heap
   * the arrays take) and lets the arrays go. Until it is done the model reads the arrays.
   */
  private compact(rows: QueryOutput['result']['rows']): Promise<void> {
    const columnCount = this.model.columnCount;
    if (rows.length * columnCount <= SYNC_COMPACT_CELLS) {
      this.model.replaceData(ColumnStore.fromRows(rows, columnCount));
      return Promise.resolve();
    }
    const view = this.doc.defaultView;
    return new Promise<void>((resolve) => {
      let builder: ColumnStoreBuilder | undefined;
      let handle: number | undefined;
      const schedule = (): void => {
        // Idle callbacks run in the time a frame leaves over, so scrolling meanwhile stays
        // smooth; the timeout keeps the conversion moving during a long scroll.
        handle = view?.requestIdleCallback
          ? view.requestIdleCallback(slice, { timeout: 250 })
          : (setTimeout(slice, 0) as unknown as number);
      };
      const slice = (deadline?: IdleDeadline): void => {
        handle = undefined;
        // Created here, not before the first paint: its offset arrays take a few ms to allocate.
        builder ??= new ColumnStoreBuilder(rows, columnCount);
        const until = performance.now() + COMPACT_SLICE_MS;
        const idle = deadline && !deadline.didTimeout ? deadline : undefined;
        while (!builder.step()) {
          if (performance.now() >= until || (idle && idle.timeRemaining() < 1)) {
            schedule();
            return;
          }
        }
        this.cancelCompaction = undefined;
        this.model.replaceData(builder.finish());
        resolve();
      };
      this.cancelCompaction = () => {
        if (handle !== undefined) {
          if (view?.cancelIdleCallback) view.cancelIdleCallback(handle);
          else clearTimeout(handle);
        }
        // Disposed mid-conversion: nothing is left to wait for, so whoever awaits `compacted` goes on.
        resolve();
      };
      schedule();
    });
  }

  // ---------- static parts ----------

  private renderBanner(output: QueryOutput): void {
    const b = statusBanner(output.result, output.limit);
    if (this.output.movedTo && this.output.commit) {
      const moved = el(this.doc, 'div', 'vdb-banner info');
      moved.setAttribute('role', 'status');
      moved.appendChild(el(this.doc, 'div', 'vdb-banner-title', `${this.output.target.ref} has moved since this ran`));
      moved.appendChild(
        el(
          this.doc,
          'div',
          'vdb-banner-advice',
          `Ran at ${shortHash(this.output.commit)}; the branch is now at ${shortHash(this.output.movedTo)}. Run the cell again to see the latest data.`,
        ),
      );
      this.root.appendChild(moved);
    }
    if (!b) return;
    const banner = el(this.doc, 'div', `vdb-banner ${b.severity}`);
    banner.setAttribute('role', b.severity === 'error' ? 'alert' : 'status');
    banner.setAttribute('data-banner', String(this.output.result.status));
    banner.appendChild(el(this.doc, 'div', 'vdb-banner-title', b.title));
    if (b.message) banner.appendChild(el(this.doc, 'div', 'vdb-banner-message', b.message));
    banner.appendChild(el(this.doc, 'div', 'vdb-banner-advice', b.advice));
    this.root.appendChild(banner);
  }

  private summaryText(): string {
    const m = this.model;
    const total = m.totalRowCount;
    const rows =
      m.filter && m.rowCount !== total
        ? `${m.rowCount.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`
        : `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'}`;
    const t = this.output.target;
    const at = this.output.commit && this.output.commit !== t.ref ? ` (${shortHash(this.output.commit)})` : '';
    return `${rows} × ${m.columnCount} columns · ${t.owner}/${t.name} @ ${t.ref}${at} · ${Math.round(this.output.elapsedMs)} ms`;
  }

  private renderToolbar(): void {
    const d = this.doc;
    const bar = el(d, 'div', 'vdb-toolbar');
    bar.setAttribute('role', 'toolbar');
    this.summary = el(d, 'span', 'vdb-summary', this.summaryText());
    bar.appendChild(this.summary);

    const filter = el(d, 'input');
    filter.type = 'search';
    filter.placeholder = 'Filter rows';
    filter.setAttribute('aria-label', 'Filter rows (matches any cell)');
    filter.className = 'vdb-filter';
    let timer: ReturnType<typeof setTimeout> | undefined;
    filter.addEventListener('input', () => {
      if (timer) clearTimeout(timer);
      // Debounced so typing stays responsive on 100k rows.
      timer = setTimeout(() => this.applyFilter(filter.value), this.model.totalRowCount > 20000 ? 200 : 60);
    });
    filter.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        if (timer) clearTimeout(timer);
        this.applyFilter(filter.value);
      }
    });
    bar.appendChild(filter);

    const fmt = el(d, 'select', 'vdb-copy-format');
    fmt.setAttribute('aria-label', 'Copy format');
    for (const f of COPY_FORMATS) {
      const o = el(d, 'option', undefined, FORMAT_LABELS[f]);
      o.value = f;
      fmt.appendChild(o);
    }
    fmt.addEventListener('change', () => {
      this.copyFormat = fmt.value as CopyFormat;
    });
    bar.appendChild(fmt);
    const copy = el(d, 'button', 'vdb-copy', 'Copy');
    copy.title = 'Copy the selected cells (or every row shown) in the chosen format';
    copy.addEventListener('click', () => this.copySelection(this.copyFormat));
    bar.appendChild(copy);

    const exp = el(d, 'select', 'vdb-export-format');
    exp.setAttribute('aria-label', 'Export format');
    for (const f of EXPORT_FORMATS) {
      const o = el(d, 'option', undefined, FORMAT_LABELS[f]);
      o.value = f;
      exp.appendChild(o);
    }
    bar.appendChild(exp);
    const expBtn = el(d, 'button', 'vdb-export', 'Export…');
    expBtn.title = 'Save the whole result to a file';
    expBtn.addEventListener('click', () => this.exportAll(exp.value as ExportFormat));
    bar.appendChild(expBtn);
    this.root.appendChild(bar);
  }

  private renderGrid(): void {
    const d = this.doc;
    const m = this.model;
    const scroller = el(d, 'div', 'vdb-grid');
    scroller.tabIndex = 0;
    scroller.setAttribute('role', 'grid');
    scroller.setAttribute('aria-multiselectable', 'true');
    scroller.setAttribute('aria-label', 'Query result');
    scroller.setAttribute('aria-colcount', String(m.columnCount + 1));
    this.scroller = scroller;
    this.setGridHeight();

    const canvas = el(d, 'div', 'vdb-canvas');
    this.canvas = canvas;
    const header = el(d, 'div', 'vdb-header');
    header.setAttribute('role', 'row');
    header.setAttribute('aria-rowindex', '1');
    this.header = header;
    canvas.appendChild(header);
    const body = el(d, 'div', 'vdb-body');
    body.setAttribute('role', 'rowgroup');
    this.body = body;
    canvas.appendChild(body);
    scroller.appendChild(canvas);
    this.root.appendChild(scroller);
    if (m.totalRowCount === 0) {
      const empty = el(d, 'div', 'vdb-empty', 'The query returned no rows.');
      this.root.appendChild(empty);
    }
    this.bindEvents(scroller);
  }

  private setGridHeight(): void {
    if (!this.scroller) return;
    const max = this.opts.maxHeight ?? MAX_GRID_HEIGHT;
    // Room for a horizontal scrollbar so a short result is not hidden behind it.
    const natural = HEADER_HEIGHT + Math.max(1, this.model.rowCount) * ROW_HEIGHT + 16;
    this.scroller.style.height = `${Math.min(max, natural)}px`;
  }

  private renderDetail(): void {
    const d = this.doc;
    const box = el(d, 'div', 'vdb-detail');
    box.hidden = true;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', 'Full cell value');
    this.detail = box;
    this.root.appendChild(box);
  }

  // ---------- virtualization ----------

  private mountWindows(scroller: HTMLElement): void {
    const view = this.doc.defaultView;
    const viewport: Viewport = {
      observeSize: (cb: (s: Size) => void) => {
        const report = (): void => cb({ width: scroller.clientWidth, height: scroller.clientHeight });
        report();
        if (view && 'ResizeObserver' in view) {
          const ro = new view.ResizeObserver(report);
          ro.observe(scroller);
          return () => ro.disconnect();
        }
        return () => undefined;
      },
      observeOffset: (horizontal, cb) => {
        let idle: ReturnType<typeof setTimeout> | undefined;
        const read = (scrolling: boolean): void => cb(horizontal ? scroller.scrollLeft : scroller.scrollTop, scrolling);
        read(false);
        const onScroll = (): void => {
          read(true);
          if (idle) clearTimeout(idle);
          idle = setTimeout(() => read(false), 150);
        };
        scroller.addEventListener('scroll', onScroll, { passive: true });
        return () => {
          if (idle) clearTimeout(idle);
          scroller.removeEventListener('scroll', onScroll);
        };
      },
      scrollTo: (horizontal, offset) => {
        if (horizontal) scroller.scrollLeft = offset;
        else scroller.scrollTop = offset;
      },
    };
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
    this.colsWin = new AxisWindow({
      horizontal: true,
      count: this.model.columnCount,
      sizeOf: (i) => this.model.widths[i] ?? 100,
      overscan: 2,
      paddingStart: GUTTER_WIDTH,
      scrollPaddingStart: GUTTER_WIDTH,
      viewport,
      onChange,
    });
    this.cleanups.push(
      () => this.rowsWin?.dispose(),
      () => this.colsWin?.dispose(),
    );
    this.render();
  }

  private queueRender(): void {
    if (this.renderQueued || this.disposed) return;
    this.renderQueued = true;
    // A microtask runs before the next paint, so a scrolled frame never shows blank rows.
    queueMicrotask(() => {
      this.renderQueued = false;
      if (!this.disposed) this.render();
    });
  }

  /**
   * Brings the DOM in line with the model and the two windows. Row elements are recycled:
   * a row that stays on screen is not touched, so a scroll step only fills the rows that
   * came into view. Anything that changes what every row shows (sort, filter, selection,
   * column window, widths) bumps `version`, which refills the visible rows.
   */
  render(): void {
    const { rowsWin, colsWin, canvas, header, body, scroller } = this;
    if (!rowsWin || !colsWin || !canvas || !header || !body || !scroller) return;
    const m = this.model;
    const totalW = colsWin.totalSize();
    const totalH = rowsWin.totalSize();
    const cols = colsWin.items();
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
    const wanted = new Set<number>();
    for (const r of items) wanted.add(r.index);
    // Free rows that left the window.
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
    if (active && this.rowRecs.has(active.row)) {
      scroller.setAttribute('aria-activedescendant', `${this.id}-active`);
    } else {
      scroller.removeAttribute('aria-activedescendant');
    }
  }

  private renderHeader(header: HTMLElement, cols: readonly WindowItem[]): void {
    const d = this.doc;
    const m = this.model;
    const hfrag = d.createDocumentFragment();
    const corner = el(d, 'div', 'vdb-corner');
    corner.setAttribute('role', 'columnheader');
    corner.setAttribute('aria-colindex', '1');
    corner.title = 'Select all (Ctrl+A)';
    corner.setAttribute('data-corner', '');
    hfrag.appendChild(corner);
    for (const c of cols) {
      const col = m.columns[c.index];
      if (!col) continue;
      const h = el(d, 'div', col.is_primary_key ? 'vdb-hcell pk' : 'vdb-hcell');
      h.setAttribute('role', 'columnheader');
      h.setAttribute('aria-colindex', String(c.index + 2));
      h.setAttribute('data-col', String(c.index));
      const dir = m.sortDirection(c.index);
      h.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none');
      h.style.left = `${c.start}px`;
      h.style.width = `${c.size}px`;
      h.title = headerTooltip(col);
      h.appendChild(el(d, 'span', 'vdb-hname', col.name));
      if (dir) h.appendChild(el(d, 'span', 'vdb-sort', dir === 'asc' ? '▲' : '▼'));
      const grip = el(d, 'div', 'vdb-resizer');
      grip.setAttribute('data-resize', String(c.index));
      grip.setAttribute('aria-hidden', 'true');
      h.appendChild(grip);
      hfrag.appendChild(h);
    }
    header.replaceChildren(hfrag);
  }

  private createRow(body: HTMLElement): RowRec {
    const d = this.doc;
    const row = el(d, 'div', 'vdb-row');
    row.setAttribute('role', 'row');
    const num = el(d, 'div', 'vdb-rownum');
    num.setAttribute('role', 'rowheader');
    num.setAttribute('aria-colindex', '1');
    row.appendChild(num);
    body.appendChild(row);
    return { el: row, num, cells: [], viewRow: -1, colKey: '', version: -1 };
  }

  private fillRow(rec: RowRec, viewRow: number, top: number, cols: readonly WindowItem[], totalW: number, colKey: string): void {
    const d = this.doc;
    const m = this.model;
    const active = m.active;
    rec.el.hidden = false;
    if (rec.viewRow !== viewRow) {
      rec.el.setAttribute('aria-rowindex', String(viewRow + 2));
      rec.el.style.transform = `translateY(${top}px)`;
      rec.el.className = viewRow % 2 ? 'vdb-row odd' : 'vdb-row';
      rec.num.textContent = String(viewRow + 1);
      rec.num.setAttribute('data-rownum', String(viewRow));
    }
    if (rec.colKey !== colKey) rec.el.style.width = `${totalW}px`;
    while (rec.cells.length < cols.length) {
      const cell = el(d, 'div', 'vdb-cell');
      cell.setAttribute('role', 'gridcell');
      rec.el.appendChild(cell);
      rec.cells.push(cell);
    }
    while (rec.cells.length > cols.length) rec.cells.pop()?.remove();
    const rowStr = String(viewRow);
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i] as WindowItem;
      const cell = rec.cells[i] as HTMLElement;
      const value = m.cell(viewRow, c.index);
      const kind = m.kinds[c.index];
      let cls = 'vdb-cell';
      if (value === null) cls += ' null';
      else if (isBinaryCell(value) && kind !== 'text') cls += ' binary';
      else if (kind === 'number') cls += ' num';
      if (isLongValue(value)) cls += ' long';
      const selected = m.isSelected(viewRow, c.index);
      if (selected) cls += ' selected';
      const isActive = !!active && active.row === viewRow && active.col === c.index;
      if (isActive) cls += ' active';
      if (cell.className !== cls) cell.className = cls;
      const text = cellPreview(value, 300);
      if (cell.textContent !== text) cell.textContent = text;
      if (rec.colKey !== colKey || rec.viewRow === -1) {
        cell.setAttribute('aria-colindex', String(c.index + 2));
        cell.setAttribute('data-c', String(c.index));
        cell.style.left = `${c.start}px`;
        cell.style.width = `${c.size}px`;
      }
      cell.setAttribute('data-r', rowStr);
      if (selected) cell.setAttribute('aria-selected', 'true');
      else cell.removeAttribute('aria-selected');
      if (isActive) cell.id = `${this.id}-active`;
      else if (cell.id) cell.removeAttribute('id');
    }
    rec.viewRow = viewRow;
    rec.colKey = colKey;
    rec.version = this.version;
  }

  // ---------- interaction ----------

  private cellAt(target: EventTarget | null): { row: number; col: number } | undefined {
    const t = (target as HTMLElement | null)?.closest?.('[data-r]');
    if (!t) return undefined;
    return { row: Number(t.getAttribute('data-r')), col: Number(t.getAttribute('data-c')) };
  }

  private bindEvents(scroller: HTMLElement): void {
    const on = <K extends keyof HTMLElementEventMap>(
      target: HTMLElement | Document,
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
    ): void => {
      target.addEventListener(type, fn as EventListener);
      this.cleanups.push(() => target.removeEventListener(type, fn as EventListener));
    };

    on(scroller, 'mousedown', (e) => {
      if (e.button !== 0) return;
      const t = e.target as HTMLElement;
      const resize = t.closest('[data-resize]');
      if (resize) {
        e.preventDefault();
        this.startResize(Number(resize.getAttribute('data-resize')), e.clientX, resize as HTMLElement);
        return;
      }
      const hcell = t.closest('[data-col]');
      if (hcell) {
        this.model.toggleSort(Number(hcell.getAttribute('data-col')), e.shiftKey);
        this.afterViewChange(`Sorted by ${this.sortDescription()}`);
        return;
      }
      if (t.closest('[data-corner]')) {
        this.model.selectAll();
        this.afterSelection();
        return;
      }
      const rownum = t.closest('[data-rownum]');
      if (rownum) {
        this.model.selectRow(Number(rownum.getAttribute('data-rownum')), e.shiftKey);
        this.afterSelection();
        return;
      }
      const pos = this.cellAt(t);
      if (pos) {
        scroller.focus({ preventScroll: true });
        this.model.selectCell(pos, e.shiftKey);
        this.dragging = true;
        this.afterSelection(false);
      }
    });
    on(scroller, 'mouseover', (e) => {
      if (!this.dragging) return;
      const pos = this.cellAt(e.target);
      if (pos) {
        this.model.selectCell(pos, true);
        this.afterSelection(false);
      }
    });
    on(this.doc, 'mouseup', () => {
      this.dragging = false;
    });
    on(scroller, 'dblclick', (e) => {
      const pos = this.cellAt(e.target);
      if (pos) this.showDetail(pos.row, pos.col);
    });
    on(scroller, 'keydown', (e) => this.onKey(e));
    // VS Code's Copy command runs document.execCommand('copy') inside the webview.
    on(this.doc, 'copy', (e) => {
      if (!this.root.contains(this.doc.activeElement) || this.doc.activeElement !== scroller) return;
      if (!this.model.selection) return;
      const { columns, table } = this.model.selectedTable();
      e.clipboardData?.setData('text/plain', formatResult('tsv', columns, table, { header: false }));
      e.preventDefault();
    });
  }

  private pageRows(): number {
    const h = this.scroller?.clientHeight ?? MAX_GRID_HEIGHT;
    return Math.max(1, Math.floor((h - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
  }

  private onKey(e: KeyboardEvent): void {
    const m = this.model;
    const mod = e.ctrlKey || e.metaKey;
    const shift = e.shiftKey;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        if (mod) m.moveTo({ row: m.rowCount - 1 }, shift);
        else m.move(1, 0, shift);
        break;
      case 'ArrowUp':
        if (mod) m.moveTo({ row: 0 }, shift);
        else m.move(-1, 0, shift);
        break;
      case 'ArrowRight':
        if (mod) m.moveTo({ col: m.columnCount - 1 }, shift);
        else m.move(0, 1, shift);
        break;
      case 'ArrowLeft':
        if (mod) m.moveTo({ col: 0 }, shift);
        else m.move(0, -1, shift);
        break;
      case 'PageDown':
        m.move(this.pageRows(), 0, shift);
        break;
      case 'PageUp':
        m.move(-this.pageRows(), 0, shift);
        break;
      case 'Home':
        m.moveTo(mod ? { row: 0, col: 0 } : { col: 0 }, shift);
        break;
      case 'End':
        m.moveTo(mod ? { row: m.rowCount - 1, col: m.columnCount - 1 } : { col: m.columnCount - 1 }, shift);
        break;
      case ' ':
        if (shift) m.selectRow(m.active?.row ?? 0);
        else if (mod) m.selectColumn(m.active?.col ?? 0);
        else handled = false;
        break;
      case 'Enter':
      case 'F2': {
        const a = m.active;
        if (a) this.showDetail(a.row, a.col);
        break;
      }
      case 'Escape':
        if (this.detail && !this.detail.hidden) this.hideDetail();
        else m.clearSelection();
        break;
      default:
        handled = false;
    }
    if (!handled && mod && (e.key === 'a' || e.key === 'A')) {
      m.selectAll();
      handled = true;
    } else if (!handled && mod && (e.key === 'c' || e.key === 'C')) {
      this.copySelection(shift ? this.copyFormat : 'tsv', !shift);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    this.afterSelection();
  }

  private afterSelection(reveal = true): void {
    this.version++;
    const a = this.model.active;
    if (reveal && a) {
      this.rowsWin?.reveal(a.row);
      this.colsWin?.reveal(a.col);
    }
    this.render();
  }

  private afterViewChange(announce: string): void {
    this.version++;
    this.rowsWin?.setCount(this.model.rowCount);
    this.setGridHeight();
    if (this.summary) this.summary.textContent = this.summaryText();
    this.render();
    this.announce(announce);
  }

  private applyFilter(text: string): void {
    this.model.setFilter(text);
    if (this.scroller) this.scroller.scrollTop = 0;
    this.afterViewChange(`${this.model.rowCount} rows match`);
  }

  private sortDescription(): string {
    const keys = this.model.sort;
    if (keys.length === 0) return 'original order';
    return keys.map((k) => `${this.model.columns[k.column]?.name ?? k.column} ${k.direction === 'asc' ? 'ascending' : 'descending'}`).join(', ');
  }

  private startResize(col: number, startX: number, grip: HTMLElement): void {
    const startW = this.model.widths[col] ?? 100;
    grip.classList.add('active');
    const move = (e: MouseEvent): void => {
      this.model.resizeColumn(col, startW + (e.clientX - startX));
      this.widthVersion++;
      this.colsWin?.remeasure();
      this.queueRender();
    };
    const up = (): void => {
      this.doc.removeEventListener('mousemove', move);
      this.doc.removeEventListener('mouseup', up);
      grip.classList.remove('active');
    };
    this.doc.addEventListener('mousemove', move);
    this.doc.addEventListener('mouseup', up);
  }

  /** Copies the selection (or the whole view) in a format; TSV without header for Ctrl+C. */
  copySelection(format: CopyFormat, plainCtrlC = false): void {
    const { columns, table } = this.model.selectedTable();
    const header = !(plainCtrlC && this.model.selection && !(this.model.selection.top === 0 && this.model.selection.bottom === this.model.rowCount - 1));
    const text = formatResult(format, columns, table, { header });
    const rows = table.rowCount;
    this.host.copy(text, format, rows);
    this.announce(`Copied ${rows} ${rows === 1 ? 'row' : 'rows'} as ${FORMAT_LABELS[format]}`);
  }

  /** Exports every row of the result (sorted as shown, filter ignored) through the host. */
  exportAll(format: ExportFormat): void {
    const m = this.model;
    const table = m.exportTable();
    const content = formatResult(format, m.columns, table);
    const t = this.output.target;
    const base = `${t.name}-${t.ref}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
    this.host.export(format, content, `${base}.${FORMAT_EXTENSIONS[format]}`, table.rowCount);
    this.announce(`Exporting ${table.rowCount} rows as ${FORMAT_LABELS[format]}`);
  }

  showDetail(row: number, col: number): void {
    const box = this.detail;
    if (!box) return;
    const d = this.doc;
    const value = this.model.cell(row, col);
    const column = this.model.columns[col];
    const head = el(d, 'div', 'vdb-detail-head');
    head.appendChild(el(d, 'span', undefined, `Row ${row + 1}, ${column?.name ?? ''} (${column?.type ?? ''})`));
    const copy = el(d, 'button', undefined, 'Copy value');
    copy.addEventListener('click', () => this.host.copy(value ?? '', 'tsv', 1));
    head.appendChild(copy);
    const close = el(d, 'button', undefined, 'Close');
    close.setAttribute('aria-label', 'Close the full value');
    close.addEventListener('click', () => this.hideDetail());
    head.appendChild(close);
    const pre = el(d, 'pre', value === null ? 'null' : undefined, value === null ? 'NULL' : value);
    box.replaceChildren(head, pre);
    box.hidden = false;
  }

  hideDetail(): void {
    if (!this.detail) return;
    this.detail.hidden = true;
    this.detail.replaceChildren();
    this.scroller?.focus({ preventScroll: true });
  }

  announce(text: string): void {
    if (this.live) this.live.textContent = text;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelCompaction?.();
    this.cancelCompaction = undefined;
    for (const c of this.cleanups.splice(0)) c();
    this.root.remove();
  }
}
