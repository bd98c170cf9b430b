// A page of a row diff or a patch served from the engine's copy (diffPushdown.ts, patchPushdown.ts)
// answered without SQLite: the statement is exactly a page shape (diffPageShape.ts), so its rows
// are the page's rows, in the copy's order (no two with equal keys), each the select list's
// columns of the rewritten call's select list, and every cell is one the copy read as the hub
// answers it (diffAnswers.ts). Anything this cannot map (a name that is not exactly one column,
// another qualifier) is left to SQLite, which answers (or refuses) it as before.
import type { DiffPageRows } from './common';
import type { DiffPageShape } from './diffPageShape';
import { NULL, TEXT } from './diffRowPacking';

/**
 * The rows of a page as the hub answers them, row after row: each cell as its JSON text (a string
 * literal or `null`, passed on to the response as it is), and its SQLite type.
 */
export interface DirectPage {
  rows: number;
  width: number;
  cells: string[];
  types: Uint8Array;
}

/** What a column of the rewritten call shows: cell `k` of the copy as the copy answers it (k < 0: NULL), or a constant text. */
export type ShownSource = { name: string } & ({ k: number } | { text: string });

/** SQLite compares identifiers with ASCII case folding only. */
const fold = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Which columns of `shown` the select list reads, in order; undefined when one is not exactly one of them. */
function picks(shape: DiffPageShape, shown: readonly ShownSource[], sourceName: string): number[] | undefined {
  const out: number[] = [];
  for (const item of shape.select) {
    if (item === '*') {
      out.push(...shown.map((_, i) => i));
      continue;
    }
    if (item.qualifier !== undefined && fold(item.qualifier) !== fold(shape.alias ?? sourceName)) return undefined;
    const at = shown.flatMap((s, i) => (fold(s.name) === fold(item.name) ? [i] : []));
    if (at.length !== 1) return undefined;
    out.push(at[0] as number);
  }
  return out;
}

/**
 * The copy's cells (`k`) a page shape reads: those its select list shows, and the columns its
 * ORDER BY and kind filter (diff_type, when it has one) read, by the source's or the shown name;
 * undefined when the select list does not map, so every cell may be read. A copy is keyed by what
 * it reads, so one without diff_type never serves a page that filters on it.
 */
export function cellsRead(
  shape: DiffPageShape,
  shown: readonly ShownSource[],
  columns: readonly string[],
  sourceName: string,
): Set<number> | undefined {
  const cols = picks(shape, shown, sourceName);
  if (!cols) return undefined;
  const out = new Set<number>();
  for (const i of cols) {
    const s = shown[i] as ShownSource;
    if ('k' in s && s.k >= 0) out.add(s.k);
  }
  const named = new Set([...shape.orderColumns, ...(shape.kinds ? ['diff_type'] : [])].map(fold));
  columns.forEach((c, k) => {
    if (named.has(fold(c))) out.add(k);
  });
  for (const s of shown) if ('k' in s && s.k >= 0 && named.has(fold(s.name))) out.add(s.k);
  return out;
}

/** The page answered from the copy, or undefined when SQLite must read it. */
export function directPage(
  shape: DiffPageShape,
  shown: readonly ShownSource[],
  page: DiffPageRows,
  sourceName: string,
): DirectPage | undefined {
  const answer = page.answer;
  if (!answer) return undefined;
  const cols = picks(shape, shown, sourceName);
  if (!cols) return undefined;
  const width = cols.length;
  const cells: string[] = new Array<string>(page.rows.length * width);
  const types = new Uint8Array(page.rows.length * width);
  const constants = cols.map((i) => {
    const s = shown[i] as ShownSource;
    return 'text' in s ? JSON.stringify(s.text) : undefined;
  });
  let at = 0;
  for (const r of page.rows) {
    const a = answer(r);
    for (let j = 0; j < width; j++, at++) {
      const s = shown[cols[j] as number] as ShownSource;
      const constant = constants[j];
      if (constant !== undefined) {
        cells[at] = constant;
        types[at] = TEXT;
      } else if (!('k' in s) || s.k < 0) {
        cells[at] = 'null';
        types[at] = NULL;
      } else {
        cells[at] = a.pieces[s.k] ?? 'null';
        types[at] = a.types[s.k] as number;
      }
    }
  }
  return { rows: page.rows.length, width, cells, types };
}
