// Splits SQL text into statements (for "run the statement under the cursor" and running a
// cell with several statements) without a full parser: semicolons end statements except
// inside quotes, backticks and comments, as the one tokenizer (sqlTokens.ts) reads them with
// MySQL's rules (MYSQL_SCAN): the hub finds the end of the statement it runs the same way.
import { MYSQL_SCAN, tokenize } from './sqlTokens';

export interface StatementSpan {
  /** The statement text without the trailing semicolon, trimmed. */
  text: string;
  /** Offsets in the original text: [start, end) of the trimmed statement. */
  start: number;
  end: number;
}

/** Splits on top-level semicolons. Empty statements (and comment-only ones) are dropped. */
export function splitStatements(sql: string): StatementSpan[] {
  const out: StatementSpan[] = [];
  let segStart = 0;
  let meaningful = false;
  const push = (end: number): void => {
    if (!meaningful) return;
    const raw = sql.slice(segStart, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    out.push({ text, start: segStart + lead, end: segStart + lead + text.length });
  };
  for (const t of tokenize(sql, MYSQL_SCAN)) {
    if (t.kind === 'punct' && t.text === ';') {
      push(t.start);
      segStart = t.end;
      meaningful = false;
    } else if (t.kind !== 'space' && t.kind !== 'comment') {
      meaningful = true;
    }
  }
  push(sql.length);
  return out;
}

/** Removes comments (keeping quoted text intact; a block comment leaves a space), for telling empty statements apart. */
export function stripComments(sql: string): string {
  return tokenize(sql, MYSQL_SCAN)
    .map((t) => (t.kind !== 'comment' ? t.text : t.text.startsWith('/*') ? ' ' : ''))
    .join('');
}

/**
 * The statement containing `offset`; a cursor just after a statement's semicolon or on the
 * blank lines after it still means that statement (the last one before the cursor).
 */
export function statementAt(sql: string, offset: number): StatementSpan | undefined {
  const all = splitStatements(sql);
  if (all.length === 0) return undefined;
  let best: StatementSpan | undefined;
  for (const s of all) {
    if (offset >= s.start && offset <= s.end) return s;
    if (s.end <= offset) best = s;
  }
  return best ?? all[0];
}
