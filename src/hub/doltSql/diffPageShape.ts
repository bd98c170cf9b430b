// Recognises a query that reads one page of a table's row diff, the shapes the Changes view sends
// (src/core/review/doltQueries.ts, buildRowDiffPageQuery):
//
//   SELECT <columns> FROM DOLT_DIFF(…) [[AS] alias]
//     [WHERE <conjunct> [AND <conjunct>]…] [ORDER BY <expr> [ASC], …] LIMIT <n> [OFFSET <m>]
//
// where each conjunct is a kind filter (`diff_type = 'added'`, `diff_type IN ('added', …)`) or a
// keyset cursor over a prefix of the ORDER BY expressions (`e1 > v1`, or
// `(e1 > v1 OR (e1 = v1 AND e2 > v2) …)`, the same literals in every term). Such a page only needs
// the rows the cursor, the kinds and LIMIT/OFFSET pick, which a cached copy of the diff
// (diffRowCache.ts) finds without computing the diff again. Anything else (joins, grouping,
// functions, other conditions, aliases in the select list) is not a page shape: the query then
// reads the diff as written. Pure: tokens in, a description out.
import { identifierValue, isKeyword, type SqlToken } from '../../core/sql/sqlTokens';

/** An item of a page's select list: `*`, or a column name, maybe qualified. */
export type SelectItem = '*' | { name: string; qualifier?: string };

export interface DiffPageShape {
  /** The select list, item by item. */
  select: SelectItem[];
  /** The alias the query gives the diff, if any. */
  alias?: string;
  /** Token index just after the alias (or after the call's `)`). */
  afterSource: number;
  /** The ORDER BY expressions as written (empty: the diff's own order). */
  orderBy: string[];
  /** The columns of the diff the ORDER BY expressions read. */
  orderColumns: string[];
  /** Only rows whose diff_type is one of these (undefined: every kind). */
  kinds?: string[];
  /** The cursor: SQL that is true for the rows after it, `?1`…`?k` standing for the first k ORDER BY expressions. */
  cursor?: { sql: string; keys: number };
  limit: number;
  offset: number;
  /** Token index of the OFFSET count, if the query has one. */
  offsetAt?: number;
}

/** The largest page served from a cached diff (larger pages read the diff as written). */
export const MAX_PUSHED_PAGE = 20_000;

/** Words a literal may contain: CAST(X'…' AS CHAR) and signed numbers, nothing that names a column. */
const LITERAL_WORDS = new Set(['cast', 'as', 'char', 'text', 'x', 'binary', 'integer', 'signed', 'unsigned', 'blob', 'real', 'numeric']);

const isPunct = (t: SqlToken | undefined, text: string): boolean => t !== undefined && t.kind === 'punct' && t.text === text;

/** One token as compared between expressions: identifiers by name (case-insensitive), the rest by text. */
function norm(t: SqlToken): string {
  if (t.kind === 'word' || t.kind === 'bquoted' || t.kind === 'dquoted') return `i:${identifierValue(t).toLowerCase()}`;
  return `${t.kind}:${t.text}`;
}

function sameTokens(a: readonly SqlToken[], b: readonly SqlToken[]): boolean {
  return a.length === b.length && a.every((t, i) => norm(t) === norm(b[i] as SqlToken));
}

/** Splits `toks` at depth-0 occurrences of keyword `kw` (or punct `,` when kw is ','). */
function splitTop(toks: readonly SqlToken[], kw: string): SqlToken[][] {
  const parts: SqlToken[][] = [[]];
  let depth = 0;
  for (const t of toks) {
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')')) depth--;
    if (depth === 0 && (kw === ',' ? isPunct(t, ',') : isKeyword(t, kw))) parts.push([]);
    else (parts[parts.length - 1] as SqlToken[]).push(t);
  }
  return parts;
}

/** `( … )` around the whole range, removed (once). */
function unwrap(toks: readonly SqlToken[]): readonly SqlToken[] {
  if (toks.length >= 2 && isPunct(toks[0], '(') && isPunct(toks[toks.length - 1], ')')) {
    let depth = 0;
    for (let i = 0; i < toks.length; i++) {
      if (isPunct(toks[i], '(')) depth++;
      if (isPunct(toks[i], ')')) depth--;
      if (depth === 0 && i < toks.length - 1) return toks;
    }
    return toks.slice(1, -1);
  }
  return toks;
}

