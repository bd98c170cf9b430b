// SQL text DoltLite writes (SQLite's dialect) as MySQL/Dolt reads it: DOLT_PATCH's statements are
// meant to be run on a Dolt server, where "…" is a string, not an identifier. The text is read
// with SQLite's lexical rules (a backslash in a string is an ordinary character) and only two
// kinds of token change: "double-quoted" identifiers become `backticked` ones, and a backslash
// inside a string literal is doubled so MySQL reads the same value. Everything else, string
// contents included, is kept as it is.
import { identifierValue, tokenize } from '../../core/sql/sqlTokens';

/** The SQL function the rewriter wraps around DoltLite's statement text (pure; see readOnlyGuard.ts). */
export const MYSQL_TEXT_FUNCTION = 'hub_mysql_text';

export function sqliteToMysqlText(sql: string): string {
  let out = '';
  for (const t of tokenize(sql, { noBackslashEscapes: true })) {
    if (t.kind === 'dquoted' && !t.unterminated) out += '`' + identifierValue(t).replace(/`/g, '``') + '`';
    else if (t.kind === 'string') out += t.text.replace(/\\/g, '\\\\');
    else out += t.text;
  }
  return out;
}
