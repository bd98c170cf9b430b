// "Comment on Cell…" / "Comment on Row…" on the rows of a pull's Changes view (issue #25), an item
// of the row menu (rowMenu.ts), keyboard included: it posts `row.comment` with the row's key values
// (in `rowsOf.keyColumns` order) and the cell's column (none for the row-number column). The host
// asks for the text and posts the anchored comment. Only loaded rows offer it.
import type { Cell, QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import type { RowMenuItem } from './rowMenu';
import type { GridPagingMessage, PagedOutput } from '../shared/gridPaging';
import { commentCounter } from './commentMarks';
import * as l10n from '../shared/l10n';

export interface RowCommentMenuOptions {
  keyColumns: number[];
  columns: readonly QueryColumn[];
  model: GridModel;
  source: () => RowSource;
  post(key: Cell[], column: string | undefined, suggest?: { value: Cell }): void;
  /** Comments on the cell at (row, col) (its row's on a key cell); absent: none anywhere. */
  count?: (row: number, col: number) => number;
  /** Shows the comments of the row (or cell) beside the grid. */
  showThread(key: Cell[], column: string | undefined): void;
}

/** The Comment item for the cell at (row, col); col < 0 (the row number) comments on the row. */
export function rowCommentItem(o: RowCommentMenuOptions, row: number, col: number): RowMenuItem {
  const ready = o.source().rowState(row) === 'ready';
  const key = ready ? o.keyColumns.map((c) => o.model.cell(row, c)) : undefined;
  // Columns of a diff are `name` or the side's copy of it; a key column's cell is a row comment.
  const column = col >= 0 && !o.keyColumns.includes(col) ? o.columns[col]?.name : undefined;
  return {
    id: 'comment',
    label: column !== undefined ? l10n.t('Comment on Cell…') : l10n.t('Comment on Row…'),
    title: key
      ? column !== undefined
        ? l10n.t("Comment on this row's {0} in the pull request", column)
        : l10n.t('Comment on this row in the pull request')
      : l10n.t('The row is not loaded yet'),
    disabled: !key,
    run: () => {
      if (key) o.post(key, column);
    },
  };
}

/** Suggest a Value… for the cell at (row, col): a cell comment carrying a new value (none on key cells or the row number). */
export function rowSuggestItem(o: RowCommentMenuOptions, row: number, col: number): RowMenuItem | undefined {
  const column = col >= 0 && !o.keyColumns.includes(col) ? o.columns[col]?.name : undefined;
  if (column === undefined) return undefined;
  const ready = o.source().rowState(row) === 'ready';
  const key = ready ? o.keyColumns.map((c) => o.model.cell(row, c)) : undefined;
  return {
    id: 'suggest',
    label: l10n.t('Suggest a Value…'),
    title: key
      ? l10n.t("Suggest a new value for this row's {0} in a comment on the pull request", column)
      : l10n.t('The row is not loaded yet'),
    disabled: !key,
    run: () => {
      if (key) o.post(key, column, { value: o.model.cell(row, col) });
    },
  };
}

/** Show Comments for the cell at (row, col): only where the grid marks comments. */
export function rowThreadItem(o: RowCommentMenuOptions, row: number, col: number): RowMenuItem | undefined {
  const n = o.count?.(row, col) ?? 0;
  if (n === 0 || o.source().rowState(row) !== 'ready') return undefined;
  const key = o.keyColumns.map((c) => o.model.cell(row, c));
  const column = col >= 0 && !o.keyColumns.includes(col) ? o.columns[col]?.name : undefined;
  return {
    id: 'thread',
    label: l10n.t('Show Comments ({0})', n),
    title:
      column !== undefined
        ? l10n.t("Show the comments on this row's {0} beside the grid", column)
        : l10n.t('Show the comments on this row beside the grid'),
    run: () => o.showThread(key, column),
  };
}

/** The item's options for a paged output that offers row comments, or undefined. */
export function rowCommentOptions(
  p: PagedOutput,
  model: GridModel,
  source: () => RowSource,
  post: ((m: GridPagingMessage) => void) | undefined,
): RowCommentMenuOptions | undefined {
  const rowsOf = p.rowsOf;
  if (!rowsOf || !p.rowComments || !post) return undefined;
  const counter = commentCounter(p, (r, c) => model.cell(r, c));
  return {
    keyColumns: rowsOf.keyColumns,
    columns: p.columns,
    model,
    source,
    ...(counter ? { count: counter } : {}),
    showThread: (key, column) => post({ type: 'row.thread', sourceId: p.sourceId, key, ...(column !== undefined ? { column } : {}) }),
    post: (key, column, suggest) =>
      post({
        type: 'row.comment',
        sourceId: p.sourceId,
        key,
        ...(column !== undefined ? { column } : {}),
        ...(suggest ? { suggest } : {}),
      }),
  };
}
