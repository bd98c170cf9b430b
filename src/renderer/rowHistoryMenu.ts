// "Show Row History" on the rows of one keyed table (a PagedOutput with `rowsOf`: the table
// browser, a table's diff), an item of the row menu (rowMenu.ts): it posts `row.history` with the
// row's key values (in `rowsOf.keyColumns` order) and the column of the cell, for blame. Only
// loaded rows offer it.
import type { Cell, QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import type { RowMenuItem } from './rowMenu';
import type { GridPagingMessage, PagedOutput } from '../shared/gridPaging';
import * as l10n from '../shared/l10n';

export interface RowHistoryMenuOptions {
  rowsOf: { table: string; keyColumns: number[] };
  columns: readonly QueryColumn[];
  model: GridModel;
  source: () => RowSource;
  post(key: Cell[], column: string | undefined): void;
}

/** The row's key (undefined while it is not loaded). */
function keyOf(o: RowHistoryMenuOptions, row: number): Cell[] | undefined {
  const src = o.source();
  // A new row of an editable grid has no history yet.
  if (src.rowState(row) !== 'ready' || (src.editable && src.rowKind(row) === 'added')) return undefined;
  // An edited key: the row's history is under the key it has in the table.
  return o.rowsOf.keyColumns.map((c) => {
    const old = src.editable ? src.oldCell(row, c) : undefined;
    return old !== undefined ? old : o.model.cell(row, c);
  });
}

/** The Show Row History item for the cell at (row, col). */
export function rowHistoryItem(o: RowHistoryMenuOptions, row: number, col: number): RowMenuItem {
  const key = keyOf(o, row);
  const column = o.columns[col]?.name;
  const keyText = key ? o.rowsOf.keyColumns.map((c, i) => `${o.columns[c]?.name} = ${key[i] === null ? 'NULL' : key[i]}`).join(', ') : '';
  return {
    id: 'history',
    label: l10n.t('Show Row History'),
    title: key
      ? column
        ? l10n.t('Every version of the row {0} of {1}, and who last changed {2}', keyText, o.rowsOf.table, column)
        : l10n.t('Every version of the row {0} of {1}', keyText, o.rowsOf.table)
      : l10n.t('The row is not loaded yet'),
    disabled: !key,
    run: () => {
      if (key) o.post(key, column);
    },
  };
}

/** The item's options for a paged output whose rows are one keyed table's (`rowsOf`), or undefined. */
export function rowHistoryOptions(
  p: PagedOutput,
  model: GridModel,
  source: () => RowSource,
  post: ((m: GridPagingMessage) => void) | undefined,
): RowHistoryMenuOptions | undefined {
  const rowsOf = p.rowsOf;
  if (!rowsOf || !post) return undefined;
  return {
    rowsOf,
    columns: p.columns,
    model,
    source,
    post: (key, column) => post({ type: 'row.history', sourceId: p.sourceId, key, ...(column !== undefined ? { column } : {}) }),
  };
}
