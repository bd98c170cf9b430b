// Which of a change set's new keys the table already has at the base commit: the server check
// behind "duplicate primary key" for keys no row on screen tells about. The keys are asked in
// batches with `SELECT <key columns> FROM t WHERE k IN (…)` (or `(k1 = v1 AND k2 = v2) OR …`), sent at the base
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

/**
 * `k IN (v1, v2, …)` for a one-column key, `(k1 = v1 AND k2 = v2) OR …` for a composite one:
 * the rows with one of `keys` (cells in key order, none NULL).
 */
export function keyMatch(keyColumns: readonly KeyColumn[], keys: readonly (readonly Cell[])[]): string {
  if (keyColumns.length === 0) throw new Error('A key check needs the key columns.');
  if (keys.length === 0) throw new Error('A key check needs at least one key.');
  const names = keyColumns.map((c) => quoteIdentifier(c.name));
  const values = keys.map((key) => {
    if (key.length !== keyColumns.length || key.some((v) => v === null)) throw new Error('A key to check has a NULL or missing cell.');
    return keyColumns.map((c, i) => sqlValue(key[i] ?? null, exact(c)));
  });
  if (keyColumns.length === 1) return `${names[0]} IN (${values.map((v) => v[0]).join(', ')})`;
  return values.map((v) => `(${v.map((value, i) => `${names[i]} = ${value}`).join(' AND ')})`).join(' OR ');
}

/** The statement that returns those of `keys` (cells in key order, none NULL) the table has. */
export function buildExistingKeysQuery(table: string, keyColumns: readonly KeyColumn[], keys: readonly Cell[][]): string {
  const names = keyColumns.map((c) => quoteIdentifier(c.name));
  return `SELECT ${names.join(', ')} FROM ${quoteIdentifier(table)} WHERE ${keyMatch(keyColumns, keys)}`;
}

/** Text of the key values in one statement at most (the statement stays far below any body limit). */
const KEY_BATCH_TEXT = 64 * 1024;

/**
 * `keys` cut into batches for keyed statements: `perBatch` keys at most (a one-column key may take
 * more than a composite one, whose terms SQLite cannot turn into one index lookup list), and no
 * more than 64 KiB of key text.
 */
export function keyBatches<K extends readonly Cell[]>(keys: readonly K[], perBatch: number): K[][] {
  const out: K[][] = [];
  let batch: K[] = [];
  let text = 0;
  for (const key of keys) {
    const size = key.reduce((n, v) => n + (v?.length ?? 4) + 8, 0);
    if (batch.length > 0 && (batch.length >= perBatch || text + size > KEY_BATCH_TEXT)) {
      out.push(batch);
      batch = [];
      text = 0;
    }
    batch.push(key);
    text += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
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
  for (const batch of keyBatches(keys, KEY_CHECK_BATCH)) {
    const r = await run(buildExistingKeysQuery(table, keyColumns, batch), { limit: batch.length + 1, signal });
    if (r.status !== 'success') throw new KeyCheckError(`Could not check the keys of ${table}: ${r.message || r.status}`);
    found.push(...r.rows.map((row) => row.slice(0, keyColumns.length)));
  }
  return found;
}
