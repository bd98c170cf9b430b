// Test helpers for the review SQL: read the literal arguments of a table function back the way
// MySQL (Dolt) reads them, and build QueryResults shaped like the SQL endpoint's.
import type { Cell, QueryResult, QueryStatus } from '../../../../src/shared/wire';

/**
 * The arguments of the first call of `fn` in `sql`, each a single-quoted MySQL literal, decoded
 * with MySQL's rules ('' is a quote; a backslash would be an escape, so none may appear).
 */
export function tableFunctionArgs(sql: string, fn: string): string[] {
  const start = sql.indexOf(`${fn}(`);
  if (start < 0) throw new Error(`${fn}( not in ${sql}`);
  let i = start + fn.length + 1;
  const args: string[] = [];
  for (;;) {
    while (sql[i] === ' ') i++;
    if (sql[i] !== "'") throw new Error(`argument ${args.length + 1} of ${fn} is not a plain literal at ${i}: ${sql}`);
    i++;
    let value = '';
    for (;;) {
      const c = sql[i];
      if (c === undefined) throw new Error(`unterminated literal in ${sql}`);
      if (c === '\\') throw new Error(`a backslash inside a literal means an escape to MySQL: ${sql}`);
      if (c === "'") {
        if (sql[i + 1] === "'") {
          value += "'";
          i += 2;
          continue;
        }
        i++;
        break;
      }
      value += c;
      i++;
    }
    args.push(value);
    while (sql[i] === ' ') i++;
    if (sql[i] === ',') {
      i++;
      continue;
    }
    if (sql[i] === ')') return args;
    throw new Error(`unexpected ${JSON.stringify(sql[i])} after argument ${args.length} of ${fn}: ${sql}`);
  }
}

/** A QueryResult as the SQL endpoint sends it (columns typed as text unless said). */
export function result(columns: string[], rows: Cell[][], status: QueryStatus = 'success', message?: string): QueryResult {
  return { columns: columns.map((name) => ({ name, type: 'text' })), rows, status, ...(message ? { message } : {}) };
}
