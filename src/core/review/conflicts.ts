// The rows a merge would put in conflict, from buildConflictRowsQuery
// (DOLT_PREVIEW_MERGE_CONFLICTS). Dolt's conflict schema: `from_root_ish`, then `base_<c>` for
// every column of the merge base, `our_<c>` for ours, `our_diff_type`, `their_<c>` for theirs,
// `their_diff_type`, `dolt_conflict_id` and, for keyless tables, `base_/our_/their_cardinality`.
// The table's columns are read off those names, so a column only one side has shows as absent on
// the others.
import type { Cell, QueryResult } from '../../shared/wire';
import type { RowDiffKind } from './doltQueries';
import { ROW_DIFF_KINDS } from './doltQueries';
import { ReviewResultError, cellAt, completenessOf, findColumn, pageRows, type Completeness } from './resultReader';

const META = new Set([
  'from_root_ish',
  'our_diff_type',
  'their_diff_type',
  'dolt_conflict_id',
  'base_cardinality',
  'our_cardinality',
  'their_cardinality',
]);
const SIDES = ['base', 'our', 'their'] as const;
type Side = (typeof SIDES)[number];

export interface ConflictRow {
  id: string | null;
  /** Values in `columns` order; undefined where that side has no such column. */
  base: (Cell | undefined)[];
  ours: (Cell | undefined)[];
  theirs: (Cell | undefined)[];
  /** How ours and theirs changed the row since the base (null when Dolt says nothing). */
  ourChange: RowDiffKind | null;
  theirChange: RowDiffKind | null;
  /** Per column: ours and theirs disagree. */
  differs: boolean[];
}

export interface ConflictPage {
  columns: string[];
  rows: ConflictRow[];
  hasMore: boolean;
  completeness: Completeness;
}

function changeKind(v: Cell, what: string): RowDiffKind | null {
  if (v === null || v === '') return null;
  if (!ROW_DIFF_KINDS.includes(v as RowDiffKind)) throw new ReviewResultError(`Unknown ${what} ${JSON.stringify(v)}.`);
  return v as RowDiffKind;
}

/** A page of conflict rows (asked for pageSize + 1). */
export function parseConflictPage(result: QueryResult, pageSize: number): ConflictPage {
  const completeness = completenessOf(result);
  const columns: string[] = [];
  const index: Record<Side, Map<string, number>> = { base: new Map(), our: new Map(), their: new Map() };
  result.columns.forEach((c, i) => {
    if (META.has(c.name)) return;
    const side = SIDES.find((s) => c.name.startsWith(`${s}_`));
    if (!side) return;
    const name = c.name.slice(side.length + 1);
    index[side].set(name, i);
    if (!columns.includes(name)) columns.push(name);
  });
  if (columns.length === 0) throw new ReviewResultError('The conflict result has no base_, our_ or their_ columns.');
  const idI = findColumn(result, 'dolt_conflict_id');
  const ourKindI = findColumn(result, 'our_diff_type');
  const theirKindI = findColumn(result, 'their_diff_type');
  const { rows, hasMore } = pageRows(result, pageSize);
  const values = (row: readonly Cell[], side: Side): (Cell | undefined)[] =>
    columns.map((name) => {
      const i = index[side].get(name);
      return i === undefined ? undefined : cellAt(row, i);
    });
  const out = rows.map((row): ConflictRow => {
    const ours = values(row, 'our');
    const theirs = values(row, 'their');
    return {
      id: idI < 0 ? null : cellAt(row, idI),
      base: values(row, 'base'),
      ours,
      theirs,
      ourChange: ourKindI < 0 ? null : changeKind(cellAt(row, ourKindI), 'kind of change on our side'),
      theirChange: theirKindI < 0 ? null : changeKind(cellAt(row, theirKindI), 'kind of change on their side'),
      differs: columns.map((_, i) => ours[i] !== theirs[i]),
    };
  });
  return { columns, rows: out, hasMore, completeness };
}
