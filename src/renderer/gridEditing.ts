// Editing in the grid (issue #23), for a paged output whose host allows it (`PagedOutput.edit`):
// the keys and clicks that edit (typing, Enter, F2 or a double-click opens the cell's editor;
// Delete sets NULL; Insert adds a row; Ctrl+Delete deletes rows; Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y
// undo and redo; paste), the edit bar, the row menu's edit items, and the host's answers: the
// overlay (into EditedRowSource) and edits it refused (a banner). Every change is the host's to
// apply and check (src/views/tableEditing.ts); this sends what the user did, and draws the result.
import type { Cell } from '../shared/wire';
import { parseColumnType } from '../shared/columnType';
import { ClipboardTableError, parseClipboardTable } from '../shared/clipboardTable';
import type { CellEdit, EditCounts, EditRequest, GridEditing as EditSetup, HostEditMessage, RowRef } from '../shared/editProtocol';
import type { ServerViewHost } from './serverView';
import type { EditedRowSource } from './editedRowSource';
import { openCellEditor, type EditorMove } from './cellEditor';
import { editBar, type EditBar, type EditCommand } from './editBar';
import { planPaste } from './editPaste';
import { banner } from './gridChrome';
import type { RowMenuItem } from './rowMenu';
import * as l10n from '../shared/l10n';

/** The grid's parts editing works with (`root` holds the cell editor). */
export interface GridEditingHost extends ServerViewHost {
  readonly source: EditedRowSource;
  /** The selection changed: redraw, revealing the active cell when asked. */
  selectionChanged(reveal: boolean): void;
}

/** Rows one Set NULL or delete may cover (a selection of a whole large table is refused, not sent). */
const MAX_ROWS_AT_ONCE = 10_000;

export class GridEditing {
  readonly bar: EditBar;
  private readonly setup: EditSetup;
  private counts: EditCounts = { updated: 0, inserted: 0, deleted: 0, problems: 0, pending: 0, canUndo: false, canRedo: false };
  private closeEditor: (() => void) | undefined;
  /** After Add Row: select the new row when the host's overlay brings it. */
  private selectNewRow = false;

  constructor(private readonly h: GridEditingHost) {
    this.setup = h.output.edit as EditSetup;
    const t = h.output.target;
    this.bar = editBar(h.doc, `${h.output.title.split(' @ ')[0]} at ${t.ref}, on the rows at ${h.output.commit.slice(0, 8)}`, (c) =>
      this.command(c),
    );
    this.bar.update(this.counts);
    h.root.appendChild(this.bar.el);
  }

  private post(request: EditRequest): void {
    this.h.post({ type: 'edit.apply', sourceId: this.h.output.sourceId, request });
  }

  private command(c: EditCommand): void {
    if (c === 'review' || c === 'discard' || c === 'propose') {
      this.h.post({ type: 'edit.action', sourceId: this.h.output.sourceId, action: c });
      return;
    }
    if (c === 'add') this.addRow();
    else if (c === 'delete') this.deleteRows();
    else if (c === 'null') this.setNull();
    else if (c === 'problems') this.nextProblem();
    else this.undoRedo(c);
    this.h.view()?.scroller.focus({ preventScroll: true });
  }

  /** A key on the focused grid; true when editing took it. */
  key(e: KeyboardEvent): boolean {
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    if (mod && !e.altKey && (k === 'z' || k === 'y')) {
      this.undoRedo(k === 'y' || e.shiftKey ? 'redo' : 'undo');
      return true;
    }
    if (e.key === 'Insert' && !mod) {
      this.addRow();
      return true;
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      if (mod) this.deleteRows();
      else this.setNull();
      return true;
    }
    const a = this.h.model.active;
    // A printable character starts editing the active cell with it (Shift+Space still selects the row).
    if (a && e.key.length === 1 && !mod && !e.altKey && !(e.key === ' ' && e.shiftKey)) return this.startEdit(a.row, a.col, e.key);
    return false;
  }

  private undoRedo(which: 'undo' | 'redo'): void {
    if (which === 'undo' ? this.counts.canUndo : this.counts.canRedo) this.post({ kind: which });
    else this.h.announce(which === 'undo' ? l10n.t('Nothing to undo.') : l10n.t('Nothing to redo.'));
  }

  /** Opens the cell's editor; false when the cell is not editable text (its full value shows instead). */
  startEdit(row: number, col: number, initial?: string): boolean {
    const column = this.h.model.columns[col];
    const locked = this.setup.locked[col];
    if (!column || locked) return false;
    const src = this.h.source;
    const place = src.place(row);
    const ref = src.ref(row);
    if (place.kind === 'unloaded' || !ref) return this.tell(`Row ${row + 1} is not loaded yet.`);
    if (place.kind === 'table' && place.deleted) return this.tell('This row is marked for deletion: undo that to edit it.');
    this.h.model.selectCell({ row, col });
    this.h.selectionChanged(true);
    void this.openEditor(row, col, ref, initial);
    return true;
  }

