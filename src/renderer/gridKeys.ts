// The grid's keyboard: moving and extending the selection (arrows, paging, Home/End, Space with
// Shift or Ctrl, Ctrl+A), and the keys that act on it (Enter/F2 for the full value, Escape,
// Ctrl+C; Alt+S sorts by the active cell's column and Alt+F opens its filter, what the header does
// for a mouse), and in an editable grid the editing keys (gridEditing.ts). gridInput.ts binds it
// to the scroller.
import type { GridModel } from './gridModel';
import type { GridActions } from './gridActions';

/** Arrow keys, with Ctrl to the edge. Returns false for any other key. */
function arrowKey(m: GridModel, key: string, mod: boolean, shift: boolean): boolean {
  switch (key) {
    case 'ArrowDown':
      if (mod) m.moveTo({ row: m.rowCount - 1 }, shift);
      else m.move(1, 0, shift);
      return true;
    case 'ArrowUp':
      if (mod) m.moveTo({ row: 0 }, shift);
      else m.move(-1, 0, shift);
      return true;
    case 'ArrowRight':
      if (mod) m.moveTo({ col: m.columnCount - 1 }, shift);
      else m.move(0, 1, shift);
      return true;
    case 'ArrowLeft':
      if (mod) m.moveTo({ col: 0 }, shift);
      else m.move(0, -1, shift);
      return true;
    default:
      return false;
  }
}

/** Keys that move or extend the selection. Returns false when `e` is not one of them. */
export function navigationKey(m: GridModel, e: KeyboardEvent, pageRows: () => number): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const shift = e.shiftKey;
  if (arrowKey(m, e.key, mod, shift)) return true;
  switch (e.key) {
    case 'PageDown':
      m.move(pageRows(), 0, shift);
      return true;
    case 'PageUp':
      m.move(-pageRows(), 0, shift);
      return true;
    case 'Home':
      m.moveTo(mod ? { row: 0, col: 0 } : { col: 0 }, shift);
      return true;
    case 'End':
      m.moveTo(mod ? { row: m.rowCount - 1, col: m.columnCount - 1 } : { col: m.columnCount - 1 }, shift);
      return true;
    case ' ':
      if (shift) m.selectRow(m.active?.row ?? 0);
      else if (mod) m.selectColumn(m.active?.col ?? 0);
      else return false;
      return true;
    default:
      if (mod && (e.key === 'a' || e.key === 'A')) {
        m.selectAll();
        return true;
      }
      return false;
  }
}

/**
 * Alt+S: sort by the active cell's column (again: the other way, then off; Shift adds it as a
 * further key), Alt+F: open its filter under its header. False for any other key.
 */
function headerKey(e: KeyboardEvent, m: GridModel, actions: GridActions): boolean {
  const col = m.active?.col;
  if (!e.altKey || e.ctrlKey || e.metaKey || col === undefined) return false;
  if (e.code === 'KeyS') {
    actions.sortBy(col, e.shiftKey);
    return true;
  }
  if (e.code !== 'KeyF') return false;
  const grid = (e.target as HTMLElement | null)?.closest('.vdb-result');
  const anchor = grid?.querySelector<HTMLElement>(`.vdb-hcell[data-col="${col}"]`);
  if (anchor) actions.openFilter(col, anchor);
  return true;
}

/** Handles a key pressed on the focused grid. */
export function onGridKey(e: KeyboardEvent, m: GridModel, actions: GridActions): void {
  if (headerKey(e, m, actions)) {
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.key === 'c' || e.key === 'C')) {
    actions.copy(e.shiftKey);
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  let handled = navigationKey(m, e, () => actions.pageRows());
  // Editing keys come after moving (arrows, Ctrl+A ...) and before the full value box (Enter, F2).
  if (!handled && actions.editKey?.(e)) {
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  if (!handled && (e.key === 'Enter' || e.key === 'F2')) {
    const a = m.active;
    if (a) actions.showDetail(a.row, a.col);
    handled = true;
  } else if (!handled && e.key === 'Escape') {
    if (!actions.closeDetail()) m.clearSelection();
    handled = true;
  }
  if (!handled) return;
  e.preventDefault();
  e.stopPropagation();
  actions.selectionChanged(true);
}