function isLiteral(toks: readonly SqlToken[]): boolean {
  if (toks.length === 0) return false;
  return toks.every(
    (t) =>
      (t.kind === 'string' && !t.text.includes('\\') && !t.unterminated) ||
      t.kind === 'number' ||
      (t.kind === 'word' && LITERAL_WORDS.has(t.text.toLowerCase())) ||
      (t.kind === 'punct' && ['(', ')', '-', '+'].includes(t.text)),
  );
}

/**
 * The columns a simple ORDER BY expression reads (column names, COALESCE/IFNULL, parentheses,
 * commas, `alias.` qualifiers), or undefined when it is anything else.
 */
function simpleExpressionColumns(toks: readonly SqlToken[], alias: string | undefined): string[] | undefined {
  if (toks.length === 0) return undefined;
  const cols: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as SqlToken;
    if (t.kind === 'punct') {
      if (!['(', ')', ',', '.'].includes(t.text)) return undefined;
      continue;
    }
    if ((t.kind !== 'word' && t.kind !== 'bquoted' && t.kind !== 'dquoted') || t.unterminated) return undefined;
    const name = identifierValue(t);
    if (isPunct(toks[i + 1], '(')) {
      if (t.kind !== 'word' || !['coalesce', 'ifnull'].includes(name.toLowerCase())) return undefined;
    } else if (isPunct(toks[i + 1], '.')) {
      if (alias === undefined || name.toLowerCase() !== alias.toLowerCase()) return undefined;
    } else {
      if (t.kind === 'word' && ['asc', 'desc', 'collate', 'nulls', 'select', 'case', 'null'].includes(name.toLowerCase())) return undefined;
      cols.push(name);
    }
  }
  return cols;
}

/** `diff_type = 'x'` or `diff_type IN ('x', …)` (optionally `alias.diff_type`): the kinds, else undefined. */
function kindFilter(toks: readonly SqlToken[], alias: string | undefined): string[] | undefined {
  let i = 0;
  if (alias !== undefined && toks[1] !== undefined && isPunct(toks[1], '.')) {
    const q = toks[0];
    if (!q || q.kind === 'string' || q.kind === 'number' || q.kind === 'punct' || identifierValue(q).toLowerCase() !== alias.toLowerCase())
      return undefined;
    i = 2;
  }
  const col = toks[i];
  if (
    !col ||
    (col.kind !== 'word' && col.kind !== 'bquoted' && col.kind !== 'dquoted') ||
    identifierValue(col).toLowerCase() !== 'diff_type'
  )
    return undefined;
  const rest = toks.slice(i + 1);
  const str = (t: SqlToken | undefined): string | undefined =>
    t && t.kind === 'string' && !t.unterminated && !t.text.includes('\\') && t.text.startsWith("'")
      ? t.text.slice(1, -1).replace(/''/g, "'")
      : undefined;
  if (rest.length === 2 && isPunct(rest[0], '=')) {
    const v = str(rest[1]);
    return v === undefined ? undefined : [v];
  }
  if (rest.length >= 3 && isKeyword(rest[0], 'in') && isPunct(rest[1], '(') && isPunct(rest[rest.length - 1], ')')) {
    const items = splitTop(rest.slice(2, -1), ',');
    const values = items.map((it) => (it.length === 1 ? str(it[0]) : undefined));
    return values.every((v) => v !== undefined) ? (values as string[]) : undefined;
  }
  return undefined;
}

/**
 * A keyset cursor: `(e1 > v1 OR (e1 = v1 AND e2 > v2) …)` over the first terms of `orderBy`, or
 * `e1 > v1`. Returns its SQL with each expression replaced by `?j`, or undefined.
 */
