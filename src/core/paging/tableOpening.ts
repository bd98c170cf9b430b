// What the table browser shows when it opens (or reopens after Refresh) a table at a commit: the
// grid's `PagedOutput` (title `products @ main`, key columns first and frozen, Show Row History
// on keyed tables, a note when pages go by position) and the `TableSource` its pages come from.
// Pure: the catalog and the SQL runner are passed in.
import type { QueryColumn } from '../../shared/wire';
import type { QueryTarget } from '../../shared/queryResultOutput';
import { DEFAULT_PAGE_SIZE, type PagedOutput } from '../../shared/gridPaging';
import type { TableCatalogCache, TableKind } from '../sql/tableCatalog';
import type { TableColumnInfo } from '../sql/tableQuery';
import { TableSource } from './tableSource';
import type { SqlRunner } from '../sql/sqlPort';
import { TESTS_TABLE } from '../dataTests/dataTests';

/** A table of a database at a ref, read at `commit` (what the ref pointed at). */
export interface TableAt {
  readonly target: QueryTarget;
  readonly commit: string;
  readonly table: string;
}

/** The table is not there at that commit (dropped or renamed since). */
export class TableGoneError extends Error {
  override readonly name = 'TableGoneError';
}

export const KEYLESS_NOTE = 'No primary key: pages are read by position (LIMIT/OFFSET); sorting and filtering still run on the server.';

const short = (h: string): string => h.slice(0, 8);

/** `products @ main`. */
export function tableTitle(table: string, ref: string): string {
  return `${table} @ ${ref}`;
}

/** Key columns first (so they can stay in view), the rest in table order. */
export function keysFirst(columns: readonly TableColumnInfo[]): TableColumnInfo[] {
  return [...columns.filter((c) => c.primaryKey), ...columns.filter((c) => !c.primaryKey)];
}

export interface OpenedTable {
  output: PagedOutput;
  source: TableSource;
  /** A table or a view (a view is never edited). */
  kind: TableKind;
}

let sequence = 0;

/**
 * Reads the table's columns at `at.commit` and builds the grid's output and page source. Throws
 * `TableGoneError` when the table is not there, and the catalog's error when it cannot be read.
 */
export async function openTableAt(
  at: TableAt,
  catalog: Pick<TableCatalogCache, 'tables' | 'columns'>,
  run: SqlRunner,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<OpenedTable> {
  const db = { owner: at.target.owner, name: at.target.name };
  const tables = await catalog.tables(at.target.hostId, db, at.commit);
  // dolt_tests is never listed (a system table) but always there, and edited like a table (issue #24).
  const entry = tables.find((t) => t.name === at.table) ?? (at.table === TESTS_TABLE ? { name: TESTS_TABLE, kind: 'table' } : undefined);
  if (!entry) {
    throw new TableGoneError(
      `The table ${at.table} does not exist at ${at.target.ref} (commit ${short(at.commit)}): it was dropped or renamed.`,
    );
  }
  const columns = keysFirst(await catalog.columns(at.target.hostId, db, at.commit, at.table));
  const source = new TableSource({ table: at.table, columns, run, pageSize });
  const keyCount = columns.filter((c) => c.primaryKey).length;
  const keyed = source.keyed;
  const wire: QueryColumn[] = columns.map((c) => ({ name: c.name, type: c.type, is_primary_key: c.primaryKey, source_table: at.table }));
  const output: PagedOutput = {
    v: 1,
    kind: 'paged',
    sourceId: `table-${++sequence}`,
    columns: wire,
    target: { ...at.target },
    commit: at.commit,
    title: tableTitle(at.table, at.target.ref),
    pageSize,
    serverSort: true,
    serverFilter: true,
    frozenColumns: keyCount,
    ...(keyCount === 0 ? { note: KEYLESS_NOTE } : {}),
    ...(keyCount > 0 ? { rowsOf: { table: at.table, keyColumns: columns.map((_, i) => i).slice(0, keyCount) } } : {}),
  };
  // A keyed table with an inexact key type (a float key) still pages correctly, by position.
  if (keyCount > 0 && !keyed) output.note = 'The primary key has an inexact type: pages are read by position (LIMIT/OFFSET).';
  return { output, source, kind: entry.kind };
}
