// SQL for browsing one table a page at a time: the page itself (keyset on the primary key, or
// LIMIT/OFFSET), server-side sort and per-column filters, and the row count. Pure: every name and
// value goes through ./quote, so the text is valid on Dolt (MySQL) and DoltLite (SQLite) alike.
//
// How a page is found (decided here, documented in docs/architecture.md):
// - The order is the user's sort columns, then the primary-key columns not already in it, so it
//   is total and the same for every page. A keyless table is ordered by the sort columns then all
//   its other columns (rows equal in every column are indistinguishable anyway); with no sort it
//   keeps the engine's scan order, fixed at a commit.
// - Keyset: the page after a known row is `WHERE (order columns) > (that row's values)`, written
//   out as `c1 > v1 OR (c1 = v1 AND c2 > v2) …` (both engines use an index for it, and NULLs,
//   which both engines sort first, get explicit `IS NULL` terms). The page before a known row is
//   the same with every direction flipped and ORDER BY reversed; the caller reverses its rows.
// - A far page (a jump, no neighbour read) is read from the nearest sampled key before it
//   (src/core/sql/keySamples.ts): `WHERE (order) > (that key) … LIMIT n OFFSET d`, d below the
//   sampling interval, an index seek plus a short step instead of an OFFSET over half the table.
// - Keyset is used only when every order column has an exact type (integers, decimals, text,
//   dates): a float prints rounded, and `c > 1.1` would find the row it came from again. It also
//   needs a primary key. Otherwise, and to jump into the middle of a table, a page is read with
//   LIMIT/OFFSET, which at a fixed commit gives the same rows every time.
import type { Cell } from '../../shared/wire';
import type { ColumnFilter, ColumnSort, SortDirection } from '../../shared/gridPaging';
import { BINARY_CELL } from '../../shared/wire';
import { SqlInputError, likeContains, quoteIdentifier, sqlCount, sqlValue } from './quote';

export interface TableColumnInfo {
  name: string;
  /** The declared SQL type, e.g. `bigint`, `varchar(255)`, `decimal(10,2)`. */
  type: string;
  primaryKey: boolean;
  /** Unknown (undefined) is treated as nullable, except for primary-key columns. */
  nullable?: boolean;
}

/** The sort and filter shapes the grid sends (see src/shared/gridPaging.ts). */
export type { ColumnFilter, SortDirection };
export type TableSort = ColumnSort;

export interface TableView {
  /** The table's name (what messages name it by, and what it is read from unless `from` says otherwise). */
  table: string;
  /**
   * A derived table to read instead of `table`, e.g. `(SELECT …) AS \`q\``: the rows of a user's
   * query (Load All Rows) sorted and filtered on the server by wrapping it (src/core/sql/pagedQuery.ts).
   */
  from?: string;
  /** The table's columns in table order: what every page selects. */
  columns: readonly TableColumnInfo[];
  sort?: readonly TableSort[];
  filters?: readonly ColumnFilter[];
}

/** Where a page starts. `key` holds the values of `orderColumns(view)` of the row next to it. */
export type PagePosition =
  | { kind: 'first' }
  | { kind: 'after'; key: readonly Cell[] }
  | { kind: 'before'; key: readonly Cell[] }
  | { kind: 'last' }
  | { kind: 'offset'; offset: number }
  /** Counted from the end: skip `offset` rows in reverse order (a far page nearer the end). */
  | { kind: 'fromEnd'; offset: number }
  /** Keyset from a known row then a short offset: skip `offset` rows after `key` (a far jump from a sampled key). */
  | { kind: 'seek'; key: readonly Cell[]; offset: number };

export interface PageQuery {
  sql: string;
  /** The rows come last-first (a `before`, `last` or `fromEnd` page): reverse them before showing. */
  reversed: boolean;
}

export type ColumnClass = 'integer' | 'decimal' | 'text' | 'temporal' | 'inexact';

