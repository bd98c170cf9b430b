// Show Row History (issue #15), without vscode: read every version of one row at a ref pinned to
// its commit, and say who last changed the cell the user asked about; then lay the versions out
// for the paged grid (commit, author, date, then the row's cells; each version's cells that
// changed drawn old → new). The queries are doltQueries.ts's, the parsing rowHistory.ts's.
import type { Cell, QueryColumn } from '../../shared/wire';
import type { PagedOutput, RowKind } from '../../shared/gridPaging';
import type { RowHistoryRequest } from './requests';
import { SqlInputError } from '../sql/quote';
import type { TableColumnInfo } from '../sql/tableQuery';
import { buildColumnsQuery, buildHashOfQuery, buildRowHistoryQuery } from './doltQueries';
import { parseHashOf } from './commitLog';
import { parseColumns } from './rowDiff';
import { cellBlame, parseRowHistory, type CellBlame, type RowHistory } from './rowHistory';
import { isCommitHashText } from './revisions';
import type { ReviewRunner } from '../sql/sqlPort';

/** Versions read at most; more and the view says older ones were not read. */
export const ROW_HISTORY_LIMIT = 1000;

export interface LoadedRowHistory {
  /** The commit the ref pointed at when the view opened; everything was read there. */
  commit: string;
  columns: TableColumnInfo[];
  /** The key values in primary-key column order. */
  key: Cell[];
  history: RowHistory;
  blame?: { column: string; blame: CellBlame | undefined };
}

/** The key values in the table's primary-key order, from `{ column: value }`; a clear error when one is missing or extra. */
export function orderedKey(columns: readonly TableColumnInfo[], key: Record<string, Cell>, table: string): Cell[] {
  const keyCols = columns.filter((c) => c.primaryKey).map((c) => c.name);
  if (keyCols.length === 0) throw new SqlInputError(`${table} has no primary key, so one row cannot be followed through its history.`);
  const missing = keyCols.filter((c) => !(c in key));
  if (missing.length)
    throw new SqlInputError(`The row's key needs a value for ${missing.join(', ')} (${table}'s primary key is ${keyCols.join(', ')}).`);
  const extra = Object.keys(key).filter((c) => !keyCols.includes(c));
  if (extra.length)
    throw new SqlInputError(
      `${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} not part of ${table}'s primary key (${keyCols.join(', ')}).`,
    );
  return keyCols.map((c) => key[c] as Cell);
}

export async function loadRowHistory(
  run: ReviewRunner,
  req: { ref: string; table: string; key: Record<string, Cell>; column?: string },
  opts: { signal?: AbortSignal; limit?: number } = {},
): Promise<LoadedRowHistory> {
  const limit = opts.limit ?? ROW_HISTORY_LIMIT;
  const signal = opts.signal;
  const commit = isCommitHashText(req.ref) ? req.ref : parseHashOf(await run(buildHashOfQuery(req.ref), { signal }));
  const columns = parseColumns(await run(buildColumnsQuery(req.table, commit), { signal }));
  if (columns.length === 0) throw new SqlInputError(`The table ${req.table} has no columns at ${req.ref}.`);
  if (req.column !== undefined && !columns.some((c) => c.name === req.column))
    throw new SqlInputError(`${req.table} has no column ${req.column}.`);
  const key = orderedKey(columns, req.key, req.table);
  const history = parseRowHistory(
    await run(buildRowHistoryQuery(commit, req.table, columns, key, limit), { signal, limit: limit + 1 }),
    columns,
    limit,
  );
  return {
    commit,
    columns,
    key,
    history,
    ...(req.column !== undefined ? { blame: { column: req.column, blame: cellBlame(history, req.column) } } : {}),
  };
}

export const ROW_HISTORY_META = ['commit', 'author', 'date'] as const;

/** The versions as grid rows: commit, author, date, then the cells; old values where a version changed cells. */
export function rowHistoryGrid(loaded: LoadedRowHistory): {
  columns: QueryColumn[];
  rows: Cell[][];
  kinds: (RowKind | null)[];
  old: (Cell[] | null)[];
} {
  const columns: QueryColumn[] = [
    { name: 'commit', type: 'text' },
    { name: 'author', type: 'text' },
    { name: 'date', type: 'datetime' },
    ...loaded.columns.map((c) => ({ name: c.name, type: c.type, ...(c.primaryKey ? { is_primary_key: true } : {}) })),
  ];
  const versions = loaded.history.versions;
  const rows = versions.map((v) => [v.shortCommit, v.committer, v.date, ...v.cells]);
  // The oldest version read is where the row appears (when the history was read whole).
  const kinds = versions.map((v, i): RowKind | null =>
    i + 1 < versions.length ? (v.changed.some(Boolean) ? 'modified' : null) : v.exact ? 'added' : null,
  );
  const old = versions.map((v, i) => {
    const older = versions[i + 1];
    return older ? [v.shortCommit, v.committer, v.date, ...older.cells] : null;
  });
  return { columns, rows, kinds, old };
}

/** What the view says above the grid: the cell's last change, and whether older versions were not read. */
export function rowHistoryNote(loaded: LoadedRowHistory, relative: (time: number | undefined) => string | undefined): string {
  const parts: string[] = [];
  const n = loaded.history.versions.length;
  parts.push(
    n === 0
      ? 'This row is not in any commit of this ref.'
      : `${n} ${n === 1 ? 'version' : 'versions'}, newest first; changed cells show old → new.`,
  );
  if (loaded.blame) {
    const { column, blame } = loaded.blame;
    if (!blame) parts.push(`${column}: no version to blame.`);
    else {
      const when = relative(blame.time) ?? blame.date;
      const cert = blame.exact ? '' : ' or earlier (older commits were not read)';
      const bin = blame.binary ? ' (a binary value: changes inside it are not visible)' : '';
      parts.push(`${column} last changed in ${blame.shortCommit}${cert} by ${blame.committer}, ${when}${bin}.`);
    }
  }
  const c = loaded.history.completeness;
  if (!c.complete)
    parts.push(
      `The server sent only part of the history (${c.reason === 'timeout' ? 'timed out' : 'row limit'}): older versions are missing.`,
    );
  else if (loaded.history.truncated) parts.push(`Only the newest ${ROW_HISTORY_LIMIT} commits were read: older versions are missing.`);
  return parts.join(' ');
}

/**
 * The Show Row History request for a grid row of a `rowsOf` output (what the grid's `row.history`
 * message names): the row's key by column name, read at the commit the grid shows. Undefined
 * when the output has no `rowsOf` or the key does not fit it.
 */
export function rowHistoryRequestFromGrid(output: PagedOutput, key: readonly Cell[], column?: string): RowHistoryRequest | undefined {
  const of = output.rowsOf;
  if (!of || key.length !== of.keyColumns.length) return undefined;
  const names = of.keyColumns.map((c) => output.columns[c]?.name);
  if (names.some((n) => n === undefined)) return undefined;
  return {
    target: { hostId: output.target.hostId, db: { owner: output.target.owner, name: output.target.name } },
    ref: output.commit,
    table: of.table,
    key: Object.fromEntries(names.map((n, i) => [n as string, key[i] as Cell])),
    ...(column !== undefined ? { column } : {}),
  };
}
