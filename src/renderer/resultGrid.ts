// The result grid: puts together a row source (one whole response, or pages served by the host),
// the view that draws it (gridView.ts), the input that drives it (gridInput.ts) and the parts
// around it (gridChrome.ts; summary, copy and export in gridOutput.ts; the paged source in
// pagedGridSource.ts). Used by the notebook output, the SQL result panel and the table browser
// alike; the host speaks to a paged grid through `receive` (src/shared/gridPaging.ts).
import type { QueryOutput } from '../shared/queryResultOutput';
import { EXPORT_FORMATS, FORMAT_LABELS, formatResult, type CopyFormat, type ExportFormat } from '../shared/queryResultFormat';
import {
  STREAM_FORMATS,
  STREAM_FORMAT_LABELS,
  isPagedOutput,
  type ColumnFilter,
  type HostPagingMessage,
  type PagedOutput,
  type StreamFormat,
} from '../shared/gridPaging';
import type { QueryColumn } from '../shared/wire';
import { GridModel } from './gridModel';
import { GridView, leadingKeyColumns } from './gridView';
import { el } from './dom';
import { bindGridInput } from './gridInput';
import { WholeResultSource, type RowSource, type RowSpan } from './rowSource';
import { compactRows } from './compaction';
import { PagedRowSource } from './pagedRowSource';
import { applySortNames, pagedSourceFor, widenColumnsForRows } from './pagedGridSource';
import { banner, describeFilter, fillDetail, openFilterForm, pagedBanners, refMovedBanner, resultBanners, toolbar } from './gridChrome';
import { injectStyles } from './gridStyles';
import { bindRowHistoryMenu } from './rowHistoryMenu';
import {
  copySelection,
  exportAll,
  exportStream,
  selectionLoaded,
  sortDescription,
  summaryText,
  type GridContent,
  type GridHost,
  type GridState,
} from './gridOutput';

export type { GridContent, GridHost } from './gridOutput';

export interface ResultGridOptions {
  /** Max height of the scrolling area in px (the notebook output grows up to it). */
  maxHeight?: number;
  nonce?: string;
}

let gridSeq = 0;

export class ResultGrid {
  readonly root: HTMLElement;
  model!: GridModel;
  source!: RowSource;
  /**
   * Resolves once the cells are in the compact store and the grid holds no reference to the
   * parsed row arrays any more (at once for small results), or once the grid is disposed.
   */
  compacted: Promise<void> = Promise.resolve();
  private readonly doc: Document;
  private readonly id = `vdb${++gridSeq}`;
  private content!: GridContent;
  private view: GridView | undefined;
  private summary: HTMLElement | undefined;
  private live!: HTMLElement;
  private detail: HTMLElement | undefined;
  private notices!: HTMLElement;
  private copyFormat: CopyFormat = 'tsv';
  private filters: ColumnFilter[] = [];
  private cancelCompaction: (() => void) | undefined;
  private teardown: (() => void)[] = [];
  private closeFilterForm: (() => void) | undefined;
  private empty: HTMLElement | undefined;
  private laidOutRows = -1;

  constructor(
    content: GridContent,
    private readonly host: GridHost,
    parent: HTMLElement,
    private readonly opts: ResultGridOptions = {},
  ) {
    this.doc = parent.ownerDocument;
    injectStyles(this.doc, opts.nonce);
    this.root = el(this.doc, 'div', 'vdb-result');
    parent.appendChild(this.root);
    this.build(content);
  }

  /** The paged source this grid shows, if it shows one (the host stops serving it when the grid goes). */
  get pagedSourceId(): string | undefined {
    return this.paged?.sourceId;
  }

  private get paged(): PagedOutput | undefined {
    return isPagedOutput(this.content) ? this.content : undefined;
  }

