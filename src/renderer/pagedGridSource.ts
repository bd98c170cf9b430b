// The paged side of the result grid: the row source that asks the host for pages of a paged
// output (src/shared/gridPaging.ts), widening the columns for each page that arrives, and the
// order of the rows as the host names it. resultGrid.ts wires these into the grid.
import type { GridPagingMessage, PagedOutput } from '../shared/gridPaging';
import type { GridModel } from './gridModel';
import { PagedRowSource } from './pagedRowSource';
import { commentCounter } from './commentMarks';
import { EditedRowSource } from './editedRowSource';
import type { RowSource, RowSpan } from './rowSource';

/**
 * How far a paged grid reads ahead of a scroll, and how many requests it keeps at the host. Two
 * ahead and two out left the host idle between a page's answer and the next request while the
 * diff view scrolled a page a frame (bench/RESULTS.md, 2026-11-29 "read-ahead"): four ahead, three
 * out kept it reading, and the view took 1.26-1.34x its raw queries against 1.43-1.49x.
 */
export const READ_AHEAD = { ahead: 4, maxPending: 3 } as const;

/** A row source for a paged output; its page requests and cancels go to the host through `post`. */
export function pagedSourceFor(content: PagedOutput, post: (message: GridPagingMessage) => void): PagedRowSource {
  const source = new PagedRowSource({
    sourceId: content.sourceId,
    columns: content.columns,
    pageSize: content.pageSize,
    totalRows: content.totalRows,
    ...READ_AHEAD,
    transport: {
      request: (requestId, start, end) => post({ type: 'page.request', sourceId: content.sourceId, requestId, start, end }),
      cancel: (requestId) => post({ type: 'page.cancel', sourceId: content.sourceId, requestId }),
    },
  });
  const comments = commentCounter(content, (r, c) => source.cell(r, c));
  if (comments) source.comments = comments;
  return source;
}

/**
 * Rows [start, end) just arrived (a page): widen the columns whose values there need more room
 * than they have. Only those rows are read, never every row loaded before, so the cost is one
 * page's whatever the result's size. Returns true when a width changed.
 */
export function widenColumnsForRows(model: GridModel, src: PagedRowSource, start: number, end: number): boolean {
  // A changed cell of a diff draws `old → new`: size for that text.
  const shown = (r: number, c: number): string | null => {
    const v = src.cell(start + r, c);
    const old = src.rowKind(start + r) === 'modified' ? src.oldCell(start + r, c) : undefined;
    return old !== undefined && old !== v ? `${old ?? 'NULL'} → ${v ?? 'NULL'}` : v;
  };
  return model.widenColumns({ rowCount: Math.max(0, end - start), columnCount: model.columnCount, cell: shown });
}

/** The rows of a paged output: its pages, with the change set over them when the host lets the grid edit. */
export function pagedRowsFor(content: PagedOutput, post: (message: GridPagingMessage) => void): PagedRowSource | EditedRowSource {
  const paged = pagedSourceFor(content, post);
  const edit = content.edit;
  return edit && !edit.readOnly && edit.keyColumns.length > 0 ? new EditedRowSource(paged, edit.keyColumns) : paged;
}

/** The pages under a source (itself, or under the change set), if it has any. */
export function pagesOf(src: RowSource): PagedRowSource | undefined {
  if (src instanceof PagedRowSource) return src;
  return src instanceof EditedRowSource ? src.base : undefined;
}

/** Widens the columns for rows that just arrived in `src` (in its own positions); true when a width changed. */
export function widenForArrived(model: GridModel, src: RowSource, arrived: RowSpan): boolean {
  const pages = pagesOf(src);
  if (!pages) return false;
  const shift = src instanceof EditedRowSource ? src.newCount : 0;
  return widenColumnsForRows(model, pages, arrived.start - shift, arrived.end - shift);
}

/** Sorts the model by columns the host names (unknown names are dropped). */
export function applySortNames(model: GridModel, sort: readonly { column: string; direction: 'asc' | 'desc' }[]): void {
  const cols = model.columns;
  model.setSort(
    sort.map((s) => ({ column: cols.findIndex((c) => c.name === s.column), direction: s.direction })).filter((k) => k.column >= 0),
  );
}
