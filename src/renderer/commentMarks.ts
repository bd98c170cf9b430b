// Comment counts on the rows and cells of a pull's diff grid (issue #25): the marks the host sends
// with the paged output, looked up by the row's key values. A key column's cell carries the count
// of comments on the whole row; another cell the count on that cell.
import type { Cell } from '../shared/wire';
import type { PagedOutput } from '../shared/gridPaging';

/** `(row, col) → count` for an output with marks, or undefined. `cell` reads a loaded cell. */
export function commentCounter(
  content: PagedOutput,
  cell: (row: number, col: number) => Cell,
): ((row: number, col: number) => number) | undefined {
  const rowsOf = content.rowsOf;
  const marks = content.commentMarks;
  if (!rowsOf || !marks || marks.length === 0) return undefined;
  const counts = new Map(marks.map((m) => [JSON.stringify([m.key, m.column ?? null]), m.count]));
  return (row, col) => {
    const key = rowsOf.keyColumns.map((c) => cell(row, c));
    const column = rowsOf.keyColumns.includes(col) ? null : (content.columns[col]?.name ?? null);
    return counts.get(JSON.stringify([key, column])) ?? 0;
  };
}
