// What happened to a change set's own rows between two commits, from plain keyed reads at each
// commit (`SELECT <columns> FROM t WHERE k IN (…)`, in batches): the rows a stale-base check and
// the proof of what was sent need, without reading the table's whole diff. Reading the diff of a
// 1M-row table costs a walk of both trees per page; these reads cost an index lookup per key.
// Rows come back as RowDiffs keyed by the change set's own key cells, so the checks that compare
// them with the change set (./proposalCheck.ts, ./staleBase.ts) read them as diff rows.
import type { Cell } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { completenessOf, ReviewResultError } from '../review/resultReader';
import type { RowDiff } from '../review/rowDiff';
import { quoteIdentifier } from '../sql/quote';
import type { ReviewRunner } from '../sql/sqlPort';
import { columnClass } from '../sql/tableQuery';
import { keyBatches, keyMatch, type KeyColumn } from './existingKeys';
import { canonicalNumber, expectedRows } from './proposalCheck';
import type { ProposalInput } from './proposalFiles';

/** Keys per read: a one-column key is one `IN` list (an index lookup each); composite keys are ORed terms. */
const KEYED_READ_BATCH = 1000;
const COMPOSITE_KEYED_READ_BATCH = 200;

type KeyedTable = Pick<ProposalInput, 'columns' | 'keyColumns'> & { readonly scope: { readonly table: string } };

function keyColumnsOf(input: KeyedTable): KeyColumn[] {
  return input.keyColumns.map((i) => {
    const c = input.columns[i];
    if (!c) throw new Error(`Key column ${i} is not a column of the table.`);
    return { name: c.name, type: c.type };
  });
}

/** A row key as text, numbers by value (a typed `007` is the key the server prints as `7`). */
function keyText(keyColumns: readonly KeyColumn[], key: readonly Cell[]): string {
  return JSON.stringify(
    key.map((v, i) => {
      const cls = columnClass(keyColumns[i]?.type ?? '');
      return v !== null && (cls === 'integer' || cls === 'decimal') ? canonicalNumber(v) : v;
    }),
  );
}

/** The table's rows with one of `keys` at commit `at`, cells in `input.columns` order, by key text. */
export async function readRowsByKey(
  run: ReviewRunner,
  at: string,
  input: KeyedTable,
  keys: readonly (readonly Cell[])[],
  signal?: AbortSignal,
): Promise<Map<string, Cell[]>> {
  const keyColumns = keyColumnsOf(input);
  const select = input.columns.map((c) => quoteIdentifier(c.name)).join(', ');
  const from = quoteIdentifier(input.scope.table);
  const perBatch = keyColumns.length === 1 ? KEYED_READ_BATCH : COMPOSITE_KEYED_READ_BATCH;
  const out = new Map<string, Cell[]>();
  for (const batch of keyBatches(keys, perBatch)) {
    const sql = `SELECT ${select} FROM ${from} WHERE ${keyMatch(keyColumns, batch)}`;
    const result = await run({ sql, at }, { limit: batch.length + 1, signal });
    if (!completenessOf(result).complete)
      throw new ReviewResultError(`Reading ${batch.length} rows of ${input.scope.table} by key was cut short.`);
    if (result.columns.length !== input.columns.length)
      throw new ReviewResultError(`The rows of ${input.scope.table} came back with other columns.`);
    const keyAt = input.keyColumns;
    for (const row of result.rows)
      out.set(
        keyText(
          keyColumns,
          keyAt.map((i) => row[i] ?? null),
        ),
        row,
      );
  }
  return out;
}

/** One key's rows at both commits as a diff row; null when unchanged, undefined when that cannot be told (binary cells only). */
function diffRow(
  input: KeyedTable,
  key: readonly Cell[],
  old: readonly Cell[] | undefined,
  now: readonly Cell[] | undefined,
): RowDiff | null | undefined {
  if (!old && !now) return null;
  const kind = !old ? 'added' : !now ? 'removed' : 'modified';
  let changedAny = false;
  let blind = false;
  const cells = input.columns.map((c, i) => {
    const o = old?.[i];
    const n = now?.[i];
    const comparable = !(o === BINARY_CELL && n === BINARY_CELL);
    const changed = kind !== 'modified' || (comparable && o !== n);
    changedAny ||= changed;
    blind ||= !comparable;
    return {
      column: c.name,
      presence: 'both' as const,
      ...(old ? { old: o ?? null } : {}),
      ...(now ? { new: n ?? null } : {}),
      changed,
      comparable,
    };
  });
  if (!changedAny) return blind ? undefined : null;
  return { kind, key: [...key], cells };
}

/**
 * What the table's diff `from` → `to` holds for the change set's keys (the rows it edits, adds
 * or deletes), read by key at both commits. Undefined when a row's change cannot be told from
 * its text (only binary cells could differ): read the diff itself then.
 */
export async function readKeyedDiff(
  run: ReviewRunner,
  input: ProposalInput,
  commits: { readonly from: string; readonly to: string },
  signal?: AbortSignal,
): Promise<RowDiff[] | undefined> {
  if (input.keyColumns.length === 0) return undefined;
  const keys = [...expectedRows(input).values()].map((e) => e.key);
  if (keys.length === 0) return [];
  const keyColumns = keyColumnsOf(input);
  const before = await readRowsByKey(run, commits.from, input, keys, signal);
  const after = await readRowsByKey(run, commits.to, input, keys, signal);
  const out: RowDiff[] = [];
  for (const key of keys) {
    const text = keyText(keyColumns, key);
    const row = diffRow(input, key, before.get(text), after.get(text));
    if (row === undefined) return undefined;
    if (row) out.push(row);
  }
  return out;
}
