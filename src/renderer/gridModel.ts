// The grid's state without the DOM: which rows are visible in which order (quick filter +
// type-aware sort), the selection, and column widths. The DOM layer (resultGrid.ts) only
// reads from it, so everything a user can do to the data is unit-tested in Node. The cells
// live in a CellTable: row arrays at first, the compact ColumnStore once the grid has
// converted them (`replaceData`); the view (filter, sort, selection) is row indexes either way.
// Over a paged source (`RemoteRows`) rows are shown in the server's order: sort and filter
// are only recorded here and run on the server, and no row index array is built.
import type { Cell, QueryColumn } from '../shared/wire';
import { TableView, asCellTable, rowsContaining, tableRows, type CellSource, type CellTable } from '../shared/columnStore';
import { sortRowIndexes, valueKind, type SortDirection, type SortKey, type ValueKind } from '../shared/queryResultSort';
import { NULL_DISPLAY } from '../shared/queryResultFormat';

export interface CellPos {
  row: number;
  col: number;
}

/** An inclusive rectangle in view coordinates (view row index, column index). */
export interface CellRange {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Rows served in pages by the host: what the model reads of a paged RowSource. */
export interface RemoteRows {
  readonly local: false;
  readonly rowCount: number;
  cell(row: number, col: number): Cell;
}

function isRemote(v: CellSource | RemoteRows): v is RemoteRows {
  return !Array.isArray(v) && (v as Partial<RemoteRows>).local === false;
}

/** Rows [first, first + rowCount) and columns [left, left + columnCount) of a remote source. */
class RemoteRange implements CellTable {
  constructor(
    private readonly rows: RemoteRows,
    private readonly first: number,
    readonly rowCount: number,
    private readonly left: number,
    readonly columnCount: number,
  ) {}

  cell(row: number, col: number): Cell {
    if (row < 0 || row >= this.rowCount || col < 0 || col >= this.columnCount) return null;
    return this.rows.cell(this.first + row, this.left + col);
  }
}

export const MIN_COLUMN_WIDTH = 48;
/** The widest a column is sized from its values; the user may drag it wider. */
export const MAX_INITIAL_COLUMN_WIDTH = 360;
/** Character width assumed until the view has measured the grid's font. */
export const DEFAULT_CHAR_PX = 7.5;
/**
 * Cells read to size the columns for a page as it arrives: every row of a page up to this many
 * cells (all 10,000 rows of a Load All Rows page of 3 columns), else rows spread evenly over it,
 * never fewer than 1,000. A page costs the same whatever the result's size.
 */
export const WIDTH_SAMPLE_CELLS = 50_000;

/** Characters a column's header needs: its name, room for the sort arrow, the PK badge on keys. */
function headerChars(column: QueryColumn): number {
  return column.name.length + 3 + (column.is_primary_key ? 3 : 0);
}

/**
 * The longest value (in characters, up to the 80 a cap-wide column shows) in column `col` of
 * `rows`, read from at most `limit` rows spread evenly over them.
 */
export function widestValue(rows: CellTable, col: number, limit: number): number {
  const n = rows.rowCount;
  const step = n > limit ? n / limit : 1;
  let chars = 0;
  for (let i = 0; i < n && chars < 80; i += step) {
    const cell = rows.cell(Math.floor(i), col);
    const len = cell === null ? NULL_DISPLAY.length : Math.min(cell.length, 80);
    if (len > chars) chars = len;
  }
  return chars;
}

/** A column's width in px for a number of characters, between the minimum and the cap. */
function widthForChars(chars: number, charPx: number): number {
  // Cell padding (6 px each side) and a little room.
  return Math.max(MIN_COLUMN_WIDTH, Math.min(MAX_INITIAL_COLUMN_WIDTH, Math.round(chars * charPx + 16)));
}

/** Initial column width in px from the header and a sample of values (monospace-ish estimate). */
export function estimateColumnWidth(column: QueryColumn, rows: CellSource, col: number, charPx = DEFAULT_CHAR_PX): number {
  const table = asCellTable(rows, col + 1);
  return widthForChars(Math.max(headerChars(column), widestValue(table, col, 200)), charPx);
}

export class GridModel {
  readonly columns: readonly QueryColumn[];
  readonly kinds: readonly ValueKind[];
  readonly widths: number[];

  private table: CellTable;
  private readonly remote: RemoteRows | undefined;
  /** Characters each column needs for what it has shown so far (its width follows, up to the cap). */
  private readonly chars: number[];
  private charPx = DEFAULT_CHAR_PX;
  /** Columns the user resized: their width is the user's from then on. */
  private readonly userSized = new Set<number>();
  private filterText = '';
  private sortKeys: SortKey[] = [];
  private filtered: number[];
  private viewRows: number[];
  private anchor: CellPos | undefined;
  private focus: CellPos | undefined;

