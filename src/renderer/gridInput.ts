// Mouse and keyboard on the grid, turned into GridModel calls and grid actions: click, drag and
// shift-click selection, header sort, column resize, row and corner selection, Retry on a failed
// page, the keyboard (arrows, paging, Home/End, Ctrl+A, Ctrl+C, Enter for the full value).
import type { GridModel } from './gridModel';

/** What the interactions ask of the grid. */
export interface GridActions {
  sortBy(col: number, add: boolean): void;
  openFilter(col: number, anchor: HTMLElement): void;
  retry(row: number): void;
  /** Selection changed; `reveal` scrolls the active cell into view. */
  selectionChanged(reveal: boolean): void;
  showDetail(row: number, col: number): void;
  /** Closes the full-value box when open; returns whether it was. */
  closeDetail(): boolean;
  copy(withFormat: boolean): void;
  /** The text of the selection for the browser's own copy event, or undefined. */
  selectionText(): string | undefined;
  resizeColumn(col: number, width: number): void;
  pageRows(): number;
}

function cellAt(target: EventTarget | null): { row: number; col: number } | undefined {
  const t = (target as HTMLElement | null)?.closest?.('[data-r]');
  if (!t) return undefined;
  return { row: Number(t.getAttribute('data-r')), col: Number(t.getAttribute('data-c')) };
}

/** Binds the grid's input; returns the function that unbinds it. */
export function bindGridInput(doc: Document, scroller: HTMLElement, root: HTMLElement, model: GridModel, actions: GridActions): () => void {
  const cleanups: (() => void)[] = [];
  let dragging = false;
  const on = <K extends keyof HTMLElementEventMap>(
    target: HTMLElement | Document,
    type: K,
    fn: (e: HTMLElementEventMap[K]) => void,
  ): void => {
    target.addEventListener(type, fn as EventListener);
    cleanups.push(() => target.removeEventListener(type, fn as EventListener));
  };

  on(scroller, 'mousedown', (e) => {
    if (e.button !== 0) return;
    const t = e.target as HTMLElement;
    const retry = t.closest('[data-retry]');
    if (retry) {
      e.preventDefault();
      actions.retry(Number(retry.getAttribute('data-retry')));
      return;
    }
    const filter = t.closest('[data-filter]');
    if (filter) {
      e.preventDefault();
      actions.openFilter(Number(filter.getAttribute('data-filter')), filter as HTMLElement);
      return;
    }
    const resize = t.closest('[data-resize]');
    if (resize) {
      e.preventDefault();
      startResize(Number(resize.getAttribute('data-resize')), e.clientX, resize as HTMLElement);
      return;
    }
    const hcell = t.closest('[data-col]');
    if (hcell) {
      actions.sortBy(Number(hcell.getAttribute('data-col')), e.shiftKey);
      return;
    }
    if (t.closest('[data-corner]')) {
      model.selectAll();
      actions.selectionChanged(true);
      return;
    }
    const rownum = t.closest('[data-rownum]');
    if (rownum) {
      model.selectRow(Number(rownum.getAttribute('data-rownum')), e.shiftKey);
      actions.selectionChanged(true);
      return;
    }
    const pos = cellAt(t);
    if (pos) {
      scroller.focus({ preventScroll: true });
      model.selectCell(pos, e.shiftKey);
      dragging = true;
      actions.selectionChanged(false);
    }
  });
  on(scroller, 'mouseover', (e) => {
    if (!dragging) return;
    const pos = cellAt(e.target);
    if (pos) {
      model.selectCell(pos, true);
      actions.selectionChanged(false);
    }
  });
  on(doc, 'mouseup', () => {
    dragging = false;
  });
  on(scroller, 'dblclick', (e) => {
    const pos = cellAt(e.target);
    if (pos) actions.showDetail(pos.row, pos.col);
  });
  on(scroller, 'keydown', (e) => onKey(e));
  // VS Code's Copy command runs document.execCommand('copy') inside the webview.
  on(doc, 'copy', (e) => {
    if (!root.contains(doc.activeElement) || doc.activeElement !== scroller) return;
    const text = actions.selectionText();
    if (text === undefined) return;
    e.clipboardData?.setData('text/plain', text);
    e.preventDefault();
  });

  function startResize(col: number, startX: number, grip: HTMLElement): void {
    const startW = model.widths[col] ?? 100;
    grip.classList.add('active');
    const move = (e: MouseEvent): void => actions.resizeColumn(col, startW + (e.clientX - startX));
    const up = (): void => {
      doc.removeEventListener('mousemove', move);
      doc.removeEventListener('mouseup', up);
      grip.classList.remove('active');
    };
    doc.addEventListener('mousemove', move);
    doc.addEventListener('mouseup', up);
  }

  function onKey(e: KeyboardEvent): void {
    const m = model;
    const mod = e.ctrlKey || e.metaKey;
    const shift = e.shiftKey;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        if (mod) m.moveTo({ row: m.rowCount - 1 }, shift);
        else m.move(1, 0, shift);
        break;
      case 'ArrowUp':
        if (mod) m.moveTo({ row: 0 }, shift);
        else m.move(-1, 0, shift);
        break;
      case 'ArrowRight':
        if (mod) m.moveTo({ col: m.columnCount - 1 }, shift);
        else m.move(0, 1, shift);
        break;
      case 'ArrowLeft':
        if (mod) m.moveTo({ col: 0 }, shift);
        else m.move(0, -1, shift);
        break;
      case 'PageDown':
        m.move(actions.pageRows(), 0, shift);
        break;
      case 'PageUp':
        m.move(-actions.pageRows(), 0, shift);
        break;
      case 'Home':
        m.moveTo(mod ? { row: 0, col: 0 } : { col: 0 }, shift);
        break;
      case 'End':
        m.moveTo(mod ? { row: m.rowCount - 1, col: m.columnCount - 1 } : { col: m.columnCount - 1 }, shift);
        break;
      case ' ':
        if (shift) m.selectRow(m.active?.row ?? 0);
        else if (mod) m.selectColumn(m.active?.col ?? 0);
        else handled = false;
        break;
      case 'Enter':
      case 'F2': {
        const a = m.active;
        if (a) actions.showDetail(a.row, a.col);
        break;
      }
      case 'Escape':
        if (!actions.closeDetail()) m.clearSelection();
        break;
      default:
        handled = false;
    }
    if (!handled && mod && (e.key === 'a' || e.key === 'A')) {
      m.selectAll();
      handled = true;
    } else if (!handled && mod && (e.key === 'c' || e.key === 'C')) {
      actions.copy(shift);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    actions.selectionChanged(true);
  }

  return () => {
    for (const c of cleanups.splice(0)) c();
  };
}
