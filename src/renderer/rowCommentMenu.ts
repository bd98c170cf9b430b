// "Comment on Cell…" / "Comment on Row…" on the rows of a pull's Changes view (issue #25), an item
// of the row menu (rowMenu.ts), keyboard included: it posts `row.comment` with the row's key values
// (in `rowsOf.keyColumns` order) and the cell's column (none for the row-number column). The host
// asks for the text and posts the anchored comment. Only loaded rows offer it.
import type { Cell, QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import type { RowMenuItem } from './rowMenu';
import type { GridPagingMessage, PagedOutput } from '../shared/gridPaging';
import * as l10n from '../shared/l10n';

export interface RowCommentMenuOptions {
  keyColumns: number[];
  columns: readonly QueryColumn[];
  model: GridModel;
  source: () => RowSource;
  post(key: Cell[], column: string | undefined): void;
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

/** The item's options for a paged output that offers row comments, or undefined. */
export function rowCommentOptions(
  p: PagedOutput,
  model: GridModel,
  source: () => RowSource,
  post: ((m: GridPagingMessage) => void) | undefined,
): RowCommentMenuOptions | undefined {
  const rowsOf = p.rowsOf;
  if (!rowsOf || !p.rowComments || !post) return undefined;
  return {
    keyColumns: rowsOf.keyColumns,
    columns: p.columns,
    model,
    source,
    post: (key, column) => post({ type: 'row.comment', sourceId: p.sourceId, key, ...(column !== undefined ? { column } : {}) }),
  };
}
