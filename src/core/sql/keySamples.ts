// Sampled key boundaries for far jumps in the table browser: the key of every N-th row of a view,
// read once (one query, one pass over the key in its index order), so a page anywhere is read by
// keyset from the nearest sampled key before it plus an OFFSET below N (`seek` in ./tableQuery),
// instead of an OFFSET that steps over up to half the table. Pure: names go through ./quote.
//
// Sampled only where an index serves the order: the view's order is the primary key (no sort;
// filters allowed, the sample counts the rows they keep), and keyset applies (exact key types).
// A sorted view, a keyless table or an inexact key keeps OFFSET from the nearer end.
import type { Cell } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { quoteIdentifier, sqlCount } from './quote';
import { keysetSupported, orderColumns, viewRows, type TableView } from './tableQuery';

/** About this many boundaries per view (so at most N − 1 rows are skipped by a jump). */
export const SAMPLE_TARGET = 500;

/** Whether far jumps in this view can go from sampled keys (see the top of this file). */
export function sampleable(view: TableView): boolean {
  return (view.sort ?? []).length === 0 && keysetSupported(view);
}

/** Rows between two boundaries for a view of `total` rows: a whole number of pages, at least one. */
export function sampleInterval(total: number, pageSize: number, target = SAMPLE_TARGET): number {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, target) / pageSize));
  return pages * pageSize;
}

/**
 * The key (order-column values, in order) of rows every, 2·every, … of the view (1-based),
 * i.e. of row indexes every − 1, 2·every − 1, …, in order.
 */
export function buildSampleQuery(view: TableView, every: number): string {
  if (!sampleable(view)) throw new Error(`The view of ${view.table} has no key order to sample.`);
  const n = sqlCount(every, 'sampling interval');
  if (every < 1) throw new Error('A sampling interval is at least one row.');
  const keys = orderColumns(view);
  let rn = 'vdb_rn';
  while (view.columns.some((c) => c.name.toLowerCase() === rn)) rn += '_';
  const ids = keys.map((k) => quoteIdentifier(k.column)).join(', ');
  const order = keys.map((k) => `${quoteIdentifier(k.column)} ${k.direction.toUpperCase()}`).join(', ');
  // The rows (FROM and WHERE) are exactly the count's, so the row numbers are positions in the view.
  const rows = viewRows(view);
  return `SELECT ${ids} FROM (SELECT ${ids}, ROW_NUMBER() OVER (ORDER BY ${order}) AS ${quoteIdentifier(rn)} ${rows}) AS ${quoteIdentifier('vdb_sample')} WHERE ${quoteIdentifier(rn)} % ${n} = 0 ORDER BY ${quoteIdentifier(rn)}`;
}

/** The boundaries a sample query answered, or undefined when a key cell cannot be a cursor. */
export function boundariesOf(rows: readonly (readonly Cell[])[], width: number): Cell[][] | undefined {
  const out: Cell[][] = [];
  for (const r of rows) {
    if (r.length !== width || r.some((c) => c === BINARY_CELL)) return undefined;
    out.push(r.slice());
  }
  return out;
}

/** The nearest sampled row before `start`: boundary j (1-based) is row j·every − 1. */
export function boundaryBefore(
  boundaries: readonly (readonly Cell[])[],
  every: number,
  start: number,
): { index: number; key: readonly Cell[] } | undefined {
  const j = Math.min(Math.floor(start / every), boundaries.length);
  if (j < 1) return undefined;
  return { index: j * every - 1, key: boundaries[j - 1] as Cell[] };
}
