// A table's row diff as the Changes view shows it: each changed row with its kind, its primary
// key and its cells (old → new, with a flag on the cells that changed), from the page queries of
// ./doltQueries (buildRowDiffPageQuery, buildRowDiffCountQuery, buildColumnsQuery).
import type { Cell, QueryColumn, QueryResult } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import type { TableColumnInfo } from '../sql/tableQuery';
import { ROW_DIFF_KINDS, diffKey, diffKeysetSupported, type DiffTableSpec, type RowDiffKind } from './doltQueries';
import { ReviewResultError, cellAt, completenessOf, countAt, pageRows, requireColumn, textAt, type Completeness } from './resultReader';

/** A column of the diff: on both sides, or only on one after a schema change. */
export interface DiffColumn {
  name: string;
  presence: 'both' | 'from' | 'to';
  primaryKey: boolean;
}

export interface DiffCell {
  column: string;
  presence: DiffColumn['presence'];
  /** The value at `from`; undefined where the row or the column does not exist there. */
  old?: Cell;
  /** The value at `to`; undefined where the row or the column does not exist there. */
  new?: Cell;
  /**
   * Added and removed rows: true for every cell the row has. Modified rows: true where both
   * values exist and differ.
   */
  changed: boolean;
  /** False when both values arrived as `<binary>`: whether they differ cannot be told. */
  comparable: boolean;
}

export interface RowDiff {
  kind: RowDiffKind;
  /** The primary key values ([] for a keyless table or a key that changed between the sides). */
  key: Cell[];
  cells: DiffCell[];
}

export interface RowDiffPage {
  columns: DiffColumn[];
  rows: RowDiff[];
  hasMore: boolean;
  completeness: Completeness;
  /** The position of the next page by keyset (when the diff has an exact key and more rows follow). */
  nextAfter?: Cell[];
}

/** The union of the columns of both sides: the `to` order, then columns only the `from` side has. */
export function diffColumns(spec: DiffTableSpec): DiffColumn[] {
  const fromNames = new Set(spec.fromColumns.map((c) => c.name));
  const toNames = new Set(spec.toColumns.map((c) => c.name));
  const out: DiffColumn[] = spec.toColumns.map((c) => ({
    name: c.name,
    presence: fromNames.has(c.name) ? 'both' : 'to',
    primaryKey: c.primaryKey,
  }));
  for (const c of spec.fromColumns) if (!toNames.has(c.name)) out.push({ name: c.name, presence: 'from', primaryKey: c.primaryKey });
  return out;
}

/** A page from buildRowDiffPageQuery (asked for pageSize + 1 rows) with the same spec. */
export function parseRowDiffPage(result: QueryResult, spec: DiffTableSpec, pageSize: number): RowDiffPage {
  const completeness = completenessOf(result);
  const columns = diffColumns(spec);
  const kindI = requireColumn(result, 'diff_type', 'row diff');
  const fromI = new Map(spec.fromColumns.map((c) => [c.name, requireColumn(result, `from_${c.name}`, 'row diff')]));
  const toI = new Map(spec.toColumns.map((c) => [c.name, requireColumn(result, `to_${c.name}`, 'row diff')]));
  const key = diffKey(spec);
  const { rows, hasMore } = pageRows(result, pageSize);
  const diffs = rows.map((row): RowDiff => {
    const kind = textAt(row, kindI, 'kind of row change') as RowDiffKind;
    if (!ROW_DIFF_KINDS.includes(kind)) throw new ReviewResultError(`Unknown kind of row change ${JSON.stringify(kind)}.`);
    const hasFrom = kind !== 'added';
    const hasTo = kind !== 'removed';
    const cells = columns.map((c): DiffCell => {
      const fi = fromI.get(c.name);
      const ti = toI.get(c.name);
      const cell: DiffCell = { column: c.name, presence: c.presence, changed: false, comparable: true };
      if (hasFrom && fi !== undefined) cell.old = cellAt(row, fi);
      if (hasTo && ti !== undefined) cell.new = cellAt(row, ti);
      if (kind !== 'modified') {
        cell.changed = (kind === 'added' ? cell.new : cell.old) !== undefined;
      } else if (cell.old !== undefined && cell.new !== undefined) {
        cell.comparable = !(cell.old === BINARY_CELL && cell.new === BINARY_CELL);
        cell.changed = cell.comparable && cell.old !== cell.new;
      }
      return cell;
    });
    const keyValues = key.map((k) => {
      const i = kind === 'removed' ? fromI.get(k.name) : (toI.get(k.name) ?? fromI.get(k.name));
      return i === undefined ? null : cellAt(row, i);
    });
    return { kind, key: keyValues, cells };
  });
  const page: RowDiffPage = { columns, rows: diffs, hasMore, completeness };
  const last = diffs[diffs.length - 1];
  if (hasMore && last && diffKeysetSupported(spec)) page.nextAfter = last.key;
  return page;
}

