// "Load All Rows": a user's query that ended at the row limit is read again a page at a time,
// wrapped as `SELECT * FROM (<query>) AS q LIMIT n OFFSET m`, at the same commit. Only a single
// read-only query (SELECT, WITH … SELECT, VALUES, TABLE) is ever wrapped: anything else is
// refused with a reason, never sent.
//
// Limits, on purpose:
// - The engine decides the order of rows when the query has no ORDER BY; at a fixed commit it is
//   the same for every page in both engines (same plan over the same data), so pages neither
//   repeat nor skip rows. With an ORDER BY the pages follow it.
// - MySQL refuses a derived table whose columns repeat a name (`SELECT a.id, b.id …`):
//   `duplicateColumnNames` lets the caller say so before trying.
import { SqlInputError, quoteIdentifier, sqlCount } from './quote';
import { identifierValue, isKeyword, MYSQL_SCAN, significant, tokenize, type SqlToken } from './sqlTokens';

export type PageableCheck = { ok: true; query: string } | { ok: false; reason: string };

interface Token {
  /** Lower-cased word, or the punctuation character. */
  text: string;
  word: boolean;
  depth: number;
}

/**
 * The words and punctuation of `sql` with their parenthesis depth, read by the one scanner
 * (sqlTokens.ts); quoted text and comments are skipped. `backslashEscapes` reads `\` inside
 * quotes as MySQL does, else as SQLite does. A string is the reason the text cannot be read.
 */
function tokens(sql: string, backslashEscapes: boolean): Token[] | string {
  const out: Token[] = [];
  let depth = 0;
  for (const t of tokenize(sql, { noBackslashEscapes: !backslashEscapes })) {
    if (t.unterminated)
      return t.kind === 'comment' ? 'The query has a /* comment that is never closed.' : 'The query has a quote that is never closed.';
    if (t.kind === 'space' || t.kind === 'comment') continue;
    if (t.kind === 'word') {
      out.push({ text: t.text.toLowerCase(), word: true, depth });
    } else if (t.text === '(') {
      out.push({ text: '(', word: false, depth });
      depth++;
    } else if (t.text === ')') {
      depth--;
      if (depth < 0) return 'The query has a ")" without its "(".';
      out.push({ text: ')', word: false, depth });
    } else {
      // Quoted names and strings are kept as non-keyword tokens (a CTE may be named `update`).
      out.push({ text: t.kind === 'punct' ? t.text : (t.text[0] ?? ''), word: false, depth });
    }
  }
  if (depth !== 0) return 'The query has a "(" that is never closed.';
  return out;
}

const READ_VERBS = new Set(['select', 'values', 'table']);
const STATEMENT_VERBS = new Set([
  'select',
  'values',
  'table',
  'insert',
  'update',
  'delete',
  'replace',
  'merge',
  'call',
  'do',
  'handler',
  'load',
]);

function classify(sql: string, backslashEscapes: boolean): PageableCheck {
  const toks = tokens(sql, backslashEscapes);
  if (typeof toks === 'string') return { ok: false, reason: toks };
  // Trailing semicolons are harmless; anything after one is another statement.
  let end = toks.length;
  while (end > 0 && toks[end - 1]?.text === ';') end--;
  const body = toks.slice(0, end);
  if (body.length === 0) return { ok: false, reason: 'The query is empty.' };
  if (body.some((t) => t.text === ';')) return { ok: false, reason: 'Only a single statement can be paged; this has several.' };
  const firstWord = body.find((t) => t.word);
  if (!firstWord) return { ok: false, reason: 'The query is not a SELECT.' };
  let verb = firstWord;
  if (firstWord.text === 'with') {
    const main = body.find((t) => t.word && t.depth === firstWord.depth && t !== firstWord && STATEMENT_VERBS.has(t.text));
    if (!main) return { ok: false, reason: 'The WITH query has no SELECT after its common table expressions.' };
    verb = main;
  }
  if (!READ_VERBS.has(verb.text)) {
    return { ok: false, reason: `Only SELECT queries can be paged; this is ${verb.text.toUpperCase()}.` };
  }
  if (body.some((t) => t.word && t.depth === verb.depth && t.text === 'into')) {
    return { ok: false, reason: 'SELECT … INTO cannot be paged.' };
  }
  return { ok: true, query: sql };
}

