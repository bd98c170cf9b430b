// What a change set sends when it is proposed (issue #23): the files of the two imports onto the
// new branch, and the words the pull request starts with. Pure: the propose command
// (src/commands/proposeChanges.ts) uploads them.
//
// - Upserts (every changed and every new row, whole) go as an `update` import of a JSON file
//   `{"rows": [{column: value}, ...]}`: JSON keeps NULL apart from the empty string, and text
//   exactly as typed (leading zeros, numbers past 2^53, long decimals travel as strings). The
//   branch is made at the change set's base commit, so a whole row's unchanged cells are the
//   values already there. Binary columns are left out of the file: the API shows them only as
//   `<binary>`, and an `update` import leaves the columns a file does not name as they are.
// - Deletes go as a `sql` import of `DELETE FROM t WHERE <key> = <value> ...;`, one statement per
//   row, names and values quoted by src/core/sql/quote.ts (the service runs an uploaded SQL file
//   against the branch; the local hub runs it confined to the named table).
import type { Cell, QueryColumn } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { quoteIdentifier, sqlValue } from '../sql/quote';
import { columnClass } from '../sql/tableQuery';
import type { ChangeSetScope } from './changeSetScope';
import * as l10n from '../../shared/l10n';

/** What proposing reads of a change set (the change set model's snapshot has these fields). */
export interface ProposalInput {
  readonly scope: ChangeSetScope;
  readonly columns: readonly QueryColumn[];
  readonly keyColumns: readonly number[];
  readonly updated: readonly { readonly before: readonly Cell[]; readonly after: readonly Cell[] }[];
  readonly inserted: readonly (readonly Cell[])[];
  readonly deleted: readonly (readonly Cell[])[];
  readonly problems: readonly unknown[];
}

export interface ProposalCounts {
  readonly changed: number;
  readonly added: number;
  readonly deleted: number;
}

export function proposalCounts(input: Pick<ProposalInput, 'updated' | 'inserted' | 'deleted'>): ProposalCounts {
  return { changed: input.updated.length, added: input.inserted.length, deleted: input.deleted.length };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "2 rows changed, 1 added, 1 deleted" (only the kinds there are). */
export function describeCounts(c: ProposalCounts): string {
  const parts = [
    c.changed ? `${plural(c.changed, 'row')} changed` : '',
    c.added ? `${c.changed ? c.added.toLocaleString('en-US') : plural(c.added, 'row')} added` : '',
    c.deleted ? `${c.changed || c.added ? c.deleted.toLocaleString('en-US') : plural(c.deleted, 'row')} deleted` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no changes';
}

/** True when the column's cells come back as `<binary>` and so cannot be sent again. */
export function isBinaryColumn(c: QueryColumn): boolean {
  return /\b(blob|binary|varbinary|tinyblob|mediumblob|longblob|geometry|point|linestring|polygon)\b/i.test(c.type);
}

/** The rows the upsert file holds: changed rows (whole, as edited) then new rows; binary columns left out. */
export function upsertRows(input: ProposalInput): { columns: string[]; rows: Cell[][] } {
  const keep = input.columns.map((c, i) => ({ c, i })).filter(({ c }) => !isBinaryColumn(c));
  const pick = (row: readonly Cell[]): Cell[] => keep.map(({ i }) => row[i] ?? null);
  return { columns: keep.map(({ c }) => c.name), rows: [...input.updated.map((u) => pick(u.after)), ...input.inserted.map(pick)] };
}

/** The `update` import's JSON file, or undefined when nothing is upserted. */
export function upsertJson(input: ProposalInput): Uint8Array | undefined {
  const { columns, rows } = upsertRows(input);
  if (rows.length === 0) return undefined;
  const lines = rows.map((row) => {
    if (row.some((v) => v === BINARY_CELL)) throw new Error('A binary value cannot be sent back; binary columns are left out of the file.');
    return JSON.stringify(Object.fromEntries(columns.map((name, i) => [name, row[i] ?? null])));
  });
  return new TextEncoder().encode(`{"rows": [\n${lines.join(',\n')}\n]}\n`);
}

/** The key of a whole row, in key order. */
export function keyOf(input: Pick<ProposalInput, 'keyColumns'>, row: readonly Cell[]): Cell[] {
  return input.keyColumns.map((i) => row[i] ?? null);
}

/** `k = v AND …` for one row's key, values typed as their columns are (exact numbers bare). */
export function keyCondition(input: Pick<ProposalInput, 'columns' | 'keyColumns'>, key: readonly Cell[]): string {
  if (input.keyColumns.length === 0) throw new Error('Rows of a table without a primary key cannot be matched.');
  return input.keyColumns
    .map((ci, j) => {
      const column = input.columns[ci];
      if (!column) throw new Error(`Key column ${ci} is not a column of the table.`);
      const v = key[j] ?? null;
      if (v === null) throw new Error(`The key column ${column.name} cannot be NULL.`);
      const cls = columnClass(column.type);
      return `${quoteIdentifier(column.name)} = ${sqlValue(v, cls === 'integer' || cls === 'decimal')}`;
    })
    .join(' AND ');
}

/** The `sql` import's file: one DELETE per deleted row, or undefined when nothing is deleted. */
export function deleteSql(input: ProposalInput): Uint8Array | undefined {
  if (input.deleted.length === 0) return undefined;
  const table = quoteIdentifier(input.scope.table);
  const statements = input.deleted.map((row) => `DELETE FROM ${table} WHERE ${keyCondition(input, keyOf(input, row))};`);
  return new TextEncoder().encode(`${statements.join('\n')}\n`);
}

/** A branch name for the proposal: `edit/<table>-<yyyymmdd-hhmm>`, with a number when that is taken. */
export function suggestedBranchName(table: string, now: Date, taken: ReadonlySet<string>): string {
  const safe = table.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'table';
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
  const base = `edit/${safe}-${stamp}`;
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** The pull request's title and description as first offered. */
export function defaultPullText(input: ProposalInput): { title: string; description: string } {
  const counts = proposalCounts(input);
  const { table, branch, baseCommit } = input.scope;
  return {
    title: l10n.t('Edit {0}: {1}', table, describeCounts(counts)),
    description: [
      `Edits to \`${table}\` made in the table browser, based on \`${branch}\` at \`${baseCommit.slice(0, 8)}\`:`,
      '',
      `- ${plural(counts.changed, 'row')} changed`,
      `- ${plural(counts.added, 'row')} added`,
      `- ${plural(counts.deleted, 'row')} deleted`,
    ].join('\n'),
  };
}
