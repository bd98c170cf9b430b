// How one row of the grid draws: the row number, the frozen cells beside it, the cells of the
// columns on screen, or a failed page's error with Retry. Row elements are made once and refilled
// as they are recycled (gridView.ts decides which rows are on screen and when to refill them).
// Server text is only ever assigned through textContent / title, never parsed as HTML.
import { cellPreview, isBinaryCell, isLongValue } from '../shared/queryResultFormat';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import type { WindowItem } from './gridWindow';
import { el } from './dom';
import { GUTTER_WIDTH } from './gridStyles';
import * as l10n from '../shared/l10n';

/** A row element, kept and refilled as the grid scrolls, and what it shows now. */
export interface RowRec {
  el: HTMLElement;
  /** The row number and the frozen cells: one sticky element a row (see .vdb-rowhead in gridStyles.ts). */
  head: HTMLElement;
  num: HTMLElement;
  frozen: HTMLElement[];
  cells: HTMLElement[];
  error: HTMLElement | undefined;
  /** The view row this element shows, -1 when free. */
  viewRow: number;
  colKey: string;
  version: number;
}

/** What a cell shows (GridRowPainter.look). */
export interface CellLook {
  cls: string;
  text: string;
  title: string;
  ready: boolean;
  selected: boolean;
  isActive: boolean;
  comments: number;
}

export class GridRowPainter {
  constructor(
    private readonly doc: Document,
    private readonly model: GridModel,
    private readonly source: () => RowSource,
    /** How many leading columns are frozen. */
    private readonly frozen: number,
    /** The id the active cell carries (aria-activedescendant). */
    private readonly activeId: string,
    private readonly scroller: HTMLElement,
  ) {}

  create(body: HTMLElement): RowRec {
    const d = this.doc;
    const row = el(d, 'div', 'vdb-row');
    row.setAttribute('role', 'row');
    const head = el(d, 'div', 'vdb-rowhead');
    const num = el(d, 'div', 'vdb-rownum');
    num.setAttribute('role', 'rowheader');
    num.setAttribute('aria-colindex', '1');
    head.appendChild(num);
    const frozen: HTMLElement[] = [];
    let left = GUTTER_WIDTH;
    for (let i = 0; i < this.frozen; i++) {
      const cell = el(d, 'div', 'vdb-cell frozen');
      cell.setAttribute('role', 'gridcell');
      cell.style.left = `${left}px`;
      left += this.model.widths[i] ?? 100;
      head.appendChild(cell);
      frozen.push(cell);
    }
    head.style.width = `${left}px`;
    row.appendChild(head);
    body.appendChild(row);
    return { el: row, head, num, frozen, cells: [], error: undefined, viewRow: -1, colKey: '', version: -1 };
  }

  /**
   * A row element no row needs now (fewer rows drawn: after a leap, a filter): hidden, and naming no
   * row any more (its cells' positions, the active cell's id, a failed page's Retry), so nothing
   * looked up by row finds it beside the element that shows that row.
   */
  release(rec: RowRec): void {
    rec.el.hidden = true;
    rec.viewRow = -1;
    rec.error?.remove();
    rec.error = undefined;
    rec.num.removeAttribute('data-rownum');
    for (const c of rec.frozen) forget(c);
    for (const c of rec.cells) forget(c);
  }