/** How a declared type compares: exactly (usable as a keyset cursor) or not. */
export function columnClass(type: string): ColumnClass {
  const t = type.trim().toLowerCase();
  if (/^(tinyint|smallint|mediumint|int|integer|bigint|year|bool|boolean)\b/.test(t)) return 'integer';
  if (/^(decimal|numeric|dec|fixed)\b/.test(t)) return 'decimal';
  if (/^(char|varchar|nchar|nvarchar|character|text|tinytext|mediumtext|longtext|varying)\b/.test(t)) return 'text';
  if (/^(date|datetime|timestamp|time)\b/.test(t)) return 'temporal';
  // float, double, real, bit, enum/set (ORDER BY index, compare as text), json, blob, binary, geometry, unknown.
  return 'inexact';
}

function isExactNumeric(c: TableColumnInfo): boolean {
  const k = columnClass(c.type);
  return k === 'integer' || k === 'decimal';
}

function isNullable(c: TableColumnInfo): boolean {
  return c.primaryKey ? false : c.nullable !== false;
}

function columnNamed(view: TableView, name: string): TableColumnInfo {
  const c = view.columns.find((x) => x.name === name);
  if (!c) throw new SqlInputError(`The table ${view.table} has no column ${name}.`);
  return c;
}

interface OrderColumn {
  column: TableColumnInfo;
  direction: SortDirection;
}

function orderOf(view: TableView): OrderColumn[] {
  const out: OrderColumn[] = [];
  const used = new Set<string>();
  for (const s of view.sort ?? []) {
    if (used.has(s.column)) continue;
    if (s.direction !== 'asc' && s.direction !== 'desc') throw new SqlInputError(`Unknown sort direction ${String(s.direction)}.`);
    out.push({ column: columnNamed(view, s.column), direction: s.direction });
    used.add(s.column);
  }
  const keys = view.columns.filter((c) => c.primaryKey);
  // Keyless and sorted: every other column breaks ties. Keyless and unsorted: scan order.
  const tieBreak = keys.length > 0 ? keys : out.length > 0 ? view.columns : [];
  for (const c of tieBreak) {
    if (used.has(c.name)) continue;
    out.push({ column: c, direction: 'asc' });
    used.add(c.name);
  }
  return out;
}

/** The columns (names) whose values of a row make the cursor of `after` / `before` positions. */
export function orderColumns(view: TableView): TableSort[] {
  return orderOf(view).map((o) => ({ column: o.column.name, direction: o.direction }));
}

/** Whether pages of this view can be found by keyset (see the top of this file). */
export function keysetSupported(view: TableView): boolean {
  if (!view.columns.some((c) => c.primaryKey)) return false;
  return orderOf(view).every((o) => columnClass(o.column.type) !== 'inexact');
}

/**
 * The cursor of a row (its cells in table column order) for `after` / `before`, or undefined
 * when it cannot be one (keyset not supported, or a key cell arrived as `<binary>`).
 */
export function cursorOf(view: TableView, row: readonly Cell[]): Cell[] | undefined {
  if (!keysetSupported(view)) return undefined;
  const key: Cell[] = [];
  for (const o of orderOf(view)) {
    const v = row[view.columns.indexOf(o.column)];
    if (v === undefined || v === BINARY_CELL) return undefined;
    key.push(v);
  }
  return key;
}

function whereFilters(view: TableView): string[] {
  const out: string[] = [];
  for (const f of view.filters ?? []) {
    const c = columnNamed(view, f.column);
    const id = quoteIdentifier(c.name);
    const exact = isExactNumeric(c);
    switch (f.op) {
      case 'equals':
        out.push(`${id} = ${sqlValue(f.value, exact)}`);
        break;
      case 'contains':
        out.push(`${id} ${likeContains(f.value)}`);
        break;
      case 'range': {
        if (f.min === undefined && f.max === undefined)
          throw new SqlInputError(`The range filter on ${c.name} needs a lower or an upper bound.`);
        if (f.min !== undefined) out.push(`${id} >= ${sqlValue(f.min, exact)}`);
        if (f.max !== undefined) out.push(`${id} <= ${sqlValue(f.max, exact)}`);
        break;
      }
      case 'isNull':
        out.push(`${id} IS NULL`);
        break;
      case 'isNotNull':
        out.push(`${id} IS NOT NULL`);
        break;
      default:
        throw new SqlInputError(`Unknown filter ${String((f as { op: unknown }).op)}.`);
    }
  }
  return out;
}