function keysetCursor(toks: readonly SqlToken[], orderBy: readonly SqlToken[][], sql: string): { sql: string; keys: number } | undefined {
  const terms = splitTop(unwrap(toks), 'or');
  if (terms.length > orderBy.length) return undefined;
  const values: (readonly SqlToken[])[] = [];
  const pieces: string[] = [];
  for (let j = 0; j < terms.length; j++) {
    const comparisons = splitTop(unwrap(terms[j] as SqlToken[]), 'and');
    if (comparisons.length !== j + 1) return undefined;
    const parts: string[] = [];
    for (let c = 0; c <= j; c++) {
      const cmp = comparisons[c] as SqlToken[];
      const op = c === j ? '>' : '=';
      const expr = orderBy[c] as SqlToken[];
      if (cmp.length <= expr.length + 1 || !sameTokens(cmp.slice(0, expr.length), expr) || !isPunct(cmp[expr.length], op)) return undefined;
      const lit = cmp.slice(expr.length + 1);
      if (!isLiteral(lit)) return undefined;
      // Every term must compare with the same values: then the condition is "the key tuple sorts after the cursor".
      const seen = values[c];
      if (seen !== undefined && !sameTokens(seen, lit)) return undefined;
      values[c] = lit;
      parts.push(`?${c + 1} ${op} (${sql.slice((lit[0] as SqlToken).start, (lit[lit.length - 1] as SqlToken).end)})`);
    }
    pieces.push(`(${parts.join(' AND ')})`);
  }
  return { sql: pieces.join(' OR '), keys: terms.length };
}

/**
 * The page shape of the statement `toks` (significant tokens of `sql`, the whole statement) whose
 * DOLT_DIFF call is at `callAt` with its `)` at `close`; undefined when it is not one.
 */
export function diffPageShape(sql: string, toks: readonly SqlToken[], callAt: number, close: number): DiffPageShape | undefined {
  if (!isKeyword(toks[0], 'select') || !isKeyword(toks[callAt - 1], 'from')) return undefined;
  const select = plainSelectList(toks.slice(1, callAt - 1));
  if (!select) return undefined;
  const source = sourceAlias(toks, close + 1);
  if (!source) return undefined;
  const { alias } = source;
  let i = source.next;
  let whereToks: SqlToken[] = [];
  if (isKeyword(toks[i], 'where')) {
    const start = ++i;
    while (i < toks.length && !(isKeyword(toks[i], 'order') && isKeyword(toks[i + 1], 'by')) && !isKeyword(toks[i], 'limit')) i++;
    whereToks = toks.slice(start, i);
    if (whereToks.length === 0) return undefined;
  }
  const order = orderByItems(toks, i, alias);
  if (!order) return undefined;
  const page = limitOffset(toks, order.next);
  if (!page) return undefined;
  const filters = whereToks.length > 0 ? pageFilters(whereToks, order.toks, alias, sql) : {};
  if (!filters) return undefined;
  const { kinds, cursor } = filters;
  return {
    select,
    ...(alias !== undefined ? { alias } : {}),
    afterSource: source.next,
    orderBy: order.toks.map((e) => sql.slice((e[0] as SqlToken).start, (e[e.length - 1] as SqlToken).end)),
    orderColumns: order.columns,
    ...(kinds ? { kinds } : {}),
    ...(cursor ? { cursor } : {}),
    limit: page.limit,
    offset: page.offset,
    ...(page.offsetAt !== undefined ? { offsetAt: page.offsetAt } : {}),
  };
}

/** The select list: `*` or bare (optionally qualified) column names, no aliases, no expressions. */
function plainSelectList(list: readonly SqlToken[]): SelectItem[] | undefined {
  const items: SelectItem[] = [];
  for (const item of splitTop(list, ',')) {
    const ok =
      (item.length === 1 &&
        (isPunct(item[0], '*') || item[0]?.kind === 'word' || item[0]?.kind === 'bquoted' || item[0]?.kind === 'dquoted')) ||
      (item.length === 3 && isPunct(item[1], '.') && item[0]?.kind !== 'punct' && item[2]?.kind !== 'punct');
    if (!ok || item.some((t) => isKeyword(t, 'distinct') || isKeyword(t, 'all') || t.kind === 'string' || t.kind === 'number'))
      return undefined;
    const [first, , third] = item as [SqlToken, SqlToken?, SqlToken?];
    if (isPunct(first, '*')) items.push('*');
    else if (third) items.push({ name: identifierValue(third), qualifier: identifierValue(first) });
    else items.push({ name: identifierValue(first) });
  }
  return items;
}