  /**
   * What a cell shows: its classes, text and tooltip (the DOM row's cell, and the motion canvas,
   * gridMotion.ts, draw from the same answer).
   */
  look(viewRow: number, col: number, extra: string): CellLook {
    const m = this.model;
    const src = this.source();
    const state = src.rowState(viewRow);
    let cls = `vdb-cell${extra}`;
    let text = '';
    let title = '';
    let comments = 0;
    if (state === 'ready') {
      const value = m.cell(viewRow, col);
      const kind = m.kinds[col];
      if (value === null) cls += ' null';
      else if (isBinaryCell(value) && kind !== 'text') cls += ' binary';
      else if (kind === 'number') cls += ' num';
      if (value === '' && src.editable) cls += ' empty';
      if (isLongValue(value)) cls += ' long';
      const old = src.rowKind(viewRow) === 'modified' ? src.oldCell(viewRow, col) : undefined;
      text = cellPreview(value, 300);
      if (old !== undefined && old !== value) {
        // A changed cell of a diff reads old → new; an edited one its new value (the old in its tooltip).
        cls += ' changed';
        title = `Was: ${cellPreview(old, 300)}`;
        if (!src.editable) text = `${cellPreview(old, 140)} → ${cellPreview(value, 140)}`;
      }
      comments = src.comments?.(viewRow, col) ?? 0;
      if (comments > 0) {
        cls += ' commented';
        title = `${comments} ${comments === 1 ? 'comment' : 'comments'} in the pull request${title ? `\n${title}` : ''}`;
      }
      const problem = src.problems?.(viewRow).find((p) => p.column === col);
      if (problem) {
        cls += problem.pending ? ' pending' : ' invalid';
        title = title ? `${problem.message}\n${title}` : problem.message;
      }
    } else {
      cls += ' placeholder';
    }
    const selected = m.isSelected(viewRow, col);
    if (selected) cls += ' selected';
    const active = m.active;
    const isActive = !!active && active.row === viewRow && active.col === col;
    if (isActive) cls += ' active';
    return { cls, text, title, ready: state === 'ready', selected, isActive, comments };
  }

  /** A row element's classes: its stripe, its state when not loaded, its kind of change. */
  rowClass(viewRow: number): string {
    const src = this.source();
    const state = src.rowState(viewRow);
    let rowCls = viewRow % 2 ? 'vdb-row odd' : 'vdb-row';
    if (state !== 'ready') return `${rowCls} ${state}`;
    const kind = src.rowKind(viewRow);
    if (kind) rowCls += ` ${kind}`;
    return rowCls;
  }

  /** The row number's text (new rows of an editable grid say so) and its problems, if any. */
  gutter(viewRow: number): { label: string; problems: string[] } {
    const src = this.source();
    const label = src.rowLabel?.(viewRow) ?? String(viewRow + 1);
    const ready = src.rowState(viewRow) === 'ready';
    const problems = ready ? (src.problems?.(viewRow).filter((p) => !p.pending) ?? []) : [];
    return { label, problems: problems.map((p) => p.message) };
  }

  private fillCell(cell: HTMLElement, viewRow: number, col: number, extra: string): void {
    const { cls, text, title, ready, selected, isActive, comments } = this.look(viewRow, col, extra);
    if (cell.className !== cls) cell.className = cls;
    if (cell.textContent !== text) cell.textContent = text;
    if (cell.title !== title) cell.title = title;
    // Written only when changed: a row drawn again as it scrolls mostly keeps its attributes.
    setAttr(cell, 'aria-colindex', String(col + 2));
    setAttr(cell, 'data-c', String(col));
    setAttr(cell, 'data-r', String(viewRow));
    setAttr(cell, 'aria-busy', ready ? null : 'true');
    setAttr(cell, 'aria-invalid', cls.includes(' invalid') ? 'true' : null);
    setAttr(cell, 'aria-selected', selected ? 'true' : null);
    setAttr(cell, 'data-comments', comments > 0 ? String(comments) : null);
    if (isActive) cell.id = this.activeId;
    else if (cell.id) cell.removeAttribute('id');
  }

  /** Fills a row element for `viewRow` at `top`; `version` is the view's, which a later fill compares. */
  fill(rec: RowRec, viewRow: number, top: number, cols: readonly WindowItem[], totalW: number, colKey: string, version: number): void {
    const src = this.source();
    const state = src.rowState(viewRow);
    const kind = state === 'ready' ? src.rowKind(viewRow) : undefined;
    rec.el.hidden = false;
    const rowCls = this.rowClass(viewRow);
    if (rec.el.className !== rowCls) rec.el.className = rowCls;
    setAttr(rec.el, 'data-kind', kind ?? null);
    if (rec.viewRow !== viewRow) {
      rec.el.setAttribute('aria-rowindex', String(viewRow + 2));
      rec.el.style.transform = `translateY(${top}px)`;
      rec.num.setAttribute('data-rownum', String(viewRow));
    }
    this.fillGutter(rec, viewRow);
    let rowW = totalW;
    if (state === 'failed') rowW = Math.max(totalW, this.fillFailed(rec, viewRow));
    else this.fillCells(rec, viewRow, cols, colKey);
    const width = `${rowW}px`;
    if (rec.el.style.width !== width) rec.el.style.width = width;
    rec.viewRow = viewRow;
    rec.colKey = colKey;
    rec.version = version;
  }