/**
 * Whether `sql` is one read-only query that can be wrapped. The text is read both with and
 * without MySQL's backslash escapes; it must be a single SELECT either way, so no quoting trick
 * can hide a second statement from one engine that the other would run.
 */
export function checkPageable(sql: string): PageableCheck {
  const mysql = classify(sql, true);
  if (!mysql.ok) return mysql;
  const sqlite = classify(sql, false);
  if (!sqlite.ok) return sqlite;
  return { ok: true, query: stripTrailingSemicolons(sql) };
}

function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}

function checked(sql: string): string {
  const c = checkPageable(sql);
  if (!c.ok) throw new SqlInputError(c.reason);
  return c.query;
}

/**
 * The user's query as a derived table, to sort and filter on the server (Load All Rows): its
 * SELECT on lines of its own inside `(…) AS \`q\``, for src/core/sql/tableQuery.ts's `from`.
 */
export function wrappedFrom(sql: string): string {
  return `(\n${checked(sql)}\n) AS ${quoteIdentifier('q')}`;
}

/**
 * One page of a user's query. The inner query sits on its own lines, so a trailing `-- comment`
 * in it cannot swallow the wrapper's closing parenthesis.
 */
export function wrapPage(sql: string, limit: number, offset: number): string {
  const inner = checked(sql);
  return `SELECT * FROM (\n${inner}\n) AS ${quoteIdentifier('q')} LIMIT ${sqlCount(limit, 'page size')} OFFSET ${sqlCount(offset, 'offset')}`;
}

/**
 * The table a query reads whole, when it is exactly `SELECT * FROM <table>` (a plain or backquoted
 * name, comments and a trailing `;` allowed): its rows are the table's rows, so Load All Rows can
 * page them by the table's primary key instead of OFFSET. Anything else (a WHERE, a join, a
 * qualified name, other columns) gives undefined.
 */
export function plainTableOf(sql: string): string | undefined {
  const c = checkPageable(sql);
  if (!c.ok) return undefined;
  const toks = significant(tokenize(c.query, MYSQL_SCAN));
  while (toks.at(-1)?.text === ';') toks.pop();
  if (toks.length !== 4) return undefined;
  const [select, star, from, name] = toks as [SqlToken, SqlToken, SqlToken, SqlToken];
  if (!isKeyword(select, 'select') || star.text !== '*' || !isKeyword(from, 'from')) return undefined;
  if (name.unterminated || (name.kind !== 'word' && name.kind !== 'bquoted')) return undefined;
  if (name.kind === 'word' && NOT_A_TABLE.has(name.text.toLowerCase())) return undefined;
  return identifierValue(name);
}

/** Words that end a FROM clause: never a table name written bare. */
const NOT_A_TABLE = new Set(['where', 'limit', 'order', 'group', 'join', 'union', 'dual']);

/** The number of rows the whole query returns. */
export function wrapCount(sql: string): string {
  const inner = checked(sql);
  return `SELECT COUNT(*) FROM (\n${inner}\n) AS ${quoteIdentifier('q')}`;
}

/** Column names that appear more than once (case-insensitively, as MySQL compares them). */
export function duplicateColumnNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const n of names) seen.set(n.toLowerCase(), (seen.get(n.toLowerCase()) ?? 0) + 1);
  const out: string[] = [];
  const reported = new Set<string>();
  for (const n of names) {
    const k = n.toLowerCase();
    if ((seen.get(k) ?? 0) > 1 && !reported.has(k)) {
      reported.add(k);
      out.push(n);
    }
  }
  return out;
}