  constructor(columns: readonly QueryColumn[], rows: CellSource | RemoteRows) {
    this.columns = columns;
    this.remote = isRemote(rows) ? rows : undefined;
    this.table = isRemote(rows) ? new RemoteRange(rows, 0, 0, 0, columns.length) : asCellTable(rows, columns.length);
    this.kinds = columns.map((c) => valueKind(c.type));
    this.chars = columns.map((c, i) => Math.max(headerChars(c), widestValue(this.table, i, 200)));
    this.widths = this.chars.map((n) => widthForChars(n, this.charPx));
    this.filtered = allRows(this.table.rowCount);
    this.viewRows = this.filtered;
  }

  /** The cells, in the server's row order. */
  get data(): CellTable {
    return this.table;
  }

  /** Rows in the result, whatever the filter. */
  get totalRowCount(): number {
    return this.remote ? this.remote.rowCount : this.table.rowCount;
  }

  /** True when rows come in pages from the host (sort and filter run on the server). */
  get isRemote(): boolean {
    return this.remote !== undefined;
  }

  /**
   * Widens the columns whose values in `rows` (rows that just arrived: a page of a paged source)
   * need more room than they have, up to the cap. A column never narrows on its own, so nothing
   * jumps back and forth while scrolling, and one the user resized keeps the user's width.
   * Returns true when a width changed.
   */
  widenColumns(rows: CellTable): boolean {
    let changed = false;
    const limit = Math.max(1000, Math.floor(WIDTH_SAMPLE_CELLS / Math.max(1, this.columns.length)));
    for (let i = 0; i < this.columns.length; i++) {
      if (this.userSized.has(i)) continue;
      const chars = widestValue(rows, i, limit);
      if (chars <= (this.chars[i] ?? 0)) continue;
      this.chars[i] = chars;
      const w = widthForChars(chars, this.charPx);
      if (w > (this.widths[i] ?? 0)) {
        this.widths[i] = w;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * The width of one character in the grid's font, as the view measured it: the columns the user
   * has not resized are sized again for it (before the first paint, so nothing moves).
   */
  setCharWidth(px: number): void {
    if (!(px > 0) || px === this.charPx) return;
    this.charPx = px;
    this.chars.forEach((n, i) => {
      if (!this.userSized.has(i)) this.widths[i] = widthForChars(n, px);
    });
  }

  /**
   * Swaps in another representation of the same cells (the compact store once it is built).
   * The view, sort and selection stay as they are: they are row indexes.
   */
  replaceData(table: CellTable): void {
    if (table.rowCount !== this.table.rowCount || table.columnCount < this.columns.length) {
      throw new Error(
        `replaceData: expected ${this.table.rowCount} × ${this.columns.length} cells, got ${table.rowCount} × ${table.columnCount}`,
      );
    }
    this.table = table;
  }

  // ---- view (filter + sort) ----

  get rowCount(): number {
    return this.remote ? this.remote.rowCount : this.viewRows.length;
  }

  get columnCount(): number {
    return this.columns.length;
  }

  get filter(): string {
    return this.filterText;
  }

  get sort(): readonly SortKey[] {
    return this.sortKeys;
  }

  /** The source row index shown at a view position. */
  sourceRow(viewRow: number): number {
    if (this.remote) return viewRow < this.remote.rowCount ? viewRow : -1;
    return this.viewRows[viewRow] ?? -1;
  }

  cell(viewRow: number, col: number): Cell {
    if (this.remote) return this.remote.cell(viewRow, col);
    const r = this.viewRows[viewRow];
    if (r === undefined) return null;
    return this.table.cell(r, col);
  }

  /**
   * Keeps rows where any cell contains the text (case-insensitive). NULL matches "null".
   * The selection is cleared: its view positions no longer mean the same rows.
   */
  setFilter(text: string): void {
    // A paged source filters on the server, per column (the grid sends it to the host).
    if (this.remote) return;
    const needle = text.trim().toLowerCase();
    if (needle === this.filterText) return;
    this.filterText = needle;
    this.filtered = needle ? rowsContaining(this.table, needle, NULL_DISPLAY.toLowerCase().includes(needle)) : allRows(this.table.rowCount);
    this.applySort();
    this.clearSelection();
  }

  /**
   * Header click: cycles the column through ascending, descending, unsorted. With `add`
   * (shift-click) the column becomes a further key instead of replacing the sort.
   */
  toggleSort(col: number, add = false): void {
    const i = this.sortKeys.findIndex((k) => k.column === col);
    const current = i >= 0 ? this.sortKeys[i] : undefined;
    const next: SortDirection | undefined = !current ? 'asc' : current.direction === 'asc' ? 'desc' : undefined;
    if (add) {
      if (i >= 0) this.sortKeys.splice(i, 1);
      if (next) this.sortKeys.splice(i >= 0 ? i : this.sortKeys.length, 0, { column: col, direction: next });
    } else {
      this.sortKeys = next ? [{ column: col, direction: next }] : [];
    }
    this.applySort();
  }

  setSort(keys: readonly SortKey[]): void {
    this.sortKeys = keys.slice();
    this.applySort();
  }

  sortDirection(col: number): SortDirection | undefined {
    return this.sortKeys.find((k) => k.column === col)?.direction;
  }

  private applySort(): void {
    if (this.remote) return;
    this.viewRows = this.sortKeys.length ? sortRowIndexes(this.table, this.filtered, this.sortKeys, this.kinds) : this.filtered;
  }

  // ---- column widths ----

  resizeColumn(col: number, width: number): number {
    const w = Math.max(MIN_COLUMN_WIDTH, Math.round(width));
    if (col >= 0 && col < this.widths.length) {
      this.widths[col] = w;
      this.userSized.add(col);
    }
    return w;
  }

  // ---- selection ----

  get active(): CellPos | undefined {
    return this.focus;
  }

  get selection(): CellRange | undefined {
    if (!this.anchor || !this.focus) return undefined;
    return {
      top: Math.min(this.anchor.row, this.focus.row),
      bottom: Math.max(this.anchor.row, this.focus.row),
      left: Math.min(this.anchor.col, this.focus.col),
      right: Math.max(this.anchor.col, this.focus.col),
    };
  }

  isSelected(row: number, col: number): boolean {
    const s = this.selection;
    return !!s && row >= s.top && row <= s.bottom && col >= s.left && col <= s.right;
  }

  clearSelection(): void {
    this.anchor = undefined;
    this.focus = undefined;
  }

  private clamp(p: CellPos): CellPos | undefined {
    if (this.rowCount === 0 || this.columnCount === 0) return undefined;
    return {
      row: Math.max(0, Math.min(this.rowCount - 1, p.row)),
      col: Math.max(0, Math.min(this.columnCount - 1, p.col)),
    };
  }

  /** Click (or click + shift to extend from the anchor). */
  selectCell(p: CellPos, extend = false): void {
    const c = this.clamp(p);
    if (!c) return;
    if (!extend || !this.anchor) this.anchor = c;
    this.focus = c;
  }

  /** Row header click: the whole row; with shift, every row from the anchor's row. */
  selectRow(row: number, extend = false): void {
    const c = this.clamp({ row, col: 0 });
    if (!c) return;
    const last = this.columnCount - 1;
    if (!extend || !this.anchor) this.anchor = { row: c.row, col: 0 };
    else this.anchor = { row: this.anchor.row, col: 0 };
    this.focus = { row: c.row, col: last };
  }

  selectColumn(col: number, extend = false): void {
    const c = this.clamp({ row: 0, col });
    if (!c) return;
    if (!extend || !this.anchor) this.anchor = { row: 0, col: c.col };
    else this.anchor = { row: 0, col: this.anchor.col };
    this.focus = { row: this.rowCount - 1, col: c.col };
  }

  selectAll(): void {
    if (this.rowCount === 0 || this.columnCount === 0) return;
    this.anchor = { row: 0, col: 0 };
    this.focus = { row: this.rowCount - 1, col: this.columnCount - 1 };
  }

  /** Arrow keys (dr/dc), with shift extending the range. Starts at the top-left when empty. */
  move(dr: number, dc: number, extend = false): void {
    const from = this.focus ?? { row: 0, col: 0 };
    const to = this.focus ? { row: from.row + dr, col: from.col + dc } : from;
    this.selectCell(to, extend);
  }

  /** Home/End/Ctrl+Home/Ctrl+End style jumps to an absolute position. */
  moveTo(p: Partial<CellPos>, extend = false): void {
    const from = this.focus ?? { row: 0, col: 0 };
    this.selectCell({ row: p.row ?? from.row, col: p.col ?? from.col }, extend);
  }

  /**
   * The selected cells (columns + a table of them in view order), or the whole view when
   * nothing is selected. This is what "Copy" formats; nothing is copied out of the store.
   */
  selectedTable(): { columns: QueryColumn[]; table: CellTable } {
    const s = this.selection ?? { top: 0, bottom: this.rowCount - 1, left: 0, right: this.columnCount - 1 };
    const columns = this.columns.slice(s.left, s.right + 1);
    const rowCount = Math.max(0, s.bottom - s.top + 1);
    if (this.remote) return { columns, table: new RemoteRange(this.remote, s.top, rowCount, s.left, columns.length) };
    return { columns, table: new TableView(this.table, this.viewRows, s.left, columns.length, s.top, rowCount) };
  }

  /** `selectedTable()` as row arrays. */
  selectedData(): { columns: QueryColumn[]; rows: Cell[][] } {
    const { columns, table } = this.selectedTable();
    return { columns, rows: tableRows(table) };
  }

  /** Every row of the result in the current sort order, the filter ignored: what "Export" saves. */
  exportTable(): CellTable {
    const order = !this.filterText
      ? this.viewRows
      : this.sortKeys.length
        ? sortRowIndexes(this.table, allRows(this.table.rowCount), this.sortKeys, this.kinds)
        : allRows(this.table.rowCount);
    return new TableView(this.table, order, 0, this.columns.length);
  }
}

function allRows(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}
