// Mouse and keyboard on the grid, turned into GridModel calls and grid actions: click, drag and
// shift-click selection, header sort, column resize, row and corner selection, Retry on a failed
// page; the keyboard (gridKeys.ts) and the browser's copy event.
import type { GridModel } from './gridModel';
import { onGridKey } from './gridKeys';
import type { GridActions } from './gridActions';

function cellAt(target: EventTarget | null): { row: number; col: number } | undefined {
  const t = (target as HTMLElement | null)?.closest?.('[data-r]');
  if (!t) return undefined;
  return { row: Number(t.getAttribute('data-r')), col: Number(t.getAttribute('data-c')) };
}

type On = <K extends keyof HTMLElementEventMap>(target: HTMLElement | Document, type: K, fn: (e: HTMLElementEventMap[K]) => void) => void;

/** What a left button press on the grid hits: Retry, a filter button, a resize grip, a header, the gutter or a cell. */
function onMouseDown(e: MouseEvent, scroller: HTMLElement, model: GridModel, actions: GridActions, startResize: StartResize): boolean {
  const t = e.target as HTMLElement;
  const retry = t.closest('[data-retry]');
  if (retry) {
    e.preventDefault();
    actions.retry(Number(retry.getAttribute('data-retry')));
    return false;
  }
  const filter = t.closest('[data-filter]');
  if (filter) {
    e.preventDefault();
    actions.openFilter(Number(filter.getAttribute('data-filter')), filter as HTMLElement);
    return false;
  }
  const resize = t.closest('[data-resize]');
  if (resize) {
    e.preventDefault();
    startResize(Number(resize.getAttribute('data-resize')), e.clientX, resize as HTMLElement);
    return false;
  }
  const hcell = t.closest('[data-col]');
  if (hcell) {
    actions.sortBy(Number(hcell.getAttribute('data-col')), e.shiftKey);
    return false;
  }
  if (t.closest('[data-corner]')) {
    model.selectAll();
    actions.selectionChanged(true);
    return false;
  }
  const rownum = t.closest('[data-rownum]');
  if (rownum) {
    model.selectRow(Number(rownum.getAttribute('data-rownum')), e.shiftKey);
    actions.selectionChanged(true);
    return false;
  }
  const pos = cellAt(t);
  if (!pos) return false;
  scroller.focus({ preventScroll: true });
  model.selectCell(pos, e.shiftKey);
  actions.selectionChanged(false);
  // A drag from a cell extends the selection.
  return true;
}

type StartResize = (col: number, startX: number, grip: HTMLElement) => void;

/** Dragging a header's grip resizes its column until the button is released. */
function resizer(doc: Document, model: GridModel, actions: GridActions): StartResize {
  return (col, startX, grip) => {
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
  };
}

/** Clicks, drags, double-clicks. */
function bindPointer(on: On, doc: Document, scroller: HTMLElement, model: GridModel, actions: GridActions): void {
  let dragging = false;
  const startResize = resizer(doc, model, actions);
  on(scroller, 'mousedown', (e) => {
    if (e.button === 0) dragging = onMouseDown(e, scroller, model, actions, startResize);
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
}

/** Binds the grid's input; returns the function that unbinds it. */
export function bindGridInput(doc: Document, scroller: HTMLElement, root: HTMLElement, model: GridModel, actions: GridActions): () => void {
  const cleanups: (() => void)[] = [];
  const on: On = (target, type, fn) => {
    target.addEventListener(type, fn as EventListener);
    cleanups.push(() => target.removeEventListener(type, fn as EventListener));
  };
  bindPointer(on, doc, scroller, model, actions);
  on(scroller, 'keydown', (e) => onGridKey(e, model, actions));
  // VS Code's Copy command runs document.execCommand('copy') inside the webview.
  on(doc, 'copy', (e) => {
    if (!root.contains(doc.activeElement) || doc.activeElement !== scroller) return;
    const text = actions.selectionText();
    if (text === undefined) return;
    e.clipboardData?.setData('text/plain', text);
    e.preventDefault();
  });
  // Ctrl+V: in a browser the webview lets the browser paste, in VS Code desktop its Paste command does.
  on(doc, 'paste', (e) => {
    if (!actions.paste || doc.activeElement !== scroller) return;
    e.preventDefault();
    actions.paste(e.clipboardData?.getData('text/plain') ?? '');
  });
  return () => {
    for (const c of cleanups.splice(0)) c();
  };
}
