// Where the grid's rows come from, apart from how they are drawn. A row source is either one
// whole response (every row in memory, sorted and filtered in the grid) or pages fetched on
// demand through the host (pagedRowSource.ts). The view asks only for the rows on screen and
// draws what is not loaded yet as a placeholder, and what failed with its error and Retry.
import type { Cell, QueryColumn } from '../shared/wire';
import type { RowKind } from '../shared/gridPaging';
import type { CellProblem } from '../shared/editProtocol';
import type { CellTable } from '../shared/columnStore';

export type RowState = 'ready' | 'pending' | 'failed';

/** Rows [start, end) that have just arrived (a page), as a source's listeners are told. */
export interface RowSpan {
  start: number;
  end: number;
}

export interface RowSource {
  readonly columns: readonly QueryColumn[];
  /** Rows the grid lays out: the total when known, else those seen so far plus one page more. */
  readonly rowCount: number;
  /** True once the source knows exactly how many rows there are. */
  readonly totalKnown: boolean;
  /** True when every row is in memory (sort, filter and copy run in the grid). */
  readonly local: boolean;
  rowState(row: number): RowState;
  /** The cell of a ready row; NULL otherwise (check `rowState`). */
  cell(row: number, col: number): Cell;
  /** What the row is in a diff, when the source is one. */
  rowKind(row: number): RowKind | undefined;
  /** The value before the change, for a modified row's changed cells; undefined otherwise. */
  oldCell(row: number, col: number): Cell | undefined;
  /** Why a failed row could not be read. */
  failure(row: number): string | undefined;
  /** An editable source (issue #23): a changed cell shows its new value, the old one in its tooltip. */
  readonly editable?: boolean;
  /** What is wrong with the row's edited values (column -1: the row as a whole). */
  problems?(row: number): readonly CellProblem[];
  /** The row's label in the gutter (default: its position, from 1). */
  rowLabel?(row: number): string;
  /** Comments on the cell (`col`), or on the row when `col` is a key column (a pull's diff, issue #25). */
  comments?(row: number, col: number): number;
  /** True when every row in [first, last] is loaded (a paged source); absent: always. */
  isLoaded?(first: number, last: number): boolean;
  /** The rows on screen (inclusive): a paged source fetches around them and lets go of the rest. */
  showing(first: number, last: number): void;
  /** Reads a failed row's page again. */
  retry(row: number): void;
  /**
   * Calls back whenever rows arrive (with the rows that did), fail or the row count changes;
   * returns an unsubscribe.
   */
  subscribe(listener: (arrived?: RowSpan) => void): () => void;
  dispose(): void;
}

/** One whole response: every row ready, read from a CellTable the grid may swap for a compact one. */
export class WholeResultSource implements RowSource {
  readonly local = true;
  readonly totalKnown = true;

  constructor(
    readonly columns: readonly QueryColumn[],
    private table: CellTable,
  ) {}

  get data(): CellTable {
    return this.table;
  }

  /** Swaps in another representation of the same cells (the compact store once built). */
  replaceData(table: CellTable): void {
    if (table.rowCount !== this.table.rowCount || table.columnCount < this.columns.length) {
      throw new Error(
        `replaceData: expected ${this.table.rowCount} × ${this.columns.length} cells, got ${table.rowCount} × ${table.columnCount}`,
      );
    }
    this.table = table;
  }

  get rowCount(): number {
    return this.table.rowCount;
  }

  rowState(): RowState {
    return 'ready';
  }

  cell(row: number, col: number): Cell {
    return this.table.cell(row, col);
  }

  rowKind(): RowKind | undefined {
    return undefined;
  }

  oldCell(): Cell | undefined {
    return undefined;
  }

  failure(): string | undefined {
    return undefined;
  }

  showing(): void {
    // Everything is here already.
  }

  retry(): void {
    // Nothing can fail.
  }

  subscribe(): () => void {
    return () => undefined;
  }

  dispose(): void {
    // Nothing held outside the table.
  }
}
