// A DOLT_DIFF(…) call that is one page of a row diff (diffPageShape.ts) becomes a subquery of just
// that page's rows, read from the copy of the diff the engine keeps (diffRowCache.ts through
// DoltSqlContext.diffPage). The query around it is left as written: its WHERE, ORDER BY and LIMIT
// pick the same rows from the page as they would from the whole diff (an OFFSET becomes 0: the
// page starts at it).
import { quoteSqlIdentifier as qi, type SqlToken } from '../../core/sql/sqlTokens';
import type { DoltSqlContext, ShownColumn } from './common';
import { diffPageShape } from './diffPageShape';
import type { DoltForms } from './forms';
import { cellsRead, directPage, type DirectPage } from './directPage';
import { hexToDoltHash } from '../doltHash';

export interface DiffCall {
  table: string;
  fromHex: string;
  toHex: string;
  /** `"dolt_diff_<t>"('from', 'to')` */
  source: string;
  columns: readonly string[];
  /** The columns the query sees (Dolt's, per commit schema), read from `columns`. */
  shown: readonly ShownColumn[];
}

/**
 * The subquery of the page's rows (and the OFFSET count to set to 0), or undefined to read the
 * whole diff; with the page's answer when it needs no SQLite (directPage.ts).
 */
export function pushDiffPage(
  sql: string,
  toks: readonly SqlToken[],
  callAt: number,
  close: number,
  ctx: DoltSqlContext,
  forms: DoltForms,
  call: DiffCall,
): { subquery: string; offsetAt?: number; direct?: DirectPage } | undefined {
  if (!ctx.diffPage) return undefined;
  const shape = diffPageShape(sql, toks, callAt, close);
  if (!shape) return undefined;
  // The same select list as forms.diffSelectList, as values.
  const shown = call.shown.map(({ name, k }) =>
    name === 'from_commit'
      ? { name, text: hexToDoltHash(call.fromHex) }
      : name === 'to_commit'
        ? { name, text: hexToDoltHash(call.toHex) }
        : { name, k },
  );
  const reads = cellsRead(shape, shown, call.columns, 'dolt_diff');
  const page = ctx.diffPage({ ...call, shape, ...(reads ? { reads } : {}) });
  if (!page) return undefined;
  let subquery: string;
  if (page.rows.length === 0) {
    subquery = `(SELECT ${call.shown.map((c) => `NULL AS ${qi(c.name)}`).join(', ')} LIMIT 0)`;
  } else {
    const select = forms.diffSelectList(
      call.shown,
      call.fromHex,
      call.toHex,
      (c, k) => `${page.fn}(${page.slot}, "r"."column1", ${k}) AS ${qi(c)}`,
    );
    subquery = `(SELECT ${select} FROM (VALUES ${page.rows.map((r) => `(${r})`).join(', ')}) AS "r")`;
  }
  const direct = directPage(shape, shown, page, 'dolt_diff');
  return { subquery, ...(shape.offsetAt !== undefined ? { offsetAt: shape.offsetAt } : {}), ...(direct ? { direct } : {}) };
}
