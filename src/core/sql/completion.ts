// SQL completion and hover from a database's schema at a ref. The schema comes from
// `SHOW TABLES` and `DESCRIBE <table>` through the SQL endpoint (see parseShowTables /
// parseDescribe); this module only reasons about text, so it is unit-tested without a server.
import type { QueryResult } from '../../shared/wire';
import { statementAt } from './statements';
import * as l10n from '../../shared/l10n';

export interface SchemaColumn {
  name: string;
  type: string;
  primaryKey: boolean;
  nullable: boolean;
}

export interface SchemaTable {
  name: string;
  columns: SchemaColumn[];
}

export interface Schema {
  tables: SchemaTable[];
}

export type CompletionKind = 'table' | 'column' | 'keyword' | 'function';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail: string;
  /** Lower sorts first. */
  rank: number;
}

export const SQL_KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP BY',
  'ORDER BY',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'JOIN',
  'LEFT JOIN',
  'RIGHT JOIN',
  'INNER JOIN',
  'CROSS JOIN',
  'ON',
  'USING',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS NULL',
  'IS NOT NULL',
  'LIKE',
  'BETWEEN',
  'DISTINCT',
  'UNION',
  'UNION ALL',
  'WITH',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'ASC',
  'DESC',
  'EXISTS',
  'SHOW TABLES',
  'DESCRIBE',
  'SHOW CREATE TABLE',
  'AS OF',
];

export const SQL_FUNCTIONS = [
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'COALESCE',
  'IFNULL',
  'NULLIF',
  'CAST',
  'CONCAT',
  'LOWER',
  'UPPER',
  'LENGTH',
  'SUBSTR',
  'TRIM',
  'ROUND',
  'ABS',
  'NOW',
  'DATE',
  'GROUP_CONCAT',
];