  private build(content: GridContent): void {
    this.unbuild();
    const d = this.doc;
    this.root.replaceChildren();
    this.laidOutRows = -1;
    let columns: QueryColumn[];
    if (isPagedOutput(content)) {
      // The rows of a paged source never travel inside the output.
      this.content = content;
      columns = content.columns;
      const source = pagedSourceFor(content, (m) => this.host.post?.(m));
      this.source = source;
      this.model = new GridModel(columns, source);
      this.laidOutRows = source.rowCount;
      this.filters = content.filters?.slice() ?? [];
      applySortNames(this.model, content.sort ?? []);
      this.teardown.push(source.subscribe((arrived) => this.onRowsChanged(arrived)));
      this.root.setAttribute('data-status', 'paged');
    } else {
      const { result } = content;
      this.content = { ...content, result: { ...result, rows: [] } };
      columns = result.columns;
      this.model = new GridModel(columns, result.rows);
      const whole = new WholeResultSource(columns, this.model.data);
      this.source = whole;
      this.compacted = this.compact(result.rows, whole);
      this.root.setAttribute('data-status', String(result.status));
    }
    this.notices = el(d, 'div', 'vdb-notices');
    this.root.appendChild(this.notices);
    // From the output as it came: the status banner counts its rows.
    this.renderBanners(content);
    if (columns.length > 0) {
      this.renderToolbar();
      const p = this.paged;
      const view = new GridView(d, this.model, () => this.source, {
        id: this.id,
        label: p ? p.title : 'Query result',
        maxHeight: this.opts.maxHeight,
        frozenColumns: p?.frozenColumns ?? leadingKeyColumns(columns),
        sortable: !p || p.serverSort,
        filterable: !!p?.serverFilter,
      });
      this.view = view;
      for (const f of this.filters) view.filteredColumns.add(columns.findIndex((c) => c.name === f.column));
      this.root.appendChild(view.scroller);
      this.empty = el(
        d,
        'div',
        'vdb-empty',
        p ? (this.filters.length ? 'No rows match the filters.' : 'The table has no rows.') : 'The query returned no rows.',
      );
      this.empty.hidden = !(this.source.totalKnown && this.source.rowCount === 0);
      this.root.appendChild(this.empty);
      this.detail = el(d, 'div', 'vdb-detail');
      this.detail.hidden = true;
      this.detail.setAttribute('role', 'region');
      this.detail.setAttribute('aria-label', 'Full cell value');
      this.root.appendChild(this.detail);
      this.teardown.push(bindGridInput(d, view.scroller, this.root, this.model, this.actions()));
      const rowsOf = p?.rowsOf;
      const post = this.host.post?.bind(this.host);
      if (p && rowsOf && post) {
        this.teardown.push(
          bindRowHistoryMenu(d, view.scroller, {
            rowsOf,
            columns,
            model: this.model,
            source: () => this.source,
            select: (row, col) => {
              this.model.selectCell({ row, col });
              this.view?.invalidate();
              this.view?.render();
            },
            post: (key, column) => post({ type: 'row.history', sourceId: p.sourceId, key, ...(column !== undefined ? { column } : {}) }),
          }),
        );
      }
    }
    this.live = el(d, 'div', 'vdb-sr');
    this.live.setAttribute('aria-live', 'polite');
    this.root.appendChild(this.live);
    this.view?.mount();
  }

  private unbuild(): void {
    this.cancelCompaction?.();
    this.cancelCompaction = undefined;
    this.closeFilterForm?.();
    for (const t of this.teardown.splice(0)) t();
    this.view?.dispose();
    this.view = undefined;
    this.source?.dispose();
  }

  /** Moves a whole result's cells into the compact store (see `compactRows`). */
  private compact(rows: QueryOutput['result']['rows'], whole: WholeResultSource): Promise<void> {
    const model = this.model;
    const { done, cancel } = compactRows(this.doc.defaultView, rows, model.columnCount, (store) => {
      this.cancelCompaction = undefined;
      model.replaceData(store);
      whole.replaceData(store);
    });
    this.cancelCompaction = cancel;
    return done;
  }

  // ---------- banners and toolbar ----------

  private renderBanners(c: GridContent): void {
    const post = this.host.post?.bind(this.host);
    for (const b of isPagedOutput(c) ? pagedBanners(this.doc, c) : resultBanners(this.doc, c, post)) this.notices.appendChild(b);
  }

  private summaryText(): string {
    return summaryText(this.state());
  }

  /** The grid as gridOutput.ts reads it. */
  private state(): GridState {
    return {
      model: this.model,
      source: this.source,
      content: this.content,
      filters: this.filters,
      host: this.host,
      announce: (t) => this.announce(t),
    };
  }