  private tell(text: string): true {
    this.h.announce(text);
    return true;
  }

  private async openEditor(row: number, col: number, ref: RowRef, initial: string | undefined): Promise<void> {
    const cell = await this.cellElement(row, col);
    const column = this.h.model.columns[col];
    if (!cell || !column) return;
    this.closeEditor?.();
    const value = this.h.model.cell(row, col);
    const scroller = this.h.view()?.scroller;
    this.closeEditor = openCellEditor(this.h.doc, {
      container: this.h.root,
      cellBox: cell.getBoundingClientRect(),
      column,
      type: parseColumnType(column.type),
      nullable: this.setup.nullable[col] ?? true,
      value,
      ...(initial !== undefined ? { initial } : {}),
      ...(this.problemAt(row, col) ? { problem: this.problemAt(row, col) } : {}),
      commit: (next, move) => {
        this.closeEditor = undefined;
        if (next !== value) this.post({ kind: 'set', edits: [{ row: ref, column: col, value: next }] });
        this.afterEdit(move, scroller);
      },
      cancel: () => {
        this.closeEditor = undefined;
        scroller?.focus({ preventScroll: true });
      },
    });
  }

  private problemAt(row: number, col: number): string | undefined {
    return this.h.source.problems(row).find((p) => p.column === col)?.message;
  }

  private afterEdit(move: EditorMove, scroller: HTMLElement | undefined): void {
    const m = this.h.model;
    if (move === 'down') m.move(1, 0);
    else if (move === 'up') m.move(-1, 0);
    else if (move === 'right') m.move(0, 1);
    else if (move === 'left') m.move(0, -1);
    scroller?.focus({ preventScroll: true });
    this.h.selectionChanged(true);
  }

  /** The drawn cell, once it is on screen (after scrolling it into view). */
  private async cellElement(row: number, col: number): Promise<HTMLElement | undefined> {
    const view = this.h.view();
    if (!view) return undefined;
    const find = (): HTMLElement | null => view.scroller.querySelector<HTMLElement>(`.vdb-cell[data-r="${row}"][data-c="${col}"]`);
    view.reveal(row, col);
    view.render();
    for (let i = 0; i < 5 && !find(); i++) await new Promise((r) => this.h.doc.defaultView?.requestAnimationFrame(r) ?? setTimeout(r, 16));
    return find() ?? undefined;
  }

  /** Rows of the selection (or the active cell's row), when they are few enough and loaded. */
  private selectedRows(): { top: number; bottom: number; left: number; right: number } | undefined {
    const m = this.h.model;
    const s = m.selection;
    if (!s) {
      this.h.announce(l10n.t('Select cells or rows first.'));
      return undefined;
    }
    if (s.bottom - s.top + 1 > MAX_ROWS_AT_ONCE) {
      this.h.announce(l10n.t('Select at most {0} rows at once.', MAX_ROWS_AT_ONCE.toLocaleString('en-US')));
      return undefined;
    }
    if (!this.h.source.isLoaded(s.top, s.bottom)) {
      this.h.announce(l10n.t('Some selected rows are not loaded yet: scroll to them first.'));
      return undefined;
    }
    return s;
  }

  private setNull(): void {
    const s = this.selectedRows();
    if (!s) return;
    const edits: CellEdit[] = [];
    for (let r = s.top; r <= s.bottom; r++) {
      const place = this.h.source.place(r);
      const ref = this.h.source.ref(r);
      if (!ref || (place.kind === 'table' && place.deleted)) continue;
      for (let c = s.left; c <= s.right; c++)
        if (!this.setup.locked[c] && this.h.model.cell(r, c) !== null) edits.push({ row: ref, column: c, value: null });
    }
    if (edits.length === 0) return void this.h.announce(l10n.t('Nothing to set to NULL here.'));
    this.post({ kind: 'set', edits });
    this.h.announce(edits.length === 1 ? l10n.t('Set 1 cell to NULL') : l10n.t('Set {0} cells to NULL', edits.length));
  }

  private deleteRows(): void {
    const s = this.selectedRows();
    if (!s) return;
    const rows: RowRef[] = [];
    for (let r = s.top; r <= s.bottom; r++) {
      const ref = this.h.source.ref(r);
      if (ref) rows.push(ref);
    }
    if (rows.length === 0) return;
    this.post({ kind: 'deleteRows', rows });
    this.h.announce(
      rows.length === 1
        ? l10n.t('Deleted 1 row (until you undo it or propose the changes)')
        : l10n.t('Deleted {0} rows (until you undo it or propose the changes)', rows.length),
    );
  }

