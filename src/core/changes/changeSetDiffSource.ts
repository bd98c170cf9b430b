// An unsent change set as a diff against its base, for the Changes view (the same view and grid as
// a commit's diff): a `PageSource` built from the snapshot, since no commit holds these changes
// yet. Rows are ordered by primary key like a server diff; each carries its kind and, for a changed
// row, the row before, so the grid shows old → new in the cells that changed.
import type { Cell, QueryColumn } from '../../shared/wire';
import type { DiffKind } from '../../shared/changesProtocol';
import { sortRowIndexes, valueKind } from '../../shared/queryResultSort';
import type { PageRows, PageSource, PageView } from '../paging/pageServer';
import { rowDiffExportTable, type DiffColumn, type RowDiff } from '../review/rowDiff';
import type { ChangeSetSnapshot } from './changeSetSnapshot';

interface DiffRow {
  kind: DiffKind;
  /** The row as the diff shows it: after for added and modified rows, before for removed ones. */
  cells: Cell[];
  before?: Cell[];
}

export class ChangeSetDiffSource implements PageSource {
  private readonly rows: DiffRow[];

  constructor(
    private readonly snapshot: ChangeSetSnapshot,
    kinds: readonly DiffKind[] = ['added', 'modified', 'removed'],
  ) {
    const all: DiffRow[] = [
      ...snapshot.deleted.map((r) => ({ kind: 'removed' as const, cells: r })),
      ...snapshot.updated.map((u) => ({ kind: 'modified' as const, cells: u.after, before: u.before })),
      ...snapshot.inserted.map((r) => ({ kind: 'added' as const, cells: r })),
    ].filter((r) => kinds.includes(r.kind));
    const types = snapshot.columns.map((c) => valueKind(c.type));
    const order = sortRowIndexes(
      all.map((r) => r.cells),
      all.map((_, i) => i),
      snapshot.keyColumns.map((column) => ({ column, direction: 'asc' as const })),
      types,
    );
    this.rows = order.map((i) => all[i] as DiffRow);
  }

  /** Rows in the diff (of the kinds asked for). */
  get rowCount(): number {
    return this.rows.length;
  }

  gridColumns(): QueryColumn[] {
    return this.snapshot.columns.map((c) => ({ ...c }));
  }

  keyColumns(): number[] {
    return this.snapshot.keyColumns.slice();
  }

  checkView(view: PageView): string | undefined {
    return view.sort.length || view.filters.length
      ? 'A diff is ordered by primary key; filter it by kind of change above the grid.'
      : undefined;
  }

  count(): Promise<number> {
    return Promise.resolve(this.rows.length);
  }

  read(start: number, end: number): Promise<PageRows> {
    const page = this.rows.slice(start, end);
    return Promise.resolve({
      rows: page.map((r) => r.cells.slice()),
      kinds: page.map((r) => r.kind),
      old: page.map((r) => (r.before ? r.before.slice() : null)),
      ...(end >= this.rows.length ? { end: true } : {}),
    });
  }

  /** The rows as RowDiffs (old and new per cell), as a server diff's rows are. */
  private rowDiffs(start: number, end: number): RowDiff[] {
    const names = this.snapshot.columns.map((c) => c.name);
    return this.rows.slice(start, end).map((r) => ({
      kind: r.kind,
      key: this.snapshot.keyColumns.map((k) => r.cells[k] ?? null),
      cells: names.map((column, i) => {
        const now = r.cells[i] ?? null;
        const old = r.kind === 'modified' ? (r.before?.[i] ?? null) : undefined;
        return {
          column,
          presence: 'both' as const,
          ...(r.kind === 'removed' ? { old: now } : { new: now }),
          ...(old !== undefined ? { old } : {}),
          changed: r.kind !== 'modified' || old !== now,
          comparable: true,
        };
      }),
    }));
  }

  /** The same diff as export rows: `diff_type`, then `from_<c>`/`to_<c>` (as a server diff exports). */
  exportSource(): { columns: QueryColumn[]; source: PageSource } {
    const columns: DiffColumn[] = this.snapshot.columns.map((c, i) => ({
      name: c.name,
      presence: 'both',
      primaryKey: this.snapshot.keyColumns.includes(i),
    }));
    return {
      columns: rowDiffExportTable(columns, []).columns,
      source: {
        read: (start, end) =>
          Promise.resolve({
            rows: rowDiffExportTable(columns, this.rowDiffs(start, end)).rows,
            ...(end >= this.rows.length ? { end: true } : {}),
          }),
      },
    };
  }
}