  /** The row's label (new rows of an editable grid say so) and, when its edits have problems, a mark. */
  private fillGutter(rec: RowRec, viewRow: number): void {
    const { label, problems } = this.gutter(viewRow);
    if (rec.num.textContent !== label) rec.num.textContent = label;
    const cls = problems.length ? 'vdb-rownum invalid' : 'vdb-rownum';
    if (rec.num.className !== cls) rec.num.className = cls;
    const title = problems.join('\n');
    if (rec.num.title !== title) rec.num.title = title;
  }

  /**
   * A failed page's row: its error beside the row number, where the cells would be, with Retry.
   * Returns the width the row needs so the bar stays on the row's line (see .vdb-row in gridStyles.ts).
   */
  private fillFailed(rec: RowRec, viewRow: number): number {
    const d = this.doc;
    for (const c of rec.cells) c.remove();
    rec.cells.length = 0;
    for (const f of rec.frozen) f.hidden = true;
    // The bar follows the row number in the row's flow (the frozen cells are hidden).
    rec.head.style.width = `${GUTTER_WIDTH}px`;
    if (!rec.error) {
      rec.error = el(d, 'div', 'vdb-rowerror');
      rec.error.setAttribute('role', 'gridcell');
      rec.el.appendChild(rec.error);
    }
    const msg = el(
      d,
      'span',
      undefined,
      l10n.t('Could not load these rows: {0}', this.source().failure(viewRow) ?? l10n.t('unknown error')),
    );
    const retry = el(d, 'button', 'vdb-retry', l10n.t('Retry'));
    retry.setAttribute('data-retry', String(viewRow));
    rec.error.replaceChildren(msg, retry);
    const barW = Math.max(200, this.scroller.clientWidth - GUTTER_WIDTH - 4);
    rec.error.style.width = `${barW}px`;
    return GUTTER_WIDTH + barW;
  }

  /** A loaded or pending row: the frozen cells, then the cells of the columns on screen. */
  private fillCells(rec: RowRec, viewRow: number, cols: readonly WindowItem[], colKey: string): void {
    // A failed row's bar goes with it: hidden, its Retry would still name that row (found twice).
    rec.error?.remove();
    rec.error = undefined;
    let left = GUTTER_WIDTH;
    for (let i = 0; i < this.frozen; i++) {
      const f = rec.frozen[i] as HTMLElement;
      const w = this.model.widths[i] ?? 100;
      f.hidden = false;
      f.style.left = `${left}px`;
      f.style.width = `${w}px`;
      left += w;
      this.fillCell(f, viewRow, i, ' frozen');
    }
    const headW = `${left}px`;
    if (rec.head.style.width !== headW) rec.head.style.width = headW;
    while (rec.cells.length < cols.length) {
      const cell = el(this.doc, 'div', 'vdb-cell');
      cell.setAttribute('role', 'gridcell');
      rec.el.appendChild(cell);
      rec.cells.push(cell);
    }
    while (rec.cells.length > cols.length) rec.cells.pop()?.remove();
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i] as WindowItem;
      const cell = rec.cells[i] as HTMLElement;
      if (rec.colKey !== colKey || rec.viewRow === -1 || cell.style.left === '') {
        cell.style.left = `${c.start}px`;
        cell.style.width = `${c.size}px`;
      }
      this.fillCell(cell, viewRow, c.index, '');
    }
  }
}

/** A released cell: no row position, and not the active cell. */
function forget(cell: HTMLElement): void {
  cell.removeAttribute('data-r');
  if (cell.id) cell.removeAttribute('id');
}

/** Sets an attribute (null removes it) only when its value differs. */
function setAttr(e: HTMLElement, name: string, value: string | null): void {
  if (e.getAttribute(name) === value) return;
  if (value === null) e.removeAttribute(name);
  else e.setAttribute(name, value);
}
