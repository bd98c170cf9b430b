// Whether the table browser may edit a table, and if not, the reason it says (issue #23).
//
// Editing happens only where a change set can be proposed and its rows matched exactly:
// - at a branch: a tag or a commit cannot move, so there is nothing to propose changes into;
// - a table, not a view;
// - with a primary key of exact types. Keyless tables are read-only, with no adding of rows
//   either: an `update` import upserts by primary key, so without one the server could not tell an
//   edited row from a new one, nor find the row to delete, and the pull request's diff of a keyless
//   table shows every change as a delete plus an add. Offering only "add rows" would send rows
//   whose effect nobody could review or check; saying so is more honest. A float or bytes key is
//   refused for the same reason: its values do not print exactly, so a row could not be found by
//   them again.
import type { GridEditing } from '../../shared/editProtocol';
import { parseColumnType } from '../../shared/columnType';
import type { TableKind } from '../sql/tableCatalog';
import type { TableColumnInfo } from '../sql/tableQuery';

export type RefKind = 'branch' | 'tag' | 'commit' | 'unknown';

export interface EditabilityInput {
  ref: string;
  refKind: RefKind;
  table: string;
  tableKind: TableKind;
  /** The columns in the grid's order (keys first). */
  columns: readonly TableColumnInfo[];
}

function readOnlyReason(i: EditabilityInput, keyColumns: readonly number[]): string | undefined {
  switch (i.refKind) {
    case 'tag':
      return `Read-only: ${i.ref} is a tag. Open the table at a branch to edit it; your changes are proposed as a pull request into that branch.`;
    case 'commit':
      return 'Read-only: the table is shown at a commit. Open it at a branch to edit it; your changes are proposed as a pull request into that branch.';
    case 'unknown':
      return `Read-only: ${i.ref} could not be found as a branch, so there is nothing to propose changes into.`;
    case 'branch':
      break;
  }
  if (i.tableKind === 'view') return `Read-only: ${i.table} is a view; edit the tables it reads from.`;
  if (keyColumns.length === 0)
    return `Read-only: ${i.table} has no primary key, so an edited row could not be matched to its row on the server, nor a deleted one found. Add a primary key to edit it here.`;
  const inexact = keyColumns.map((k) => i.columns[k]).find((c) => c && ['float', 'binary'].includes(parseColumnType(c.type).kind));
  if (inexact)
    return `Read-only: the primary key column ${inexact.name} has a type (${inexact.type}) whose values do not print exactly, so rows could not be matched by it.`;
  return undefined;
}

/** What the grid is told about editing the table (`PagedOutput.edit`). */
export function tableEditability(i: EditabilityInput): GridEditing {
  const keyColumns = i.columns.flatMap((c, n) => (c.primaryKey ? [n] : []));
  const locked = i.columns.map((c) =>
    parseColumnType(c.type).kind === 'binary' ? `${c.name} (${c.type}) holds bytes, which cannot be edited here.` : null,
  );
  const nullable = i.columns.map((c) => !c.primaryKey && c.nullable !== false);
  const reason = readOnlyReason(i, keyColumns);
  return { keyColumns, locked, nullable, ...(reason ? { readOnly: reason } : {}) };
}