  private addRow(): void {
    this.selectNewRow = true;
    this.post({ kind: 'addRows', count: 1 });
  }

  private nextProblem(): void {
    const rows = this.h.source.problemRows();
    const a = this.h.model.active;
    const next = rows.find((r) => !a || r > a.row) ?? rows[0];
    if (next === undefined) return void this.h.announce(l10n.t('The rows with problems are not loaded: Review Changes lists them.'));
    const problem = this.h.source.problems(next)[0];
    this.h.model.selectCell({ row: next, col: Math.max(0, problem?.column ?? 0) });
    this.h.selectionChanged(true);
    this.h.announce(problem?.message ?? '');
  }

  /** A paste on the focused grid (text as the clipboard holds it). */
  paste(text: string): void {
    const s = this.h.model.selection;
    if (!s) return void this.h.announce(l10n.t('Select the cell to paste at first.'));
    let block: Cell[][];
    try {
      block = parseClipboardTable(text);
    } catch (e) {
      if (!(e instanceof ClipboardTableError)) throw e;
      return this.refused(e.message);
    }
    const plan = planPaste(block, s, this.h.source, this.h.model.columnCount, this.setup.locked);
    if ('error' in plan) return this.refused(plan.error);
    this.post(plan.request);
    this.h.model.selectCell({ row: plan.range.top, col: plan.range.left });
    this.h.model.selectCell({ row: plan.range.bottom, col: plan.range.right }, true);
    this.h.selectionChanged(false);
    const cells = block.length * (block[0]?.length ?? 0);
    const pasted = cells === 1 ? l10n.t('Pasted 1 cell') : l10n.t('Pasted {0} cells', cells);
    this.h.announce(plan.added ? l10n.t('{0}, adding {1} rows', pasted, plan.added) : pasted);
  }

  /** The row menu's edit items for the cell. */
  menuItems(row: number, col: number): RowMenuItem[] {
    const place = this.h.source.place(row);
    const loaded = place.kind !== 'unloaded';
    return [
      {
        id: 'edit',
        label: l10n.t('Edit Cell'),
        title: l10n.t('Edit this cell (Enter)'),
        disabled: !loaded || !!this.setup.locked[col],
        run: () => this.startEdit(row, col),
      },
      {
        id: 'null',
        label: l10n.t('Set to NULL'),
        title: l10n.t('Set the selected cells to NULL (Delete)'),
        disabled: !loaded,
        run: () => this.setNull(),
      },
      { id: 'add', label: l10n.t('Add Row'), title: l10n.t('Add a new row at the top of the grid (Insert)'), run: () => this.addRow() },
      {
        id: 'delete',
        label: l10n.t('Delete Rows'),
        title: l10n.t('Delete the selected rows (Ctrl+Delete)'),
        disabled: !loaded,
        run: () => this.deleteRows(),
      },
    ];
  }

  private refused(message: string): void {
    this.h.root.querySelector('[data-banner="edit"]')?.remove();
    this.h.notices().appendChild(banner(this.h.doc, { severity: 'warning', title: l10n.t('Not changed'), message, advice: '' }, 'edit'));
    this.h.announce(message);
  }

  receive(m: HostEditMessage): void {
    if (m.sourceId !== this.h.output.sourceId) return;
    if (m.type === 'edit.refused') return this.refused(m.message);
    this.h.root.querySelector('[data-banner="edit"]')?.remove();
    const before = this.h.source.newCount;
    this.h.source.apply(m);
    this.widen(m);
    this.counts = m.counts;
    this.bar.update(m.counts);
    if (this.selectNewRow && this.h.source.newCount > before) {
      this.selectNewRow = false;
      const first = this.setup.locked.findIndex((l) => l === null);
      this.h.model.selectCell({ row: this.h.source.newCount - 1, col: Math.max(0, first) });
      this.h.selectionChanged(true);
      this.h.announce(l10n.t('Added a new row at the top of the grid'));
    }
  }

  /** Columns widen for the values the edits brought, as they do for pages that arrive. */
  private widen(m: Extract<HostEditMessage, { type: 'edit.overlay' }>): void {
    const n = this.h.model.columnCount;
    const rows: Cell[][] = m.newRows.map((r) => r.cells);
    for (const b of m.base) {
      const row: Cell[] = new Array<Cell>(n).fill('');
      for (const [c, v] of b.changes) row[c] = v;
      rows.push(row);
    }
    if (rows.length === 0) return;
    const changed = this.h.model.widenColumns({ rowCount: rows.length, columnCount: n, cell: (r, c) => rows[r]?.[c] ?? null });
    if (changed) this.h.view()?.widthsChanged(true);
  }

  dispose(): void {
    this.closeEditor?.();
  }
}
