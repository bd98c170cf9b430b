// Sorting and filtering a paged source on the server (the table browser): a header click or the
// filter form records the wish in the model and posts `view.change`; the host answers with
// `page.reset` (or refuses, with the sort and filters still in force), which this applies.
import type { ColumnFilter, GridPagingMessage, HostPagingMessage, PagedOutput } from '../shared/gridPaging';
import type { GridEditMessage } from '../shared/editProtocol';
import type { GridModel } from './gridModel';
import type { GridView } from './gridView';
import type { PagedRowSource } from './pagedRowSource';
import { applySortNames } from './pagedGridSource';
import { banner } from './gridChrome';
import { describeFilter, openFilterForm } from './filterForm';
import { sortDescription } from './gridOutput';
import * as l10n from '../shared/l10n';

export interface ServerViewHost {
  readonly doc: Document;
  readonly root: HTMLElement;
  readonly model: GridModel;
  readonly output: PagedOutput;
  view(): GridView | undefined;
  notices(): HTMLElement;
  post(m: GridPagingMessage | GridEditMessage): void;
  announce(text: string): void;
}

export class ServerView {
  filters: ColumnFilter[];
  private closeForm: (() => void) | undefined;

  constructor(private readonly h: ServerViewHost) {
    this.filters = h.output.filters?.slice() ?? [];
    applySortNames(h.model, h.output.sort ?? []);
  }

  sortBy(col: number, add: boolean): void {
    const { model, output } = this.h;
    if (!output.serverSort) {
      this.h.announce(l10n.t('This result is read in pages in the order of the query; add ORDER BY to the query to sort it.'));
      return;
    }
    model.toggleSort(col, add);
    this.postViewChange();
    const view = this.h.view();
    view?.invalidate();
    view?.render();
    this.h.announce(l10n.t('Sorting by {0} on the server', sortDescription(model)));
  }

  private postViewChange(): void {
    const model = this.h.model;
    const sort = model.sort.map((k) => ({ column: model.columns[k.column]?.name ?? '', direction: k.direction }));
    this.h.post({ type: 'view.change', sourceId: this.h.output.sourceId, sort, filters: this.filters.slice() });
  }

  openFilter(col: number, anchor: HTMLElement): void {
    const column = this.h.model.columns[col];
    if (!column || !this.h.output.serverFilter) return;
    this.closeForm?.();
    const current = this.filters.find((f) => f.column === column.name);
    this.closeForm = openFilterForm(this.h.doc, this.h.root, anchor, column, current, (f) => {
      this.closeForm = undefined;
      this.filters = this.filters.filter((x) => x.column !== column.name);
      if (f) this.filters.push(f);
      this.postViewChange();
      this.h.announce(f ? l10n.t('Filtering {0} on the server', describeFilter(f)) : l10n.t('Filter on {0} cleared', column.name));
    });
  }

  /** The host's answer to a sort or filter change: every page is read again in the new order. */
  reset(m: Extract<HostPagingMessage, { type: 'page.reset' }>, src: PagedRowSource): void {
    const { model, root, doc } = this.h;
    this.filters = m.filters.slice();
    applySortNames(model, m.sort);
    // The rows are others now: the selection goes, but the keyboard stays in its column, on the
    // first row (Alt+S again sorts the other way; arrows go on from there).
    const col = model.active?.col;
    model.clearSelection();
    if (col !== undefined) model.selectCell({ row: 0, col });
    const view = this.h.view();
    if (view) {
      view.filteredColumns = new Set(this.filters.map((f) => model.columns.findIndex((c) => c.name === f.column)));
      view.scrollToTop();
    }
    src.receive(m);
    root.querySelector('[data-banner="view"]')?.remove();
    if (m.message)
      this.h
        .notices()
        .appendChild(
          banner(doc, { severity: 'warning', title: l10n.t('Cannot sort or filter that way'), message: m.message, advice: '' }, 'view'),
        );
    this.h.announce(`${sortDescription(model)}${this.filters.length ? `, where ${this.filters.map(describeFilter).join(' and ')}` : ''}`);
  }

  dispose(): void {
    this.closeForm?.();
    this.closeForm = undefined;
  }
}
