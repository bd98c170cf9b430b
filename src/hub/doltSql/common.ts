// What the Dolt SQL rewriter needs from the engine, and what its parts share.
import { quoteSqlIdentifier, quoteSqlString } from '../../core/sql/sqlTokens';
import type { DiffPageShape } from './diffPageShape';
import type { AnswerPieces } from './diffAnswers';

/** A problem with the query the user should fix: becomes `status: error` with this message. */
export class DoltSqlError extends Error {}

/** Translation stopped: the query's deadline passed, or its caller went away. */
export class DoltSqlInterrupted extends Error {
  constructor(readonly reason: 'timeout' | 'cancelled') {
    super(reason === 'timeout' ? 'The query ran past its timeout while it was being translated and was stopped.' : 'The caller went away.');
  }
}

export interface PreviewTable {
  columns: string[];
  rows: unknown[][];
}

/** The engine as the rewriter sees it: read-only look-ups on the query's connection. */
export interface DoltSqlContext {
  /** The 40-hex commit a revision (DoltLite's form: branch, tag, hex hash, HEAD, with ~N/^) names, or null. */
  resolve(engineSpec: string): string | null;
  /** The 40-hex merge base of two commits, or null if they share no history. */
  mergeBase(aHex: string, bHex: string): string | null;
  /** Whether the query must stop now (its deadline passed, its caller went away), asked as it is translated. */
  interrupted?(): 'timeout' | 'cancelled' | undefined;
  /** Column names of a query, or the engine's message when it cannot be prepared. */
  columns(sql: string): string[] | { error: string };
  /** The columns `table` has at commit `hex` (its schema there), or undefined when it has no such table. */
  columnsAt?(hex: string, table: string): string[] | undefined;
  /** Rows of a small query, as arrays. */
  rows(sql: string, bind?: unknown[]): unknown[][];
  /** What merging `mergeHex` into `baseHex` would conflict on, tried on a throwaway copy. */
  previewMerge(baseHex: string, mergeHex: string, table?: string): { summary: PreviewTable; table?: PreviewTable } | { error: string };
  /** One page of a row diff served from a copy the engine keeps (diffRowCache.ts); undefined: read the diff as written. */
  diffPage?(req: DiffPageRequest): DiffPageRows | undefined;
}

/** A page of `dolt_diff_<table>(fromHex, toHex)` (`source`, whose columns are `columns`) the query reads. */
export interface DiffPageRequest {
  table: string;
  fromHex: string;
  toHex: string;
  source: string;
  columns: readonly string[];
  shape: DiffPageShape;
  /** A page of `dolt_patch(fromHex, toHex[, table])` (patchPushdown.ts) rather than of a row diff. */
  patch?: true;
  /** The column whose text the page shows through hub_mysql_text: the copy keeps that as its answer. */
  answerAsMysqlText?: number;
  /**
   * The indexes of `columns` the query reads (its select list, ORDER BY and kind filter); the
   * copy leaves the others NULL. Undefined: every column.
   */
  reads?: ReadonlySet<number>;
}

/** The page's rows: read cell `k` of row `r` with `fn(slot, r, k)`. */
export interface DiffPageRows {
  fn: string;
  slot: number;
  rows: readonly number[];
  /**
   * Row `r`'s cells of the source as the hub answers them, when the page's rows are in the order
   * the query would put them in (no two with equal keys): the page can be answered without SQLite.
   */
  answer?: (r: number) => AnswerPieces;
}

/** A column a diff shows, and the index of the source column it reads (-1: none, it is NULL). */
export interface ShownColumn {
  name: string;
  k: number;
}

/** A subquery whose rows are the given values: `(SELECT column1 AS a, … FROM (VALUES (…), …))`. */
export function valuesSubquery(columns: readonly string[], rows: readonly unknown[][]): string {
  if (rows.length === 0) return `(SELECT ${columns.map((c) => `NULL AS ${quoteSqlIdentifier(c)}`).join(', ')} LIMIT 0)`;
  const values = rows.map((r) => `(${columns.map((_, k) => sqlValue(r[k])).join(', ')})`).join(', ');
  return `(SELECT ${columns.map((c, k) => `column${k + 1} AS ${quoteSqlIdentifier(c)}`).join(', ')} FROM (VALUES ${values}))`;
}

function sqlValue(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Uint8Array) return `x'${Buffer.from(v).toString('hex')}'`;
  return quoteSqlString(String(v), 'sqlite');
}