  private renderToolbar(): void {
    const p = this.paged;
    const bar = toolbar(this.doc, {
      summary: this.summaryText(),
      quickFilter: p ? undefined : { apply: (text) => this.applyQuickFilter(text), delayMs: this.model.totalRowCount > 20000 ? 200 : 60 },
      copyFormat: (f) => {
        this.copyFormat = f;
      },
      copy: () => this.copySelection(this.copyFormat),
      export: p
        ? {
            formats: STREAM_FORMATS.map((f) => ({ value: f, label: STREAM_FORMAT_LABELS[f] })),
            title: 'Save every row to a file, read page by page',
            run: (f) => this.exportStream(f as StreamFormat),
          }
        : {
            formats: EXPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] })),
            title: 'Save the whole result to a file',
            run: (f) => this.exportAll(f as ExportFormat),
          },
    });
    this.summary = bar.summary;
    this.teardown.push(bar.dispose);
    this.root.appendChild(bar.el);
  }

  private updateSummary(): void {
    if (this.summary) this.summary.textContent = this.summaryText();
  }

  // ---------- reacting to input and to the host ----------

  private actions(): Parameters<typeof bindGridInput>[4] {
    return {
      sortBy: (col, add) => this.sortBy(col, add),
      openFilter: (col, anchor) => this.openFilter(col, anchor),
      retry: (row) => this.source.retry(row),
      selectionChanged: (reveal) => {
        this.view?.invalidate();
        const a = this.model.active;
        if (reveal && a) this.view?.reveal(a.row, a.col);
        this.view?.render();
      },
      showDetail: (row, col) => this.showDetail(row, col),
      closeDetail: () => {
        if (!this.detail || this.detail.hidden) return false;
        this.hideDetail();
        return true;
      },
      copy: (withFormat) => this.copySelection(withFormat ? this.copyFormat : 'tsv', !withFormat),
      selectionText: () => {
        if (!this.model.selection || !selectionLoaded(this.model, this.source)) return undefined;
        const { columns, table } = this.model.selectedTable();
        return formatResult('tsv', columns, table, { header: false });
      },
      resizeColumn: (col, width) => {
        this.model.resizeColumn(col, width);
        this.view?.widthsChanged();
      },
      pageRows: () => this.view?.pageRows() ?? 10,
    };
  }

  private onRowsChanged(arrived?: RowSpan): void {
    const view = this.view;
    if (!view) return;
    const src = this.source;
    // Columns follow what the user meets: a page whose values need more room widens them.
    if (arrived && src instanceof PagedRowSource && widenColumnsForRows(this.model, src, arrived.start, arrived.end))
      view.widthsChanged(true);
    // Re-laying out the rows costs O(rows) in the virtualizer (a million measurements): only when
    // the count really changed, not for every page that arrives.
    if (src.rowCount !== this.laidOutRows) {
      this.laidOutRows = src.rowCount;
      view.rowCountChanged();
    } else view.invalidate();
    this.updateSummary();
    if (this.empty) {
      this.empty.textContent = this.filters.length ? 'No rows match the filters.' : 'The table has no rows.';
      this.empty.hidden = !(src.totalKnown && src.rowCount === 0);
    }
    view.queueRender();
  }

  private sortBy(col: number, add: boolean): void {
    const p = this.paged;
    if (p && !p.serverSort) {
      this.announce('This result is read in pages in the order of the query; add ORDER BY to the query to sort it.');
      return;
    }
    this.model.toggleSort(col, add);
    if (p) {
      this.postViewChange();
      this.view?.invalidate();
      this.view?.render();
      this.announce(`Sorting by ${sortDescription(this.model)} on the server`);
      return;
    }
    this.afterViewChange(`Sorted by ${sortDescription(this.model)}`);
  }

  private postViewChange(): void {
    const p = this.paged;
    if (!p) return;
    const sort = this.model.sort.map((k) => ({ column: this.model.columns[k.column]?.name ?? '', direction: k.direction }));
    this.host.post?.({ type: 'view.change', sourceId: p.sourceId, sort, filters: this.filters.slice() });
  }

  private openFilter(col: number, anchor: HTMLElement): void {
    const column = this.model.columns[col];
    if (!column || !this.paged?.serverFilter) return;
    this.closeFilterForm?.();
    const current = this.filters.find((f) => f.column === column.name);
    this.closeFilterForm = openFilterForm(this.doc, this.root, anchor, column, current, (f) => {
      this.closeFilterForm = undefined;
      this.filters = this.filters.filter((x) => x.column !== column.name);
      if (f) this.filters.push(f);
      this.postViewChange();
      this.announce(f ? `Filtering ${describeFilter(f)} on the server` : `Filter on ${column.name} cleared`);
    });
  }

  /** A message from the host for this grid (paging, Load All Rows, ref moved). */
  receive(m: HostPagingMessage): void {
    switch (m.type) {
      case 'paged.show':
        this.build(m.output);
        return;
      case 'loadAll.refused':
        this.root.querySelector('.vdb-loadall')?.remove();
        this.notices.appendChild(
          banner(this.doc, { severity: 'warning', title: 'Cannot load all rows', message: m.message, advice: '' }, 'loadAll'),
        );
        return;
      case 'ref.moved': {
        const p = this.paged;
        if (!p || m.sourceId !== p.sourceId || this.root.querySelector('[data-banner="moved"]')) return;
        this.notices.appendChild(refMovedBanner(this.doc, m, () => this.host.post?.({ type: 'refresh', sourceId: p.sourceId })));
        return;
      }
      case 'page.reset': {
        const src = this.source;
        if (!(src instanceof PagedRowSource) || m.sourceId !== src.sourceId) return;
        this.filters = m.filters.slice();
        applySortNames(this.model, m.sort);
        this.model.clearSelection();
        if (this.view) {
          this.view.filteredColumns = new Set(this.filters.map((f) => this.model.columns.findIndex((c) => c.name === f.column)));
          this.view.scrollToTop();
        }
        src.receive(m);
        this.root.querySelector('[data-banner="view"]')?.remove();
        if (m.message)
          this.notices.appendChild(
            banner(this.doc, { severity: 'warning', title: 'Cannot sort or filter that way', message: m.message, advice: '' }, 'view'),
          );
        this.announce(
          `${sortDescription(this.model)}${this.filters.length ? `, where ${this.filters.map(describeFilter).join(' and ')}` : ''}`,
        );
        return;
      }
      default:
        if (this.source instanceof PagedRowSource) this.source.receive(m);
    }
  }

  private afterViewChange(announce: string): void {
    this.view?.rowCountChanged();
    this.updateSummary();
    this.view?.render();
    this.announce(announce);
  }

  private applyQuickFilter(text: string): void {
    this.model.setFilter(text);
    this.view?.scrollToTop();
    this.afterViewChange(`${this.model.rowCount} rows match`);
  }

  /** Copies the selection (or the whole view) in a format; TSV without header for Ctrl+C. */
  copySelection(format: CopyFormat, plainCtrlC = false): void {
    copySelection(this.state(), format, plainCtrlC);
  }

  /** Exports every row of a whole result (sorted as shown, filter ignored) through the host. */
  exportAll(format: ExportFormat): void {
    exportAll(this.state(), format);
  }

  /** Asks the host to stream every row of the paged source into a file. */
  exportStream(format: StreamFormat): void {
    exportStream(this.state(), format);
  }

  showDetail(row: number, col: number): void {
    if (!this.detail || this.source.rowState(row) !== 'ready') return;
    const value = this.model.cell(row, col);
    const column = this.model.columns[col];
    fillDetail(this.doc, this.detail, `Row ${row + 1}, ${column?.name ?? ''} (${column?.type ?? ''})`, value, {
      copy: () => this.host.copy(value ?? '', 'tsv', 1),
      close: () => this.hideDetail(),
    });
  }

  hideDetail(): void {
    if (!this.detail) return;
    this.detail.hidden = true;
    this.detail.replaceChildren();
    this.view?.scroller.focus({ preventScroll: true });
  }

  announce(text: string): void {
    this.live.textContent = text;
  }

  dispose(): void {
    this.unbuild();
    this.root.remove();
  }
}
