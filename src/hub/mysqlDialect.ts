// The hosted service speaks MySQL; DoltLite speaks SQLite. This turns the MySQL forms people type
// first into something the engine can answer. Backtick identifiers need nothing (SQLite accepts
// them); NOW() and DATABASE() are registered as functions on each connection.

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

export function translateQuery(q: string): TranslatedQuery {
  const split = splitFirstStatement(q);
  if (split.rest.trim() !== '') {
    return { kind: 'invalid', message: 'Only one statement per query is supported; remove the text after the first ";".' };
  }
  const sql = split.first.trim();
  if (sql === '') return { kind: 'invalid', message: 'The query is empty.' };
  const st = SHOW_TABLES.exec(sql);
  if (st) return { kind: 'showTables', full: st[1] !== undefined };
  for (const re of [DESCRIBE, SHOW_COLUMNS]) {
    const m = re.exec(sql);
    if (m) return withAsOf({ kind: 'describe', table: m[1] ?? m[2] ?? m[3] ?? '' }, m[4]);
  }
  const c = SHOW_CREATE.exec(sql);
  if (c) return withAsOf({ kind: 'showCreateTable', table: c[1] ?? c[2] ?? c[3] ?? '' }, c[4]);
  return { kind: 'sql', sql };
}

function withAsOf(q: Extract<TranslatedQuery, { asOf?: string }>, quoted: string | undefined): TranslatedQuery {
  if (quoted === undefined) return q;
  const inner = quoted.slice(1, -1);
  const qc = quoted[0] as string;
  q.asOf = inner
    .replace(/\\(.)/g, '$1')
    .split(qc + qc)
    .join(qc);
  return q;
}

/** Splits at the first `;` outside quotes and comments. */
export function splitFirstStatement(q: string): { first: string; rest: string } {
  let i = 0;
  const n = q.length;
  while (i < n) {
    const ch = q[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      i++;
      while (i < n) {
        if (q[i] === '\\' && ch !== '`') {
          i += 2;
          continue;
        }
        if (q[i] === ch) {
          if (q[i + 1] === ch) {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      i++;
    } else if (ch === '-' && q[i + 1] === '-') {
      while (i < n && q[i] !== '\n') i++;
    } else if (ch === '#') {
      while (i < n && q[i] !== '\n') i++;
    } else if (ch === '/' && q[i + 1] === '*') {
      const end = q.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (ch === ';') {
      // Trailing semicolons (and empty statements) are harmless.
      let rest = q.slice(i + 1);
      while (/^\s*;/.test(rest)) rest = rest.replace(/^\s*;/, '');
      return { first: q.slice(0, i), rest };
    } else {
      i++;
    }
  }
  return { first: q, rest: '' };
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, what MySQL's NOW() prints. */
export function mysqlNow(d: Date = new Date()): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
