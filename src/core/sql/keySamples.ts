// Sampled key boundaries for far jumps in the table browser: the key of every N-th row of a view,
// read once per view at the commit (about one pass over the key in its index order, in chunks:
// src/core/paging/keySampler.ts), so a page anywhere is read by
// keyset from the nearest sampled key before it plus an OFFSET below N (`seek` in ./tableQuery),
// instead of an OFFSET that steps over up to half the table. Pure: names go through ./quote.
//
// Sampled only where an index serves the order: the view's order is the primary key (no sort;
// filters allowed, the sample counts the rows they keep), and keyset applies (exact key types).
// A sorted view, a keyless table or an inexact key keeps OFFSET from the nearer end.
import type { Cell } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { quoteIdentifier, sqlCount } from './quote';
import { keysetAfter, keysetSupported, orderColumns, viewRows, type TableView } from './tableQuery';

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
 * i.e. of row indexes every − 1, 2·every − 1, …, `count` of them, in order; with `from` (a
 * boundary's key), the ones after it. One recursive query:
 * each boundary is found from the one before by an index seek and a step of `every` keys, so the
 * whole costs about one pass over the key (a ROW_NUMBER() window over it measured 20× slower).
 */
export function buildSampleQuery(view: TableView, every: number, count: number, from?: readonly Cell[]): string {
  if (!sampleable(view)) throw new Error(`The view of ${view.table} has no key order to sample.`);
  const step = sqlCount(every - 1, 'sampling interval');
  const n = sqlCount(count, 'boundary count');
  if (every < 1 || count < 1) throw new Error('A sample has at least one boundary of at least one row.');
  const keys = orderColumns(view).map((k) => quoteIdentifier(k.column));
  const names = view.columns.map((c) => c.name.toLowerCase());
  const fresh = (base: string): string => {
    let name = base;
    while (names.includes(name) || name === view.table.toLowerCase()) name += '_';
    return name;
  };
  const cte = quoteIdentifier(fresh('vdb_b'));
  const cols = keys.map((_, i) => quoteIdentifier(`vdb_k${i}`));
  const j = quoteIdentifier('vdb_j');
  const order = keys.map((k) => `${k} ASC`).join(', ');
  // Rows strictly after the boundary before (every key column ascending and NOT NULL: a primary key).
  const after = keys.map((k, i) =>
    [...keys.slice(0, i).map((e, x) => `${e} = ${cte}.${cols[x]}`), `${k} > ${cte}.${cols[i]}`].join(' AND '),
  );
  const seek = keys.length === 1 ? after[0] : `${keys[0]} >= ${cte}.${cols[0]} AND (${after.map((a) => `(${a})`).join(' OR ')})`;
  const pick = (k: string, also: readonly string[]): string =>
    `(SELECT ${k} ${viewRows(view, also)} ORDER BY ${order} LIMIT 1 OFFSET ${step})`;
  // From the start, or (a later chunk) from the last boundary read: rows every, 2·every, … after it.
  const first = keys.map((k) => pick(k, from ? [keysetAfter(view, from)] : []));
  const next = keys.map((k) => pick(k, [`(${seek})`]));
  return (
    `WITH RECURSIVE ${cte}(${[...cols, j].join(', ')}) AS (SELECT ${[...first, '1'].join(', ')} ` +
    `UNION ALL SELECT ${[...next, `${j} + 1`].join(', ')} FROM ${cte} WHERE ${j} < ${n}) ` +
    `SELECT ${cols.join(', ')} FROM ${cte} ORDER BY ${j}`
  );
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
