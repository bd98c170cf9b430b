// The result grid: puts together a row source (one whole response, or pages served by the host),
// the view that draws it (gridView.ts), the input that drives it (gridInput.ts) and the parts
// around it (gridChrome.ts; summary, copy and export in gridOutput.ts; the paged source in
// pagedGridSource.ts). Used by the notebook output, the SQL result panel and the table browser
// alike; the host speaks to a paged grid through `receive` (src/shared/gridPaging.ts).
import type { QueryOutput } from '../shared/queryResultOutput';
import { formatResult, type CopyFormat } from '../shared/queryResultFormat';
import { isPagedOutput, type ColumnFilter, type HostPagingMessage, type PagedOutput } from '../shared/gridPaging';
import type { HostEditMessage } from '../shared/editProtocol';
import type { QueryColumn } from '../shared/wire';
import { GridModel } from './gridModel';
import { GridView, leadingKeyColumns } from './gridView';
import { el } from './dom';
import { bindGridInput } from './gridInput';
import { WholeResultSource, type RowSource, type RowSpan } from './rowSource';
import { compactRows } from './compaction';
import { pagedRowsFor, pagesOf, widenForArrived } from './pagedGridSource';
import { EditedRowSource } from './editedRowSource';
import { GridEditing } from './gridEditing';
import { DetailBox } from './detailBox';
import { banner, pagedBanners, refMovedBanner, resultBanners, toolbar } from './gridChrome';
import { ServerView, type ServerViewHost } from './serverView';
import { injectStyles } from './gridStyles';
import { rowHistoryItem, rowHistoryOptions } from './rowHistoryMenu';
import { rowCommentItem, rowCommentOptions, rowSuggestItem, rowThreadItem } from './rowCommentMenu';
import { bindRowMenu } from './rowMenu';
import {
  copySelection,
  exportChoices,
  selectionLoaded,
  sortDescription,
  summaryText,
  type GridContent,
  type GridHost,
  type GridState,
} from './gridOutput';
import * as l10n from '../shared/l10n';

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
  private detail: DetailBox | undefined;
  private notices!: HTMLElement;
  private copyFormat: CopyFormat = 'tsv';
  private server: ServerView | undefined;
  private editing: GridEditing | undefined;
  private cancelCompaction: (() => void) | undefined;
  private teardown: (() => void)[] = [];
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

  /** The server-side filters in force (none for a whole result). */
  private filters(): readonly ColumnFilter[] {
    return this.server?.filters ?? [];
  }

  private get paged(): PagedOutput | undefined {
    return isPagedOutput(this.content) ? this.content : undefined;
  }

  private build(content: GridContent): void {
    this.unbuild();
    const d = this.doc;
    this.root.replaceChildren();
    this.laidOutRows = -1;
    const columns = this.buildSource(content);
    this.notices = el(d, 'div', 'vdb-notices');
    this.root.appendChild(this.notices);
    // From the output as it came: the status banner counts its rows.
    this.renderBanners(content);
    if (columns.length > 0) {
      this.renderToolbar();
      this.buildGrid(columns);
    }
    this.live = el(d, 'div', 'vdb-sr');
    this.live.setAttribute('aria-live', 'polite');
    this.root.appendChild(this.live);
    this.view?.mount();
  }

  /** The row source and model of `content` (pages from the host, or one whole response); returns its columns. */
  private buildSource(content: GridContent): QueryColumn[] {
    if (isPagedOutput(content)) {
      // The rows of a paged source never travel inside the output.
      this.content = content;
      const source = pagedRowsFor(content, (m) => this.host.post?.(m));
      this.source = source;
      this.model = new GridModel(content.columns, source);
      this.laidOutRows = source.rowCount;
      this.server = new ServerView(this.parts(content));
      this.teardown.push(source.subscribe((arrived) => this.onRowsChanged(arrived)));
      this.root.setAttribute('data-status', 'paged');
      return content.columns;
    }
    const { result } = content;
    this.content = { ...content, result: { ...result, rows: [] } };
    this.model = new GridModel(result.columns, result.rows);
    const whole = new WholeResultSource(result.columns, this.model.data);
    this.source = whole;
    this.compacted = this.compact(result.rows, whole);
    this.root.setAttribute('data-status', String(result.status));
    return result.columns;
  }

  /** The view, the empty-result line, the full-value box and the input bound to them. */
  private buildGrid(columns: QueryColumn[]): void {
    const d = this.doc;
    const p = this.paged;
    const view = new GridView(d, this.model, () => this.source, {
      id: this.id,
      label: p ? p.title : l10n.t('Query result'),
      maxHeight: this.opts.maxHeight,
      frozenColumns: p?.frozenColumns ?? leadingKeyColumns(columns),
      sortable: !p || p.serverSort,
      filterable: !!p?.serverFilter,
    });
    this.view = view;
    for (const f of this.filters()) view.filteredColumns.add(columns.findIndex((c) => c.name === f.column));
    const src = this.source;
    // The edit bar goes between the toolbar and the rows.
    if (p && src instanceof EditedRowSource)
      this.editing = new GridEditing({ ...this.parts(p), source: src, selectionChanged: (r) => this.actions().selectionChanged(r) });
    this.root.appendChild(view.scroller);
    const noRows = p
      ? this.filters().length
        ? l10n.t('No rows match the filters.')
        : l10n.t('The table has no rows.')
      : l10n.t('The query returned no rows.');
    this.empty = el(d, 'div', 'vdb-empty', noRows);
    this.empty.hidden = !(this.source.totalKnown && this.source.rowCount === 0);
    this.root.appendChild(this.empty);
    this.detail = new DetailBox(d, () => view.scroller.focus({ preventScroll: true }));
    this.root.appendChild(this.detail.el);
    this.teardown.push(bindGridInput(d, view.scroller, this.root, this.model, this.actions()));
    this.bindMenu();
  }

  /** What the paged grid's parts (server sort and filter, editing) work with. */
  private parts(output: PagedOutput): ServerViewHost {
    const { doc, root, model } = this;
    return {
      doc,
      root,
      model,
      output,
      view: () => this.view,
      notices: () => this.notices,
      post: (m) => this.host.post?.(m),
      announce: (t) => this.announce(t),
    };
  }

  /** The row menu: Show Row History on the rows of one keyed table, the edit items of an editable grid. */
  private bindMenu(): void {
    const p = this.paged;
    const view = this.view;
    if (!p || !view) return;
    const history = rowHistoryOptions(p, this.model, () => this.source, this.host.post?.bind(this.host));
    const comments = rowCommentOptions(p, this.model, () => this.source, this.host.post?.bind(this.host));
    const editing = this.editing;
    if (!history && !editing) return;
    this.teardown.push(
      bindRowMenu(this.doc, view.scroller, {
        model: this.model,
        items: (row, col) => [
          ...(editing?.menuItems(row, col) ?? []),
          ...(history ? [rowHistoryItem(history, row, col)] : []),
          ...(comments ? [rowCommentItem(comments, row, col)] : []),
          ...(comments ? [rowThreadItem(comments, row, col), rowSuggestItem(comments, row, col)].flatMap((i) => (i ? [i] : [])) : []),
        ],
        select: (row, col) => {
          if (!this.model.isSelected(row, col)) this.model.selectCell({ row, col });
          this.view?.invalidate();
          this.view?.render();
        },
      }),
    );
  }

  private unbuild(): void {
    this.cancelCompaction?.();
    this.cancelCompaction = undefined;
    this.server?.dispose();
    this.server = undefined;
    this.editing?.dispose();
    this.editing = undefined;
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
      filters: this.filters(),
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
      copy: () => copySelection(this.state(), this.copyFormat),
      export: exportChoices(this.state()),
    });
    this.summary = bar.summary;
    this.teardown.push(bar.dispose);
    this.root.appendChild(bar.el);
  }

  private updateSummary(): void {
    const text = this.summaryText();
    // Written only when it changed: every page that arrives asks, and a write lays out the toolbar.
    if (this.summary && this.summary.textContent !== text) this.summary.textContent = text;
  }

  // ---------- reacting to input and to the host ----------

  private actions(): Parameters<typeof bindGridInput>[4] {
    return {
      sortBy: (col, add) => this.sortBy(col, add),
      openFilter: (col, anchor) => this.server?.openFilter(col, anchor),
      retry: (row) => this.source.retry(row),
      selectionChanged: (reveal) => {
        this.view?.invalidate();
        const a = this.model.active;
        if (reveal && a) this.view?.reveal(a.row, a.col);
        this.view?.render();
      },
      // On an editable grid Enter, F2 and a double-click edit the cell (a locked one shows its full value).
      showDetail: (row, col) => {
        if (!this.editing?.startEdit(row, col)) this.showDetail(row, col);
      },
      editKey: (e) => this.editing?.key(e) ?? false,
      paste: (text) => this.editing?.paste(text),
      closeDetail: () => this.detail?.hide() ?? false,
      copy: (withFormat) => copySelection(this.state(), withFormat ? this.copyFormat : 'tsv', !withFormat),
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
    if (arrived && widenForArrived(this.model, src, arrived)) view.widthsChanged(true);
    // Re-laying out the rows costs O(rows) in the virtualizer (a million measurements): only when
    // the count really changed, not for every page that arrives. A page that arrived refills only
    // its own rows that are drawn (none, for a page read ahead of the screen).
    if (src.rowCount !== this.laidOutRows) {
      this.laidOutRows = src.rowCount;
      view.rowCountChanged();
    } else if (arrived) view.rowsArrived(arrived.start, arrived.end);
    else view.invalidate();
    this.updateSummary();
    if (this.empty) {
      const text = this.filters().length ? l10n.t('No rows match the filters.') : l10n.t('The table has no rows.');
      if (this.empty.textContent !== text) this.empty.textContent = text;
      this.empty.hidden = !(src.totalKnown && src.rowCount === 0);
    }
    view.queueRender();
  }

  private sortBy(col: number, add: boolean): void {
    if (this.server) return this.server.sortBy(col, add);
    this.model.toggleSort(col, add);
    this.afterViewChange(`Sorted by ${sortDescription(this.model)}`);
  }

  /** A message from the host for this grid (paging, Load All Rows, ref moved, editing). */
  receive(m: HostPagingMessage | HostEditMessage): void {
    switch (m.type) {
      case 'edit.overlay':
      case 'edit.refused':
        this.editing?.receive(m);
        return;
      case 'paged.show':
        this.build(m.output);
        return;
      case 'loadAll.refused':
        this.root.querySelector('.vdb-loadall')?.remove();
        this.notices.appendChild(
          banner(this.doc, { severity: 'warning', title: l10n.t('Cannot load all rows'), message: m.message, advice: '' }, 'loadAll'),
        );
        return;
      case 'ref.moved': {
        const p = this.paged;
        if (!p || m.sourceId !== p.sourceId || this.root.querySelector('[data-banner="moved"]')) return;
        const refresh = (): void => this.host.post?.({ type: 'refresh', sourceId: p.sourceId });
        this.notices.appendChild(refMovedBanner(this.doc, m, refresh, !!this.editing));
        return;
      }
      case 'page.marks': {
        // A comment was posted: the new counts, drawn on the rows on screen; nothing is read again.
        const p = this.paged;
        if (!p || m.sourceId !== p.sourceId) return;
        p.commentMarks = m.commentMarks;
        this.view?.invalidate();
        this.view?.render();
        return;
      }
      case 'page.reset': {
        const src = pagesOf(this.source);
        if (src && m.sourceId === src.sourceId) this.server?.reset(m, src);
        return;
      }
      default:
        pagesOf(this.source)?.receive(m);
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

  showDetail(row: number, col: number): void {
    if (!this.detail || this.source.rowState(row) !== 'ready') return;
    const value = this.model.cell(row, col);
    const column = this.model.columns[col];
    this.detail.show(`Row ${row + 1}, ${column?.name ?? ''} (${column?.type ?? ''})`, value, () => this.host.copy(value ?? '', 'tsv', 1));
  }

  announce(text: string): void {
    this.live.textContent = text;
  }

  dispose(): void {
    this.unbuild();
    this.root.remove();
  }
}