/** The call's alias (if any) from token `i`, and the index after it; undefined for `AS` without a name. */
function sourceAlias(toks: readonly SqlToken[], i: number): { alias?: string; next: number } | undefined {
  if (isKeyword(toks[i], 'as')) i++;
  const a = toks[i];
  if (
    a &&
    (a.kind === 'bquoted' || a.kind === 'dquoted' || (a.kind === 'word' && !['where', 'order', 'limit'].includes(a.text.toLowerCase())))
  ) {
    return { alias: identifierValue(a), next: i + 1 };
  }
  return isKeyword(toks[i - 1], 'as') ? undefined : { next: i };
}

/** `ORDER BY` items from token `i` (each a simple expression), the columns they read, and the index after. */
function orderByItems(
  toks: readonly SqlToken[],
  i: number,
  alias: string | undefined,
): { toks: SqlToken[][]; columns: string[]; next: number } | undefined {
  const items: SqlToken[][] = [];
  const columns: string[] = [];
  if (!(isKeyword(toks[i], 'order') && isKeyword(toks[i + 1], 'by'))) return { toks: items, columns, next: i };
  const start = (i += 2);
  while (i < toks.length && !isKeyword(toks[i], 'limit')) i++;
  for (const item of splitTop(toks.slice(start, i), ',')) {
    const expr = isKeyword(item[item.length - 1], 'asc') ? item.slice(0, -1) : item;
    const cols = simpleExpressionColumns(expr, alias);
    if (!cols) return undefined;
    items.push(expr);
    columns.push(...cols);
  }
  return { toks: items, columns, next: i };
}

/** `LIMIT n [OFFSET m] [;]` from token `i` to the end of the statement. */
function limitOffset(toks: readonly SqlToken[], i: number): { limit: number; offset: number; offsetAt?: number } | undefined {
  if (!isKeyword(toks[i], 'limit')) return undefined;
  const count = (t: SqlToken | undefined): number | undefined =>
    t && t.kind === 'number' && /^\d+$/.test(t.text) ? Number(t.text) : undefined;
  const limit = count(toks[i + 1]);
  if (limit === undefined || limit > MAX_PUSHED_PAGE) return undefined;
  i += 2;
  let offset = 0;
  let offsetAt: number | undefined;
  if (isKeyword(toks[i], 'offset')) {
    const m = count(toks[i + 1]);
    if (m === undefined || !Number.isSafeInteger(m)) return undefined;
    offset = m;
    offsetAt = i + 1;
    i += 2;
  }
  if (isPunct(toks[i], ';')) i++;
  if (i !== toks.length) return undefined;
  return offsetAt !== undefined ? { limit, offset, offsetAt } : { limit, offset };
}

/** The WHERE clause as diff-type filters and at most one keyset cursor; undefined when it is anything else. */
function pageFilters(
  whereToks: readonly SqlToken[],
  orderToks: readonly SqlToken[][],
  alias: string | undefined,
  sql: string,
): { kinds?: string[]; cursor?: { sql: string; keys: number } } | undefined {
  let kinds: string[] | undefined;
  let cursor: { sql: string; keys: number } | undefined;
  // `a OR b AND c` is `a OR (b AND c)`: only a plain conjunction is taken apart.
  if (splitTop(whereToks, 'or').length > 1) return undefined;
  for (const conj of splitTop(whereToks, 'and')) {
    const k = kindFilter(unwrap(conj), alias);
    if (k) {
      kinds = kinds ? kinds.filter((x) => k.includes(x)) : k;
      continue;
    }
    const c = cursor === undefined && orderToks.length > 0 ? keysetCursor(conj, orderToks, sql) : undefined;
    if (!c) return undefined;
    cursor = c;
  }
  return { ...(kinds ? { kinds } : {}), ...(cursor ? { cursor } : {}) };
}