/**
 * Rows strictly after `key` in the order `order` (NULL sorts first ascending in both engines,
 * so it is last descending).
 */
function keysetCondition(order: readonly OrderColumn[], key: readonly Cell[]): string {
  if (key.length !== order.length) throw new SqlInputError(`A cursor needs ${order.length} values, got ${key.length}.`);
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  for (let i = 0; i < order.length; i++) {
    const { column, direction } = order[i] as OrderColumn;
    const v = key[i] as Cell;
    const id = quoteIdentifier(column.name);
    const lit = sqlValue(v, isExactNumeric(column));
    let after: string | undefined;
    if (direction === 'asc') after = v === null ? `${id} IS NOT NULL` : `${id} > ${lit}`;
    else if (v !== null) after = isNullable(column) ? `(${id} < ${lit} OR ${id} IS NULL)` : `${id} < ${lit}`;
    if (after) alternatives.push(equalSoFar.length ? `(${[...equalSoFar, after].join(' AND ')})` : after);
    equalSoFar.push(v === null ? `${id} IS NULL` : `${id} = ${lit}`);
  }
  if (alternatives.length === 0) return '1 = 0';
  if (alternatives.length === 1) return alternatives[0] as string;
  // A range on the leading column, implied by the alternatives, so both engines seek the index to
  // it instead of scanning from the start for the OR (what makes a composite-key seek cheap).
  const lead = order[0] as OrderColumn;
  const v = key[0] as Cell;
  const id = quoteIdentifier(lead.column.name);
  const lit = sqlValue(v, isExactNumeric(lead.column));
  const range =
    v === null ? undefined : lead.direction === 'asc' ? `${id} >= ${lit}` : isNullable(lead.column) ? undefined : `${id} <= ${lit}`;
  const any = `(${alternatives.join(' OR ')})`;
  return range ? `(${range} AND ${any})` : any;
}

/** The condition of the rows strictly after `key` (values of `orderColumns(view)`) in the view's order. */
export function keysetAfter(view: TableView, key: readonly Cell[]): string {
  return keysetCondition(orderOf(view), key);
}

function flip(order: readonly OrderColumn[]): OrderColumn[] {
  return order.map((o) => ({ column: o.column, direction: o.direction === 'asc' ? 'desc' : 'asc' }));
}

function orderBy(order: readonly OrderColumn[]): string {
  return order.length ? ` ORDER BY ${order.map((o) => `${quoteIdentifier(o.column.name)} ${o.direction.toUpperCase()}`).join(', ')}` : '';
}

function fromOf(view: TableView): string {
  return view.from ?? quoteIdentifier(view.table);
}

function selectFrom(view: TableView): string {
  if (view.columns.length === 0) throw new SqlInputError(`The table ${view.table} has no columns to read.`);
  return `SELECT ${view.columns.map((c) => quoteIdentifier(c.name)).join(', ')} FROM ${fromOf(view)}`;
}

