// How much of a query result the hub will hold and send. Cells are counted as they are stepped,
// so a result that would pass the budget stops early (status row_limit) instead of growing the
// worker, the main thread and the response; a single value larger than SQLite's length limit on
// the connection fails the query before it is built. Both messages name the limit and its option.
import type { Cell } from '../shared/wire';

/** Bytes a cell adds to the JSON response besides its text: quotes and a comma. */
export const CELL_OVERHEAD = 3;

export class ResultBudget {
  private used = 2;

  constructor(readonly maxBytes: number) {}

  /** Counts a row; false when it would take the result past the budget (the row is not counted). */
  admit(row: readonly Cell[]): boolean {
    let bytes = 2;
    for (const c of row) bytes += (typeof c === 'string' ? c.length : 4) + CELL_OVERHEAD;
    return this.admitBytes(bytes);
  }

  /** Counts a row of `bytes` as `admit` counts them; false past the budget. */
  admitBytes(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) return false;
    this.used += bytes;
    return true;
  }

  message(rows: number): string {
    return `The result is larger than the hub's limit of ${formatBytes(this.maxBytes)} per response (--max-result-bytes); only the first ${rows} rows are returned. Select fewer rows or columns.`;
  }
}

export function valueTooLargeMessage(maxValueBytes: number): string {
  return `A value in this query is larger than the hub's limit of ${formatBytes(maxValueBytes)} per value (--max-value-bytes).`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
