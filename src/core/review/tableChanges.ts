// Which tables a pair of revisions changes and by how much (DOLT_DIFF_SUMMARY + DOLT_DIFF_STAT),
// their CREATE statements (DOLT_SCHEMA_DIFF), their SQL patch (DOLT_PATCH), and what a merge
// would do (the counts plus DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY).
import type { QueryResult } from '../../shared/wire';
import {
  ReviewResultError,
  bothComplete,
  cellAt,
  completenessOf,
  countAt,
  flagAt,
  pageRows,
  requireColumn,
  textAt,
  type Completeness,
  type Page,
} from './resultReader';

export type TableChangeKind = 'added' | 'dropped' | 'modified' | 'renamed';

export interface RowCounts {
  added: number;
  /** null where Dolt cannot tell (keyless tables have only added and removed rows). */
  modified: number | null;
  removed: number;
}

export interface TableChange {
  /** The name to show: the new name, or the old one for a dropped table. */
  table: string;
  fromTable: string | null;
  toTable: string | null;
  kind: TableChangeKind;
  dataChanged: boolean;
  schemaChanged: boolean;
  /** From DOLT_DIFF_STAT; undefined for a table with no data changes (Dolt lists none). */
  rows?: RowCounts;
}

export interface TableChangeSummary {
  tables: TableChange[];
  completeness: Completeness;
}

const KINDS: readonly TableChangeKind[] = ['added', 'dropped', 'modified', 'renamed'];

/** DOLT_DIFF_SUMMARY rows (buildDiffSummaryQuery), without counts. */
export function parseDiffSummary(result: QueryResult): TableChangeSummary {
  const completeness = completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'diff summary');
  const [fromI, toI, kindI, dataI, schemaI] = ['from_table_name', 'to_table_name', 'diff_type', 'data_change', 'schema_change'].map(
    col,
  ) as [number, number, number, number, number];
  const tables = result.rows.map((row): TableChange => {
    const fromTable = cellAt(row, fromI) || null;
    const toTable = cellAt(row, toI) || null;
    const kind = textAt(row, kindI, 'kind of table change') as TableChangeKind;
    if (!KINDS.includes(kind)) throw new ReviewResultError(`Unknown kind of table change ${JSON.stringify(kind)}.`);
    const table = toTable ?? fromTable;
    if (table === null) throw new ReviewResultError('A changed table has no name on either side.');
    return {
      table,
      fromTable,
      toTable,
      kind,
      dataChanged: flagAt(row, dataI, 'data change'),
      schemaChanged: flagAt(row, schemaI, 'schema change'),
    };
  });
  return { tables, completeness };
}

/** DOLT_DIFF_STAT rows (buildDiffStatQuery): row counts per table name. */
export function parseDiffStat(result: QueryResult): { counts: Map<string, RowCounts>; completeness: Completeness } {
  const completeness = completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'diff stat');
  const [nameI, addedI, deletedI, modifiedI] = ['table_name', 'rows_added', 'rows_deleted', 'rows_modified'].map(col) as [
    number,
    number,
    number,
    number,
  ];
  const counts = new Map<string, RowCounts>();
  for (const row of result.rows) {
    counts.set(textAt(row, nameI, 'table name'), {
      added: countAt(row, addedI, 'rows added') ?? 0,
      modified: countAt(row, modifiedI, 'rows modified'),
      removed: countAt(row, deletedI, 'rows deleted') ?? 0,
    });
  }
  return { counts, completeness };
}

/** The summary with each table's row counts, sorted by name. */
export function combineTableChanges(summary: TableChangeSummary, stat: ReturnType<typeof parseDiffStat>): TableChangeSummary {
  const tables = summary.tables
    .map((t) => {
      const rows =
        (t.toTable !== null ? stat.counts.get(t.toTable) : undefined) ?? (t.fromTable !== null ? stat.counts.get(t.fromTable) : undefined);
      return rows ? { ...t, rows } : { ...t };
    })
    .sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
  return { tables, completeness: bothComplete(summary.completeness, stat.completeness) };
}

