// The hosted service speaks MySQL; DoltLite speaks SQLite. This turns the MySQL forms people type
// first into something the engine can answer. Backtick identifiers need nothing (SQLite accepts
// them); NOW() and DATABASE() are registered as functions on each connection. The text is read
// by the client's own scanner with MySQL's rules (core/sql/sqlTokens.ts, MYSQL_SCAN), so the hub
// ends a statement and reads a string literal where the client and Dolt do.
import { hasMoreTokensThan, MYSQL_SCAN, significant, stringValue, tokenize, type SqlToken } from '../core/sql/sqlTokens';
import { splitStatements } from '../core/sql/statements';

export type TranslatedQuery =
  | { kind: 'sql'; sql: string }
  /** `full`: Dolt's `SHOW FULL TABLES`, which adds `Table_type` and lists views too. */
  | { kind: 'showTables'; full: boolean }
  | { kind: 'describe'; table: string; asOf?: string }
  | { kind: 'showCreateTable'; table: string; asOf?: string }
  | { kind: 'invalid'; message: string };

const IDENT = String.raw`(?:\x60([^\x60]+)\x60|"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*))`;
const SHOW_TABLES = /^show\s+(full\s+)?tables$/i;
/** Dolt's `… AS OF 'revision'` after a table name (group 4: the quoted revision). */
const AS_OF = String.raw`(?:\s+as\s+of\s+('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"))?`;
const DESCRIBE = new RegExp(String.raw`^(?:describe|desc)\s+${IDENT}${AS_OF}$`, 'i');
const SHOW_COLUMNS = new RegExp(String.raw`^show\s+(?:full\s+)?(?:columns|fields)\s+(?:from|in)\s+${IDENT}${AS_OF}$`, 'i');
const SHOW_CREATE = new RegExp(String.raw`^show\s+create\s+table\s+${IDENT}${AS_OF}$`, 'i');

/**
 * Tokens one query may have. Translating holds a token object for each (about 280 bytes over the
 * passes: a 7 MB `VALUES` list of 1.6M tokens took 444 MB), and the engine parses them all again:
 * this bounds both, far above a query a person writes or a key list of 10,000 values (20,000).
 */
export const MAX_QUERY_TOKENS = 200_000;

export function translateQuery(q: string): TranslatedQuery {
  if (hasMoreTokensThan(q, MAX_QUERY_TOKENS, MYSQL_SCAN)) {
    const n = MAX_QUERY_TOKENS.toLocaleString('en-US');
    return { kind: 'invalid', message: `The query has more than ${n} tokens (words, values, operators); the hub reads at most ${n}.` };
  }
  const statements = splitStatements(q);
  if (statements.length > 1) {
    return { kind: 'invalid', message: 'Only one statement per query is supported; remove the text after the first ";".' };
  }
  const sql = statements[0]?.text ?? '';
  if (sql === '') return { kind: 'invalid', message: 'The query is empty.' };
  const st = SHOW_TABLES.exec(sql);
  if (st) return { kind: 'showTables', full: st[1] !== undefined };
  for (const re of [DESCRIBE, SHOW_COLUMNS]) {
    const m = re.exec(sql);
    if (m) return withAsOf({ kind: 'describe', table: m[1] ?? m[2] ?? m[3] ?? '' }, m[4]);
  }
  const c = SHOW_CREATE.exec(sql);
  if (c) return withAsOf({ kind: 'showCreateTable', table: c[1] ?? c[2] ?? c[3] ?? '' }, c[4]);
  return mysqlToSqliteText(sql);
}

function withAsOf(q: Extract<TranslatedQuery, { asOf?: string }>, quoted: string | undefined): TranslatedQuery {
  if (quoted === undefined) return q;
  const [tok] = significant(tokenize(quoted, MYSQL_SCAN));
  if (tok) q.asOf = stringValue(tok, MYSQL_SCAN);
  return q;
}

/**
 * The query as SQLite must be given it to read what Dolt reads: each '…' and "…" literal written
 * again with its MySQL value (backslash escapes undone, quotes doubled SQLite's way), `#` comments
 * as `--` ones, and a space between two minus signs MySQL reads as operators (`5--3`). A NUL in a
 * string becomes char(0): the engine takes its SQL as a C string. Everything else is kept as it is.
 */
export function mysqlToSqliteText(sql: string): TranslatedQuery {
  let out = '';
  let prev: SqlToken | undefined;
  for (const t of tokenize(sql, MYSQL_SCAN)) {
    if (t.unterminated) {
      return { kind: 'invalid', message: t.kind === 'comment' ? 'A /* comment is never closed.' : 'A quote is never closed.' };
    }
    if (prev?.kind === 'punct' && prev.text.endsWith('-') && t.text.startsWith('-')) out += ' ';
    if (t.kind === 'string' || t.kind === 'dquoted') out += sqliteLiteral(stringValue(t, MYSQL_SCAN), t.text[0] as string);
    else if (t.kind === 'comment' && t.text.startsWith('#')) out += '--' + t.text.slice(1);
    else out += t.text;
    prev = t;
  }
  return { kind: 'sql', sql: out };
}

function sqliteLiteral(value: string, quote: string): string {
  const parts = value.split('\0').map((p) => quote + p.split(quote).join(quote + quote) + quote);
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' || char(0) || ')})`;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, what MySQL's NOW() prints. */
export function mysqlNow(d: Date = new Date()): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