/** Table names from a `SHOW TABLES` result (first column of each row). */
export function parseShowTables(result: QueryResult): string[] {
  if (result.status !== 'success') return [];
  return result.rows.map((r) => r[0]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Columns from a `DESCRIBE t` result (Field, Type, Null, Key, ...), found by column name. */
export function parseDescribe(result: QueryResult): SchemaColumn[] {
  if (result.status !== 'success') return [];
  const idx = (name: string): number => result.columns.findIndex((c) => c.name.toLowerCase() === name);
  const f = idx('field');
  const t = idx('type');
  const n = idx('null');
  const k = idx('key');
  if (f < 0) return [];
  return result.rows
    .filter((r) => typeof r[f] === 'string')
    .map((r) => ({
      name: r[f] as string,
      type: t >= 0 ? (r[t] ?? '') : '',
      nullable: n >= 0 ? (r[n] ?? '').toUpperCase() === 'YES' : true,
      primaryKey: k >= 0 ? (r[k] ?? '').toUpperCase() === 'PRI' : false,
    }));
}

const IDENT = '(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*)';
const unquote = (s: string): string => (s.startsWith('`') ? s.slice(1, -1).replace(/``/g, '`') : s);

const NOT_ALIAS = new Set([
  'where',
  'join',
  'left',
  'right',
  'inner',
  'outer',
  'cross',
  'on',
  'using',
  'group',
  'order',
  'limit',
  'having',
  'union',
  'as',
  'natural',
  'full',
  'set',
  'window',
  'offset',
]);

/** Tables referenced after FROM/JOIN/UPDATE/INTO in a statement, with their aliases. */
export function referencedTables(statement: string): { table: string; alias?: string }[] {
  const out: { table: string; alias?: string }[] = [];
  const re = new RegExp(`\\b(?:from|join|update|into)\\s+(${IDENT})(?:\\s+(?:as\\s+)?(${IDENT}))?`, 'gi');
  for (let m = re.exec(statement); m; m = re.exec(statement)) {
    const table = unquote(m[1] as string);
    const aliasRaw = m[2];
    const alias = aliasRaw && !NOT_ALIAS.has(aliasRaw.toLowerCase()) ? unquote(aliasRaw) : undefined;
    out.push(alias ? { table, alias } : { table });
    // Comma-separated FROM lists: `FROM a x, b y`.
    const restRe = new RegExp(`^\\s*,\\s*(${IDENT})(?:\\s+(?:as\\s+)?(${IDENT}))?`, 'i');
    let rest = statement.slice(re.lastIndex);
    for (let r = restRe.exec(rest); r; r = restRe.exec(rest)) {
      const t2 = unquote(r[1] as string);
      const a2 = r[2] && !NOT_ALIAS.has(r[2].toLowerCase()) ? unquote(r[2]) : undefined;
      out.push(a2 ? { table: t2, alias: a2 } : { table: t2 });
      rest = rest.slice(r[0].length);
    }
  }
  return out;
}

function findTable(schema: Schema, name: string): SchemaTable | undefined {
  const lower = name.toLowerCase();
  return schema.tables.find((t) => t.name.toLowerCase() === lower);
}

function columnDetail(t: SchemaTable, c: SchemaColumn): string {
  return `${c.type}${c.primaryKey ? ', primary key' : ''}${c.nullable ? '' : ', not null'} — ${t.name}`;
}

export interface CompletionContext {
  /** The partial word being typed (replaced by the completion). */
  prefix: string;
  items: CompletionEntry[];
}

/** What to offer at `offset` in `text` (a cell or an editor's whole text). */
export function completionsAt(text: string, offset: number, schema: Schema): CompletionContext {
  const stmt = statementAt(text, offset);
  const stmtStart = stmt && offset >= stmt.start ? stmt.start : Math.max(0, text.lastIndexOf(';', offset - 1) + 1);
  const before = text.slice(stmtStart, offset);
  const stmtText = text.slice(stmtStart, Math.max(offset, stmt?.end ?? offset));
  const prefix = /[A-Za-z0-9_$]*$/.exec(before)?.[0] ?? '';
  const beforeWord = before.slice(0, before.length - prefix.length);
  const items: CompletionEntry[] = [];

  // `alias.` or `table.` → that table's columns only.
  const qual = new RegExp(`(${IDENT})\\.$`).exec(beforeWord);
  if (qual) {
    const q = unquote(qual[1] as string);
    const refs = referencedTables(stmtText);
    const ref = refs.find((r) => r.alias?.toLowerCase() === q.toLowerCase()) ?? refs.find((r) => r.table.toLowerCase() === q.toLowerCase());
    const table = findTable(schema, ref?.table ?? q);
    if (table) {
      for (const c of table.columns) items.push({ label: c.name, kind: 'column', detail: columnDetail(table, c), rank: 0 });
    }
    return { prefix, items };
  }

  const lastWord = /([A-Za-z]+)\s*$/.exec(beforeWord)?.[1]?.toLowerCase();
  const wantsTable = !!lastWord && ['from', 'join', 'into', 'update', 'table', 'describe', 'desc'].includes(lastWord);
  const afterComma = /,\s*$/.test(beforeWord);
  const inFromList =
    afterComma &&
    /\bfrom\s+[^;]*$/i.test(beforeWord) &&
    !/\b(where|group|order|having|limit|on)\b[^;]*$/i.test(beforeWord.replace(/^[\s\S]*\bfrom\b/i, ''));

  if (wantsTable || inFromList) {
    for (const t of schema.tables)
      items.push({ label: t.name, kind: 'table', detail: l10n.t('table, {0} columns', t.columns.length), rank: 0 });
    return { prefix, items };
  }

  const refs = referencedTables(stmtText);
  const inScope = refs.map((r) => findTable(schema, r.table)).filter((t): t is SchemaTable => !!t);
  const columnTables = inScope.length ? inScope : schema.tables;
  const seen = new Set<string>();
  for (const t of columnTables) {
    for (const c of t.columns) {
      const key = `${t.name}.${c.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ label: c.name, kind: 'column', detail: columnDetail(t, c), rank: inScope.length ? 0 : 2 });
    }
  }
  for (const t of schema.tables)
    items.push({ label: t.name, kind: 'table', detail: l10n.t('table, {0} columns', t.columns.length), rank: 1 });
  for (const f of SQL_FUNCTIONS) items.push({ label: f, kind: 'function', detail: l10n.t('function'), rank: 3 });
  for (const k of SQL_KEYWORDS) items.push({ label: k, kind: 'keyword', detail: l10n.t('keyword'), rank: 4 });
  return { prefix, items };
}

export interface HoverInfo {
  /** The identifier range in the text. */
  start: number;
  end: number;
  /** Plain-text lines (the adapter renders them as markdown code). */
  lines: string[];
}

/** Describes the table or column under `offset`, if the schema knows it. */
export function hoverAt(text: string, offset: number, schema: Schema): HoverInfo | undefined {
  const isWord = (ch: string | undefined): boolean => !!ch && /[A-Za-z0-9_$]/.test(ch);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  if (start === end) return undefined;
  const word = text.slice(start, end);
  let qualifier: string | undefined;
  const qm = new RegExp(`(${IDENT})\\.$`).exec(text.slice(Math.max(0, start - 200), start));
  if (qm) qualifier = unquote(qm[1] as string);
  const stmt = statementAt(text, offset);
  const refs = stmt ? referencedTables(stmt.text) : [];

  if (!qualifier) {
    const table = findTable(schema, word);
    if (table) {
      return {
        start,
        end,
        lines: [
          `table ${table.name} (${table.columns.length} columns)`,
          ...table.columns.map((c) => `  ${c.name} ${c.type}${c.primaryKey ? ' PRIMARY KEY' : ''}${c.nullable ? '' : ' NOT NULL'}`),
        ],
      };
    }
  }
  let candidates: SchemaTable[];
  if (qualifier) {
    const ref = refs.find((r) => r.alias?.toLowerCase() === qualifier!.toLowerCase());
    const t = findTable(schema, ref?.table ?? qualifier);
    candidates = t ? [t] : [];
  } else {
    const inScope = refs.map((r) => findTable(schema, r.table)).filter((t): t is SchemaTable => !!t);
    candidates = inScope.length ? inScope : schema.tables;
  }
  for (const t of candidates) {
    const c = t.columns.find((x) => x.name.toLowerCase() === word.toLowerCase());
    if (c) {
      return {
        start,
        end,
        lines: [`${t.name}.${c.name}: ${c.type}`, `${c.primaryKey ? 'primary key' : 'not a key'}, ${c.nullable ? 'nullable' : 'not null'}`],
      };
    }
  }
  return undefined;
}
