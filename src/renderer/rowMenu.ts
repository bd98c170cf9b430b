// The grid's row menu: right-click a cell, or press Shift+F10 / the context-menu key on the
// focused grid, for a small menu of actions on that row (Show Row History, and the editing actions
// of an editable grid). The owner says which items a cell offers; this file shows, focuses and
// closes the menu.
import type { GridModel } from './gridModel';
import * as l10n from '../shared/l10n';

export interface RowMenuItem {
  label: string;
  /** The tooltip: what the item does, or why it is disabled. */
  title: string;
  disabled?: boolean;
  /** Marks the item for tests and styling (`data-item`). */
  id: string;
  run(): void;
}

export interface RowMenuOptions {
  model: GridModel;
  /** The items the cell offers (none: no menu). */
  items(row: number, col: number): RowMenuItem[];
  /** Selects a cell and redraws (so the menu acts on what the user sees selected). */
  select(row: number, col: number): void;
}

/** The menu element with its items; a click runs an item after `close`. */
function menuElement(doc: Document, items: readonly RowMenuItem[], close: (refocus: boolean) => void): HTMLElement {
  const m = doc.createElement('div');
  m.className = 'vdb-menu';
  m.setAttribute('role', 'menu');
  m.setAttribute('aria-label', l10n.t('Row actions'));
  for (const it of items) {
    const item = doc.createElement('button');
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.setAttribute('data-item', it.id);
    item.textContent = it.label;
    item.title = it.title;
    item.disabled = !!it.disabled;
    item.addEventListener('click', () => {
      close(true);
      if (!it.disabled) it.run();
    });
    m.appendChild(item);
  }
  m.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      // Move between the enabled items.
      e.preventDefault();
      e.stopPropagation();
      const buttons = [...m.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
      const at = buttons.indexOf(doc.activeElement as HTMLButtonElement);
      const next = buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % Math.max(1, buttons.length)];
      next?.focus();
    }
  });
  return m;
}

/** Binds the menu to the grid's scroller; returns the function that unbinds it. */
export function bindRowMenu(doc: Document, scroller: HTMLElement, o: RowMenuOptions): () => void {
  let menu: HTMLElement | undefined;

  const close = (refocus: boolean): void => {
    if (!menu) return;
    menu.remove();
    menu = undefined;
    if (refocus) scroller.focus({ preventScroll: true });
  };

  const open = (row: number, col: number, x: number, y: number): void => {
    close(false);
    const items = o.items(row, col);
    if (items.length === 0) return;
    const m = menuElement(doc, items, close);
    m.style.left = `${Math.max(0, x)}px`;
    m.style.top = `${Math.max(0, y)}px`;
    (scroller.parentElement ?? doc.body).appendChild(m);
    menu = m;
    (m.querySelector<HTMLButtonElement>('button:not(:disabled)') ?? m.querySelector('button'))?.focus();
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
