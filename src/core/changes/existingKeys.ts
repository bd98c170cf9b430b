// Which of a change set's new keys the table already has at the base commit: the server check
// behind "duplicate primary key" for keys no row on screen tells about. The keys are asked in
// batches with `SELECT <key columns> FROM t WHERE (k1 = v1 AND k2 = v2) OR …`, sent at the base
// commit; names and values go through src/core/sql/quote.ts (exact numerics as bare numbers, so a
// BIGINT past 2^53 compares exactly).
import type { Cell } from '../../shared/wire';
import type { SqlRunner } from '../sql/sqlPort';
import { quoteIdentifier, sqlValue } from '../sql/quote';
import { columnClass } from '../sql/tableQuery';

/** Keys per statement: short statements, one round trip per 200 keys. */
export const KEY_CHECK_BATCH = 200;

export interface KeyColumn {
  name: string;
  type: string;
}

/** A key check could not be answered (the server's status and message). */
export class KeyCheckError extends Error {
  override readonly name = 'KeyCheckError';
}

function exact(c: KeyColumn): boolean {
  const k = columnClass(c.type);
  return k === 'integer' || k === 'decimal';
}

/** The statement that returns those of `keys` (cells in key order, none NULL) the table has. */
export function buildExistingKeysQuery(table: string, keyColumns: readonly KeyColumn[], keys: readonly Cell[][]): string {
  if (keyColumns.length === 0) throw new Error('A key check needs the key columns.');
  if (keys.length === 0) throw new Error('A key check needs at least one key.');
  const names = keyColumns.map((c) => quoteIdentifier(c.name));
  const terms = keys.map((key) => {
    if (key.length !== keyColumns.length || key.some((v) => v === null)) throw new Error('A key to check has a NULL or missing cell.');
    return `(${keyColumns.map((c, i) => `${names[i]} = ${sqlValue(key[i] ?? null, exact(c))}`).join(' AND ')})`;
  });
  return `SELECT ${names.join(', ')} FROM ${quoteIdentifier(table)} WHERE ${terms.join(' OR ')}`;
}

/** The keys among `keys` the table has (as the server prints them), asked in batches. */
export async function findExistingKeys(
  /** SQL at the base commit (the SQL port's runner bound to it). */
  run: SqlRunner,
  table: string,
  keyColumns: readonly KeyColumn[],
  keys: readonly Cell[][],
  signal: AbortSignal,
): Promise<Cell[][]> {
  const found: Cell[][] = [];
  for (let i = 0; i < keys.length; i += KEY_CHECK_BATCH) {
    const batch = keys.slice(i, i + KEY_CHECK_BATCH);
    const r = await run(buildExistingKeysQuery(table, keyColumns, batch), { limit: batch.length + 1, signal });
    if (r.status !== 'success') throw new KeyCheckError(`Could not check the keys of ${table}: ${r.message || r.status}`);
    found.push(...r.rows.map((row) => row.slice(0, keyColumns.length)));
  }
  return found;
}
