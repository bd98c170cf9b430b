// A change set as plain rows (`ChangeSetSnapshot`), what the Changes view shows and Propose
// Changes sends: updates with their rows before and after, inserts (new rows, then rows whose key
// was edited), deletes as the rows were at the base commit, and every problem, located by key or by
// position among the inserts.
import type { Cell, QueryColumn } from '../../shared/wire';
import type { ChangeSetScope } from './changeSetScope';
import { afterRow, baseRef, newRef, type ChangeRows } from './changeRows';
import type { TableShape } from './tableShape';

/** The change set as plain rows: what the Changes view shows and Propose Changes sends. */
export interface ChangeSetSnapshot {
  scope: ChangeSetScope;
  /** The table's columns at the base commit. */
  columns: QueryColumn[];
  /** Indexes into columns of the primary key, in key order. */
  keyColumns: number[];
  /** Per column: whether NULL is allowed. */
  nullable: boolean[];
  /** Whole rows; a row whose key cells were edited is a delete + an insert instead. */
  updated: { before: Cell[]; after: Cell[] }[];
  /** Whole rows: the new rows top first, then the re-keyed rows. */
  inserted: Cell[][];
  /** Whole rows as they were at the base commit. */
  deleted: Cell[][];
  /** What keeps it from being proposed (proposable only when empty): `key` of a table row, or `row` an index into `inserted`. */
  problems: { key?: Cell[]; row?: number; column?: string; message: string }[];
}

export function snapshotOf(scope: ChangeSetScope, shape: TableShape, rows: ChangeRows): ChangeSetSnapshot {
  const updated: ChangeSetSnapshot['updated'] = [];
  const inserted: Cell[][] = rows.order.map((id) => (rows.newRows.get(id) ?? []).slice());
  const deleted: Cell[][] = [];
  const problems: ChangeSetSnapshot['problems'] = [];
  const columnName = (c: number): { column?: string } => (c >= 0 && shape.columns[c] ? { column: shape.columns[c].name } : {});
  rows.order.forEach((id, row) => {
    for (const p of rows.problems.get(newRef(id)) ?? []) problems.push({ row, ...columnName(p.column), message: p.message });
  });
  for (const [id, e] of rows.base) {
    for (const p of rows.problems.get(baseRef(id)) ?? [])
      problems.push({ key: e.key.slice(), ...columnName(p.column), message: p.message });
    if (e.deleted) deleted.push(e.before.slice());
    else if (rows.newKeyOf(e)) {
      deleted.push(e.before.slice());
      inserted.push(afterRow(e));
    } else updated.push({ before: e.before.slice(), after: afterRow(e) });
  }
  return {
    scope: { ...scope },
    columns: shape.columns.map((c) => ({ ...c })),
    keyColumns: shape.keyColumns.slice(),
    nullable: shape.nullable.slice(),
    updated,
    inserted,
    deleted,
    problems,
  };
}
