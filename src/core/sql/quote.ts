// The one place where text from a user or a server becomes part of SQL: identifiers, string
// and number literals, LIKE patterns and LIMIT/OFFSET counts. Everything it emits means the
// same on the hosted service's Dolt (MySQL dialect) and on the local hub (SQLite/DoltLite):
// - identifiers in backticks with `` ` `` doubled (MySQL's form; SQLite accepts it for MySQL
//   compatibility);
// - strings in single quotes with `'` doubled, which both read alike as long as the text has no
//   backslash (MySQL reads `\` as an escape, SQLite does not). Text with a backslash or a control
//   character is sent as `CAST(X'<utf-8 hex>' AS CHAR)`, which both turn into the same text;
// - LIKE patterns escape `%`, `_` and the escape character itself with an explicit
//   `ESCAPE '!'` (never backslash, for the same reason).

/** SQL that cannot be built from the given input (an empty name, a negative count ...). */
export class SqlInputError extends Error {
  override readonly name = 'SqlInputError';
}

/** A table or column name as a quoted identifier. */
export function quoteIdentifier(name: string): string {
  if (typeof name !== 'string' || name === '') throw new SqlInputError('A table or column name cannot be empty.');
  if (name.includes('\u0000')) throw new SqlInputError('A table or column name cannot contain a NUL character.');
  return `\`${name.replace(/`/g, '``')}\``;
}

// Characters whose meaning differs between the two dialects inside '...' (backslash), or that
// some clients cut the statement at (NUL) or mangle (other C0 controls except tab, LF, CR).

const NEEDS_HEX = /[\\\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** A string literal with the same value in MySQL and SQLite. */
export function sqlString(text: string): string {
  if (!NEEDS_HEX.test(text)) return `'${text.replace(/'/g, "''")}'`;
  const bytes = new TextEncoder().encode(text);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0').toUpperCase();
  return `CAST(X'${hex}' AS CHAR)`;
}

const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** True for text that is a plain decimal number (no exponent, no spaces, no sign but `-`). */
export function isPlainNumber(text: string): boolean {
  return PLAIN_NUMBER.test(text);
}

/**
 * A value compared with a column. Exact numeric columns get a bare number when the text is a
 * plain decimal: MySQL compares a BIGINT with a string as doubles, which breaks above 2^53.
 * Everything else is a string literal (text `0012` stays text). NULL is `NULL`.
 */
export function sqlValue(value: string | null, exactNumeric: boolean): string {
  if (value === null) return 'NULL';
  if (exactNumeric && isPlainNumber(value)) return value;
  return sqlString(value);
}

export const LIKE_ESCAPE = '!';

/** `LIKE '%text%' ESCAPE '!'`: matches values that contain `text` literally. */
export function likeContains(text: string): string {
  const escaped = text.replace(/[!%_]/g, (c) => `${LIKE_ESCAPE}${c}`);
  return `LIKE ${sqlString(`%${escaped}%`)} ESCAPE '${LIKE_ESCAPE}'`;
}

/** A row count or offset for LIMIT / OFFSET: a non-negative safe integer, or an error. */
export function sqlCount(n: number, what = 'count'): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new SqlInputError(`The ${what} must be a whole number of 0 or more (got ${String(n)}).`);
  return String(n);
}
