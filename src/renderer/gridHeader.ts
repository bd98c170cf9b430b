// The grid's header row: the corner (select all), the frozen column headers sticky beside it,
// then the headers of the columns on screen, each with its sort state, filter button and resize grip.
import type { QueryColumn } from '../shared/wire';
import type { GridModel } from './gridModel';
import type { WindowItem } from './gridWindow';
import { GUTTER_WIDTH } from './gridStyles';
import * as l10n from '../shared/l10n';

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function headerTooltip(c: QueryColumn, sortable: boolean): string {
  const lines = [c.name, `Type: ${c.type || 'unknown'}`];
  if (c.is_primary_key) lines.push('Primary key');
  lines.push(c.source_table ? `Source table: ${c.source_table}` : 'Computed (no source table)');
  if (sortable) lines.push('Click to sort, Shift+click to add a sort key (keyboard: Alt+S on a cell of the column)');
  return lines.join('\n');
}

export interface HeaderOptions {
  frozen: number;
  sortable: boolean;
  filterable: boolean;
  filtered: ReadonlySet<number>;
}

function headerCell(d: Document, m: GridModel, index: number, o: HeaderOptions): HTMLElement {
  const col = m.columns[index] as QueryColumn;
  const h = el(d, 'div', col.is_primary_key ? 'vdb-hcell pk' : 'vdb-hcell');
  h.setAttribute('role', 'columnheader');
  h.setAttribute('aria-colindex', String(index + 2));
  h.setAttribute('data-col', String(index));
  const dir = m.sortDirection(index);
  h.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none');
  h.style.width = `${m.widths[index] ?? 100}px`;
  h.title = headerTooltip(col, o.sortable);
  h.appendChild(el(d, 'span', 'vdb-hname', col.name));
  if (dir) h.appendChild(el(d, 'span', 'vdb-sort', dir === 'asc' ? '▲' : '▼'));
  if (o.filterable) {
    const on = o.filtered.has(index);
    const f = el(d, 'button', on ? 'vdb-hfilter on' : 'vdb-hfilter', '≡');
    f.setAttribute('data-filter', String(index));
    f.setAttribute('aria-label', l10n.t('Filter {0}', col.name));
    f.title = on
      ? l10n.t('Filtered: change or clear the filter on {0} (Alt+F)', col.name)
      : l10n.t('Filter {0} on the server (Alt+F)', col.name);
    f.tabIndex = -1;
    h.appendChild(f);
  }
  const grip = el(d, 'div', 'vdb-resizer');
  grip.setAttribute('data-resize', String(index));
  grip.setAttribute('aria-hidden', 'true');
  h.appendChild(grip);
  return h;
}

export function renderHeader(d: Document, header: HTMLElement, m: GridModel, cols: readonly WindowItem[], o: HeaderOptions): void {
  const hfrag = d.createDocumentFragment();
  const corner = el(d, 'div', 'vdb-corner');
  corner.setAttribute('role', 'columnheader');
  corner.setAttribute('aria-colindex', '1');
  corner.title = l10n.t('Select all (Ctrl+A)');
  corner.setAttribute('data-corner', '');
  hfrag.appendChild(corner);
  let left = GUTTER_WIDTH;
  for (let i = 0; i < o.frozen; i++) {
    const h = headerCell(d, m, i, o);
    h.classList.add('frozen');
    h.style.left = `${left}px`;
    left += m.widths[i] ?? 100;
    hfrag.appendChild(h);
  }
  for (const c of cols) {
    if (!m.columns[c.index]) continue;
    const h = headerCell(d, m, c.index, o);
    h.style.left = `${c.start}px`;
    h.style.width = `${c.size}px`;
    hfrag.appendChild(h);
  }
  header.replaceChildren(hfrag);
}
