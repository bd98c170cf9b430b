// "Show Row History" on the rows of one keyed table (a PagedOutput with `rowsOf`: the table
// browser, a table's diff): right-click a cell, or press Shift+F10 / the context-menu key on the
// focused grid, for a small menu; its item posts `row.history` with the row's key values (in
// `rowsOf.keyColumns` order) and the column of the cell, for blame. Only loaded rows offer it.
import type { Cell, QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';

export interface RowHistoryMenuOptions {
  rowsOf: { table: string; keyColumns: number[] };
  columns: readonly QueryColumn[];
  model: GridModel;
  source: () => RowSource;
  /** Selects a cell and redraws (so the menu acts on what the user sees selected). */
  select(row: number, col: number): void;
  post(key: Cell[], column: string | undefined): void;
}

/** Binds the menu to the grid's scroller; returns the function that unbinds it. */
export function bindRowHistoryMenu(doc: Document, scroller: HTMLElement, o: RowHistoryMenuOptions): () => void {
  let menu: HTMLElement | undefined;

  const close = (refocus: boolean): void => {
    if (!menu) return;
    menu.remove();
    menu = undefined;
    if (refocus) scroller.focus({ preventScroll: true });
  };

  const keyOf = (row: number): Cell[] | undefined => {
    if (o.source().rowState(row) !== 'ready') return undefined;
    return o.rowsOf.keyColumns.map((c) => o.model.cell(row, c));
  };

  const open = (row: number, col: number, x: number, y: number): void => {
    close(false);
    const key = keyOf(row);
    const m = doc.createElement('div');
    m.className = 'vdb-menu';
    m.setAttribute('role', 'menu');
    m.setAttribute('aria-label', 'Row actions');
    const item = doc.createElement('button');
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.textContent = 'Show Row History';
    const column = o.columns[col]?.name;
    const keyText = key ? o.rowsOf.keyColumns.map((c, i) => `${o.columns[c]?.name} = ${key[i] === null ? 'NULL' : key[i]}`).join(', ') : '';
    item.title = key
      ? `Every version of the row ${keyText} of ${o.rowsOf.table}${column ? `, and who last changed ${column}` : ''}`
      : 'The row is not loaded yet';
    item.disabled = !key;
    item.addEventListener('click', () => {
      close(true);
      if (key) o.post(key, column);
    });
    m.appendChild(item);
    m.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' || e.key === 'Tab') {
        e.preventDefault();
        e.stopPropagation();
        close(true);
      }
    });
    m.style.left = `${Math.max(0, x)}px`;
    m.style.top = `${Math.max(0, y)}px`;
    (scroller.parentElement ?? doc.body).appendChild(m);
    menu = m;
    item.focus();
  };

  const onContextMenu = (e: MouseEvent): void => {
    const t = (e.target as HTMLElement | null)?.closest?.('[data-r]');
    if (!t) return;
    e.preventDefault();
    const row = Number(t.getAttribute('data-r'));
    const col = Number(t.getAttribute('data-c'));
    o.select(row, col);
    open(row, col, e.clientX, e.clientY);
  };

  const onKey = (e: KeyboardEvent): void => {
    if (!(e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey))) return;
    const a = o.model.active;
    if (!a) return;
    e.preventDefault();
    e.stopPropagation();
    const cell = scroller.querySelector(`[data-r="${a.row}"][data-c="${a.col}"]`);
    const r = cell?.getBoundingClientRect() ?? scroller.getBoundingClientRect();
    open(a.row, a.col, r.left + 8, r.bottom);
  };

  const onDocDown = (e: MouseEvent): void => {
    if (menu && !menu.contains(e.target as Node)) close(false);
  };

  scroller.addEventListener('contextmenu', onContextMenu);
  scroller.addEventListener('keydown', onKey);
  doc.addEventListener('mousedown', onDocDown, true);
  return () => {
    close(false);
    scroller.removeEventListener('contextmenu', onContextMenu);
    scroller.removeEventListener('keydown', onKey);
    doc.removeEventListener('mousedown', onDocDown, true);
  };
}
