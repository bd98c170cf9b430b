// What the Changes view's list of changed tables says: counts per kind, a partial answer.
import type { ChangedTableItem } from '../shared/changesProtocol';
import type { TableChange } from '../core/review/tableChanges';
import type { Completeness } from '../core/review/resultReader';

export function itemOf(t: TableChange): ChangedTableItem {
  return {
    table: t.table,
    change: t.kind,
    fromTable: t.fromTable,
    added: t.rows ? t.rows.added : t.dataChanged ? null : 0,
    modified: t.rows ? t.rows.modified : t.dataChanged ? null : 0,
    removed: t.rows ? t.rows.removed : t.dataChanged ? null : 0,
    schemaChanged: t.schemaChanged,
    dataChanged: t.dataChanged,
  };
}

export function partialText(c: Completeness, what: string): string | undefined {
  if (c.complete) return undefined;
  return c.reason === 'timeout'
    ? `The server stopped at its time limit: ${what} may be incomplete.`
    : `The server returned only part of the answer (its row limit): ${what} may be incomplete.`;
}
