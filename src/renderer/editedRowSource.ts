// The rows of an editable table browser (issue #23): the table's pages as the host serves them
// (a PagedRowSource), with the change set painted over them. New rows come first, at the top of the
// grid, so they stay in view whatever the table's size, sort or filter; then the table's rows,
// whose changed cells, deletion and problems are found by primary key (a map lookup per row drawn,
// never a scan of the rows). The overlay is the host's (`edit.overlay`, src/shared/editProtocol.ts):
// this only mirrors it for drawing and names rows back to the host (`ref`).
import type { Cell, QueryColumn } from '../shared/wire';
import type { RowKind } from '../shared/gridPaging';
import { rowKeyId, type CellProblem, type HostEditMessage, type RowRef } from '../shared/editProtocol';
import type { PagedRowSource } from './pagedRowSource';
import type { RowSource, RowSpan, RowState } from './rowSource';

interface BaseOverlay {
  changes: Map<number, Cell>;
  deleted: boolean;
  problems: CellProblem[];
}

interface NewOverlay {
  cells: Cell[];
  problems: CellProblem[];
}

/** What a view row is, for the editing code. */
export type RowPlace = { kind: 'new'; id: number } | { kind: 'table'; row: number; deleted: boolean } | { kind: 'unloaded' };

export class EditedRowSource implements RowSource {
  readonly local = false;
  readonly editable = true;
  private readonly overlay = new Map<string, BaseOverlay>();
  private readonly newRows = new Map<number, NewOverlay>();
  private order: number[] = [];
  private readonly listeners = new Set<(arrived?: RowSpan) => void>();
  /** Key id of table rows drawn since pages last changed (a row's key is read once per page). */
  private readonly keyIds = new Map<number, string>();
  private readonly unsubscribe: () => void;

  constructor(
    readonly base: PagedRowSource,
    private readonly keyColumns: readonly number[],
  ) {
    this.unsubscribe = base.subscribe((arrived) => {
      this.keyIds.clear();
      const k = this.order.length;
      this.emit(arrived && { start: arrived.start + k, end: arrived.end + k });
    });
  }

  get columns(): readonly QueryColumn[] {
    return this.base.columns;
  }

  /** New rows, at the top of the grid. */
  get newCount(): number {
    return this.order.length;
  }

  get rowCount(): number {
    return this.order.length + this.base.rowCount;
  }

  get totalKnown(): boolean {
    return this.base.totalKnown;
  }

  /** The table row's key id, when it is loaded. */
  private keyIdOf(row: number): string | undefined {
    const hit = this.keyIds.get(row);
    if (hit !== undefined) return hit;
    if (this.base.rowState(row) !== 'ready') return undefined;
    const id = rowKeyId(this.keyColumns.map((c) => this.base.cell(row, c)));
    this.keyIds.set(row, id);
    return id;
  }

  private entryOf(row: number): BaseOverlay | undefined {
    if (this.overlay.size === 0) return undefined;
    const id = this.keyIdOf(row);
    return id === undefined ? undefined : this.overlay.get(id);
  }

  private newAt(row: number): NewOverlay | undefined {
    const id = this.order[row];
    return id === undefined ? undefined : this.newRows.get(id);
  }

  place(row: number): RowPlace {
    const k = this.order.length;
    if (row < k) return { kind: 'new', id: this.order[row] as number };
    const b = row - k;
    if (this.base.rowState(b) !== 'ready') return { kind: 'unloaded' };
    return { kind: 'table', row: b, deleted: !!this.entryOf(b)?.deleted };
  }

  /** How the host names a row: a new row by its id, a table row by its key with its cells as read. */
  ref(row: number): RowRef | undefined {
    const p = this.place(row);
    if (p.kind === 'new') return { newRow: p.id };
    if (p.kind === 'unloaded') return undefined;
    const cells = this.base.columns.map((_, c) => this.base.cell(p.row, c));
    return { key: this.keyColumns.map((c) => cells[c] ?? null), row: cells };
  }

  rowState(row: number): RowState {
    const k = this.order.length;
    return row < k ? 'ready' : this.base.rowState(row - k);
  }

  cell(row: number, col: number): Cell {
    const k = this.order.length;
    if (row < k) return this.newAt(row)?.cells[col] ?? null;
    const e = this.entryOf(row - k);
    return e?.changes.has(col) ? (e.changes.get(col) ?? null) : this.base.cell(row - k, col);
  }

  rowKind(row: number): RowKind | undefined {
    const k = this.order.length;
    if (row < k) return 'added';
    const e = this.entryOf(row - k);
    if (e?.deleted) return 'removed';
    return e && e.changes.size > 0 ? 'modified' : undefined;
  }

  oldCell(row: number, col: number): Cell | undefined {
    const k = this.order.length;
    if (row < k) return undefined;
    return this.entryOf(row - k)?.changes.has(col) ? this.base.cell(row - k, col) : undefined;
  }

  problems(row: number): readonly CellProblem[] {
    const k = this.order.length;
    return (row < k ? this.newAt(row)?.problems : this.entryOf(row - k)?.problems) ?? [];
  }

  rowLabel(row: number): string {
    const k = this.order.length;
    return row < k ? 'new' : String(row - k + 1);
  }

  failure(row: number): string | undefined {
    const k = this.order.length;
    return row < k ? undefined : this.base.failure(row - k);
  }

  isLoaded(first: number, last: number): boolean {
    const k = this.order.length;
    return last < k || this.base.isLoaded(Math.max(0, first - k), last - k);
  }

  showing(first: number, last: number): void {
    const k = this.order.length;
    this.base.showing(Math.max(0, first - k), Math.max(0, last - k));
  }

  retry(row: number): void {
    const k = this.order.length;
    if (row >= k) this.base.retry(row - k);
  }

  /** Takes the host's overlay (all of it, or what changed). */
  apply(m: Extract<HostEditMessage, { type: 'edit.overlay' }>): void {
    if (m.reset) {
      this.overlay.clear();
      this.newRows.clear();
      this.order = [];
    }
    for (const id of m.removed) this.overlay.delete(id);
    for (const b of m.base) this.overlay.set(b.id, { changes: new Map(b.changes), deleted: b.deleted, problems: b.problems });
    for (const n of m.newRows) this.newRows.set(n.id, { cells: n.cells, problems: n.problems });
    if (m.order) {
      this.order = m.order.filter((id) => this.newRows.has(id));
      const kept = new Set(this.order);
      for (const id of [...this.newRows.keys()]) if (!kept.has(id)) this.newRows.delete(id);
    }
    this.emit();
  }

  /** Every row with a problem that the grid can show now (new rows, loaded table rows), top first. */
  problemRows(): number[] {
    const out: number[] = [];
    this.order.forEach((id, i) => {
      if (this.newRows.get(id)?.problems.length) out.push(i);
    });
    if (this.overlay.size === 0) return out;
    const k = this.order.length;
    for (const span of this.base.loadedSpans()) {
      for (let b = span.start; b < span.end; b++) if (this.entryOf(b)?.problems.length) out.push(b + k);
    }
    return out;
  }

  subscribe(listener: (arrived?: RowSpan) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(arrived?: RowSpan): void {
    for (const l of [...this.listeners]) l(arrived);
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
    this.base.dispose();
  }
}
