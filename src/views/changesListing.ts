// What the Changes view's list of changed tables says (counts per kind, a partial answer), and how
// its queries are sent to one database.
import type { DbRef, HubClient } from '../api/index';
import type { ChangedTableItem } from '../shared/changesProtocol';
import type { ReviewRunner } from '../core/review/changesPin';
import type { TableChange } from '../core/review/tableChanges';
import type { Completeness } from '../core/review/resultReader';

export function runnerFor(client: Pick<HubClient, 'runSql'>, db: DbRef, timeoutMs: number | undefined): ReviewRunner {
  return (query, opts) =>
    client.runSql(
      db,
      { ref: query.at, q: query.sql, limit: opts.limit, ...(timeoutMs ? { timeoutMs } : {}) },
      opts.signal ? { signal: opts.signal } : undefined,
    );
}

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
