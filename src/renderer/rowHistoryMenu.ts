// "Show Row History" on the rows of one keyed table (a PagedOutput with `rowsOf`: the table
// browser, a table's diff), an item of the row menu (rowMenu.ts): it posts `row.history` with the
// row's key values (in `rowsOf.keyColumns` order) and the column of the cell, for blame. Only
// loaded rows offer it.
import type { Cell, QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import type { RowMenuItem } from './rowMenu';

export interface RowHistoryMenuOptions {
  rowsOf: { table: string; keyColumns: number[] };
  columns: readonly QueryColumn[];
  model: GridModel;
  source: () => RowSource;
  post(key: Cell[], column: string | undefined): void;
}

/** The row's key (undefined while it is not loaded). */
function keyOf(o: RowHistoryMenuOptions, row: number): Cell[] | undefined {
  if (o.source().rowState(row) !== 'ready') return undefined;
  return o.rowsOf.keyColumns.map((c) => o.model.cell(row, c));
}

/** The Show Row History item for the cell at (row, col). */
export function rowHistoryItem(o: RowHistoryMenuOptions, row: number, col: number): RowMenuItem {
  const key = keyOf(o, row);
  const column = o.columns[col]?.name;
  const keyText = key ? o.rowsOf.keyColumns.map((c, i) => `${o.columns[c]?.name} = ${key[i] === null ? 'NULL' : key[i]}`).join(', ') : '';
  return {
    id: 'history',
    label: 'Show Row History',
    title: key
      ? `Every version of the row ${keyText} of ${o.rowsOf.table}${column ? `, and who last changed ${column}` : ''}`
      : 'The row is not loaded yet',
    disabled: !key,
    run: () => {
      if (key) o.post(key, column);
    },
  };
}
