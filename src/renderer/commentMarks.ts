// Comment counts on the rows and cells of a pull's diff grid (issue #25): the marks the host sends
// with the paged output, looked up by the row's key values. A key column's cell carries the count
// of comments on the whole row; another cell the count on that cell.
import type { Cell } from '../shared/wire';
import type { CommentMark, PagedOutput } from '../shared/gridPaging';

/**
 * `(row, col) → count` for an output whose rows take comments, or undefined. `cell` reads a loaded
 * cell. The marks are read from `content` as they are now: a `page.marks` message replaces them.
 */
export function commentCounter(
  content: PagedOutput,
  cell: (row: number, col: number) => Cell,
): ((row: number, col: number) => number) | undefined {
  const rowsOf = content.rowsOf;
  if (!rowsOf || (!content.rowComments && !content.commentMarks?.length)) return undefined;
  let seen: CommentMark[] | undefined;
  let counts = new Map<string, number>();
  return (row, col) => {
    const marks = content.commentMarks;
    if (!marks || marks.length === 0) return 0;
    if (marks !== seen) {
      seen = marks;
      counts = new Map(marks.map((m) => [JSON.stringify([m.key, m.column ?? null]), m.count]));
    }
    const key = rowsOf.keyColumns.map((c) => cell(row, c));
    const column = rowsOf.keyColumns.includes(col) ? null : (content.columns[col]?.name ?? null);
    return counts.get(JSON.stringify([key, column])) ?? 0;
  };
}
