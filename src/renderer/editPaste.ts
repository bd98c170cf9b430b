// Where a pasted block of cells goes (issue #23): from the selection's top-left cell, row by row in
// the grid's order. One value pasted into a larger selection fills it. At a new row, pasted rows
// past the last new row become new rows (pasting a sheet's rows in); on the table's rows the block
// must stay on loaded rows that are not deleted, and every column it covers must be editable.
import type { Cell } from '../shared/wire';
import type { CellEdit, EditRequest } from '../shared/editProtocol';
import type { CellRange } from './gridModel';
import type { EditedRowSource } from './editedRowSource';

export interface PastePlan {
  request: EditRequest;
  /** The cells the block covers in the grid (new rows it adds excluded). */
  range: CellRange;
  /** Rows the paste adds. */
  added: number;
}

/** The request that pastes `block` at `at` (the selection), or a message saying why it cannot. */
export function planPaste(
  block: readonly Cell[][],
  at: CellRange,
  src: EditedRowSource,
  columnCount: number,
  locked: readonly (string | null)[],
): PastePlan | { error: string } {
  if (block.length === 0) return { error: 'The clipboard holds no cells to paste.' };
  const single = block.length === 1 && block[0]?.length === 1;
  const fill = single && (at.bottom > at.top || at.right > at.left);
  const height = fill ? at.bottom - at.top + 1 : block.length;
  const width = fill ? at.right - at.left + 1 : (block[0]?.length ?? 0);
  if (at.left + width > columnCount)
    return { error: `The pasted block is ${width} columns wide; from the selected column there are only ${columnCount - at.left}.` };
  for (let c = at.left; c < at.left + width; c++) {
    const why = locked[c];
    if (why) return { error: why };
  }
  const valueAt = (r: number, c: number): Cell => (fill ? (block[0]?.[0] ?? null) : (block[r]?.[c] ?? null));
  const edits: CellEdit[] = [];
  const newRows: Cell[][] = [];
  const startsOnNew = at.top < src.newCount;
  for (let r = 0; r < height; r++) {
    const row = at.top + r;
    if (startsOnNew && row >= src.newCount) {
      const cells: Cell[] = Array.from({ length: columnCount }, () => null);
      for (let c = 0; c < width; c++) cells[at.left + c] = valueAt(r, c);
      newRows.push(cells);
      continue;
    }
    const place = src.place(row);
    if (place.kind === 'unloaded' || row >= src.rowCount)
      return { error: `The pasted block reaches row ${row + 1}, which is not loaded: scroll to it, or paste fewer rows.` };
    if (place.kind === 'table' && place.deleted)
      return { error: `Row ${row + 1} is marked for deletion: undo that first, or paste elsewhere.` };
    const ref = src.ref(row);
    if (!ref) return { error: `Row ${row + 1} is not loaded yet.` };
    for (let c = 0; c < width; c++) edits.push({ row: ref, column: at.left + c, value: valueAt(r, c) });
  }
  const lastRow = at.top + height - newRows.length - 1;
  return {
    request: { kind: 'set', edits, ...(newRows.length ? { newRows } : {}) },
    range: { top: at.top, bottom: Math.max(at.top, lastRow), left: at.left, right: at.left + width - 1 },
    added: newRows.length,
  };
}
