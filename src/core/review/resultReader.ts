// Reading a QueryResult (columns + rows of strings/NULL) of one review query: its completeness,
// columns found by name, typed cells. Shared by the review parsers, so each says only what its
// query means.
import type { Cell, QueryResult } from '../../shared/wire';

/** A result the review parsers cannot read: an SQL error, or a column the query promises is missing. */
export class ReviewResultError extends Error {
  override readonly name = 'ReviewResultError';
  constructor(
    message: string,
    /** The result's status when it was not a success (e.g. `error`, `not_workspace`). */
    readonly status?: string,
  ) {
    super(message);
  }
}

/**
 * Whether a response holds every row the query asked for. `row_limit` and `timeout` responses
 * carry only part of them: a view shows what came and says it is partial, never "complete".
 */
export type Completeness = { complete: true } | { complete: false; reason: 'row_limit' | 'timeout'; message?: string };

export function completenessOf(result: QueryResult): Completeness {
  const status = String(result.status);
  if (status === 'success') return { complete: true };
  if (status === 'row_limit' || status === 'timeout')
    return { complete: false, reason: status, ...(result.message ? { message: result.message } : {}) };
  throw new ReviewResultError(result.message || `The query ended with status ${status}.`, status);
}

/** Partial when any part is partial (the first reason wins). */
export function bothComplete(a: Completeness, b: Completeness): Completeness {
  return a.complete ? b : a;
}

/** A page of items and whether more follow (the query asked for one row more than the page). */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  completeness: Completeness;
}

export function pageRows(result: QueryResult, pageSize: number): { rows: Cell[][]; hasMore: boolean } {
  return { rows: result.rows.slice(0, pageSize), hasMore: result.rows.length > pageSize };
}

/** Index of a result column by name: exact first, then ignoring case (DESCRIBE says `Field`). */
export function findColumn(result: QueryResult, name: string): number {
  const exact = result.columns.findIndex((c) => c.name === name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  return result.columns.findIndex((c) => c.name.toLowerCase() === lower);
}

export function requireColumn(result: QueryResult, name: string, what: string): number {
  const i = findColumn(result, name);
  if (i < 0) throw new ReviewResultError(`The ${what} result has no column ${name}.`);
  return i;
}

export function cellAt(row: readonly Cell[], i: number): Cell {
  const v = row[i];
  return v === undefined ? null : v;
}

export function textAt(row: readonly Cell[], i: number, what: string): string {
  const v = cellAt(row, i);
  if (v === null) throw new ReviewResultError(`The ${what} is missing.`);
  return v;
}

/** A whole number, NULL as null. */
export function countAt(row: readonly Cell[], i: number, what: string): number | null {
  const v = cellAt(row, i);
  if (v === null) return null;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw new ReviewResultError(`The ${what} is not a count: ${JSON.stringify(v)}.`);
  return Number(v);
}

/** A boolean as MySQL sends it (`1`/`0`) or as text (`true`/`false`). */
export function flagAt(row: readonly Cell[], i: number, what: string): boolean {
  const v = cellAt(row, i);
  if (v === '1' || v?.toLowerCase() === 'true') return true;
  if (v === '0' || v?.toLowerCase() === 'false') return false;
  throw new ReviewResultError(`The ${what} is not a boolean: ${JSON.stringify(v)}.`);
}

/**
 * Milliseconds since the epoch of a Dolt datetime (`2026-01-05 12:00:00.123`, UTC unless a zone
 * follows, also the CLI's `… +0000 UTC`), or undefined when it is not one.
 */
export function doltTimeToMillis(text: string | null): number | undefined {
  if (!text) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,9})?\s*(Z|[+-]\d{2}:?\d{2})?(?:\s+UTC)?$/.exec(text.trim());
  if (!m) return undefined;
  const frac = m[3] ? m[3].slice(0, 4).padEnd(4, '0') : '';
  let zone = m[4] ?? 'Z';
  if (zone !== 'Z' && !zone.includes(':')) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const t = Date.parse(`${m[1]}T${m[2]}${frac}${zone}`);
  return Number.isNaN(t) ? undefined : t;
}