/** Rows changed in total (modified counted where known). */
export function totalRowsChanged(tables: readonly TableChange[]): number {
  return tables.reduce((n, t) => n + (t.rows ? t.rows.added + (t.rows.modified ?? 0) + t.rows.removed : 0), 0);
}

export interface SchemaChange {
  fromTable: string | null;
  toTable: string | null;
  /** '' where the table does not exist on that side. */
  fromCreate: string;
  toCreate: string;
}

/** DOLT_SCHEMA_DIFF rows (buildSchemaDiffQuery): the two CREATE statements, for a diff editor. */
export function parseSchemaDiff(result: QueryResult): { changes: SchemaChange[]; completeness: Completeness } {
  const completeness = completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'schema diff');
  const [fromI, toI, fromCreateI, toCreateI] = ['from_table_name', 'to_table_name', 'from_create_statement', 'to_create_statement'].map(
    col,
  ) as [number, number, number, number];
  const changes = result.rows.map((row) => ({
    fromTable: cellAt(row, fromI) || null,
    toTable: cellAt(row, toI) || null,
    fromCreate: cellAt(row, fromCreateI) ?? '',
    toCreate: cellAt(row, toCreateI) ?? '',
  }));
  return { changes, completeness };
}

/** A statement of a table's patch (the export asks only for what it writes: order and text). */
export interface PatchStatement {
  order: number;
  statement: string;
}

/** A page of DOLT_PATCH (buildPatchQuery); the next page starts after the last `order`. */
export function parsePatchPage(result: QueryResult, pageSize: number): Page<PatchStatement> {
  const completeness = completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'patch');
  const [orderI, statementI] = ['statement_order', 'statement'].map(col) as [number, number];
  const { rows, hasMore } = pageRows(result, pageSize);
  const items = rows.map((row) => ({
    order: countAt(row, orderI, 'statement order') ?? 0,
    statement: textAt(row, statementI, 'patch statement'),
  }));
  return { items, hasMore, completeness };
}

/** The statements as one SQL script, one statement per line in patch order. */
export function patchScript(statements: readonly PatchStatement[]): string {
  return (
    statements.map((s) => (s.statement.trimEnd().endsWith(';') ? s.statement.trimEnd() : `${s.statement.trimEnd()};`)).join('\n') +
    (statements.length ? '\n' : '')
  );
}

export interface ConflictSummary {
  table: string;
  dataConflicts: number | null;
  schemaConflicts: number | null;
}

/** DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY rows (buildConflictSummaryQuery). */
export function parseConflictSummary(result: QueryResult): { tables: ConflictSummary[]; completeness: Completeness } {
  const completeness = completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'conflict summary');
  const [tableI, dataI, schemaI] = ['table', 'num_data_conflicts', 'num_schema_conflicts'].map(col) as [number, number, number];
  const tables = result.rows.map((row) => ({
    table: textAt(row, tableI, 'conflicting table'),
    dataConflicts: countAt(row, dataI, 'data conflicts'),
    schemaConflicts: countAt(row, schemaI, 'schema conflicts'),
  }));
  return { tables, completeness };
}

export interface MergeImpact {
  tables: TableChange[];
  rowsChanged: number;
  conflictingTables: ConflictSummary[];
  /** 'unknown' when either answer was partial: a merge is never called clean on half an answer. */
  willConflict: boolean | 'unknown';
}

/** What the merge confirmation says: rows changed per table, and whether it conflicts. */
export function mergeImpact(changes: TableChangeSummary, conflicts: ReturnType<typeof parseConflictSummary>): MergeImpact {
  const conflictingTables = conflicts.tables.filter((t) => (t.dataConflicts ?? 0) > 0 || (t.schemaConflicts ?? 0) > 0);
  const complete = changes.completeness.complete && conflicts.completeness.complete;
  return {
    tables: changes.tables,
    rowsChanged: totalRowsChanged(changes.tables),
    conflictingTables,
    willConflict: conflictingTables.length > 0 ? true : complete ? false : 'unknown',
  };
}
