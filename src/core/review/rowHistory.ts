// One row through time (Show Row History) and who last changed a cell (blame), from
// buildRowHistoryQuery (dolt_history_<t>) and buildRowBlameQuery (dolt_blame_<t>).
//
// dolt_history_<t> holds the row once for every commit that has it, changed or not. Read newest
// first, runs of identical values are one version, and the commit that introduced a version is
// the oldest of its run. The order is the commit graph's (dolt_log's commit_order: a commit after
// all its parents), so commits made in the same second keep their order; on a history with merges,
// commits of the same height on two sides follow date; a row deleted and added again shows as one
// run per stretch.
import type { Cell, QueryResult } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { SHORT_HASH_LENGTH } from '../commitHash';
import type { TableColumnInfo } from '../sql/tableQuery';
import { ReviewResultError, cellAt, completenessOf, doltTimeToMillis, requireColumn, textAt, type Completeness } from './resultReader';

export interface RowVersion {
  /** The commit that introduced this version (the oldest commit of its run). */
  commit: string;
  shortCommit: string;
  committer: string;
  date: string;
  time: number | undefined;
  /** The row's cells in `columns` order. */
  cells: Cell[];
  /** Per cell: differs from the version before (always false for the oldest version read). */
  changed: boolean[];
  /**
   * False only for the oldest version read when the history was cut short: that version may have
   * been introduced by an older commit than `commit`.
   */
  exact: boolean;
}

export interface RowHistory {
  columns: string[];
  /** Newest first. */
  versions: RowVersion[];
  /** The query hit its limit or the server cut it: older commits were not read. */
  truncated: boolean;
  completeness: Completeness;
}

function sameCells(a: readonly Cell[], b: readonly Cell[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The versions of a row from buildRowHistoryQuery with the same columns and limit. */
export function parseRowHistory(result: QueryResult, columns: readonly TableColumnInfo[], limit: number): RowHistory {
  const completeness = completenessOf(result);
  const colI = columns.map((c) => requireColumn(result, c.name, 'row history'));
  const commitI = requireColumn(result, 'commit_hash', 'row history');
  const committerI = requireColumn(result, 'committer', 'row history');
  const dateI = requireColumn(result, 'commit_date', 'row history');
  const truncated = result.rows.length > limit || !completeness.complete;
  const rows = result.rows.slice(0, limit);
  // Runs of identical values, newest first; each run keeps its oldest row.
  const runs: { cells: Cell[]; oldest: Cell[] }[] = [];
  for (const row of rows) {
    const cells = colI.map((i) => cellAt(row, i));
    const last = runs[runs.length - 1];
    if (last && sameCells(last.cells, cells)) last.oldest = row;
    else runs.push({ cells, oldest: row });
  }
  const versions = runs.map((run, k): RowVersion => {
    const older = runs[k + 1];
    const commit = textAt(run.oldest, commitI, 'commit hash');
    const date = cellAt(run.oldest, dateI) ?? '';
    return {
      commit,
      shortCommit: commit.slice(0, SHORT_HASH_LENGTH),
      committer: cellAt(run.oldest, committerI) ?? '',
      date,
      time: doltTimeToMillis(date),
      cells: run.cells,
      // A `<binary>` cell compares equal to any other: a change inside a BLOB is not marked.
      changed: run.cells.map((v, i) => (older ? v !== older.cells[i] : false)),
      exact: older !== undefined || !truncated,
    };
  });
  return { columns: columns.map((c) => c.name), versions, truncated, completeness };
}

export interface CellBlame {
  commit: string;
  shortCommit: string;
  committer: string;
  date: string;
  time: number | undefined;
  /** The value the cell got in that commit (the value it has now). */
  value: Cell;
  /**
   * False when the cell never changed in the versions read and the history was cut short: the
   * change happened in `commit` or before it.
   */
  exact: boolean;
  /** The value is a BLOB shown as `<binary>`: changes inside it are not visible here. */
  binary: boolean;
}

/** Who last changed `column` of the row, and when, from its history. */
export function cellBlame(history: RowHistory, column: string): CellBlame | undefined {
  const i = history.columns.indexOf(column);
  if (i < 0) throw new ReviewResultError(`The row history has no column ${column}.`);
  const versions = history.versions;
  if (versions.length === 0) return undefined;
  const found = versions.find((v) => v.changed[i]) ?? (versions[versions.length - 1] as RowVersion);
  const value = found.cells[i] ?? null;
  return {
    commit: found.commit,
    shortCommit: found.shortCommit,
    committer: found.committer,
    date: found.date,
    time: found.time,
    value,
    exact: found.changed[i] === true || found.exact,
    binary: value === BINARY_CELL,
  };
}

export interface RowBlame {
  commit: string;
  shortCommit: string;
  committer: string;
  email: string;
  date: string;
  time: number | undefined;
  message: string;
}

/** The last commit that changed a row (buildRowBlameQuery), or undefined when the row is not there. */
export function parseRowBlame(result: QueryResult): RowBlame | undefined {
  completenessOf(result);
  const col = (n: string): number => requireColumn(result, n, 'blame');
  const [commitI, dateI, committerI, emailI, messageI] = ['commit', 'commit_date', 'committer', 'email', 'message'].map(col) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const row = result.rows[0];
  if (!row) return undefined;
  const commit = textAt(row, commitI, 'commit hash');
  const date = cellAt(row, dateI) ?? '';
  return {
    commit,
    shortCommit: commit.slice(0, SHORT_HASH_LENGTH),
    committer: cellAt(row, committerI) ?? '',
    email: cellAt(row, emailI) ?? '',
    date,
    time: doltTimeToMillis(date),
    message: cellAt(row, messageI) ?? '',
  };
}