function where(conditions: readonly string[]): string {
  // Every condition is a comparison or already parenthesized, so AND joins them safely.
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/** The SQL of one page of `limit` rows at `position`. */
export function buildPageQuery(view: TableView, position: PagePosition, limit: number): PageQuery {
  const n = sqlCount(limit, 'page size');
  if (limit < 1) throw new SqlInputError('A page holds at least one row.');
  const order = orderOf(view);
  const filters = whereFilters(view);
  const head = selectFrom(view);
  switch (position.kind) {
    case 'first':
      return { sql: `${head}${where(filters)}${orderBy(order)} LIMIT ${n}`, reversed: false };
    case 'offset':
      return { sql: `${head}${where(filters)}${orderBy(order)} LIMIT ${n} OFFSET ${sqlCount(position.offset, 'offset')}`, reversed: false };
    case 'last':
    case 'fromEnd': {
      if (order.length === 0) throw new SqlInputError('A page of an unsorted keyless table can only be read by offset from the start.');
      const skip = position.kind === 'fromEnd' && position.offset > 0 ? ` OFFSET ${sqlCount(position.offset, 'offset')}` : '';
      return { sql: `${head}${where(filters)}${orderBy(flip(order))} LIMIT ${n}${skip}`, reversed: true };
    }
    case 'after':
    case 'before':
    case 'seek': {
      if (!keysetSupported(view)) throw new SqlInputError('This table is read by offset: its order has no exact key.');
      const o = position.kind === 'before' ? flip(order) : order;
      const skip = position.kind === 'seek' && position.offset > 0 ? ` OFFSET ${sqlCount(position.offset, 'offset')}` : '';
      return {
        sql: `${head}${where([...filters, keysetCondition(o, position.key)])}${orderBy(o)} LIMIT ${n}${skip}`,
        reversed: position.kind === 'before',
      };
    }
    default:
      throw new SqlInputError(`Unknown page position ${String((position as { kind: unknown }).kind)}.`);
  }
}

/** `FROM … WHERE …`: the rows the view shows (its filters applied, and `also`), in no order. */
export function viewRows(view: TableView, also: readonly string[] = []): string {
  return `FROM ${fromOf(view)}${where([...whereFilters(view), ...also])}`;
}

/** `SELECT COUNT(*)` of the rows the view shows (its filters applied). */
export function buildCountQuery(view: TableView): string {
  return `SELECT COUNT(*) ${viewRows(view)}`;
}

/** `SELECT * FROM t LIMIT n`: what "New SQL Notebook with a SELECT" and "Copy SELECT" give. */
export function buildSelectAll(table: string, limit = 1000): string {
  return `SELECT * FROM ${quoteIdentifier(table)} LIMIT ${sqlCount(limit, 'limit')}`;
}

export interface PageNeighbours {
  /** Cursor of the last row of the page before (from `cursorOf`), when that page is loaded. */
  previousLast?: readonly Cell[];
  /** Cursor of the first row of the page after, when that page is loaded. */
  nextFirst?: readonly Cell[];
  /** Rows in the view, when counted. */
  totalRows?: number;
  /** A known row before the page (a sampled key boundary): its index and cursor, for a `seek`. */
  boundary?: { index: number; key: readonly Cell[] };
}

/**
 * How to read page `index` (rows [index*pageSize, (index+1)*pageSize)): keyset from a loaded
 * neighbour when there is one, the first page and the last page from either end, anything else
 * by offset from the nearer end (from the end only once the rows are counted and the view has an
 * order to reverse). Returns the position and how many rows to ask for (the last page may be short).
 */
export function planPage(
  view: TableView,
  index: number,
  pageSize: number,
  known: PageNeighbours = {},
): { position: PagePosition; limit: number } {
  if (!Number.isSafeInteger(index) || index < 0) throw new SqlInputError(`Page ${String(index)} does not exist.`);
  const start = index * pageSize;
  const total = known.totalRows;
  const limit = total === undefined ? pageSize : Math.max(0, Math.min(pageSize, total - start));
  if (total !== undefined && limit === 0) throw new SqlInputError(`Page ${index} is past the last row (${total} rows).`);
  if (index === 0) return { position: { kind: 'first' }, limit };
  const keyset = keysetSupported(view);
  if (keyset && known.previousLast) return { position: { kind: 'after', key: known.previousLast }, limit };
  if (keyset && known.nextFirst && limit === pageSize) return { position: { kind: 'before', key: known.nextFirst }, limit };
  // An OFFSET costs the rows it skips (the server reads them one by one): a far page is read from
  // a known row before it when one is near (keyset, then a short offset), else by offset from the
  // nearer end (pages nearer the end counted from it, in reverse order), whichever skips fewer.
  let best: { position: PagePosition; limit: number; skip: number } = { position: { kind: 'offset', offset: start }, limit, skip: start };
  if (total !== undefined && orderColumns(view).length > 0) {
    const after = total - (start + limit);
    if (after === 0) return { position: { kind: 'last' }, limit };
    if (after < best.skip) best = { position: { kind: 'fromEnd', offset: after }, limit, skip: after };
  }
  const b = known.boundary;
  if (keyset && b && b.index < start && start - b.index - 1 < best.skip) {
    return { position: { kind: 'seek', key: b.key, offset: start - b.index - 1 }, limit };
  }
  return { position: best.position, limit };
}
