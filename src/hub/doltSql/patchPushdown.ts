// A DOLT_PATCH(…) call that is one page of a patch, as the Changes view's patch export reads it
// (src/core/review/doltQueries.ts, buildPatchQuery: `… WHERE statement_order > n ORDER BY
// statement_order LIMIT m`), becomes a subquery of just that page's statements, read from a copy of
// the patch the engine keeps (diffRowCache.ts through DoltSqlContext.diffPage, as diffPushdown.ts
// does for DOLT_DIFF). DoltLite's dolt_patch() cannot seek: every page computed the whole patch
// (about 1.1 s at 100,000 statements), so an export of n pages was quadratic. The copy holds
// DoltLite's own columns; the page's select list adds the hashes and the MySQL text as the
// rewritten call does.
import type { SqlToken } from '../../core/sql/sqlTokens';
import type { DoltSqlContext } from './common';
import { diffPageShape } from './diffPageShape';
import { MYSQL_TEXT_FUNCTION } from './mysqlText';
import { cellsRead, directPage, type DirectPage } from './directPage';
import { hexToDoltHash } from '../doltHash';

/** DoltLite's patch columns the copy keeps, in this order. */
const PATCH_COLUMNS = ['statement_order', 'table_name', 'diff_type', 'statement'];

export interface PatchCall {
  table: string | undefined;
  fromHex: string;
  toHex: string;
  /** `dolt_patch('from', 'to'[, 'table'])` */
  call: string;
  /** The hashes as Dolt shows them (SQL literals). */
  fromHash: string;
  toHash: string;
}

/** The columns the rewritten call shows, each from a cell of the copy (`cell(k)`) or a constant. */
export function patchSelectList(p: Pick<PatchCall, 'fromHash' | 'toHash'>, cell: (k: number) => string): string {
  return [
    `${cell(0)} AS statement_order`,
    `${p.fromHash} AS from_commit_hash`,
    `${p.toHash} AS to_commit_hash`,
    `${cell(1)} AS table_name`,
    `${cell(2)} AS diff_type`,
    `${MYSQL_TEXT_FUNCTION}(${cell(3)}) AS statement`,
  ].join(', ');
}

/**
 * The subquery of the page's statements (and the OFFSET count to set to 0), or undefined to read
 * the whole patch; with the page's answer when it needs no SQLite (directPage.ts).
 */
export function pushPatchPage(
  sql: string,
  toks: readonly SqlToken[],
  callAt: number,
  close: number,
  ctx: DoltSqlContext,
  p: PatchCall,
): { subquery: string; offsetAt?: number; direct?: DirectPage } | undefined {
  if (!ctx.diffPage) return undefined;
  const shape = diffPageShape(sql, toks, callAt, close);
  if (!shape) return undefined;
  // The same columns as patchSelectList, as values.
  const shown = [
    { name: 'statement_order', k: 0 },
    { name: 'from_commit_hash', text: hexToDoltHash(p.fromHex) },
    { name: 'to_commit_hash', text: hexToDoltHash(p.toHex) },
    { name: 'table_name', k: 1 },
    { name: 'diff_type', k: 2 },
    // The copy keeps the statement's answer as hub_mysql_text gives it (answerAsMysqlText).
    { name: 'statement', k: 3 },
  ];
  // The export reads statement_order and statement only: the copy leaves the others NULL.
  const reads = cellsRead(shape, shown, PATCH_COLUMNS, 'dolt_patch');
  const page = ctx.diffPage({
    table: p.table ?? '',
    fromHex: p.fromHex,
    toHex: p.toHex,
    source: p.call,
    columns: PATCH_COLUMNS,
    shape,
    patch: true,
    answerAsMysqlText: 3,
    ...(reads ? { reads } : {}),
  });
  if (!page) return undefined;
  const subquery =
    page.rows.length === 0
      ? `(SELECT ${patchSelectList(p, () => 'NULL')} LIMIT 0)`
      : `(SELECT ${patchSelectList(p, (k) => `${page.fn}(${page.slot}, "r"."column1", ${k})`)} FROM (VALUES ${page.rows
          .map((r) => `(${r})`)
          .join(', ')}) AS "r")`;
  const direct = directPage(shape, shown, page, 'dolt_patch');
  return { subquery, ...(shape.offsetAt !== undefined ? { offsetAt: shape.offsetAt } : {}), ...(direct ? { direct } : {}) };
}
