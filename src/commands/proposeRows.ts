// Re-reading a change set's edited rows at another commit (a rebase onto the branch's head):
// SELECT of the table's columns for the rows' keys, a few hundred keys a statement.
import type { Cell } from '../shared/wire';
import { expectedRows, rowKeyText } from '../core/changes/proposalCheck';
import { keyCondition, type ProposalInput } from '../core/changes/proposalFiles';
import { quoteIdentifier } from '../core/sql/quote';
import type { SqlPort } from '../core/sql/sqlPort';

const KEYS_PER_STATEMENT = 200;

/** Each edited row's key → the row at `commit` (its columns in the change set's order), or null where it is not there. */
export async function rereadRows(
  sql: Pick<SqlPort, 'at'>,
  input: ProposalInput,
  commit: string,
  signal?: AbortSignal,
): Promise<Map<string, Cell[] | null>> {
  const { scope } = input;
  const run = sql.at({ hostId: scope.hostId, db: { owner: scope.owner, name: scope.name }, ref: commit });
  const keys = [...expectedRows(input).values()].map((r) => r.key);
  const out = new Map<string, Cell[] | null>(keys.map((k) => [rowKeyText(k), null]));
  const select = input.columns.map((c) => quoteIdentifier(c.name)).join(', ');
  for (let i = 0; i < keys.length; i += KEYS_PER_STATEMENT) {
    const batch = keys.slice(i, i + KEYS_PER_STATEMENT);
    const where = batch.map((k) => `(${keyCondition(input, k)})`).join(' OR ');
    const r = await run(`SELECT ${select} FROM ${quoteIdentifier(scope.table)} WHERE ${where}`, { limit: batch.length + 1, signal });
    if (r.status !== 'success')
      throw new Error(`Reading the edited rows of ${scope.table} at ${commit.slice(0, 8)} answered ${r.status}: ${r.message ?? ''}`);
    for (const row of r.rows) out.set(rowKeyText(input.keyColumns.map((ci) => row[ci] ?? null)), row);
  }
  return out;
}