/**
 * The columns to keep when "hide unchanged columns" is on: the key, the columns only one side
 * has, and every column with a changed (or not comparable) cell in a modified row of the page. A
 * page with no modified rows keeps every column: its rows are whole rows added or removed.
 */
export function changedColumns(page: Pick<RowDiffPage, 'columns' | 'rows'>): string[] {
  const modified = page.rows.filter((r) => r.kind === 'modified');
  if (modified.length === 0) return page.columns.map((c) => c.name);
  const keep = new Set<string>();
  for (const c of page.columns) if (c.primaryKey || c.presence !== 'both') keep.add(c.name);
  for (const r of modified) for (const cell of r.cells) if (cell.changed || !cell.comparable) keep.add(cell.column);
  return page.columns.filter((c) => keep.has(c.name)).map((c) => c.name);
}

export interface RowDiffCounts {
  added: number;
  modified: number;
  removed: number;
  total: number;
  completeness: Completeness;
}

/** The counts from buildRowDiffCountQuery. */
export function parseRowDiffCounts(result: QueryResult): RowDiffCounts {
  const completeness = completenessOf(result);
  const kindI = requireColumn(result, 'diff_type', 'row diff counts');
  const countI = requireColumn(result, 'row_count', 'row diff counts');
  const out = { added: 0, modified: 0, removed: 0 };
  for (const row of result.rows) {
    const kind = textAt(row, kindI, 'kind of row change') as RowDiffKind;
    if (!ROW_DIFF_KINDS.includes(kind)) throw new ReviewResultError(`Unknown kind of row change ${JSON.stringify(kind)}.`);
    out[kind] += countAt(row, countI, 'row count') ?? 0;
  }
  return { ...out, total: out.added + out.modified + out.removed, completeness };
}

/** The columns of a table from buildColumnsQuery (MySQL's DESCRIBE: Field, Type, Null, Key). */
export function parseColumns(result: QueryResult): TableColumnInfo[] {
  completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'column list');
  const [fieldI, typeI, nullI, keyI] = ['Field', 'Type', 'Null', 'Key'].map(col) as [number, number, number, number];
  return result.rows.map((row) => ({
    name: textAt(row, fieldI, 'column name'),
    type: cellAt(row, typeI) ?? '',
    primaryKey: cellAt(row, keyI) === 'PRI',
    nullable: (cellAt(row, nullI) ?? 'YES').toUpperCase() === 'YES',
  }));
}

/**
 * A row diff as a plain table for export (CSV through the grid's formatters): `diff_type`, then
 * `from_<c>` and `to_<c>` for each column on the sides that have it. A value a row does not have
 * on a side (an added row's old values) is NULL, an empty field in CSV.
 */
export function rowDiffExportTable(columns: readonly DiffColumn[], rows: readonly RowDiff[]): { columns: QueryColumn[]; rows: Cell[][] } {
  const out: QueryColumn[] = [{ name: 'diff_type', type: 'text' }];
  const pick: { column: string; side: 'old' | 'new' }[] = [];
  for (const c of columns) {
    if (c.presence !== 'to') {
      out.push({ name: `from_${c.name}`, type: '' });
      pick.push({ column: c.name, side: 'old' });
    }
    if (c.presence !== 'from') {
      out.push({ name: `to_${c.name}`, type: '' });
      pick.push({ column: c.name, side: 'new' });
    }
  }
  return {
    columns: out,
    rows: rows.map((r) => {
      const cells = new Map(r.cells.map((c) => [c.column, c]));
      return [r.kind, ...pick.map((p) => cells.get(p.column)?.[p.side] ?? null)];
    }),
  };
}
