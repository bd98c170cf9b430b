// Splits SQL text into statements (for "run the statement under the cursor" and running a
// cell with several statements) without a full parser: semicolons end statements except
// inside quotes, backticks and comments.

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
  let i = 0;
  const n = sql.length;
  const push = (end: number): void => {
    const raw = sql.slice(segStart, end);
    if (stripComments(raw).trim() !== '') {
      const lead = raw.length - raw.trimStart().length;
      const text = raw.trim();
      out.push({ text, start: segStart + lead, end: segStart + lead + text.length });
    }
  };
  while (i < n) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "'" || ch === '"' || ch === '`') {
      i = skipQuoted(sql, i, ch);
    } else if ((ch === '-' && next === '-') || ch === '#') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? n : nl + 1;
    } else if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
    } else if (ch === ';') {
      push(i);
      i++;
      segStart = i;
    } else {
      i++;
    }
  }
  push(n);
  return out;
}

function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === '\\' && quote !== '`') {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}

/** Removes comments (keeping quoted text intact), for telling empty statements apart. */
export function stripComments(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = skipQuoted(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if ((ch === '-' && next === '-') || ch === '#') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl;
    } else if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? sql.length : close + 2;
      out += ' ';
    } else {
      out += ch;
      i++;
    }
  }
  return out;
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
